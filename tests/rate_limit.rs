//! The fetch layer and the server's rate limit: a 429 (or a read's 503) with
//! `Retry-After` is sent again after the wait, with the wait told to the page; a write
//! refused otherwise is never sent twice; every machine of an operation keeps its pace.
//! And the pages' bulk runs (scheduling, cancelling) say while they wait. The rolling
//! page's is in `tests/rolling.rs`.
#![cfg(target_arch = "wasm32")]

mod support;

use gpudeck::api::{ApiClient, ApiError};
use gpudeck::app::App;
use gpudeck_wire::MaintenanceCategory;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const USER: &str = r#"{"id": 7, "email": "a@x.test", "username": "ann", "balance": 3.5}"#;
const SCHEDULED: &str = r#"{"success": true, "results": [{"success": true, "machine_id": 1001, "notifications_sent": 0}]}"#;

/// A client whose waits are recorded.
fn client() -> (ApiClient, Rc<RefCell<Vec<Option<u32>>>>) {
    let waits = Rc::new(RefCell::new(Vec::new()));
    let seen = waits.clone();
    let client = ApiClient::new("http://api.test/", "secret-key-1234567890")
        .on_rate_limit_wait(Rc::new(move |wait| seen.borrow_mut().push(wait)));
    (client, waits)
}

async fn schedule(api: &ApiClient) -> Result<(), ApiError> {
    api.schedule_maintenance_batch(&[1001], 1.9e9, 2, &MaintenanceCategory::Disk)
        .await
        .map(|_| ())
}

#[wasm_bindgen_test]
async fn a_read_told_to_wait_one_second_is_sent_again_after_it() {
    let fetch = FakeFetch::install(vec![asked_to_wait(429, "1"), json(200, USER)]);
    let (api, waits) = client();
    let started = js_sys::Date::now();
    let user = api.current_user().await.expect("the second answer");
    assert_eq!(user.id, 7);
    assert!(js_sys::Date::now() - started >= 950.0, "it did not wait");
    assert_eq!(fetch.calls().len(), 2);
    assert_eq!(*waits.borrow(), [Some(1), None]);
}

#[wasm_bindgen_test]
async fn a_write_refused_with_429_was_not_applied_and_is_sent_again() {
    let fetch = FakeFetch::install(vec![asked_to_wait(429, "1"), json(200, SCHEDULED)]);
    let (api, waits) = client();
    let started = js_sys::Date::now();
    schedule(&api).await.expect("scheduled on the second try");
    assert!(js_sys::Date::now() - started >= 950.0);
    let calls = fetch.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].body, calls[1].body);
    assert_eq!(waits.borrow().first(), Some(&Some(1)));
}

#[wasm_bindgen_test]
async fn a_refused_write_is_not_sent_twice_unless_the_answer_says_so() {
    // A 503 may have been applied, Retry-After or not; a 500 likewise; a 429 with no
    // Retry-After says nothing of when.
    for reply in [
        asked_to_wait(503, "1"),
        json(500, r#"{"error": "internal", "msg": "boom"}"#),
        json(429, r#"{"error": "rate_limited", "msg": "slow down"}"#),
    ] {
        let status = reply.status;
        let fetch = FakeFetch::install(vec![reply, json(200, SCHEDULED)]);
        let (api, waits) = client();
        let error = schedule(&api).await.expect_err("refused");
        assert_eq!(error.status(), Some(status));
        assert_eq!(fetch.calls().len(), 1, "a {status} write was sent again");
        assert!(waits.borrow().is_empty());
    }
}

#[wasm_bindgen_test]
async fn after_a_429_the_endpoint_keeps_the_pace_it_asked_for() {
    let fetch = FakeFetch::install(vec![
        asked_to_wait(429, "1"),
        json(200, SCHEDULED),
        json(200, SCHEDULED),
    ]);
    let (api, _) = client();
    schedule(&api).await.unwrap();
    let second_done = js_sys::Date::now();
    schedule(&api).await.unwrap();
    // The next request on the endpoint waited for its slot, a second after the last.
    assert!(js_sys::Date::now() - second_done >= 900.0);
    assert_eq!(fetch.calls().len(), 3);
}

const CANCELLED: &str = r#"{"success": true, "msg": "deleted 1 scheduled maintenance window(s)"}"#;

#[wasm_bindgen_test]
async fn after_a_429_every_machine_of_the_operation_keeps_its_pace() {
    let fetch = FakeFetch::install(vec![
        asked_to_wait(429, "1"),
        json(200, CANCELLED),
        json(200, CANCELLED),
    ]);
    let (api, waits) = client();
    api.cancel_machine_maintenance(1001).await.unwrap();
    api.cancel_machine_maintenance(1002).await.unwrap();
    // Machine 1002's N5 waited its turn too, instead of being refused in its turn.
    assert_eq!(*waits.borrow(), [Some(1), None, Some(1), None]);
    assert_eq!(fetch.calls().len(), 3);
}

/// Signed in at `path` with times in UTC; the page's loads answered by `replies` (N1 for
/// machines 1001 to 1003, none with a window), then by `more`.
async fn page_at(path: &str, more: Vec<(&'static str, Reply)>) -> (Mounted, FakeFetch) {
    signed_in_as("key-for-rate-limit-tests", USER, path);
    session_storage().set_item("gpudeck.utc", "true").unwrap();
    let machines = (1001..=1003)
        .map(|id| machine_json(id, 0, "x x x x"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut replies = vec![
        ("users/current", json(200, USER)),
        (
            "/api/v0/machines?owner=me",
            json(200, leak(format!(r#"{{"machines": [{machines}]}}"#))),
        ),
        ("machine_ids", json(200, "[]")),
    ];
    replies.extend(more);
    let fetch = FakeFetch::install_by_url(replies);
    (mount(App), fetch)
}

/// Waits until the run's progress reads `text`.
async fn progress_reads(page: &Mounted, text: &str) -> bool {
    wait_until(3000, || {
        page.find("[data-testid=run-progress] label")
            .and_then(|label| label.text_content())
            .as_deref()
            == Some(text)
    })
    .await
}

#[wasm_bindgen_test]
async fn the_schedule_page_says_while_it_waits_for_the_rate_limit() {
    let (page, fetch) = page_at(
        "/machines/schedule?ids=1001-1003",
        vec![
            ("maintenances/batch", asked_to_wait(429, "1")),
            (
                "maintenances/batch",
                json(
                    200,
                    r#"{"success": true, "results": [
                    {"success": true, "machine_id": 1001, "notifications_sent": 0},
                    {"success": true, "machine_id": 1002, "notifications_sent": 0},
                    {"success": true, "machine_id": 1003, "notifications_sent": 0}]}"#,
                ),
            ),
        ],
    )
    .await;
    assert!(wait_until(3000, || page.find("#schedule-start").is_some()).await);
    let tomorrow = (now() / 3600.0).floor() * 3600.0 + 86_400.0;
    page.type_into("#schedule-start", &typed(tomorrow));
    settle().await;
    page.click(".schedule-form button[type=submit]");
    settle().await;
    page.click("dialog[open] .button.primary");

    assert!(
        progress_reads(
            &page,
            "Scheduled 0 of 3 machines, waiting for the rate limit, 1 s"
        )
        .await,
        "{}",
        page.root.inner_html()
    );
    assert!(
        wait_until(3000, || page
            .find("[data-testid=schedule-result]")
            .is_some())
        .await
    );
    assert_eq!(
        page.text("#schedule-result-heading"),
        "Scheduled on 3 of 3 machines"
    );
    assert!(page.find("[data-testid=run-progress]").is_none());
    let batches: Vec<Call> = fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "POST")
        .collect();
    assert_eq!(batches.len(), 2);
    assert_eq!(batches[0].body, batches[1].body);
}

#[wasm_bindgen_test]
async fn the_machines_bulk_cancel_says_while_it_waits_for_the_rate_limit() {
    let (page, fetch) = page_at(
        "/machines",
        vec![
            ("machines/1001/cancel_maint", asked_to_wait(429, "1")),
            ("machines/1001/cancel_maint", json(200, CANCELLED)),
            ("machines/1002/cancel_maint", json(200, CANCELLED)),
            ("machines/1003/cancel_maint", json(200, CANCELLED)),
        ],
    )
    .await;
    assert!(wait_until(3000, || page.all("tbody tr[aria-rowindex]").len() == 3).await);
    page.click("thead input[type=checkbox]");
    settle().await;
    page.click("[data-action=cancel]");
    settle().await;
    page.click("dialog[open] .button.danger");

    // 1002 and 1003 are answered while 1001 waits for its turn.
    assert!(
        progress_reads(
            &page,
            "Cancelled 2 of 3 machines, waiting for the rate limit, 1 s"
        )
        .await,
        "{}",
        page.root.inner_html()
    );
    assert!(wait_until(3000, || page.find("[data-testid=cancel-result]").is_some()).await);
    let results: Vec<String> = page
        .all("[data-testid=cancel-result] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(
        results,
        [1001, 1002, 1003].map(|id| format!("Machine {id}: 1 scheduled window cancelled"))
    );
    let sent: Vec<String> = fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "PUT")
        .map(|c| c.url)
        .collect();
    assert_eq!(sent.len(), 4, "1001 twice, the others once: {sent:?}");
}
