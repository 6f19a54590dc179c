//! The page shell and sign-in, mounted whole: redirects, session storage, navigation,
//! sign-out and what a 401 does.

use crate::support::*;
use gpudeck::app::App;
use leptos::prelude::document;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const KEY: &str = "demo-key-for-shell-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;

fn forget_session() {
    session_storage().clear().unwrap();
}

fn stored_session() -> Option<String> {
    session_storage().get_item("gpudeck.session").unwrap()
}

/// The app mounted at sign-in and signed in through the form; the fake `fetch` answers
/// the sign-in and the shell's refresh of who is signed in.
async fn signed_in_app() -> (Mounted, FakeFetch) {
    let (page, fetch) = sign_in_with(
        "/sign-in",
        vec![("", json(200, USER)), ("", json(200, USER))],
    )
    .await;
    page.wait_for("[data-testid=identity]").await;
    (page, fetch)
}

/// The app mounted signed out at `address` (a sign-in address), the fake `fetch` answering
/// `replies` as [`FakeFetch::install_by_url`] does, and the form sent with [`KEY`].
async fn sign_in_with(address: &str, replies: Vec<(&'static str, Reply)>) -> (Mounted, FakeFetch) {
    forget_session();
    go_to(address);
    let fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for("#api-key").await;
    sign_in_through_the_form(&page, KEY).await;
    (page, fetch)
}

/// The server's answer to a key it does not know.
const KEY_REFUSED: &str = r#"{"error": "auth_error", "msg": "Invalid user key"}"#;

/// The app mounted at sign-in, the form sent with a key the fake `fetch` refuses, once
/// the server's words are shown.
async fn sign_in_refused() -> Mounted {
    let page = mount(App);
    page.wait_for("#api-key").await;
    sign_in_through_the_form(&page, "wrong").await;
    page.wait_for_text_containing("#api-key-error", "Invalid user key")
        .await;
    page
}

async fn sign_in_through_the_form(page: &Mounted, key: &str) {
    page.type_into("#api-key", key);
    page.click("button[type=submit]");
    settle().await;
}

#[wasm_bindgen_test]
async fn signed_out_deep_link_goes_through_sign_in_and_back() {
    forget_session();
    go_to("/machines/defrag?ids=1-3");
    // Sign-in, then the header's refresh of who is signed in.
    let fetch = FakeFetch::install(vec![json(200, USER), json(200, USER)]);
    let page = mount(App);
    page.wait_for("#api-key").await;
    assert_eq!(
        current_path(),
        "/sign-in?next=%2Fmachines%2Fdefrag%3Fids%3D1-3"
    );
    assert_eq!(
        page.get("#api-key").get_attribute("type").as_deref(),
        Some("password")
    );

    sign_in_through_the_form(&page, KEY).await;
    assert!(
        wait_until(2000, || current_path() == "/machines/defrag?ids=1-3").await,
        "{}",
        current_path()
    );
    page.wait_for("[data-testid=identity]").await;
    assert!(page.text("[data-testid=identity]").contains("alice"));
    assert_eq!(
        page.get("nav a[aria-current=page]").text_content().unwrap(),
        "Defragment"
    );
    let call = &fetch.calls()[0];
    assert!(call.url.ends_with("/api/v0/users/current"));
    assert_eq!(call.authorization, format!("Bearer {KEY}"));
    assert!(stored_session().unwrap().contains(KEY));
    assert!(!current_path().contains(KEY));
    for i in 0..local_storage().length().unwrap() {
        let name = local_storage().key(i).unwrap().unwrap();
        let value = local_storage().get_item(&name).unwrap().unwrap_or_default();
        assert!(!value.contains(KEY), "localStorage {name} holds the key");
    }
}

#[wasm_bindgen_test]
async fn wrong_key_shows_the_servers_message_and_stores_nothing() {
    forget_session();
    go_to("/sign-in");
    let _fetch = FakeFetch::install(vec![json(401, KEY_REFUSED)]);
    let page = sign_in_refused().await;
    assert_eq!(page.text("#api-key-error"), "Invalid user key (401)");
    assert_eq!(
        page.get("#api-key")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert_eq!(stored_session(), None);
    assert!(current_path().starts_with("/sign-in"));
}

#[wasm_bindgen_test]
async fn form_checks_before_sending() {
    forget_session();
    go_to("/sign-in");
    let fetch = FakeFetch::install(vec![]);
    let page = mount(App);
    page.wait_for("#api-key").await;
    sign_in_through_the_form(&page, "   ").await;
    assert_eq!(page.text("#api-key-error"), "Enter your API key.");
    page.type_into("#base-url", "ftp://files.example");
    sign_in_through_the_form(&page, KEY).await;
    assert_eq!(
        page.text("#api-key-error"),
        "the base URL must start with http:// or https://"
    );
    page.type_into("#base-url", "https://x.example/?api_key=1");
    sign_in_through_the_form(&page, KEY).await;
    assert!(page
        .text("#api-key-error")
        .contains("must not carry a query"));
    assert!(fetch.calls().is_empty());
    assert_eq!(stored_session(), None);
}

#[wasm_bindgen_test]
async fn base_url_is_used_and_remembered_without_trailing_slash() {
    forget_session();
    go_to("/sign-in?next=//evil.example/steal");
    let fetch = FakeFetch::install(vec![json(200, USER), json(200, USER)]);
    let page = mount(App);
    page.wait_for("#api-key").await;
    page.type_into("#base-url", "https://api.example.test:8443/");
    sign_in_through_the_form(&page, KEY).await;
    assert!(
        wait_until(2000, || current_path() == "/machines").await,
        "{}",
        current_path()
    );
    assert_eq!(
        fetch.calls()[0].url,
        "https://api.example.test:8443/api/v0/users/current"
    );
    assert!(stored_session()
        .unwrap()
        .contains(r#""base_url":"https://api.example.test:8443""#));
}

#[wasm_bindgen_test]
async fn sign_out_forgets_the_key() {
    let (page, _fetch) = signed_in_app().await;
    page.click("header button");
    page.wait_for("#api-key").await;
    assert_eq!(stored_session(), None);
    assert_eq!(session_storage().length().unwrap(), 0);
    assert!(current_path().starts_with("/sign-in"));
}

#[wasm_bindgen_test]
async fn every_area_has_a_page_and_unknown_paths_say_so() {
    let (page, _fetch) = signed_in_app().await;
    let links: Vec<String> = page
        .all("nav a")
        .iter()
        .map(|a| a.get_attribute("href").unwrap())
        .collect();
    assert_eq!(
        links,
        [
            "/machines",
            "/machines/maintenance",
            "/machines/defrag",
            "/templates",
            "/volumes",
            "/subaccounts",
            "/notifications",
            "/team/members",
            "/team/roles",
            "/acting-account"
        ]
    );
    page.click("nav a[href='/team/roles']");
    assert!(
        wait_until(2000, || current_path() == "/team/roles").await,
        "{}",
        current_path()
    );
    assert!(
        wait_until(2000, || page
            .find("nav a[aria-current=page]")
            .is_some_and(|a| a.text_content().unwrap() == "Roles"))
        .await
    );
    drop(page);

    go_to("/no/such/page");
    let page = mount(App);
    settle().await;
    assert!(page.text("h1").contains("Page not found"));
    assert!(page.text("main").contains("/no/such/page"));
}

#[wasm_bindgen_test]
async fn a_revoked_key_signs_out_and_comes_back_after_sign_in() {
    forget_session();
    session_storage()
        .set_item(
            "gpudeck.session",
            &format!(
                r#"{{"api_key": "revoked", "base_url": "{}", "user": {USER}}}"#,
                gpudeck::session::own_origin()
            ),
        )
        .unwrap();
    go_to("/subaccounts?sort=email");
    // The header and the page both ask with the stored key; after sign-in, again.
    let revoked = KEY_REFUSED;
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(401, revoked)),
        ("subaccounts", json(401, revoked)),
        // The client's check of the key after the page's 401.
        ("users/current", json(401, revoked)),
        ("users/current", json(200, USER)),
        ("users/current", json(200, USER)),
        (
            "subaccounts",
            json(200, r#"{"users": [], "msg": "0 subaccounts"}"#),
        ),
    ]);
    let page = mount(App);
    page.wait_for("#api-key").await;
    assert_eq!(
        current_path(),
        "/sign-in?next=%2Fsubaccounts%3Fsort%3Demail"
    );
    assert!(page.text(".notice").contains("Invalid user key"));
    assert_eq!(stored_session(), None);

    sign_in_through_the_form(&page, KEY).await;
    assert!(
        wait_until(3000, || current_path() == "/subaccounts?sort=email").await,
        "{}",
        current_path()
    );
    let new_key = format!("Bearer {KEY}");
    let calls = fetch.calls();
    let signed_in_at = calls
        .iter()
        .position(|c| c.authorization == new_key)
        .expect("a request with the new key");
    assert!(signed_in_at >= 1);
    assert!(calls[..signed_in_at]
        .iter()
        .all(|c| c.authorization == "Bearer revoked"));
    assert!(calls[signed_in_at..]
        .iter()
        .all(|c| c.authorization == new_key));
}

/// The sign-in form as the served page has it, shown (boot.js's part), with `key` typed in.
fn serve_the_sign_in_form(key: &str) -> web_sys::HtmlElement {
    let form = gpudeck::served_sign_in::build();
    form.set_hidden(false);
    // As the release build serves it: its minifier drops the button's default type.
    form.query_selector("button")
        .unwrap()
        .unwrap()
        .remove_attribute("type")
        .unwrap();
    document()
        .body()
        .unwrap()
        .prepend_with_node_1(&form)
        .unwrap();
    let field: web_sys::HtmlInputElement = form
        .query_selector("#api-key")
        .unwrap()
        .unwrap()
        .unchecked_into();
    field.set_value(key);
    form
}

/// `element` as the sign-in check compares it: its tag and sorted attributes, then its
/// children (elements alike, text trimmed; comments and blank text left out). Of a
/// control (`control` is its id) only what FormField sets on it counts; the rest is the
/// served page's own.
fn outline(element: &web_sys::Element, control: &str) -> String {
    let names = element.get_attribute_names();
    let mut attributes: Vec<String> = names
        .iter()
        .filter_map(|name| name.as_string())
        .filter(|name| {
            element.id() != control
                || ["id", "aria-describedby", "aria-invalid"].contains(&name.as_str())
        })
        .map(|name| {
            format!(
                "{name}={:?}",
                element.get_attribute(&name).unwrap_or_default()
            )
        })
        .collect();
    attributes.sort();
    let mut children = Vec::new();
    let nodes = element.child_nodes();
    for index in 0..nodes.length() {
        let node = nodes.item(index).unwrap();
        if let Some(child) = node.dyn_ref::<web_sys::Element>() {
            children.push(outline(child, control));
        } else if node.node_type() == web_sys::Node::TEXT_NODE {
            let text = node.text_content().unwrap_or_default();
            if !text.trim().is_empty() {
                children.push(format!("{:?}", text.trim()));
            }
        }
    }
    format!(
        "{}[{}]({})",
        element.tag_name().to_lowercase(),
        attributes.join(" "),
        children.join(" ")
    )
}

/// The served sign-in form cannot be a component (it shows before the console's code
/// arrives), so this holds each of its fields to what FormField renders with the same
/// props: label, ids, hint, error line, classes and the control's aria attributes.
#[wasm_bindgen_test]
fn the_served_sign_in_fields_are_what_form_field_renders() {
    use gpudeck::components::form_field::FormField;
    use leptos::prelude::*;
    let served = gpudeck::served_sign_in::build();
    let no_error = RwSignal::new(None::<String>);
    let page = mount(move || {
        view! {
            <FormField
                id="api-key"
                label="API key"
                error=no_error
                hint="The key stays in this tab only and is forgotten when you sign out or close it."
            >
                <input />
            </FormField>
            <FormField
                id="base-url"
                label=view! {
                    "REST base URL "
                    <span class="hint">"(optional)"</span>
                }
                hint="Leave empty to use this console's own server."
            >
                <input />
            </FormField>
        }
    });
    for control in ["api-key", "base-url"] {
        let selector = format!("#{control}");
        let field_of = |control: web_sys::Element| control.parent_element().unwrap();
        let rendered = outline(&field_of(page.get(&selector)), control);
        let served = served.query_selector(&selector).unwrap().unwrap();
        assert_eq!(outline(&field_of(served), control), rendered);
        assert!(
            rendered.starts_with("div[class=\"field\"](label"),
            "{rendered}"
        );
    }
}

fn key_fields_in_the_document() -> u32 {
    document().query_selector_all("#api-key").unwrap().length()
}

#[wasm_bindgen_test]
async fn the_served_form_is_taken_over_with_what_was_typed() {
    forget_session();
    go_to("/sign-in");
    let served = serve_the_sign_in_form("demo-key-for");
    let fetch = FakeFetch::install(vec![json(200, USER), json(200, USER)]);
    let page = mount(App);
    assert!(wait_until(2000, || served.has_attribute("data-live")).await);
    assert_eq!(key_fields_in_the_document(), 1, "one form, the served one");
    assert!(page.find("#api-key").is_none(), "no second form in the app");
    let field: web_sys::HtmlInputElement = served
        .query_selector("#api-key")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(field.value(), "demo-key-for");
    assert!(fetch.calls().is_empty(), "nothing is sent before Enter");

    field.set_value(KEY);
    served
        .query_selector("form button")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    page.wait_for("[data-testid=identity]").await;
    assert_eq!(fetch.calls()[0].authorization, format!("Bearer {KEY}"));
    assert!(
        !served.is_connected(),
        "the form leaves with the sign-in page"
    );
    assert_eq!(key_fields_in_the_document(), 0);
}

#[wasm_bindgen_test]
async fn an_enter_pressed_before_the_code_ran_signs_in() {
    forget_session();
    go_to("/sign-in?next=%2Ftemplates");
    let served = serve_the_sign_in_form(KEY);
    served.set_attribute("data-submitted", "").unwrap();
    let fetch = FakeFetch::install(vec![json(200, USER), json(200, USER)]);
    let page = mount(App);
    assert!(
        wait_until(2000, || current_path() == "/templates").await,
        "{}",
        current_path()
    );
    page.wait_for("[data-testid=identity]").await;
    assert_eq!(fetch.calls()[0].authorization, format!("Bearer {KEY}"));
    assert!(stored_session().unwrap().contains(KEY));
}

#[wasm_bindgen_test]
async fn an_early_enter_without_a_key_asks_for_one() {
    forget_session();
    go_to("/sign-in");
    let served = serve_the_sign_in_form("  ");
    served.set_attribute("data-submitted", "").unwrap();
    let fetch = FakeFetch::install(vec![]);
    let _page = mount(App);
    assert!(wait_until(2000, || served.has_attribute("data-live")).await);
    settle().await;
    let error = served.query_selector("#api-key-error").unwrap().unwrap();
    assert_eq!(error.text_content().unwrap(), "Enter your API key.");
    assert!(!served.has_attribute("data-submitted"));
    assert!(fetch.calls().is_empty());
}

#[wasm_bindgen_test]
async fn other_pages_discard_the_served_form() {
    // An unknown address while signed out.
    forget_session();
    go_to("/no-such-page");
    let served = serve_the_sign_in_form("");
    let page = mount(App);
    assert!(
        wait_until(2000, || page
            .find("h1")
            .is_some_and(
                |h| h.text_content().unwrap_or_default() == "Page not found"
            ))
        .await
    );
    assert!(!served.is_connected());
    drop(page);

    // A tab with a session (boot.js leaves the form hidden; it must still go).
    signed_in_as(KEY, USER, "/templates");
    let served = serve_the_sign_in_form("");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("templates", no_answer()),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=identity]").await;
    assert!(!served.is_connected());
    assert_eq!(key_fields_in_the_document(), 0);
}

#[wasm_bindgen_test]
async fn signing_in_to_a_page_of_the_fleet_asks_for_it_before_the_key_is_checked() {
    // The key check never answers: the fleet is asked for all the same.
    for address in [
        "/sign-in",
        "/sign-in?next=%2Fmachines%2Fschedule%3Fids%3D1001",
        "/sign-in?next=%2Fmachines%2Fmaintenance",
    ] {
        let (_page, fetch) = sign_in_with(
            address,
            vec![
                ("users/current", no_answer()),
                ("/api/v0/machines?owner=me", no_answer()),
            ],
        )
        .await;
        assert!(
            wait_until(2000, || fetch.calls().len() == 2).await,
            "{address}"
        );
        let calls = fetch.calls();
        assert!(calls[0].url.ends_with("/api/v0/users/current"));
        assert!(calls[1].url.ends_with("/api/v0/machines?owner=me"));
        assert_eq!(calls[1].authorization, format!("Bearer {KEY}"));
        assert!(current_path().starts_with("/sign-in"));
        assert_eq!(stored_session(), None);
    }
}

#[wasm_bindgen_test]
async fn signing_in_to_machines_asks_for_their_windows_before_the_page_opens() {
    // The key check never answers; N1 does, and the windows of its machine are asked for.
    let (_page, fetch) = sign_in_with(
        "/sign-in",
        vec![
            ("users/current", no_answer()),
            ("/api/v0/machines?owner=me", json(200, ONE_MACHINE)),
            ("machine_ids", no_answer()),
        ],
    )
    .await;
    assert!(wait_until(2000, || !fetch.calls_to("machine_ids").is_empty()).await);
    let windows = &fetch.calls_to("machine_ids")[0];
    assert!(
        windows.url.ends_with("machine_ids=%5B1001%5D"),
        "{}",
        windows.url
    );
    assert_eq!(windows.authorization, format!("Bearer {KEY}"));
    assert!(current_path().starts_with("/sign-in"));
}

/// From now on, notes in `window.__askedWhenOpened` the URLs the fake `fetch` had been
/// asked for when the address first became `path`: the moment the router opens that page.
fn note_requests_when_the_path_becomes(path: &str) {
    let watch = js_sys::Function::new_with_args(
        "path",
        r#"
        window.__askedWhenOpened = null;
        new MutationObserver((_, observer) => {
            if (location.pathname === path) {
                observer.disconnect();
                window.__askedWhenOpened = window.__fakeRequests.map((request) => request.url);
            }
        }).observe(document, { subtree: true, childList: true });
        "#,
    );
    watch
        .call1(&wasm_bindgen::JsValue::NULL, &path.into())
        .unwrap();
}

fn requests_asked_when_opened() -> Vec<String> {
    let asked =
        js_sys::Reflect::get(&web_sys::window().unwrap(), &"__askedWhenOpened".into()).unwrap();
    js_sys::Array::from(&asked)
        .iter()
        .filter_map(|url| url.as_string())
        .collect()
}

#[wasm_bindgen_test]
async fn an_accepted_key_opens_the_machines_page_once_their_windows_are_asked_for() {
    // N1 answers after the key check: the page waits for it, so that building the page
    // does not hold back the windows request.
    note_requests_when_the_path_becomes("/machines");
    let (_page, fetch) = sign_in_with(
        "/sign-in",
        vec![
            ("users/current", json(200, USER)),
            (
                "/api/v0/machines?owner=me",
                after(60, json(200, ONE_MACHINE)),
            ),
            ("machine_ids", no_answer()),
        ],
    )
    .await;
    assert!(wait_until(3000, || current_path() == "/machines").await);
    let asked = requests_asked_when_opened();
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert!(asked[2].contains("machine_ids=%5B1001%5D"), "{asked:?}");
    assert_eq!(fetch.calls_to("machine_ids").len(), 1);
}

#[wasm_bindgen_test]
async fn an_accepted_key_opens_the_machines_page_even_if_the_machines_never_answer() {
    let (page, fetch) = sign_in_with(
        "/sign-in",
        vec![
            ("users/current", json(200, USER)),
            ("/api/v0/machines?owner=me", no_answer()),
        ],
    )
    .await;
    assert!(wait_until(2000, || current_path() == "/machines").await);
    page.wait_for("[data-testid=identity]").await;
    assert!(fetch.calls_to("machine_ids").is_empty());
}

#[wasm_bindgen_test]
async fn the_machines_page_shows_the_fleet_loaded_during_sign_in_without_asking_again() {
    let (page, fetch) = sign_in_with(
        "/sign-in",
        vec![
            ("users/current", json(200, USER)),
            ("users/current", json(200, USER)),
            ("/api/v0/machines?owner=me", json(200, ONE_MACHINE)),
            ("machine_ids", json(200, "[]")),
        ],
    )
    .await;
    page.wait_for("tbody td").await;
    assert_eq!(current_path(), "/machines");
    assert!(
        page.text("tbody").contains("host-1001"),
        "{}",
        page.text("tbody")
    );
    settle().await;
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 1);
    assert_eq!(fetch.calls_to("machine_ids").len(), 1);
    // The shell does not ask again who sign-in has just been told the key belongs to.
    assert_eq!(fetch.calls_to("users/current").len(), 1);
}

#[wasm_bindgen_test]
async fn a_refused_key_stops_the_fleet_load_it_started() {
    forget_session();
    go_to("/sign-in");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(401, KEY_REFUSED)),
        ("/api/v0/machines?owner=me", no_answer()),
    ]);
    sign_in_refused().await;
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 1);
    assert!(wait_until(2000, || request_aborted(1)).await);
}

#[wasm_bindgen_test]
async fn fleet_answers_nobody_takes_are_dropped_after_their_lifetime() {
    use gpudeck::api::{first_reads, ApiClient};
    use gpudeck::domain::fleet::load_fleet;
    // Ten seconds in the console; the same rule, kept this long here.
    const LIFETIME_MS: u32 = 300;
    forget_session();
    go_to("/sign-in");
    load_first_reads_script();
    offer_first_reads_for(Some(LIFETIME_MS));
    let fetch = FakeFetch::install_by_url(vec![
        ("/api/v0/machines?owner=me", no_answer()),
        ("/api/v0/machines?owner=me", json(200, ONE_MACHINE)),
        ("machine_ids", json(200, "[]")),
    ]);
    let client = ApiClient::new(gpudeck::session::own_origin(), KEY);
    let reader = client.clone();
    let started = js_sys::Date::now();
    wasm_bindgen_futures::spawn_local(
        async move { first_reads::start(&reader, "/machines").await },
    );
    assert!(wait_until(WAIT_MS, || !fetch.calls().is_empty()).await);
    assert!(
        wait_until(LIFETIME_MS + WAIT_MS, || request_aborted(0)).await,
        "stopped after its lifetime"
    );
    let dropped_after = js_sys::Date::now() - started;
    assert!(
        dropped_after >= f64::from(LIFETIME_MS),
        "dropped after {dropped_after} ms, before its {LIFETIME_MS} ms"
    );
    // Nothing is left to take: the page asks for itself.
    let fleet = load_fleet(client).await.expect("the fleet");
    assert_eq!(fleet.machines.len(), 1);
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 2);
    offer_first_reads_for(None);
}

#[wasm_bindgen_test]
async fn signing_in_to_another_page_does_not_load_the_fleet() {
    // The maintenance page given ids asks only for their windows.
    for address in [
        "/sign-in?next=%2Ftemplates",
        "/sign-in?next=%2Fmachines%2Fmaintenance%3Fids%3D1001",
    ] {
        let (_page, fetch) = sign_in_with(address, vec![("users/current", no_answer())]).await;
        assert!(wait_until(2000, || !fetch.calls().is_empty()).await);
        settle().await;
        assert_eq!(fetch.calls().len(), 1, "{address}");
        assert!(fetch.calls()[0].url.ends_with("/api/v0/users/current"));
    }
}

#[wasm_bindgen_test]
async fn the_schedule_page_shows_the_fleet_loaded_during_sign_in_without_asking_again() {
    let (page, fetch) = sign_in_with(
        "/sign-in?next=%2Fmachines%2Fschedule%3Fids%3D1001",
        vec![
            ("users/current", json(200, USER)),
            ("/api/v0/machines?owner=me", json(200, ONE_MACHINE)),
            ("machine_ids", json(200, "[]")),
        ],
    )
    .await;
    page.wait_for("#schedule-start").await;
    assert_eq!(current_path(), "/machines/schedule?ids=1001");
    settle().await;
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 1);
    assert_eq!(fetch.calls_to("machine_ids").len(), 1);
}
