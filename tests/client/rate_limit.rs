//! The fetch layer and rate limits as the public service answers them (spec neighbours
//! §1.5): a 429 in every shape (JSON with or without `Retry-After`, plain text) is waited
//! for and sent again, reads and writes alike, up to a bound; the endpoint then keeps its
//! public interval (or a longer `Retry-After`); bulk actions keep it from their first
//! request. A write with no answer is unknown and never sent again by itself. And the
//! pages' bulk runs say while they wait, and settle a lost answer by a re-read. The rolling
//! page's is in `tests/pages/rolling.rs`. Pacing is checked by when the requests were sent.

use crate::support::*;
use gpudeck::api::pacing::scale_public_intervals;
use gpudeck::api::{ApiClient, ApiError, Outcome, Refusal, MAX_RATE_LIMIT_RETRIES};
use gpudeck::app::App;
use gpudeck_wire::MaintenanceCategory;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::*;

const USER: &str = r#"{"id": 7, "email": "a@x.test", "username": "ann", "balance": 3.5}"#;
const SCHEDULED: &str = r#"{"success": true, "results": [{"success": true, "machine_id": 1001, "notifications_sent": 0}]}"#;
/// The public service's refusal, as its docs give it.
const TOO_FREQUENT: &str = "API requests too frequent: endpoint threshold=2.0";

/// The public intervals a tenth as long in these tests: N4 0.2 s, N5 0.25 s, N1 0.25 s.
const SCALE: f64 = 0.1;

/// A client (its public intervals scaled by [`SCALE`]) whose waits are recorded.
fn client() -> (ApiClient, Rc<RefCell<Vec<Option<u32>>>>) {
    scale_public_intervals(SCALE);
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

/// Milliseconds between the sending of each call and the one before.
fn gaps(calls: &[Call]) -> Vec<f64> {
    calls.windows(2).map(|w| w[1].at - w[0].at).collect()
}

/// Asserts that `calls` are `count` and each was sent at least `ms` after the one before.
fn assert_spaced(calls: &[Call], count: usize, ms: f64) {
    assert_eq!(calls.len(), count);
    let gaps = gaps(calls);
    assert!(
        gaps.iter().all(|&gap| gap >= ms),
        "sent too close: {gaps:?}"
    );
}

#[wasm_bindgen_test]
async fn a_read_told_to_wait_one_second_is_sent_again_after_it() {
    let fetch = FakeFetch::install(vec![asked_to_wait(429, "1"), json(200, USER)]);
    let (api, waits) = client();
    let user = api.current_user().await.expect("the second answer");
    assert_eq!(user.id, 7);
    assert_spaced(&fetch.calls(), 2, 1000.0);
    assert_eq!(*waits.borrow(), [Some(1), None]);
}

#[wasm_bindgen_test]
async fn a_write_refused_with_429_and_a_longer_retry_after_is_sent_again_after_it() {
    let fetch = FakeFetch::install(vec![asked_to_wait(429, "1"), json(200, SCHEDULED)]);
    let (api, waits) = client();
    schedule(&api).await.expect("scheduled on the second try");
    let calls = fetch.calls();
    assert_eq!(calls[0].body, calls[1].body);
    // One second, longer than N4's (scaled) public interval, wins.
    assert_spaced(&calls, 2, 1000.0);
    assert_eq!(waits.borrow().first(), Some(&Some(1)));
}

#[wasm_bindgen_test]
async fn a_429_without_retry_after_json_or_plain_text_waits_the_public_interval() {
    for refusal in [
        json(
            429,
            r#"{"success": false, "error": "rate_limited", "msg": "API requests too frequent"}"#,
        ),
        text(429, TOO_FREQUENT),
    ] {
        let fetch = FakeFetch::install(vec![refusal, json(200, SCHEDULED)]);
        let (api, _) = client();
        schedule(&api)
            .await
            .expect("a 429 was not applied, so it is sent again");
        let calls = fetch.calls();
        assert_eq!(calls[0].body, calls[1].body);
        // N4's public 2 s, scaled.
        assert_spaced(&calls, 2, 2000.0 * SCALE);
    }
}

#[wasm_bindgen_test]
async fn a_read_refused_with_a_plain_text_429_waits_for_its_slot_and_shows_nothing() {
    let fetch = FakeFetch::install(vec![
        text(429, "API requests too frequent: endpoint threshold=2.5"),
        json(200, r#"{"machines": []}"#),
    ]);
    let (api, _) = client();
    let machines = api.machines().await.expect("the refusal is never shown");
    assert!(machines.is_empty());
    let calls = fetch.calls();
    // N1's public 2.5 s, scaled; not the 0.4 s of a network retry.
    assert_spaced(&calls, 2, 2500.0 * SCALE);
}

#[wasm_bindgen_test]
async fn a_write_refused_past_the_bound_is_refused_in_plain_words() {
    scale_public_intervals(0.01);
    let mut replies: Vec<Reply> = (0..=MAX_RATE_LIMIT_RETRIES)
        .map(|_| text(429, TOO_FREQUENT))
        .collect();
    replies.push(json(200, SCHEDULED));
    let fetch = FakeFetch::install(replies);
    let api = ApiClient::new("http://api.test/", "secret-key-1234567890");
    let error = schedule(&api).await.expect_err("refused every time");
    assert_eq!(fetch.calls().len() as u32, 1 + MAX_RATE_LIMIT_RETRIES);
    assert_eq!(error.outcome(), Outcome::Refused(Refusal::TooFrequent));
    assert!(
        error
            .message()
            .starts_with("not done: the server refused it as too frequent"),
        "{}",
        error.message()
    );
}

/// A 429 that waiting a minute will not lift is said at once, with when to try again:
/// a `Retry-After` of an hour, or a daily search quota (spec neighbours §1.5).
#[wasm_bindgen_test]
async fn a_429_not_worth_waiting_out_is_reported_at_once_with_when_to_try_again() {
    for (reply, said) in [
        (
            asked_to_wait(429, "3600"),
            "not done: the server asks to wait more than a minute before the next request",
        ),
        (
            json(
                429,
                r#"{"success": false, "error": "search_quota_exceeded", "msg": "Daily search quota reached"}"#,
            ),
            "not done: the daily search quota is used up; try again once it resets (daily) \
             (the server said: Daily search quota reached)",
        ),
    ] {
        let fetch = FakeFetch::install(vec![reply, json(200, SCHEDULED)]);
        let (api, waits) = client();
        let error = schedule(&api).await.expect_err("refused at once");
        assert_eq!(fetch.calls().len(), 1, "sent again: {}", error.message());
        assert!(waits.borrow().is_empty(), "waited: {:?}", waits.borrow());
        assert_eq!(error.outcome(), Outcome::Refused(Refusal::TooFrequent));
        assert!(error.message().starts_with(said), "{}", error.message());
    }
    // The hour's wait names the minute to try again after.
    let _fetch = FakeFetch::install(vec![asked_to_wait(429, "3600")]);
    let error = client()
        .0
        .current_user()
        .await
        .expect_err("refused at once");
    assert!(
        error.message().contains("; try again after 20"),
        "{}",
        error.message()
    );
}

#[wasm_bindgen_test]
async fn a_refused_write_is_not_sent_twice_unless_the_answer_says_so() {
    // A 503 may have been applied, Retry-After or not; a 500 likewise.
    for reply in [
        asked_to_wait(503, "1"),
        json(500, r#"{"error": "internal", "msg": "boom"}"#),
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
async fn a_write_with_no_answer_is_unknown_and_never_sent_again_by_itself() {
    let fetch = FakeFetch::install(vec![network_failure(), json(200, SCHEDULED)]);
    let (api, _) = client();
    let error = schedule(&api).await.expect_err("no answer");
    assert_eq!(fetch.calls().len(), 1);
    assert_eq!(error.outcome(), Outcome::Unknown);
    assert!(
        !error.message().contains("could not reach"),
        "it was sent: {}",
        error.message()
    );
    assert!(
        error.message().contains("may have been done"),
        "{}",
        error.message()
    );
    // A gateway that gave up waiting for the server does not know either.
    let _fetch = FakeFetch::install(vec![text(504, "Gateway Timeout")]);
    let error = schedule(&api).await.expect_err("no answer");
    assert_eq!(error.outcome(), Outcome::Unknown);
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
    schedule(&api).await.unwrap();
    // The next request on the endpoint waited for its slot, a second after the last.
    let calls = fetch.calls();
    assert_spaced(&calls, 3, 1000.0);
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
    let calls = fetch.calls();
    assert_spaced(&calls, 3, 1000.0);
}

#[wasm_bindgen_test]
async fn a_bulk_action_keeps_the_public_interval_from_its_first_request() {
    let fetch = FakeFetch::install((0..4).map(|_| json(200, CANCELLED)).collect());
    let (api, _) = client();
    let paced = api.paced_from_the_start();
    let sent = (1001..=1003).map(|id| paced.cancel_machine_maintenance(id));
    for answer in futures::future::join_all(sent).await {
        answer.expect("never refused: it kept the pace");
    }
    let calls = fetch.calls();
    for (call, id) in calls.iter().zip(1001..=1003) {
        assert!(
            call.url.contains(&format!("/machines/{id}/cancel_maint")),
            "{}",
            call.url
        );
    }
    // N5's public 2.5 s, scaled, between each two, though all three were asked at once.
    assert_spaced(&calls, 3, 2500.0 * SCALE);
    // The pace holds for the whole session's client, paced or not, once set.
    if let Err(error) = api.cancel_machine_maintenance(1004).await {
        let urls: Vec<String> = fetch.calls().into_iter().map(|c| c.url).collect();
        panic!("machine 1004: {error:?}, after {urls:?}");
    }
    assert_spaced(&fetch.calls(), 4, 2500.0 * SCALE);
}

/// N1's answer: machines 1001 to 1003, none rented.
fn three_machines() -> &'static str {
    let machines: Vec<String> = (1001..=1003)
        .map(|id| machine_json(id, 0, "x x x x"))
        .collect();
    leak(format!(r#"{{"machines": [{}]}}"#, machines.join(", ")))
}

/// Signed in at `path` with times in UTC; the page's loads answered by `replies` (N1 for
/// machines 1001 to 1003, none with a window), then by `more`.
async fn page_at(path: &str, more: Vec<(&'static str, Reply)>) -> (Mounted, FakeFetch) {
    scale_public_intervals(SCALE);
    signed_in_as("key-for-rate-limit-tests", USER, path);
    session_storage().set_item("gpudeck.utc", "true").unwrap();
    let mut replies = vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, three_machines())),
        ("machine_ids", json(200, "[]")),
    ];
    replies.extend(more);
    let fetch = FakeFetch::install_by_url(replies);
    (mount(App), fetch)
}

/// Fills the schedule page's form with a window at `start` and confirms it.
async fn schedule_at(page: &Mounted, start: f64) {
    page.wait_for("#schedule-start").await;
    page.type_into("#schedule-start", &typed(start));
    settle().await;
    page.click(".schedule-form button[type=submit]");
    settle().await;
    page.click("dialog[open] .button.primary");
}

/// On the Machines page of [`page_at`]: selects the three machines and confirms the
/// cancellation of their maintenance.
async fn cancel_all_three(page: &Mounted) {
    page.wait_for_count("tbody tr[aria-rowindex]", 3).await;
    page.click("thead input[type=checkbox]");
    settle().await;
    page.click("[data-action=cancel]");
    settle().await;
    page.click("dialog[open] .button.danger");
}

/// The lines of the bulk cancel's result, once it shows.
async fn cancel_results(page: &Mounted) -> Vec<String> {
    page.wait_for("[data-testid=cancel-result]").await;
    page.all("[data-testid=cancel-result] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect()
}

/// Waits until the windows have been read `times` times in all: a page's reload after a
/// run is done before the next test scripts its own answers.
async fn windows_read(fetch: &FakeFetch, times: usize) {
    let reads = || {
        fetch
            .calls()
            .iter()
            .filter(|c| c.url.contains("machine_ids"))
            .count()
    };
    assert!(wait_until(3000, || reads() == times).await);
    settle().await;
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
            // The page's reload after the run.
            ("/api/v0/machines?owner=me", json(200, three_machines())),
            ("machine_ids", json(200, "[]")),
        ],
    )
    .await;
    schedule_at(&page, (now() / 3600.0).floor() * 3600.0 + 86_400.0).await;

    assert!(
        progress_reads(
            &page,
            "Scheduled 0 of 3 machines, waiting for the rate limit, 1 s"
        )
        .await,
        "{}",
        page.root.inner_html()
    );
    page.wait_for("[data-testid=schedule-result]").await;
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
    windows_read(&fetch, 2).await;
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
            // The page's reload after the run.
            ("/api/v0/machines?owner=me", json(200, three_machines())),
            ("machine_ids", json(200, "[]")),
        ],
    )
    .await;
    cancel_all_three(&page).await;

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
    let results = cancel_results(&page).await;
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
    windows_read(&fetch, 2).await;
}

#[wasm_bindgen_test]
async fn the_bulk_cancel_says_how_long_it_takes_at_the_public_pace() {
    let (page, _fetch) = page_at("/machines", vec![]).await;
    page.wait_for_count("tbody tr[aria-rowindex]", 3).await;
    page.click("thead input[type=checkbox]");
    settle().await;
    page.click("[data-action=cancel]");
    settle().await;
    assert_eq!(
        page.text("dialog[open] [data-testid=paced-duration]"),
        "3 machines: about 5 s at the public service's pace."
    );
}

/// The schedule page, machines 1001 and 1002 and a window tomorrow: the batch is sent and
/// no answer comes. The re-read finds the window on 1001 only.
#[wasm_bindgen_test]
async fn a_schedule_with_no_answer_says_so_and_shows_what_the_reread_found() {
    let tomorrow = (now() / 3600.0).floor() * 3600.0 + 86_400.0;
    let found = leak(format!("[{}]", window_json(77, 1001, tomorrow, 2)));
    let (page, fetch) = page_at(
        "/machines/schedule?ids=1001-1002",
        vec![
            ("maintenances/batch", network_failure()),
            // The re-read of the two machines' windows, then the page's reload.
            ("machine_ids", json(200, found)),
            ("/api/v0/machines?owner=me", json(200, three_machines())),
            ("machine_ids", json(200, found)),
        ],
    )
    .await;
    schedule_at(&page, tomorrow).await;
    page.wait_for("[data-testid=schedule-result]").await;
    let results: Vec<String> = page
        .all("[data-testid=schedule-result] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(
        results,
        [
            "Machine 1002: no answer came, and the re-read shows no such window: not scheduled",
            "Machine 1001: no answer came, but the re-read shows the window scheduled",
        ]
    );
    assert!(!page.root.inner_html().contains("could not reach"));
    let sent: Vec<Call> = fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "POST")
        .collect();
    assert_eq!(
        sent.len(),
        1,
        "a write with no answer is not sent again by itself"
    );
    let reread = fetch
        .calls()
        .into_iter()
        .filter(|c| c.url.contains("machine_ids"))
        .nth(1)
        .expect("the windows were read again");
    assert!(
        reread.url.contains("1001") && reread.url.contains("1002"),
        "{}",
        reread.url
    );
    // Trying again offers only the machine the re-read did not find.
    assert_eq!(
        page.text("[data-testid=schedule-result] .form-actions button"),
        "Retry the 1 refused…"
    );
    // The page then reloads the fleet, so the overlap check knows the window found; its
    // last request is done before the next test scripts its own answers.
    windows_read(&fetch, 3).await;
}

#[wasm_bindgen_test]
async fn a_bulk_cancel_with_a_lost_answer_shows_what_the_reread_found() {
    let tomorrow = (now() / 3600.0).floor() * 3600.0 + 86_400.0;
    // After the run, machine 1003's window is still there; 1002's is gone.
    let reread = leak(format!("[{}]", window_json(9, 1003, tomorrow, 2)));
    let (page, fetch) = page_at(
        "/machines",
        vec![
            ("machines/1001/cancel_maint", json(200, CANCELLED)),
            ("machines/1002/cancel_maint", network_failure()),
            ("machines/1003/cancel_maint", network_failure()),
            ("machine_ids", json(200, reread)),
            ("/api/v0/machines?owner=me", json(200, three_machines())),
            ("machine_ids", json(200, reread)),
        ],
    )
    .await;
    cancel_all_three(&page).await;
    let results = cancel_results(&page).await;
    assert_eq!(
        results,
        [
            "Machine 1001: 1 scheduled window cancelled",
            "Machine 1002: no answer came, but the re-read shows no window of yours left: \
             cancelled",
            "Machine 1003: no answer came, and the re-read shows 1 scheduled window still \
             there: not cancelled",
        ]
    );
    assert!(!page.root.inner_html().contains("could not reach"));
    let sent = fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "PUT")
        .count();
    assert_eq!(sent, 3, "nothing sent again by itself");
    let reread = fetch
        .calls()
        .into_iter()
        .filter(|c| c.url.contains("machine_ids"))
        .nth(1)
        .expect("the windows were read again");
    // The query alone: the test server's port may hold "1001" too.
    let ids = reread.url.split_once('?').map_or("", |(_, query)| query);
    assert!(
        ids.contains("1002") && ids.contains("1003") && !ids.contains("1001"),
        "only the machines with no answer: {}",
        reread.url
    );
    // Let the page's reload finish before the next test scripts its answers.
    windows_read(&fetch, 3).await;
}
