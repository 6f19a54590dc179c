//! The fetch layer and the server's rate limit: a 429 (or a read's 503) with
//! `Retry-After` is sent again after the wait, with the wait told to the page; a write
//! refused otherwise is never sent twice.
#![cfg(target_arch = "wasm32")]

mod support;

use gpudeck::api::{ApiClient, ApiError};
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
