//! The accounts and team area: role addresses (encoded by the browser), then each page
//! mounted in the whole app against a scripted `fetch`. The pure functions (key masking,
//! money, id checks, the permission grid, role counts) are unit tests in `crates/logic`
//! (`cargo test -p gpudeck-logic`); the CSV key rule is in `tests/parts/table_model.rs`.

use crate::support::*;
use gpudeck::app::App;
use gpudeck::routes::role_path;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const KEY: &str = "owner-key-for-accounts-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;
const FULL_KEY: &str = "0123456789abcdef0123456789abcdef";
const SUBACCOUNTS: &str = r#"{"users": [
    {"id": 11, "email": "render-farm@alice.example", "api_key": "0123456789abcdef0123456789abcdef", "balance": 25.5},
    {"id": 13, "email": "big@alice.example", "api_key": "fedcba9876543210fedcba9876543210", "balance": 1200.75},
    {"id": 14, "email": "<b>sub</b>@alice.example", "api_key": "99998888777766665555444433332222", "balance": -5}
], "msg": "3 subaccounts"}"#;
const MEMBER_ROLE: &str = r#"{"id": 3, "name": "member", "permissions": {
    "api": {"instance_read": {}, "instance_write": {}},
    "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}}
}}"#;
const ODD_ROLE: &str = r#"{"id": 9, "name": "odd", "permissions": {
    "api": {"instance_read": {"constraints": "odd"}, "quantum_write": {}, "machine_read": {"constraints": {"id": {"gte": 1000}}}},
    "api.x.y": {"constraints": {"size": {"lte": 5}}},
    "ui": {"dark": true}
}}"#;
const MEMBERS: &str = r#"[
    {"id": 1, "username": "alice", "email": "alice@example.test", "fullname": "Alice Example", "roles": ["owner"]},
    {"id": 3, "username": "carol", "email": "carol@example.test", "fullname": "Zoë Ångström", "roles": ["member"]},
    {"id": 4, "username": "dave", "email": "dave@example.test", "fullname": null, "roles": ["manager"]},
    {"id": 6, "username": "frank", "email": "frank@example.test", "fullname": "Frank <img src=x onerror=alert(1)>", "roles": ["member", "manager"]}
]"#;

const LIBRARY: &str = r#"{"success": true, "templates": [
    {"id": 501, "hash_id": "a", "creator_id": 1, "count_created": 42, "name": "pytorch-base", "image": "pytorch/pytorch",
     "tag": "2.3.1", "private": false, "created_at": 1700000000, "recent_create_date": 1763000000, "user_template_id": 501},
    {"id": 504, "hash_id": "b", "creator_id": 1, "count_created": 0, "name": "<img src=x onerror=alert(1)> notebook",
     "image": "nvidia/cuda", "tag": "12.4", "private": true, "created_at": 1760000000, "recent_create_date": null}
]}"#;
const OFFERS: &str = r#"{"offers": [
    {"id": 8, "machine_id": 1004, "host_id": 1, "disk_space": 500, "storage_cost": 0.4, "storage_total_cost": 0.0055,
     "duration": 7776000, "start_date": 1, "end_date": 2, "reliability": 0.98, "cuda_max_good": 12.4, "inet_up": 1000,
     "inet_down": 1000, "disk_bw": 3500, "disk_name": "WD Black SN850X", "driver_version": "550", "verification": "verified",
     "geolocation": "Sweden, SE"}
]}"#;
const MY_VOLUMES: &str = r#"{"volumes": [
    {"id": 20118484, "label": null, "status": "active", "start_date": 1763000000, "disk_space": 20, "machine_id": 1004,
     "host_id": 1, "instances": [], "disk_name": "WD Black SN850X", "driver_version": "550", "verification": "verified",
     "inet_up": 1000, "inet_down": 1000, "reliability2": 0.98, "geolocation": "Sweden, SE", "storage_total_cost": 0.0111}
]}"#;

/// N13's answer for the team of `MEMBERS`: never the owner role.
const ROLES: &str = r#"[
    {"id": 2, "name": "manager", "permissions": {"api": {"team_read": {}, "team_write": {}}}, "identifier": "team_manager"},
    {"id": 3, "name": "member", "permissions": {"api": {"instance_read": {}}}, "identifier": "team_member"}
]"#;

// ---- Role addresses ----

#[wasm_bindgen_test]
fn roles_are_linked_by_encoded_name() {
    assert_eq!(role_path("owner"), "/team/roles/owner");
    assert_eq!(
        role_path("<b>auditor</b>"),
        "/team/roles/%3Cb%3Eauditor%3C%2Fb%3E"
    );
    assert_eq!(
        role_path("Wartung – Nacht 🌙"),
        "/team/roles/Wartung%20%E2%80%93%20Nacht%20%F0%9F%8C%99"
    );
}

// ---- Pages in the whole app ----

/// A stored session for user 1, and the address to start at.
fn signed_in_at(path: &str) {
    signed_in_as(KEY, USER, path);
}

fn body_rows(page: &Mounted) -> Vec<web_sys::Element> {
    page.all(BODY_ROWS)
}

#[wasm_bindgen_test]
async fn subaccounts_show_dollars_and_masked_keys_that_can_be_revealed_and_copied() {
    signed_in_at("/subaccounts");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("subaccounts", json(200, SUBACCOUNTS)),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 3).await;
    assert_eq!(page.text(".server-message"), "3 subaccounts");
    assert!(fetch.calls_to("/api/v0/subaccounts?owner=me").len() == 1);

    let rows = body_rows(&page);
    let cells = |row: &web_sys::Element| -> Vec<String> {
        let list = row.query_selector_all("td").unwrap();
        (0..list.length())
            .map(|i| list.item(i).unwrap().text_content().unwrap_or_default())
            .collect()
    };
    // Columns: id, username, email, type, balance, API key.
    let first = cells(&rows[0]);
    assert_eq!(first[0], "11");
    assert_eq!(first[4], "$25.50");
    assert_eq!(cells(&rows[1])[4], "$1,200.75");
    assert_eq!(cells(&rows[2])[4], "-$5.00");
    // Markup from the server is text.
    assert_eq!(cells(&rows[2])[2], "<b>sub</b>@alice.example");
    assert!(page.find("tbody b").is_none());

    // Masked by default; the whole key is nowhere in the page.
    let key_texts = page.all("tbody .key-text");
    assert_eq!(key_texts[0].text_content().unwrap(), "0123••••••••cdef");
    assert!(!page.root.inner_html().contains(FULL_KEY));

    // Reveal one row; the others stay masked; hide again.
    let reveal = page.all("tbody button.reveal");
    assert_eq!(
        reveal[0].text_content().unwrap(),
        "Show the API key of subaccount 11"
    );
    reveal[0].unchecked_ref::<web_sys::HtmlElement>().click();
    settle().await;
    let key_texts = page.all("tbody .key-text");
    assert_eq!(key_texts[0].text_content().unwrap(), FULL_KEY);
    assert_eq!(key_texts[1].text_content().unwrap(), "fedc••••••••3210");
    // Revealing is not remembered anywhere outside the page.
    let session_dump = (0..session_storage().length().unwrap())
        .filter_map(|i| session_storage().key(i).unwrap())
        .map(|k| session_storage().get_item(&k).unwrap().unwrap_or_default())
        .collect::<String>();
    assert!(!session_dump.contains(FULL_KEY));
    assert!(!current_path().contains(FULL_KEY));
    for i in 0..local_storage().length().unwrap() {
        let name = local_storage().key(i).unwrap().unwrap();
        assert!(!local_storage()
            .get_item(&name)
            .unwrap()
            .unwrap_or_default()
            .contains(FULL_KEY));
    }
    page.all("tbody button.reveal")[0]
        .unchecked_ref::<web_sys::HtmlElement>()
        .click();
    settle().await;
    assert_eq!(
        page.all("tbody .key-text")[0].text_content().unwrap(),
        "0123••••••••cdef"
    );

    // Copy: the clipboard, or (headless, no permission) the whole key selected in a field.
    let copy = page.all("tbody .copy button");
    assert_eq!(
        copy[0].get_attribute("aria-label").as_deref(),
        Some("Copy the API key of subaccount 11")
    );
    copy[0].unchecked_ref::<web_sys::HtmlElement>().click();
    assert!(
        wait_until(3000, || !page.all("tbody .copy-status")[0]
            .text_content()
            .unwrap_or_default()
            .is_empty())
        .await
    );
    let status = page.all("tbody .copy-status")[0].text_content().unwrap();
    match status.as_str() {
        "Copied" => {}
        "Press Ctrl+C to copy" => {
            assert_eq!(value_of(&page, "tbody .copy-fallback"), FULL_KEY);
        }
        other => panic!("unexpected copy status {other:?}"),
    }

    // The CSV box says what it does.
    assert!(page
        .text(".table-toolbar label.toggle")
        .contains("Include the API keys in the CSV"));
}

#[wasm_bindgen_test]
async fn subaccounts_show_each_ones_username_and_whether_it_hosts_or_rents() {
    signed_in_at("/subaccounts");
    // As the reference server sends them, and one from a service that leaves both out.
    const LISTED: &str = r#"{"users": [
        {"id": 11, "email": "render-farm@alice.example", "api_key": "0123456789abcdef0123456789abcdef", "balance": 25.5,
         "username": "render-farm", "host_only": true},
        {"id": 12, "email": "ci-runner@alice.example", "api_key": "fedcba9876543210fedcba9876543210", "balance": 0,
         "username": "ci-runner", "host_only": false},
        {"id": 13, "email": "old@alice.example", "api_key": "99998888777766665555444433332222", "balance": 1}
    ], "msg": "3 subaccounts"}"#;
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("subaccounts", json(200, LISTED)),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 3).await;
    assert_eq!(
        column_keys(&page, ".subaccounts"),
        ["id", "username", "email", "kind", "balance", "api_key"]
    );
    assert_eq!(page.text(".subaccounts thead th[data-key=kind]"), "Type");
    assert_eq!(
        column_texts(&page, ".subaccounts", "username"),
        ["render-farm", "ci-runner", "—"]
    );
    assert_eq!(
        column_texts(&page, ".subaccounts", "kind"),
        ["Host", "Client", "—"]
    );
    // The filter finds a subaccount by its username.
    page.type_into(".table-toolbar .filter input", "ci-run");
    page.wait_for_count(BODY_ROWS, 1).await;
    assert_eq!(column_texts(&page, ".subaccounts", "id"), ["12"]);
}

#[wasm_bindgen_test]
async fn templates_list_their_ids_and_delete_from_an_actions_column_saying_it_is_a_soft_delete() {
    signed_in_at("/templates");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("templates/", json(200, LIBRARY)),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 2).await;
    let table = ".template-library";
    assert_eq!(
        column_keys(&page, table),
        [
            "name",
            "id",
            "image",
            "created",
            "last_used",
            "instances",
            "visibility",
            "actions"
        ]
    );
    assert_eq!(page.text(&format!("{table} thead th[data-key=id]")), "Id");
    assert_eq!(
        page.text(&format!("{table} thead th[data-key=actions]")),
        "Actions"
    );
    assert_eq!(column_texts(&page, table, "id"), ["501", "504"]);
    // The visibility says only that; the button has its own column.
    assert_eq!(
        column_texts(&page, table, "visibility"),
        ["Public", "Private"]
    );
    assert_eq!(columns_with_buttons(&page, table), ["actions"]);
    assert_eq!(
        column_texts(&page, table, "actions"),
        ["Delete…", "Delete…"]
    );

    page.click(&format!(
        "{table} button[aria-label^='Delete template 501 ']"
    ));
    settle().await;
    assert!(page.find("dialog[open]").is_some());
    assert_eq!(
        page.text("[data-testid=delete-title]"),
        "Template 501 · pytorch-base (pytorch/pytorch:2.3.1)"
    );
    assert_eq!(
        page.text("dialog[open] [data-testid=soft-delete]"),
        "Deleting hides the template from your list of templates and from searches. It is not \
         erased: it is kept, marked as deleted (a soft delete), and instances already made from \
         it keep running."
    );
    assert!(page
        .text("dialog[open]")
        .contains("kept and the deletion is refused"));
    assert!(fetch
        .calls_to("templates")
        .iter()
        .all(|c| c.method == "GET"));
}

#[wasm_bindgen_test]
async fn an_empty_subaccount_list_says_how_subaccounts_are_made_and_failures_offer_a_retry() {
    signed_in_at("/subaccounts");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        (
            "subaccounts",
            json(
                500,
                r#"{"error": "internal_error", "msg": "the database is busy, try again"}"#,
            ),
        ),
        (
            "subaccounts",
            json(200, r#"{"users": [], "msg": "0 subaccounts"}"#),
        ),
    ]);
    let page = mount(App);
    page.wait_for(".error-panel").await;
    assert!(page.text(".error-panel").contains("the database is busy"));
    page.click(".error-panel button");
    page.wait_for(".data-table .empty-state").await;
    assert!(page
        .text(".data-table .empty-state")
        .contains("You have no subaccounts. Create one below"));
    assert_eq!(page.text(".server-message"), "0 subaccounts");
    assert_eq!(fetch.calls_to("subaccounts").len(), 2);
}

#[wasm_bindgen_test]
async fn a_role_shows_a_grid_of_groups_its_routes_and_raw_json() {
    signed_in_at("/team/roles/member");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/roles/member", json(200, MEMBER_ROLE)),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=permission-grid]").await;
    assert!(fetch.calls_to("/api/v0/team/roles/member").len() == 1);
    assert_eq!(page.text("[data-testid=role-name]"), "member");
    // No role name is written into the console: the way to other roles is their list.
    assert_eq!(page.all(".role-links a").len(), 1);
    assert_eq!(
        page.get(".role-links a").get_attribute("href").as_deref(),
        Some("/team/roles")
    );
    assert!(page
        .text("[data-testid=role-summary]")
        .contains("use the route api.instance.request_logs only where id = 1227"));

    let cell = |group: &str| page.get(&format!("td[data-group={group}]"));
    assert_eq!(cell("instance_read").text_content().unwrap(), "✓granted");
    assert_eq!(cell("instance_write").class_name(), "granted");
    assert_eq!(
        cell("machine_write").text_content().unwrap(),
        "—not granted"
    );
    assert_eq!(cell("misc").get_attribute("colspan").as_deref(), Some("2"));
    assert_eq!(page.all("table.permission-grid tbody tr").len(), 6);
    let routes = page.text(".route-permissions");
    assert!(routes.contains("api.instance.request_logs"), "{routes}");
    assert!(routes.contains("only where id = 1227"), "{routes}");
    assert!(page.find(".unrecognised-permissions").is_none());

    page.click(".role-header button");
    page.wait_for("pre.raw-json").await;
    assert!(current_path().ends_with("?view=json"), "{}", current_path());
    assert!(page.text("pre.raw-json").contains("\"instance_read\": {}"));
    assert_eq!(
        page.get(".role-header button")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    page.click(".role-header button");
    page.wait_for("[data-testid=permission-grid]").await;
}

#[wasm_bindgen_test]
async fn unknown_permission_shapes_are_shown_not_dropped() {
    signed_in_at("/team/roles/odd");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/roles/odd", json(200, ODD_ROLE)),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=permission-grid]").await;
    let instance_read = page.text("td[data-group=instance_read]");
    assert!(instance_read.starts_with("✓granted"), "{instance_read}");
    assert!(
        instance_read.contains(r#"Also: {"constraints":"odd"}"#),
        "{instance_read}"
    );
    assert!(page
        .text("td[data-group=machine_read]")
        .contains("id ≥ 1000"));
    assert!(page.text(".route-permissions").contains("size ≤ 5"));
    let unknown = page.text(".unrecognised-permissions");
    assert!(unknown.contains("api.quantum_write"), "{unknown}");
    assert!(unknown.contains("ui"), "{unknown}");
    assert!(unknown.contains("\"dark\": true"), "{unknown}");
}

#[wasm_bindgen_test]
async fn an_unknown_role_shows_the_servers_message_and_the_way_to_every_role() {
    signed_in_at("/team/roles/ghost");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        (
            "team/roles/ghost",
            json(
                404,
                r#"{"error": "not_found", "msg": "no role named \"ghost\" in team Alice Compute"}"#,
            ),
        ),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=unknown-role]").await;
    assert!(page
        .text("[data-testid=unknown-role]")
        .contains("no role named \"ghost\" in team Alice Compute"));
    let links: Vec<String> = page
        .all(".role-links a")
        .iter()
        .map(|a| a.get_attribute("href").unwrap())
        .collect();
    assert_eq!(links, ["/team/roles"]);
}

#[wasm_bindgen_test]
async fn role_names_with_markup_or_unicode_round_trip_through_the_address() {
    signed_in_at("/team/roles/%3Cb%3Eauditor%3C%2Fb%3E");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        (
            "team/roles/%3Cb%3Eauditor%3C%2Fb%3E",
            json(
                200,
                r#"{"id": 5, "name": "<b>auditor</b>", "permissions": {"api": {"team_read": {}}}}"#,
            ),
        ),
        (
            "team/roles/Wartung%20%E2%80%93%20Nacht%20%F0%9F%8C%99",
            json(
                200,
                r#"{"id": 4, "name": "Wartung – Nacht 🌙", "permissions": {"api": {"machine_read": {}}}}"#,
            ),
        ),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=role-name]").await;
    assert_eq!(page.text("[data-testid=role-name]"), "<b>auditor</b>");
    assert!(page.find("main b").is_none());

    // The lookup form goes to the role's own address.
    page.click("#role-name + button");
    settle().await;
    assert_eq!(page.text("#role-name-error"), "Enter a role name.");
    page.type_into("#role-name", "Wartung – Nacht 🌙");
    page.click("#role-name + button");
    page.wait_for_text("[data-testid=role-name]", "Wartung – Nacht 🌙")
        .await;
    assert_eq!(
        current_path(),
        "/team/roles/Wartung%20%E2%80%93%20Nacht%20%F0%9F%8C%99"
    );
    let role_calls = fetch.calls_to("/api/v0/team/roles/");
    assert_eq!(role_calls.len(), 2);
    assert!(role_calls[0]
        .url
        .ends_with("/api/v0/team/roles/%3Cb%3Eauditor%3C%2Fb%3E/"));
    assert!(page.text("td[data-group=machine_read]").starts_with("✓"));
}

#[wasm_bindgen_test]
async fn members_are_counted_per_role_filtered_by_role_and_link_to_roles() {
    signed_in_at("/team/members");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        ("team/invites", json(200, "[]")),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 4).await;
    assert_eq!(fetch.calls_to("/api/v0/team/members").len(), 1);
    assert_eq!(
        page.text("[data-testid=role-counts]"),
        "4 members — owner 1 · member 2 · manager 2"
    );
    // Markup in a full name is text.
    assert!(page.find("main img").is_none());
    assert!(page
        .text("tbody")
        .contains("Frank <img src=x onerror=alert(1)>"));

    let links: Vec<String> = page
        .all("tbody a.role-link")
        .iter()
        .map(|a| a.get_attribute("href").unwrap())
        .collect();
    assert!(links.contains(&"/team/roles/owner".to_owned()));
    assert_eq!(links.len(), 5);

    let chips = page.all(".filters button.role-chip");
    assert_eq!(chips.len(), 3);
    assert_eq!(chips[2].text_content().unwrap(), "manager 2");
    chips[2].unchecked_ref::<web_sys::HtmlElement>().click();
    page.wait_for_count(BODY_ROWS, 2).await;
    assert_eq!(current_path(), "/team/members?role=manager");
    assert_eq!(
        page.all(".filters button.role-chip")[2]
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    let names: Vec<String> = body_rows(&page)
        .iter()
        .map(|r| {
            r.query_selector("td")
                .unwrap()
                .unwrap()
                .text_content()
                .unwrap()
        })
        .collect();
    assert_eq!(names, ["dave", "frank"]);
    // Pressing it again shows everyone.
    page.all(".filters button.role-chip")[2]
        .unchecked_ref::<web_sys::HtmlElement>()
        .click();
    page.wait_for_count(BODY_ROWS, 4).await;
    assert_eq!(current_path(), "/team/members");

    // A role link leads to the role's page.
    let _ = fetch;
    drop(page);
    signed_in_at("/team/members?role=member");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("team/members", json(200, MEMBERS)),
        ("team/roles-full", json(200, ROLES)),
        ("team/invites", json(200, "[]")),
        ("team/roles/member", json(200, MEMBER_ROLE)),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 2).await;
    page.click("tbody a.role-link[href='/team/roles/member']");
    page.wait_for("[data-testid=permission-grid]").await;
    assert_eq!(current_path(), "/team/roles/member");
}

#[wasm_bindgen_test]
async fn template_ids_are_checked_confirmed_and_refusals_stay_next_to_the_form() {
    signed_in_at("/templates");
    // The library (N9) ends in `templates/`, deletions in `templates`; each reply goes to
    // the first unused route its URL contains, so reloads sit after the deletions they follow.
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("templates/", json(200, LIBRARY)),
        (
            "templates",
            json(200, r#"{"success": true, "msg": "Template 501 deleted"}"#),
        ),
        ("templates/", json(200, LIBRARY)),
        (
            "templates",
            json(
                409,
                r#"{"error": "in_use", "msg": "template 502 is in use by 2 other users; it was not deleted"}"#,
            ),
        ),
        ("templates", network_failure()),
        (
            "templates",
            json(200, r#"{"success": true, "msg": "Template 503 deleted"}"#),
        ),
        ("templates/", json(200, LIBRARY)),
    ]);
    let deletions = |fetch: &FakeFetch| -> Vec<Call> {
        fetch
            .calls_to("templates")
            .into_iter()
            .filter(|c| c.method == "DELETE")
            .collect()
    };
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 2).await;
    assert_eq!(page.text("label[for=template-id]"), "Template id");
    let first = page.text("tbody tr:not(.spacer)");
    assert!(first.contains("pytorch/pytorch:2.3.1"), "{first}");
    assert!(page
        .text("tbody")
        .contains("<img src=x onerror=alert(1)> notebook"));
    assert!(page.find("tbody img").is_none());

    page.type_into("#template-id", "50a");
    page.click("form.narrow-form button[type=submit]");
    settle().await;
    assert_eq!(
        page.text("#template-id-error"),
        "The template id must be a whole number, like 42."
    );
    assert_eq!(
        page.get("#template-id")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert!(page
        .get("#template-id")
        .get_attribute("aria-describedby")
        .unwrap()
        .contains("template-id-error"));
    assert!(page.find("dialog[open]").is_none());
    assert!(deletions(&fetch).is_empty());

    // Deleted: the server's message, a toast, the id listed, the field emptied.
    page.type_into("#template-id", "501");
    page.click("form.narrow-form button[type=submit]");
    settle().await;
    assert!(page.find("dialog[open]").is_some());
    assert!(page
        .text("dialog[open]")
        .contains("kept and the deletion is refused"));
    page.click("dialog[open] .button.danger");
    page.wait_for("[data-testid=template-result]").await;
    assert!(page
        .text("[data-testid=template-result]")
        .contains("Template 501 deleted"));
    assert!(page.text(".toasts").contains("Template 501 deleted"));
    assert_eq!(page.text("[data-testid=recently-deleted]"), "501");
    assert_eq!(value_of(&page, "#template-id"), "");
    assert_eq!(
        session_storage()
            .get_item("gpudeck.deleted-templates.1")
            .unwrap()
            .as_deref(),
        Some("[501]")
    );
    let delete = &deletions(&fetch)[0];
    assert_eq!(delete.method, "DELETE");
    assert!(
        delete.url.ends_with("/api/v0/users/1/templates/"),
        "{}",
        delete.url
    );
    assert_eq!(delete.body, r#"{"template_id":501}"#);

    // Refused: the message next to the field, which keeps its input.
    page.type_into("#template-id", "502");
    page.click("form.narrow-form button[type=submit]");
    settle().await;
    page.click("dialog[open] .button.danger");
    page.wait_for_text_containing("#template-id-error", "in use by 2 other users")
        .await;
    assert_eq!(value_of(&page, "#template-id"), "502");
    assert!(page.find("[data-testid=template-result]").is_none());
    assert_eq!(page.text("[data-testid=recently-deleted]"), "501");

    // A network failure: the error panel, whose retry sends the same request again.
    page.type_into("#template-id", "503");
    page.click("form.narrow-form button[type=submit]");
    settle().await;
    page.click("dialog[open] .button.danger");
    page.wait_for(".error-panel").await;
    assert_eq!(page.text("#template-id-error"), "");
    page.click(".error-panel button");
    page.wait_for("[data-testid=template-result]").await;
    assert_eq!(page.text("[data-testid=recently-deleted]"), "503501");
    assert_eq!(deletions(&fetch).len(), 4);
    // The list was loaded once, then again after each deletion (N9 and seed op 3 share the
    // path; the reads are the GETs).
    let reads = fetch.calls_to("templates/");
    assert_eq!(reads.iter().filter(|call| call.method == "GET").count(), 3);
}

#[wasm_bindgen_test]
async fn volume_asks_are_checked_refusals_name_the_field_and_the_name_is_shown() {
    signed_in_at("/volumes");
    // Searches (N10) and the own list (N11) have routes of their own before the accepts,
    // which match any volumes URL; the reloads after the accept come last.
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("volumes/search", json(200, OFFERS)),
        ("volumes?owner", json(200, r#"{"volumes": []}"#)),
        (
            "volumes",
            json(
                409,
                r#"{"error": "insufficient_capacity", "msg": "volume ask 7 has 30 GB left; 50 GB asked"}"#,
            ),
        ),
        (
            "volumes",
            json(
                404,
                r#"{"error": "not_found", "msg": "volume ask 77 not found"}"#,
            ),
        ),
        (
            "volumes",
            json(200, r#"{"success": true, "volume_name": "V.20118484"}"#),
        ),
        ("volumes?owner", json(200, MY_VOLUMES)),
        ("volumes/search", json(200, OFFERS)),
    ]);
    let page = mount(App);
    page.wait_for("#volume-size").await;
    assert_eq!(page.text("label[for=volume-ask-id]"), "Volume ask id");
    assert_eq!(page.text("label[for=volume-size]"), "Size (GB)");

    let submit = "form.narrow-form button[type=submit]";
    page.type_into("#volume-size", "0");
    page.click(submit);
    settle().await;
    assert_eq!(
        page.text("#volume-ask-id-error"),
        "Enter the volume ask id."
    );
    assert_eq!(
        page.text("#volume-size-error"),
        "The size in GB must be at least 1."
    );
    assert!(page.find("dialog[open]").is_none());

    page.type_into("#volume-ask-id", "7");
    page.type_into("#volume-size", "50");
    page.click(submit);
    settle().await;
    assert!(page
        .text("dialog[open]")
        .contains("A 50 GB volume is created from volume ask 7"));
    page.click("dialog[open] .button.primary");
    page.wait_for_text_containing("#volume-size-error", "30 GB left")
        .await;
    assert_eq!(page.text("#volume-ask-id-error"), "");
    assert_eq!(
        page.get("#volume-size")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(value_of(&page, "#volume-size"), "50");

    page.type_into("#volume-ask-id", "77");
    page.type_into("#volume-size", "20");
    page.click(submit);
    settle().await;
    page.click("dialog[open] .button.primary");
    page.wait_for_text_containing("#volume-ask-id-error", "volume ask 77 not found")
        .await;
    assert_eq!(page.text("#volume-size-error"), "");

    // An offer the search found: its capacity is checked before anything is sent.
    page.wait_for(".offer-search tbody tr:not(.spacer)").await;
    assert!(page.text(".offer-search tbody").contains("$4.00"));
    page.type_into("#volume-ask-id", "8");
    page.type_into("#volume-size", "600");
    page.click(submit);
    settle().await;
    assert_eq!(
        page.text("#volume-size-error"),
        "Offer 8 has 500 GB left: choose at most that."
    );
    assert!(page.find("dialog[open]").is_none());

    page.type_into("#volume-size", "20");
    page.click(submit);
    settle().await;
    page.click("dialog[open] .button.primary");
    page.wait_for("[data-testid=volume-name]").await;
    assert_eq!(page.text("[data-testid=volume-name]"), "V.20118484");
    assert!(page
        .text("[data-testid=volume-result]")
        .contains("-v V.20118484:/data"));
    assert!(page
        .find("[data-testid=volume-result] .copy button[aria-label='Copy the volume name V.20118484']")
        .is_some());
    // My volumes reloads and shows the new one.
    page.wait_for_text_containing(".my-volumes tbody", "V.20118484")
        .await;
    let sent: Vec<Call> = fetch
        .calls_to("/api/v0/volumes")
        .into_iter()
        .filter(|c| c.method == "PUT")
        .collect();
    assert_eq!(sent.len(), 3);
    assert_eq!(sent[2].method, "PUT");
    assert_eq!(sent[2].body, r#"{"id":8,"size":20}"#);

    // The form is empty again, the new volume still shown: a second click asks for an
    // offer instead of making a second volume.
    assert_eq!(value_of(&page, "#volume-ask-id"), "");
    assert_eq!(value_of(&page, "#volume-size"), "");
    assert_eq!(value_of(&page, "#volume-label"), "");
    assert_eq!(page.text("[data-testid=chosen-offer]"), "");
    page.click(submit);
    settle().await;
    assert!(page.find("dialog[open]").is_none());
    assert_eq!(
        page.text("#volume-ask-id-error"),
        "Enter the volume ask id."
    );
    assert_eq!(page.text("[data-testid=volume-name]"), "V.20118484");
    let puts = fetch
        .calls_to("/api/v0/volumes")
        .iter()
        .filter(|c| c.method == "PUT")
        .count();
    assert_eq!(puts, 3);

    // Each row's action has a column of its own; a volume name's copy button stays with it.
    assert_eq!(columns_with_buttons(&page, ".offer-search"), ["actions"]);
    assert_eq!(column_texts(&page, ".offer-search", "actions"), ["Accept…"]);
    assert_eq!(
        columns_with_buttons(&page, ".my-volumes"),
        ["volume", "actions"]
    );
    assert_eq!(column_texts(&page, ".my-volumes", "status"), ["active"]);
}

#[wasm_bindgen_test]
async fn a_subaccount_is_checked_created_and_listed_and_its_password_forgotten() {
    signed_in_at("/subaccounts");
    const CREATED: &str = r#"{"id": 15, "username": "big", "email": "new@alice.example",
        "api_key": "abcdabcdabcdabcdabcdabcdabcdabcd", "key_id": 3, "balance": 0, "credit": 0,
        "host_only": true, "ssh_key": null, "email_verified": false, "can_pay": false, "has_billing": false}"#;
    const AFTER: &str = r#"{"users": [
        {"id": 11, "email": "render-farm@alice.example", "api_key": "0123456789abcdef0123456789abcdef", "balance": 25.5},
        {"id": 15, "email": "new@alice.example", "api_key": "abcdabcdabcdabcdabcdabcdabcdabcd", "balance": 0}
    ], "msg": "2 subaccounts"}"#;
    // The shell asks `users/current` once, first; N20's `/users/` replies come after it.
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("subaccounts", json(200, SUBACCOUNTS)),
        (
            "v0/users/",
            json(
                409,
                r#"{"error": "user_exists", "msg": "user already exists."}"#,
            ),
        ),
        ("v0/users/", json(200, CREATED)),
        ("subaccounts", json(200, AFTER)),
    ]);
    let page = mount(App);
    page.wait_for_count(BODY_ROWS, 3).await;
    let submit = ".create-form button[type=submit]";

    page.type_into("#sub-email", "someone@vast.ai");
    page.type_into("#sub-password", "short");
    page.click(submit);
    settle().await;
    assert!(page.text("#sub-email-error").contains("not allowed"));
    assert_eq!(page.text("#sub-username-error"), "Enter a username.");
    assert!(page.text("#sub-password-error").contains("at least 8"));
    assert!(page.find("dialog[open]").is_none());

    page.type_into("#sub-email", "Big@alice.example");
    page.type_into("#sub-username", "big");
    page.type_into("#sub-password", "correct horse");
    page.click(submit);
    settle().await;
    assert!(page
        .text("dialog[open]")
        .contains("Big@alice.example (big), a client account"));
    page.click("dialog[open] .button.primary");
    page.wait_for_text_containing("#sub-email-error", "user already exists")
        .await;
    assert_eq!(value_of(&page, "#sub-password"), "correct horse");

    page.type_into("#sub-email", "new@alice.example");
    page.click("input[name=sub-kind][value=host]");
    page.click(submit);
    settle().await;
    page.click("dialog[open] .button.primary");
    page.wait_for("[data-testid=subaccount-result]").await;
    page.wait_for_count(BODY_ROWS, 2).await;
    assert!(page.text("tbody").contains("new@alice.example"));
    for field in ["#sub-email", "#sub-username", "#sub-password"] {
        assert_eq!(value_of(&page, field), "", "{field}");
    }
    let created: Vec<Call> = fetch
        .calls_to("v0/users/")
        .into_iter()
        .filter(|c| c.method == "POST")
        .collect();
    assert_eq!(created.len(), 2);
    assert!(
        created[1].url.ends_with("/api/v0/users/"),
        "{}",
        created[1].url
    );
    assert_eq!(
        created[1].body,
        r#"{"email":"new@alice.example","username":"big","password":"correct horse","host_only":true,"parent_id":"me"}"#
    );
    assert!(session_storage()
        .get_item("gpudeck.session")
        .unwrap()
        .is_some_and(|s| !s.contains("correct horse")));
}
