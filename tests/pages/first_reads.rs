//! A page opened cold takes the answers to the reads the served page started before the
//! console's code arrived (`first_reads.js`, as boot.js starts them from the route
//! table), instead of asking again; and only when they are fit to take.

use crate::support::*;
use gpudeck::app::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

const KEY: &str = "demo-key-for-first-reads";
const USER: &str =
    r#"{"id": 7, "email": "alice@example.test", "username": "alice", "balance": 10}"#;
const DEMO_SERVER: &str = r#"{"data": "demo"}"#;
const LIBRARY: &str = r#"{"success": true, "templates": [
    {"id": 501, "hash_id": "a", "creator_id": 7, "count_created": 42, "name": "pytorch-base",
     "image": "pytorch/pytorch", "tag": "2.3.1", "private": false, "created_at": 1700000000,
     "recent_create_date": 1763000000, "user_template_id": 501}
]}"#;

/// What boot.js does in a tab whose session holds `KEY` for user 7, for `address`: starts
/// the shell's and the page's first reads from the route table, as the split build writes
/// it on the served page.
fn start_as_the_served_page_does(address: &str) {
    load_first_reads_script();
    let table = gpudeck_pages::first_reads_json(gpudeck_pages::SHELL_READS, gpudeck_pages::PAGES);
    let window = web_sys::window().unwrap();
    let reads = js_sys::Reflect::get(&window, &"gpudeckFirstReads".into()).unwrap();
    let start: js_sys::Function = js_sys::Reflect::get(&reads, &"start".into())
        .unwrap()
        .unchecked_into();
    let arguments = js_sys::Array::of5(
        &js_sys::JSON::parse(&table).unwrap(),
        &gpudeck::session::own_origin().into(),
        &KEY.into(),
        &JsValue::from(7),
        &address.into(),
    );
    start.apply(&reads, &arguments).unwrap();
}

/// The app mounted in a tab signed in with `key`, at `address`, without clearing what the
/// served page started (as `mount` does for the tests that do not start anything).
fn open_cold(key: &str, address: &str) -> Mounted {
    signed_in_as(key, USER, address);
    mount_keeping_first_reads(App)
}

#[wasm_bindgen_test]
async fn a_page_opened_cold_shows_what_the_served_page_asked_for_without_asking_again() {
    signed_in_as(KEY, USER, "/templates");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("gpudeck/server", json(200, DEMO_SERVER)),
        ("/users/7/templates/", json(200, LIBRARY)),
    ]);
    start_as_the_served_page_does("/templates");
    settle().await;
    // All three left before the console's code ran, the key in a header only.
    let early = fetch.calls();
    assert_eq!(early.len(), 3, "{early:?}");
    for call in &early {
        assert_eq!(call.authorization, format!("Bearer {KEY}"));
        assert!(!call.url.contains(KEY));
    }
    let page = open_cold(KEY, "/templates");
    page.wait_for_text_containing("tbody", "pytorch-base").await;
    page.wait_for("[data-testid=identity]").await;
    settle().await;
    assert_eq!(fetch.calls_to("/users/7/templates/").len(), 1);
    assert_eq!(fetch.calls_to("users/current").len(), 1);
    assert_eq!(fetch.calls_to("gpudeck/server").len(), 1);
}

#[wasm_bindgen_test]
async fn the_notifications_page_opened_cold_takes_its_three_reads_without_asking_again() {
    signed_in_as(KEY, USER, "/notifications");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("gpudeck/server", json(200, DEMO_SERVER)),
        (
            "notification-types/",
            json(
                200,
                r#"{"success": true, "notification_types": [{"key": "host:machine_offline",
                    "slug": "machine_offline", "context": "host", "display_name": "Machine offline"}]}"#,
            ),
        ),
        (
            "/users/7/notification-prefs/",
            json(200, r#"{"success": true, "notification_preferences": {}}"#),
        ),
        (
            "/webhooks/",
            json(200, r#"{"success": true, "webhooks": []}"#),
        ),
    ]);
    start_as_the_served_page_does("/notifications");
    // Waits for the calls on a timer alone: `settle` and `wait_until` tick the executor,
    // which only a mounted app starts, and this test may be the first of its run.
    for _ in 0..1000 {
        if fetch.calls().len() >= 5 {
            break;
        }
        gloo_timers::future::TimeoutFuture::new(10).await;
    }
    assert_eq!(fetch.calls().len(), 5, "{:?}", fetch.calls());
    let page = open_cold(KEY, "/notifications");
    page.wait_for_text_containing(".preferences tbody", "Machine offline")
        .await;
    page.wait_for(".webhooks .empty-state, .webhooks table")
        .await;
    settle().await;
    assert_eq!(fetch.calls_to("notification-types/").len(), 1);
    assert_eq!(fetch.calls_to("/users/7/notification-prefs/").len(), 1);
    assert_eq!(fetch.calls_to("/webhooks/").len(), 1);
}

#[wasm_bindgen_test]
async fn the_fleet_opened_cold_is_asked_for_once_its_windows_after_its_machines() {
    signed_in_as(KEY, USER, "/machines");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("gpudeck/server", json(200, DEMO_SERVER)),
        (
            "/api/v0/machines?owner=me",
            after(50, json(200, ONE_MACHINE)),
        ),
        ("machine_ids", json(200, "[]")),
    ]);
    start_as_the_served_page_does("/machines");
    let page = open_cold(KEY, "/machines");
    page.wait_for_text_containing("tbody", "host-1001").await;
    settle().await;
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 1);
    let windows = fetch.calls_to("machine_ids");
    assert_eq!(windows.len(), 1, "{windows:?}");
    assert!(
        windows[0].url.ends_with("owner=me&machine_ids=%5B1001%5D"),
        "{}",
        windows[0].url
    );
}

#[wasm_bindgen_test]
async fn a_failed_early_answer_is_asked_again_through_the_page() {
    signed_in_as(KEY, USER, "/templates");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("gpudeck/server", json(200, DEMO_SERVER)),
        (
            "/users/7/templates/",
            json(500, r#"{"error": "internal", "msg": "try later"}"#),
        ),
        ("/users/7/templates/", json(200, LIBRARY)),
    ]);
    start_as_the_served_page_does("/templates");
    let page = open_cold(KEY, "/templates");
    page.wait_for_text_containing("tbody", "pytorch-base").await;
    assert_eq!(fetch.calls_to("/users/7/templates/").len(), 2);
}

#[wasm_bindgen_test]
async fn answers_asked_with_another_key_are_not_taken() {
    let other = "another-key-of-this-tab";
    signed_in_as(other, USER, "/templates");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("users/current", json(200, USER)),
        ("gpudeck/server", json(200, DEMO_SERVER)),
        ("gpudeck/server", json(200, DEMO_SERVER)),
        ("/users/7/templates/", no_answer()),
        ("/users/7/templates/", json(200, LIBRARY)),
    ]);
    start_as_the_served_page_does("/templates");
    // The fake answers in the order requests are read: the served page's go first.
    settle().await;
    let page = open_cold(other, "/templates");
    page.wait_for_text_containing("tbody", "pytorch-base").await;
    let asked = fetch.calls_to("/users/7/templates/");
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[1].authorization, format!("Bearer {other}"));
}

#[wasm_bindgen_test]
async fn a_page_whose_reads_depend_on_its_address_is_left_to_ask_itself() {
    signed_in_as(KEY, USER, "/machines/maintenance?ids=1001");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", no_answer()),
        ("gpudeck/server", no_answer()),
    ]);
    start_as_the_served_page_does("/machines/maintenance?ids=1001");
    settle().await;
    let asked: Vec<String> = fetch.calls().into_iter().map(|call| call.url).collect();
    assert_eq!(asked.len(), 2, "only the shell's reads: {asked:?}");
}

#[wasm_bindgen_test]
async fn a_write_makes_the_answers_on_offer_stale() {
    use gpudeck::api::ApiClient;
    signed_in_as(KEY, USER, "/templates");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", no_answer()),
        ("gpudeck/server", no_answer()),
        ("/users/7/templates/", no_answer()),
        ("/users/7/templates", json(200, r#"{"success": true}"#)),
    ]);
    start_as_the_served_page_does("/templates");
    settle().await;
    assert_eq!(fetch.calls().len(), 3);
    let client = ApiClient::new(gpudeck::session::own_origin(), KEY);
    let _ = client.delete_template(7, 501).await;
    assert_eq!(fetch.calls()[3].method, "DELETE");
    for (index, read) in ["users/current", "gpudeck/server", "templates/"]
        .iter()
        .enumerate()
    {
        assert!(fetch.calls()[index].url.contains(read));
        assert!(request_aborted(index as u32), "{read} still on offer");
    }
}
