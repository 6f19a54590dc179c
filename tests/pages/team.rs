//! The team area's editor and controls in the whole app against a scripted `fetch`: the
//! grid and raw JSON keep what the editor does not recognise, constraints are checked
//! before anything is sent, the changes are listed before saving, N19's three methods,
//! invitations with and without N17a, and keeping a second key. The rules themselves are
//! unit tests next to their code (`crates/logic/src/pages/team/`).

use crate::support::*;
use gpudeck::app::App;
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const KEY: &str = "owner-key-for-team-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;
const ROLES: &str = r#"[
    {"id": 2, "name": "manager", "permissions": {"api": {"team_read": {}, "team_write": {}}}, "identifier": "team_manager"},
    {"id": 3, "name": "member", "permissions": {"api": {"instance_read": {}}}, "identifier": "team_member"},
    {"id": 9, "name": "odd", "permissions": {
        "api": {"instance_read": {"constraints": "odd"}, "quantum_write": {"x": 1}},
        "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}},
        "ui": {"dark": true}
    }, "identifier": null}
]"#;
const MEMBERS: &str = r#"[
    {"id": 1, "username": "alice", "email": "alice@example.test", "fullname": "Alice Example", "roles": ["owner"]},
    {"id": 3, "username": "carol", "email": "carol@example.test", "fullname": null, "roles": ["member"]},
    {"id": 6, "username": "frank", "email": "frank@example.test", "fullname": null, "roles": ["member", "manager"]}
]"#;

fn calls_to(fetch: &FakeFetch, method: &str, part: &str) -> Vec<Call> {
    fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == method && c.url.contains(part))
        .collect()
}

fn checked(page: &Mounted, selector: &str) -> bool {
    page.get(selector)
        .unchecked_into::<web_sys::HtmlInputElement>()
        .checked()
}

fn textarea_json(page: &Mounted) -> Value {
    let text = page
        .get("#role-json")
        .unchecked_into::<web_sys::HtmlTextAreaElement>()
        .value();
    serde_json::from_str(&text).unwrap()
}

fn type_into_textarea(page: &Mounted, text: &str) {
    let area: web_sys::HtmlTextAreaElement = page.get("#role-json").unchecked_into();
    area.set_value(text);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    area.dispatch_event(&web_sys::Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
}

fn choose(page: &Mounted, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = page.get(selector).unchecked_into();
    select.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    select
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
}

async fn confirm(page: &Mounted) {
    page.wait_for("dialog[open]").await;
    page.click("dialog[open] .confirm-actions button:last-child");
    settle().await;
}

#[wasm_bindgen_test]
async fn the_grid_and_raw_json_keep_what_the_editor_does_not_recognise() {
    signed_in_as(KEY, USER, "/team/roles/odd/edit");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/roles-full", json(200, ROLES)),
        (
            "team/roles/9/",
            json(
                200,
                r#"{"success": true, "msg": "Successfully Updated Team Role For odd"}"#,
            ),
        ),
        (
            "team/roles/odd",
            json(200, r#"{"id": 9, "name": "odd", "permissions": {}}"#),
        ),
    ]);
    let page = mount(App);
    page.wait_for("#group-instance_read").await;
    assert!(checked(&page, "#group-instance_read"));
    assert!(!checked(&page, "#group-team_read"));
    assert_eq!(
        page.text("label[for=group-team_read]"),
        "Read (team_read: see the team's roles and members)"
    );
    let group = page.text(".group-choice:has(#group-instance_read)");
    assert!(
        group.contains(r#"Kept as it is: {"constraints":"odd"}"#),
        "{group}"
    );
    let kept = page.text(".unrecognised-permissions");
    assert!(
        kept.contains("api.quantum_write") && kept.contains("ui"),
        "{kept}"
    );

    // Grid → JSON: the change and every unknown part are there.
    page.click("#group-team_read");
    page.click(".mode-switch button:last-child");
    page.wait_for("#role-json").await;
    let expected = json!({
        "api": {"instance_read": {"constraints": "odd"}, "quantum_write": {"x": 1}, "team_read": {}},
        "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}},
        "ui": {"dark": true}
    });
    assert_eq!(textarea_json(&page), expected);

    // Invalid JSON is named and keeps the JSON mode.
    type_into_textarea(&page, "{\"api\": ");
    settle().await;
    assert!(page.text("#role-json-error").contains("not valid JSON"));
    page.click(".mode-switch button:first-child");
    settle().await;
    assert!(
        page.find("#role-json").is_some(),
        "invalid JSON never reaches the grid"
    );

    // JSON → grid: a group added in JSON is ticked, unknown parts still kept.
    let mut edited = expected.clone();
    edited["api"]["misc"] = json!({});
    type_into_textarea(&page, &edited.to_string());
    page.click(".mode-switch button:first-child");
    page.wait_for("#group-misc").await;
    assert!(checked(&page, "#group-misc") && checked(&page, "#group-team_read"));
    assert!(page
        .text(".unrecognised-permissions")
        .contains("\"dark\": true"));

    // The changes are listed before saving; only the permissions are sent.
    page.click("form.role-form button[type=submit]");
    settle().await;
    let diff = page.text("[data-testid=role-diff]");
    assert!(
        diff.contains("Adds misc") && diff.contains("Adds team_read"),
        "{diff}"
    );
    assert!(!diff.contains("Renamed"), "{diff}");
    confirm(&page).await;
    assert!(
        wait_until(3000, || !calls_to(&fetch, "PUT", "team/roles/9/")
            .is_empty())
        .await
    );
    let body: Value =
        serde_json::from_str(&calls_to(&fetch, "PUT", "team/roles/9/")[0].body).unwrap();
    assert_eq!(body, json!({"permissions": edited}));
    assert!(
        wait_until(3000, || current_path() == "/team/roles/odd").await,
        "{}",
        current_path()
    );
}

#[wasm_bindgen_test]
async fn constraints_and_names_are_checked_before_anything_is_sent() {
    signed_in_as(KEY, USER, "/team/new-role");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/roles-full", json(200, ROLES)),
        (
            "team/roles/auditor",
            json(200, r#"{"id": 10, "name": "auditor", "permissions": {}}"#),
        ),
        ("team/roles/", json(200, r#"{"msg": "success"}"#)),
    ]);
    let page = mount(App);
    page.wait_for("#group-misc").await;
    assert_eq!(page.all(".group-grid input[type=checkbox]").len(), 11);
    assert_eq!(page.all(".group-grid fieldset legend").len(), 6);

    page.type_into("#role-name-input", "manager");
    page.click(".route-editor > button");
    settle().await;
    page.type_into(".route-entry-editor input[id$='-name']", "instance.logs");
    page.click(".route-entry-editor .form-actions button:first-child");
    settle().await;
    choose(&page, ".constraint-row select", "lte");
    page.type_into(".constraint-row input[id$='-value']", "big");
    page.click("form.role-form button[type=submit]");
    settle().await;
    let problems = page.text("[data-testid=editor-problems]");
    assert!(
        problems.contains("already has a role named manager"),
        "{problems}"
    );
    assert!(problems.contains("starts with \"api.\""), "{problems}");
    assert!(problems.contains("id ≤ needs a number."), "{problems}");
    assert_eq!(
        page.text(".constraint-row .form-error"),
        "id ≤ needs a number."
    );
    // The row's one error line describes each of its controls and marks them invalid.
    let error_id = page.get(".constraint-row .form-error").id();
    for control in page.all(".constraint-row input, .constraint-row select") {
        assert_eq!(
            control.get_attribute("aria-describedby"),
            Some(error_id.clone())
        );
        assert_eq!(
            control.get_attribute("aria-invalid").as_deref(),
            Some("true")
        );
    }
    assert_eq!(
        page.all(".constraint-row input, .constraint-row select")
            .len(),
        3
    );
    assert!(page.find("dialog[open]").is_none());
    assert!(calls_to(&fetch, "POST", "team/roles").is_empty());

    page.type_into("#role-name-input", "auditor");
    page.type_into(
        ".route-entry-editor input[id$='-name']",
        "api.instance.request_logs",
    );
    page.type_into(".constraint-row input[id$='-value']", "5");
    page.click("form.role-form button[type=submit]");
    settle().await;
    assert_eq!(page.text("[data-testid=editor-problems]"), "");
    let diff = page.text("[data-testid=role-diff]");
    assert!(diff.contains("Creates the role auditor"), "{diff}");
    assert!(
        diff.contains("Adds the route api.instance.request_logs"),
        "{diff}"
    );
    confirm(&page).await;
    assert!(wait_until(3000, || !calls_to(&fetch, "POST", "team/roles/").is_empty()).await);
    let body: Value =
        serde_json::from_str(&calls_to(&fetch, "POST", "team/roles/")[0].body).unwrap();
    assert_eq!(
        body,
        json!({"name": "auditor", "permissions": {"api.instance.request_logs": {"constraints": {"id": {"lte": 5}}}}})
    );
}

fn input_value(page: &Mounted, selector: &str) -> String {
    page.get(selector)
        .unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

#[wasm_bindgen_test]
async fn removing_a_route_entry_leaves_the_next_one_as_typed() {
    signed_in_as(KEY, USER, "/team/new-role");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/roles-full", json(200, ROLES)),
    ]);
    let page = mount(App);
    page.wait_for("#group-misc").await;
    page.click(".route-editor > button");
    page.click(".route-editor > button");
    settle().await;
    page.type_into("#route-0-name", "api.a.b");
    page.type_into("#route-1-name", "api.c.d");
    page.click(".route-entry-editor:nth-of-type(2) .form-actions button:first-child");
    settle().await;
    page.type_into("#constraint-1-0-value", "7");
    settle().await;
    // Each remove button says what it removes.
    assert_eq!(
        page.text(".route-entry-editor .form-actions button.danger"),
        "Remove route entry api.a.b"
    );
    assert_eq!(
        page.text(".constraint-row button"),
        "Remove this constraint"
    );

    page.click(".route-entry-editor .form-actions button.danger");
    settle().await;
    assert_eq!(page.all(".route-entry-editor").len(), 1);
    assert_eq!(input_value(&page, "#route-0-name"), "api.c.d");
    assert_eq!(input_value(&page, "#constraint-0-0-value"), "7");
    assert_eq!(
        page.text(".route-entry-editor legend"),
        "Route entry api.c.d"
    );
    page.click(".route-entry-editor .form-actions button:first-child");
    settle().await;
    assert_eq!(page.all(".constraint-row").len(), 2);
    page.click(".constraint-row:has(#constraint-0-1-value) button");
    settle().await;
    assert_eq!(page.all(".constraint-row").len(), 1);
    assert_eq!(input_value(&page, "#constraint-0-0-value"), "7");

    page.click(".mode-switch button:last-child");
    page.wait_for("#role-json").await;
    assert_eq!(
        textarea_json(&page),
        json!({"api.c.d": {"constraints": {"id": {"eq": 7}}}})
    );
}

#[wasm_bindgen_test]
async fn an_unchanged_role_has_nothing_to_save() {
    signed_in_as(KEY, USER, "/team/roles/member/edit");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/roles-full", json(200, ROLES)),
    ]);
    let page = mount(App);
    page.wait_for("#group-misc").await;
    page.click("form.role-form button[type=submit]");
    settle().await;
    assert!(page.text(".role-form").contains("Nothing changed"));
    assert!(page.find("dialog[open]").is_none());
    assert_eq!(
        fetch.calls().iter().filter(|c| c.method != "GET").count(),
        0
    );
}

#[wasm_bindgen_test]
async fn role_chips_use_n19s_three_methods_and_spare_the_owner() {
    signed_in_as(KEY, USER, "/team/members");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        ("team/invites", json(200, "[]")),
        ("members/6/roles", json(200, r#"{"msg": "success"}"#)),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        (
            "members/3/roles",
            json(
                200,
                r#"{"success": true, "msg": "User role updated successfully", "new_role_permissions": {}}"#,
            ),
        ),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        (
            "members/3/",
            json(
                200,
                r#"{"status": "failure", "message": "No user was removed from the team."}"#,
            ),
        ),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 3).await;
    // The owner (holding a role N13 does not list) has no controls; neither does "you".
    let owner_row = page.all("tbody tr:not(.spacer)")[0]
        .text_content()
        .unwrap_or_default();
    assert!(owner_row.contains("Owner"), "{owner_row}");
    assert!(page.find("#member-1-role").is_none());
    // A single role can be replaced but not taken; several can be taken one by one.
    assert!(page
        .find("button[aria-label='Take the role member away from carol']")
        .is_none());
    assert!(page.find("#member-6-role").is_none());

    page.click("button[aria-label='Take the role member away from frank']");
    settle().await;
    assert!(page
        .text("dialog[open]")
        .contains("Take the role member away from frank."));
    confirm(&page).await;
    assert!(
        wait_until(3000, || !calls_to(&fetch, "DELETE", "members/6/roles/")
            .is_empty())
        .await
    );
    assert_eq!(
        calls_to(&fetch, "DELETE", "members/6/roles/")[0].body,
        r#"{"role":"member"}"#
    );

    page.wait_for("#member-3-role").await;
    choose(&page, "#member-3-role", "manager");
    settle().await;
    page.click("#member-3-role + button");
    confirm(&page).await;
    assert!(
        wait_until(3000, || !calls_to(&fetch, "PUT", "members/3/roles/")
            .is_empty())
        .await
    );
    let body: Value =
        serde_json::from_str(&calls_to(&fetch, "PUT", "members/3/roles/")[0].body).unwrap();
    assert_eq!(body, json!({"member_id": 3, "role_id": 2}));

    // A 2xx "failure" is a refusal, shown as one (once the list has loaded again).
    assert!(wait_until(3000, || calls_to(&fetch, "GET", "team/members").len() == 3).await);
    settle().await;
    page.click("button[aria-label='Remove carol from the team']");
    confirm(&page).await;
    page.wait_for_text_containing("[data-testid=member-refusal]", "No user was removed")
        .await;
}

#[wasm_bindgen_test]
async fn without_n17a_the_invitations_listed_are_this_tabs() {
    signed_in_as(KEY, USER, "/team/members");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        (
            "team/invites",
            json(404, r#"{"error": "not_found", "msg": "Not Found"}"#),
        ),
        (
            "team/invite/",
            json(
                200,
                r#"{"success": true, "msg": "New invitation sent to erik+1@example.org"}"#,
            ),
        ),
        (
            "team/invites",
            json(404, r#"{"error": "not_found", "msg": "Not Found"}"#),
        ),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=this-tab-only]").await;
    let offered: Vec<String> = page
        .all("#invite-role option")
        .iter()
        .map(|o| o.get_attribute("value").unwrap_or_default())
        .collect();
    assert_eq!(offered, ["", "manager", "member", "odd"]);

    page.type_into("#invite-email", "erik@example");
    page.click("form.invite-form button[type=submit]");
    settle().await;
    assert!(page
        .text("#invite-email-error")
        .contains("not an e-mail address"));
    assert!(page.text("#invite-role-error").contains("Choose the role"));

    page.type_into("#invite-email", "erik+1@example.org");
    choose(&page, "#invite-role", "member");
    settle().await;
    page.click("form.invite-form button[type=submit]");
    confirm(&page).await;
    page.wait_for_text_containing("[data-testid=invitations]", "erik+1@example.org")
        .await;
    let sent = &calls_to(&fetch, "POST", "team/invite/")[0];
    assert!(
        sent.url
            .ends_with("/api/v0/team/invite/?email=erik%2B1%40example.org&role=member"),
        "{}",
        sent.url
    );
    assert_eq!(sent.body, "{}");
    assert!(page
        .text("[data-testid=this-tab-only]")
        .contains("sent from this tab"));
}

#[wasm_bindgen_test]
async fn a_second_key_is_kept_only_after_users_current_accepts_it() {
    signed_in_as(KEY, USER, "/acting-account");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        (
            "users/current",
            json(401, r#"{"error": "auth_error", "msg": "Invalid user key"}"#),
        ),
        (
            "users/current",
            json(
                200,
                r#"{"id": 4, "email": "dave@example.test", "username": "dave", "balance": 0}"#,
            ),
        ),
    ]);
    let page = mount(App);
    page.wait_for("#extra-api-key").await;
    assert!(page.text("[data-testid=identity]").contains("Acting as"));
    // The header's own check of the acting key (the header also asks which server answers).
    assert!(wait_until(2000, || calls_to(&fetch, "GET", "users/current").len() == 1).await);

    page.type_into("#extra-api-key", "wrong-key-0000");
    page.click("form.add-key button[type=submit]");
    page.wait_for_text_containing("#extra-api-key-error", "not kept")
        .await;
    // Still signed in: a refused extra key says nothing about the acting one.
    assert!(page.find("[data-testid=identity]").is_some());

    page.type_into("#extra-api-key", "dave-team-key-0000");
    page.click("form.add-key button[type=submit]");
    page.wait_for("[data-testid=kept-keys]").await;
    assert!(page
        .text("[data-testid=kept-keys]")
        .contains("Act as dave (dave@example.test)"));
    assert!(
        !page.text("main").contains("dave-team-key-0000"),
        "kept keys are masked"
    );
    assert_eq!(
        calls_to(&fetch, "GET", "users/current")[2].authorization,
        "Bearer dave-team-key-0000"
    );
    let stored = session_storage()
        .get_item("gpudeck.session")
        .unwrap()
        .unwrap();
    assert!(stored.contains("dave-team-key-0000"));
    for i in 0..local_storage().length().unwrap() {
        let key = local_storage().key(i).unwrap().unwrap();
        assert!(!local_storage()
            .get_item(&key)
            .unwrap()
            .unwrap_or_default()
            .contains("dave-team-key"));
    }
    assert!(!current_path().contains("key"));
    assert!(page.text(".switch-link").contains("Switch account (2)"));
}

#[wasm_bindgen_test]
async fn a_team_page_the_acting_key_cannot_use_says_so_and_offers_the_other_keys() {
    session_storage().clear().unwrap();
    session_storage()
        .set_item(
            "gpudeck.session",
            &format!(
                r#"{{"api_key": "carol-team-key", "base_url": "{}", "user": {{"id": 3, "email": "carol@example.test", "username": "carol", "balance": 0}},
                    "others": [{{"api_key": "{KEY}", "user": {USER}}}]}}"#,
                gpudeck::session::own_origin()
            ),
        )
        .unwrap();
    go_to("/team/roles");
    let _fetch = FakeFetch::install_by_url(vec![
        (
            "users/current",
            json(
                200,
                r#"{"id": 3, "email": "carol@example.test", "username": "carol", "balance": 0}"#,
            ),
        ),
        (
            "team/roles-full",
            json(
                403,
                r#"{"error": "forbidden", "msg": "this key's team role lacks the permission team_read"}"#,
            ),
        ),
        (
            "team/members",
            json(
                403,
                r#"{"error": "forbidden", "msg": "this key's team role lacks the permission team_read"}"#,
            ),
        ),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=team-out-of-reach]").await;
    let said = page.text("[data-testid=team-out-of-reach]");
    assert!(
        said.contains("Acting as carol (carol@example.test)"),
        "{said}"
    );
    assert!(said.contains("lacks the permission team_read"), "{said}");
    assert_eq!(
        page.text("[data-testid=team-out-of-reach] button.switch-account"),
        "Act as alice (alice@example.test)"
    );
}

#[wasm_bindgen_test]
async fn signing_out_of_the_members_page_leaves_nothing_of_it_running() {
    signed_in_as(KEY, USER, "/team/members");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        ("team/invites", json(200, "[]")),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 3).await;
    record_page_errors();
    page.click("header button.sign-out");
    page.wait_for("#api-key").await;
    settle().await;
    assert!(page.text(".notice").contains("You signed out"));
    // Before, the member table was built again for the session that had just ended, in
    // a page being disposed: a panic.
    assert_eq!(page_errors(), Vec::<String>::new());
}

#[wasm_bindgen_test]
async fn a_members_page_the_acting_key_cannot_read_says_so_once_and_offers_no_form() {
    let refused =
        r#"{"error": "forbidden", "msg": "this key's team role lacks the permission team_read"}"#;
    signed_in_as(KEY, USER, "/team/members");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/members", json(403, refused)),
        ("team/roles-full", json(403, refused)),
        ("team/invites", json(403, refused)),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=team-out-of-reach]").await;
    settle().await;
    assert_eq!(page.all("[data-testid=team-out-of-reach]").len(), 1);
    assert!(page
        .text("[data-testid=team-out-of-reach]")
        .contains("lacks the permission team_read"));
    assert!(
        page.find(".error-panel").is_none(),
        "no raw refusal with a Try again"
    );
    assert!(page.find(".invite-form").is_none(), "no invitation form");
    assert!(page.find(".pending-invitations").is_none());
}
