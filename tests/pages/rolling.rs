//! The rolling maintenance page in a real browser, its server scripted: the plan made
//! from the loaded fleet, the machines that do not fit with their reasons, a start moved by
//! hand and checked again at once, the plan kept across a reload, and scheduling: one N4
//! request per distinct start, a refused machine left in the plan, the wait for the rate
//! limit shown; these plan in the "notify renters now" mode. In the contract-safe mode,
//! each offer is ended before its window, a machine whose offer step failed keeps its
//! window unsent, and a retry sends only the steps not done. The planner itself is
//! `crates/fleet-plan`'s unit and property tests.

use crate::support::*;
use gpudeck::app::App;
use gpudeck::components::time::format_absolute;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const KEY: &str = "key-for-rolling-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;
const PLAN_KEY: &str = "gpudeck.rolling-plan";
const HOUR: f64 = 3600.0;

/// Tomorrow on the hour: the plan's earliest start. The deadline is eight hours later.
fn earliest_start() -> f64 {
    (now() / HOUR).floor() * HOUR + 86_400.0
}

/// The planner's address: machines 1001 to 1004 and 9999, two hours each, one at a time,
/// within eight hours from `from`, renters notified now.
fn address(from: f64) -> String {
    format!(
        "/machines/rolling?ids=1001-1004,9999&from={}&until={}&hours=2&cap=1&category=disk\
         &mode=notify",
        typed(from),
        typed(from + 8.0 * HOUR)
    )
}

/// What loading the page asks: the caller, N1 (machines 1001 to 1004 with 0, 1, 2 and 0
/// running rentals) and seed op 1 (1004 is down for the whole range already).
fn fleet_replies(from: f64) -> Vec<(&'static str, Reply)> {
    let machines = [(1001, 0), (1002, 1), (1003, 2), (1004, 0)]
        .map(|(id, rentals)| machine_json(id, rentals, "x x x x"))
        .join(", ");
    let windows = leak(format!(
        r#"[{{"id": 7, "machine_id": 1004, "start_time": {start}, "duration_hours": 10,
        "maintenance_category": "power", "maintenance_reason": null, "created_at": {created},
        "cancelled_at": null, "end_time": {end}}}]"#,
        start = from - HOUR,
        end = from + 9.0 * HOUR,
        created = now() - 60.0,
    ));
    vec![
        ("users/current", json(200, USER)),
        (
            "/api/v0/machines?owner=me",
            json(200, leak(format!(r#"{{"machines": [{machines}]}}"#))),
        ),
        ("machine_ids", json(200, windows)),
    ]
}

/// The page for [`address`], in UTC, once its plan shows. `more` answers what the test
/// goes on to ask.
async fn planner(from: f64, fresh: bool, more: Vec<(&'static str, Reply)>) -> (Mounted, FakeFetch) {
    // A plan of several starts keeps N4's public pace from its first request: a tenth of
    // it here.
    gpudeck::api::pacing::scale_public_intervals(0.1);
    if fresh {
        signed_in_as(KEY, USER, &address(from));
    } else {
        go_to(&address(from));
    }
    session_storage().set_item("gpudeck.utc", "true").unwrap();
    let mut replies = fleet_replies(from);
    replies.extend(more);
    let fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for("[data-testid=planned-count]").await;
    // The plan's rows after its first: built in the frame after the first row.
    settle().await;
    (page, fetch)
}

/// The start field of `machine`'s row, while it is not scheduled.
fn start_field(page: &Mounted, machine: i64) -> Option<web_sys::HtmlInputElement> {
    page.find(&format!(
        "input.plan-start[aria-label='Start of machine {machine}']"
    ))
    .map(JsCast::unchecked_into)
}

fn start_of(page: &Mounted, machine: i64) -> String {
    start_field(page, machine)
        .unwrap_or_else(|| panic!("machine {machine} has no start field"))
        .value()
}

/// Moves `machine`'s start by hand, as a person picking a date and time does.
fn move_start(page: &Mounted, machine: i64, to: f64) {
    let field = start_field(page, machine).unwrap();
    field.set_value(&typed(to));
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    field
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap())
        .unwrap();
}

/// The text of `machine`'s row in the plan's State column.
fn state_of(page: &Mounted, machine: i64) -> String {
    let machines = column_texts(page, ".plan", "machine");
    let states = column_texts(page, ".plan", "state");
    let row = machines
        .iter()
        .position(|m| *m == machine.to_string())
        .unwrap_or_else(|| panic!("machine {machine} is not in the plan: {machines:?}"));
    states[row].clone()
}

fn batch_calls(fetch: &FakeFetch) -> Vec<Value> {
    fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "POST" && c.url.contains("maintenances/batch"))
        .map(|c| serde_json::from_str(&c.body).unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn the_plan_gives_each_machine_a_start_and_lists_those_that_do_not_fit() {
    let from = earliest_start();
    let (page, fetch) = planner(from, true, Vec::new()).await;
    assert_eq!(page.text("[data-testid=planned-count]"), "3");
    assert_eq!(page.text("[data-testid=peak-machines]"), "1");
    // Idle first, then by fewest running rentals; one at a time, two hours each.
    assert_eq!(start_of(&page, 1001), typed(from));
    assert_eq!(start_of(&page, 1002), typed(from + 2.0 * HOUR));
    assert_eq!(start_of(&page, 1003), typed(from + 4.0 * HOUR));
    for machine in [1001, 1002, 1003] {
        assert_eq!(state_of(&page, machine), "Planned");
    }
    // Neither the machine that is not the host's nor the one with no gap is dropped.
    let unfit: Vec<String> = page
        .all("[data-testid=plan-unfit] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(
        unfit,
        [
            "Machine 9999: it is not one of your machines.",
            "Machine 1004: its existing windows leave no gap before the deadline.",
        ]
    );
    assert!(page
        .text("[data-testid=plan-unfit]")
        .starts_with("2 machines do not fit:"));
    assert!(page.find("[data-testid=plan-violations]").is_none());
    assert_eq!(
        page.text("[data-action=schedule-plan]"),
        "Schedule 3 windows…"
    );
    assert!(fetch.calls().iter().all(|c| c.method == "GET"));
}

#[wasm_bindgen_test]
async fn a_start_moved_by_hand_is_checked_at_once_and_kept_across_a_reload() {
    let from = earliest_start();
    let (page, _fetch) = planner(from, true, Vec::new()).await;

    // 1002 onto 1001's window: two machines down at once, over the cap of one.
    move_start(&page, 1002, from);
    assert!(wait_until(2000, || page.text("[data-testid=peak-machines]") == "2").await);
    let broken = page.text("[data-testid=plan-violations]");
    assert!(
        broken.contains("2 machines (8 GPUs) are down: more than the cap."),
        "{broken}"
    );
    // 1003 before the earliest start: its own row says so.
    move_start(&page, 1003, from - 2.0 * HOUR);
    assert!(
        wait_until(2000, || state_of(&page, 1003)
            .contains("is not between the earliest start and the deadline"))
        .await,
        "{}",
        state_of(&page, 1003)
    );
    assert_eq!(state_of(&page, 1001), "Planned");

    // The edited plan is this tab's until it is scheduled: a reload brings it back.
    let kept = session_storage().get_item(PLAN_KEY).unwrap().unwrap();
    assert!(kept.contains(&format!("[1002,{}]", from as i64)), "{kept}");
    drop(page);
    let (page, _fetch) = planner(from, false, Vec::new()).await;
    assert_eq!(start_of(&page, 1002), typed(from));
    assert_eq!(start_of(&page, 1003), typed(from - 2.0 * HOUR));
    assert_eq!(page.text("[data-testid=peak-machines]"), "2");
    assert!(page.find("[data-testid=plan-violations]").is_some());
}

#[wasm_bindgen_test]
async fn scheduling_sends_one_batch_per_start_and_leaves_a_refused_machine_in_the_plan() {
    let from = earliest_start();
    let scheduled = |id: i64| {
        json(
            200,
            leak(format!(
                r#"{{"success": true, "results": [{{"success": true, "machine_id": {id}, "notifications_sent": 1}}]}}"#
            )),
        )
    };
    let (page, fetch) = planner(
        from,
        true,
        vec![
            ("maintenances/batch", scheduled(1001)),
            // The second start is told to wait, then refused as a whole.
            ("maintenances/batch", asked_to_wait(429, "1")),
            (
                "maintenances/batch",
                json(
                    404,
                    r#"{"error": "not_found", "msg": "No such machine id"}"#,
                ),
            ),
            ("maintenances/batch", scheduled(1003)),
        ],
    )
    .await;
    page.click("[data-action=schedule-plan]");
    page.wait_for("dialog[open]").await;
    assert!(page
        .text("dialog[open]")
        .contains("3 windows of 2 hours, sent in 3 requests (one per start)."));
    page.click("dialog[open] .confirm-actions button:last-child");

    // While the second start waits for the rate limit, the progress says so.
    assert!(
        wait_until(3000, || page
            .find("[data-testid=run-progress] label")
            .and_then(|p| p.text_content())
            .as_deref()
            == Some(
                "Scheduled 1 of 3 machines, waiting for the rate limit, 1 s"
            ))
        .await,
        "{}",
        page.root.inner_html()
    );
    page.wait_for("[data-testid=plan-result]").await;

    // One request per start, each with its machine and the plan's duration and category.
    let sent: Vec<(Value, Value, Value, Value)> = batch_calls(&fetch)
        .into_iter()
        .map(|b| {
            (
                b["machine_ids"].clone(),
                b["sdate"].clone(),
                b["duration"].clone(),
                b["maintenance_category"].clone(),
            )
        })
        .collect();
    let expected = |id: i64, start: f64| {
        (
            serde_json::json!([id]),
            serde_json::json!(start),
            serde_json::json!(2.0),
            serde_json::json!("disk"),
        )
    };
    assert_eq!(
        sent,
        [
            expected(1001, from),
            expected(1002, from + 2.0 * HOUR),
            expected(1002, from + 2.0 * HOUR),
            expected(1003, from + 4.0 * HOUR),
        ],
        "the refused-with-429 request was sent again, and nothing else twice"
    );

    let results: Vec<String> = page
        .all("[data-testid=plan-result] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(
        results,
        [
            "Machine 1002: No such machine id",
            "Machine 1001: scheduled, 1 renter notified",
            "Machine 1003: scheduled, 1 renter notified",
        ]
    );
    // Back on the market after the work: a link to the Machines page for the machines the
    // plan took down (not the refused one), showing those maintained and not listed.
    assert_eq!(
        page.get("[data-testid=back-on-the-market] a")
            .get_attribute("href")
            .as_deref(),
        Some("/machines?ids=1001,1003&health=maintained-not-listed")
    );
    // The refused machine stays in the plan to try again; the others are done.
    assert_eq!(state_of(&page, 1001), "Scheduled");
    assert_eq!(state_of(&page, 1003), "Scheduled");
    assert_eq!(start_of(&page, 1002), typed(from + 2.0 * HOUR));
    assert_eq!(
        page.text("[data-action=schedule-plan]"),
        "Schedule the 1 remaining…"
    );
    let kept = session_storage().get_item(PLAN_KEY).unwrap().unwrap();
    assert!(kept.contains(r#""scheduled":[1001,1003]"#), "{kept}");
    assert!(page.find(".error-panel").is_none());
}

fn offer_calls(fetch: &FakeFetch) -> Vec<(i64, f64)> {
    fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "PUT" && c.url.contains("create_asks"))
        .map(|c| {
            let body: Value = serde_json::from_str(&c.body).unwrap();
            (
                body["machine"].as_i64().unwrap(),
                body["end_date"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The contract-safe planner for machines 1001 (listed open-ended, vacant), 1002 (listed
/// open-ended, one rental ending an hour after `from`) and 1003 (a rental with no end
/// date), in UTC, once its plan shows.
async fn contract_safe_planner(
    from: f64,
    more: Vec<(&'static str, Reply)>,
) -> (Mounted, FakeFetch) {
    contract_safe_planner_of(contract_safe_fleet(from), from, more).await
}

/// N1's machines for [`contract_safe_planner`].
fn contract_safe_fleet(from: f64) -> [String; 3] {
    let rented = |id: i64, client_end: &str| {
        machine_json(id, 1, "D x x x").replace(
            r#""earn_day": 12.5"#,
            &format!(r#""earn_day": 12.5, "client_end_date": {client_end}"#),
        )
    };
    [
        machine_json(1001, 0, "x x x x"),
        rented(1002, &(from + HOUR).to_string()),
        rented(1003, "null"),
    ]
}

/// N1's answer holding `machines`: what a contract-safe run reads again before each start.
fn fleet_reply(machines: &[String]) -> (&'static str, Reply) {
    (
        "/api/v0/machines?owner=me",
        json(
            200,
            leak(format!(r#"{{"machines": [{}]}}"#, machines.join(", "))),
        ),
    )
}

/// `machine` (N1's JSON of it) with `field` set to `value`.
fn with_field(machine: &str, field: &str, value: f64) -> String {
    machine.replace(
        r#""earn_day": 12.5"#,
        &format!(r#""earn_day": 12.5, "{field}": {value}"#),
    )
}

/// The contract-safe planner for machines 1001 to 1003 as `machines` gives them.
async fn contract_safe_planner_of(
    machines: [String; 3],
    from: f64,
    more: Vec<(&'static str, Reply)>,
) -> (Mounted, FakeFetch) {
    gpudeck::api::pacing::scale_public_intervals(0.01);
    signed_in_as(
        KEY,
        USER,
        &format!(
            "/machines/rolling?ids=1001-1003&from={}&until={}&hours=2&cap=1&category=disk",
            typed(from),
            typed(from + 8.0 * HOUR)
        ),
    );
    session_storage().set_item("gpudeck.utc", "true").unwrap();
    let mut replies = vec![
        ("users/current", json(200, USER)),
        fleet_reply(&machines),
        ("machine_ids", json(200, "[]")),
    ];
    replies.extend(more);
    let fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for("[data-testid=planned-count]").await;
    // The plan's rows after its first: built in the frame after the first row.
    settle().await;
    (page, fetch)
}

/// Opens the dialog, confirms it, and waits for the run that sends the `batches`th N4
/// request to end.
async fn schedule_and_wait(page: &Mounted, fetch: &FakeFetch, batches: usize) {
    page.click("[data-action=schedule-plan]");
    page.wait_for("dialog[open]").await;
    page.click("dialog[open] .confirm-actions button:last-child");
    assert!(
        wait_until(5000, || batch_calls(fetch).len() == batches
            && page.find("[data-testid=run-progress]").is_none())
        .await,
        "{}",
        page.root.inner_html()
    );
}

fn result_texts(page: &Mounted) -> Vec<String> {
    page.all("[data-testid=plan-result] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn a_contract_safe_plan_ends_each_offer_first_and_a_retry_sends_only_what_is_left() {
    let from = earliest_start();
    let ok = |extended: i64| {
        json(
            200,
            leak(format!(
                r#"{{"success": true, "extended": {extended}, "msg": "offer updated"}}"#
            )),
        )
    };
    let scheduled = |id: i64| {
        json(
            200,
            leak(format!(
                r#"{{"success": true, "results": [{{"success": true, "machine_id": {id}, "notifications_sent": 0}}]}}"#
            )),
        )
    };
    let refused = json(
        400,
        r#"{"error": "invalid_args", "msg": "end_date must be in the future"}"#,
    );
    // Each start's machines are read again first: unchanged, then (third run) with 1002's
    // offer ending with its rental, as the second run set it.
    let fleet = contract_safe_fleet(from);
    let mut ended = fleet.clone();
    ended[1] = with_field(&fleet[1], "end_date", from + HOUR);
    let (page, fetch) = contract_safe_planner(
        from,
        vec![
            // First run: 1001's offer ends, 1002's is refused; only 1001's window goes.
            fleet_reply(&fleet),
            fleet_reply(&fleet),
            ("create_asks", ok(0)),
            ("create_asks", refused),
            ("maintenances/batch", scheduled(1001)),
            // Second run: 1002's offer ends, its window is refused.
            fleet_reply(&fleet),
            ("create_asks", ok(1)),
            (
                "maintenances/batch",
                json(
                    404,
                    r#"{"error": "not_found", "msg": "No such machine id"}"#,
                ),
            ),
            // Third run: only its window.
            fleet_reply(&ended),
            ("maintenances/batch", scheduled(1002)),
        ],
    )
    .await;
    // 1003's rental has no end date: not planned, and said why.
    assert_eq!(page.text("[data-testid=planned-count]"), "2");
    assert!(page
        .text("[data-testid=plan-unfit]")
        .contains("Machine 1003: a rental has no end date"));
    // 1002 waits for its rental (an hour after the earliest start): after 1001's window.
    let start_1001 = from;
    let start_1002 = from + 2.0 * HOUR;
    assert_eq!(start_of(&page, 1001), typed(start_1001));
    assert_eq!(start_of(&page, 1002), typed(start_1002));
    let changes: Vec<String> = page
        .all("[data-testid=offer-changes] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect();
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert!(changes[0].starts_with("Machine 1001: The offer has no end date; it will end at"));
    assert!(changes[1].starts_with("Machine 1002: The offer has no end date; it will end at"));
    assert!(page.text("[data-testid=offer-changes]").contains(
        "rolling offers renew daily; the end date is set so that no new rental crosses the window"
    ));

    schedule_and_wait(&page, &fetch, 1).await;
    assert_eq!(
        offer_calls(&fetch),
        [(1001, start_1001), (1002, from + HOUR)],
        "the vacant machine's offer ends at its window, the rented one's with its rental"
    );
    let results = result_texts(&page);
    assert_a_result_starts_with(&results, "Machine 1001: offer now ends at");
    assert_a_result_starts_with(&results, "Machine 1001: scheduled");
    assert_a_result_starts_with(
        &results,
        "Machine 1002: offer not changed (end_date must be in the future)",
    );
    assert_a_result_starts_with(&results, "Machine 1002: not sent");
    assert_eq!(batch_calls(&fetch).len(), 1);
    assert_eq!(state_of(&page, 1001), "Scheduled");

    // The retry ends 1002's offer, then sends its window, which is refused.
    schedule_and_wait(&page, &fetch, 2).await;
    assert_eq!(offer_calls(&fetch).len(), 3);
    assert_eq!(offer_calls(&fetch)[2], (1002, from + HOUR));
    assert_eq!(batch_calls(&fetch).len(), 2);
    let kept = session_storage().get_item(PLAN_KEY).unwrap().unwrap();
    assert!(kept.contains(r#""offers_ended":[1001,1002]"#), "{kept}");

    // The next retry sends only the window: its offer step is done.
    schedule_and_wait(&page, &fetch, 3).await;
    assert_eq!(offer_calls(&fetch).len(), 3, "no offer is ended twice");
    assert_eq!(batch_calls(&fetch).len(), 3);
    page.wait_for("[data-testid=plan-done]").await;
    assert!(page
        .text("[data-testid=plan-done]")
        .contains("All 2 windows are scheduled"));
}

/// Each offer step sends every term N1 gives at its current value, with `min_chunk` 1 where
/// N1 gives none, never `null` (spec §1.3 rule 8). An answer that does not say is settled by
/// re-reading: a 500 on 1001's offer whose re-read shows it ending in time still sends its
/// window; 1002's answer without `extended` says the service did not say (§1.3 rule 9).
#[wasm_bindgen_test]
async fn a_contract_safe_plan_sends_every_term_and_settles_an_unclear_answer_by_the_reread() {
    let from = earliest_start();
    let scheduled = |id: i64| {
        json(
            200,
            leak(format!(
                r#"{{"success": true, "results": [{{"success": true, "machine_id": {id}, "notifications_sent": 0}}]}}"#
            )),
        )
    };
    // After the 500, N1 is read again: 1001's offer now ends at its window's start.
    let fleet = contract_safe_fleet(from);
    let mut reread = fleet.clone();
    reread[0] = with_field(&fleet[0], "end_date", from);
    let (page, fetch) = contract_safe_planner(
        from,
        vec![
            // 1001's start: read again, its offer's answer lost, read again: ended.
            fleet_reply(&fleet),
            (
                "create_asks",
                json(500, r#"{"error": "internal", "msg": "boom"}"#),
            ),
            fleet_reply(&reread),
            ("maintenances/batch", scheduled(1001)),
            // 1002's start.
            fleet_reply(&reread),
            ("create_asks", json(200, r#"{"success": true}"#)),
            ("maintenances/batch", scheduled(1002)),
        ],
    )
    .await;
    schedule_and_wait(&page, &fetch, 2).await;

    let bodies: Vec<Value> = fetch
        .calls()
        .into_iter()
        .filter(|c| c.method == "PUT" && c.url.contains("create_asks"))
        .map(|c| serde_json::from_str(&c.body).unwrap())
        .collect();
    assert_eq!(bodies.len(), 2, "each offer is sent once");
    for body in &bodies {
        assert_eq!(body["min_chunk"], 1, "{body}");
        assert_eq!(body["price_gpu"], 0.4, "{body}");
        assert_eq!(body["price_min_bid"], 0.2, "{body}");
    }
    let results = result_texts(&page);
    assert!(
        results.iter().any(|r| r.starts_with(
            "Machine 1001: the answer did not say whether it was done (boom (500)), but the \
             re-read shows its offer ending by"
        )),
        "{results:?}"
    );
    assert!(
        results
            .iter()
            .any(|r| r.starts_with("Machine 1002: offer now ends at")
                && r.ends_with("; the service did not say how many rentals it extended")),
        "{results:?}"
    );
    assert_a_result_starts_with(&results, "Machine 1001: scheduled");
    assert_a_result_starts_with(&results, "Machine 1002: scheduled");
    page.wait_for("[data-testid=plan-done]").await;
}

/// Asserts that one of the plan's result lines starts with `start`.
fn assert_a_result_starts_with(results: &[String], start: &str) {
    assert!(
        results.iter().any(|r| r.starts_with(start)),
        "no result starts with {start:?}: {results:?}"
    );
}

/// The mode is a promise: a start moved by hand before its machine's rentals end stops the
/// plan from being sent, names the machine, and offers the two ways on: its earliest safe
/// start, or notifying renters now (the plan kept as edited).
#[wasm_bindgen_test]
async fn a_contract_safe_plan_with_a_start_inside_a_rental_cannot_be_sent() {
    let from = earliest_start();
    let (page, fetch) = contract_safe_planner(from, Vec::new()).await;
    // 1002's rental ends an hour after `from`; half an hour after `from` is inside it.
    move_start(&page, 1002, from + 0.5 * HOUR);
    assert!(
        wait_until(2000, || page.find("[data-testid=plan-promise]").is_some()).await,
        "{}",
        page.root.inner_html()
    );
    assert!(page.text("[data-testid=plan-promise]").starts_with(
        "Not sent as it stands: Machine 1002 — its window starts before its rentals end"
    ));
    let button: web_sys::HtmlButtonElement =
        page.get("[data-action=schedule-plan]").unchecked_into();
    assert!(button.disabled(), "the Schedule button refuses");
    page.click("[data-action=schedule-plan]");
    settle().await;
    assert!(page.find("dialog[open]").is_none(), "no confirmation opens");

    // Moved to its earliest safe start: the rental's end.
    page.click("[data-action=move-to-safe-start]");
    assert!(wait_until(2000, || start_of(&page, 1002) == typed(from + HOUR)).await);
    assert!(page.find("[data-testid=plan-promise]").is_none());
    let button: web_sys::HtmlButtonElement =
        page.get("[data-action=schedule-plan]").unchecked_into();
    assert!(!button.disabled());

    // Inside the rental again, then the plan switched to notifying renters now: the
    // address says so and the hand-moved start stays.
    move_start(&page, 1002, from + 0.5 * HOUR);
    page.wait_for("[data-testid=plan-promise]").await;
    page.click("[data-action=notify-now]");
    assert!(
        wait_until(2000, || current_path().contains("mode=notify")).await,
        "{}",
        current_path()
    );
    assert!(wait_until(2000, || page.find("[data-testid=plan-promise]").is_none()).await);
    // The plan's table is built again for the new address: its rows after the first follow
    // a frame later.
    settle().await;
    assert_eq!(start_of(&page, 1002), typed(from + 0.5 * HOUR));
    let button: web_sys::HtmlButtonElement =
        page.get("[data-action=schedule-plan]").unchecked_into();
    assert!(!button.disabled());
    assert!(fetch.calls().iter().all(|c| c.method == "GET"));
}

/// An offer that reads as ending before its window may be a rolling one, renewed daily
/// (N1 gives no `duration`): its end date is set all the same, and the preview says why.
#[wasm_bindgen_test]
async fn an_offer_that_reads_as_ending_in_time_has_its_end_set_all_the_same() {
    let from = earliest_start();
    let [vacant, rented, endless] = contract_safe_fleet(from);
    let reads = from - 3.0 * HOUR;
    let vacant = vacant.replace(
        r#""earn_day": 12.5"#,
        &format!(r#""earn_day": 12.5, "end_date": {reads}"#),
    );
    let scheduled = |id: i64| {
        json(
            200,
            leak(format!(
                r#"{{"success": true, "results": [{{"success": true, "machine_id": {id}, "notifications_sent": 0}}]}}"#
            )),
        )
    };
    let ok = || {
        json(
            200,
            r#"{"success": true, "extended": 0, "msg": "offer updated"}"#,
        )
    };
    let fleet = [vacant, rented, endless];
    let (page, fetch) = contract_safe_planner_of(
        fleet.clone(),
        from,
        vec![
            fleet_reply(&fleet),
            ("create_asks", ok()),
            ("maintenances/batch", scheduled(1001)),
            fleet_reply(&fleet),
            ("create_asks", ok()),
            ("maintenances/batch", scheduled(1002)),
        ],
    )
    .await;
    let first = page.text("[data-testid=offer-changes] li[data-machine-id='1001']");
    assert_eq!(
        first,
        format!(
            "Machine 1001: The offer reads as ending at {}; its end date is set to {}.",
            format_absolute(reads, true),
            format_absolute(from, true)
        )
    );
    schedule_and_wait(&page, &fetch, 2).await;
    assert_eq!(offer_calls(&fetch), [(1001, from), (1002, from + HOUR)]);
    page.wait_for("[data-testid=plan-done]").await;
}

/// Read again just before it is sent: 1001, vacant when the plan was made, was rented for
/// 20 days since. It is held back, unsent and said so; 1002 goes on (spec §1.3 rule 10).
#[wasm_bindgen_test]
async fn a_machine_rented_since_the_plan_was_made_is_held_back_and_the_others_go_on() {
    let from = earliest_start();
    let fleet = contract_safe_fleet(from);
    let rented_until = from + 20.0 * 24.0 * HOUR;
    let mut rented = fleet.clone();
    rented[0] = with_field(
        &machine_json(1001, 1, "D x x x"),
        "client_end_date",
        rented_until,
    );
    let (page, fetch) = contract_safe_planner(
        from,
        vec![
            fleet_reply(&rented),
            fleet_reply(&rented),
            (
                "create_asks",
                json(200, r#"{"success": true, "extended": 0, "msg": "offer updated"}"#),
            ),
            (
                "maintenances/batch",
                json(
                    200,
                    r#"{"success": true, "results": [{"success": true, "machine_id": 1002, "notifications_sent": 1}]}"#,
                ),
            ),
        ],
    )
    .await;
    assert_eq!(start_of(&page, 1001), typed(from));
    schedule_and_wait(&page, &fetch, 1).await;
    page.wait_for("[data-testid=held-back]").await;
    assert_eq!(
        page.text("[data-testid=held-back] li"),
        format!(
            "Machine 1001: rented since the plan was made; its rentals now end at {}; plan it \
             again",
            format_absolute(rented_until, true)
        )
    );
    assert_eq!(
        offer_calls(&fetch),
        [(1002, from + HOUR)],
        "nothing sent for 1001"
    );
    let windows: Vec<Value> = batch_calls(&fetch)
        .iter()
        .map(|b| b["machine_ids"].clone())
        .collect();
    assert_eq!(windows, [serde_json::json!([1002])]);
    assert_a_result_starts_with(&result_texts(&page), "Machine 1002: scheduled");
    // 1001 stays in the plan, not scheduled.
    assert_eq!(state_of(&page, 1001), "Planned");
    assert_eq!(state_of(&page, 1002), "Scheduled");
}

/// A retry reads the machines and the clock again: 1002's offer was to end with its rental
/// an hour after `from`, and was refused; by the retry the rental is over, so its end is
/// planned again (its window's start), never the same date sent again.
#[wasm_bindgen_test]
async fn a_retry_plans_an_offer_end_again_from_what_is_read_then() {
    let from = earliest_start();
    let fleet = contract_safe_fleet(from);
    let mut over = fleet.clone();
    over[1] = with_field(
        &machine_json(1002, 0, "x x x x"),
        "client_end_date",
        now() - 60.0,
    );
    let ok = || {
        json(
            200,
            r#"{"success": true, "extended": 0, "msg": "offer updated"}"#,
        )
    };
    let scheduled = |id: i64| {
        json(
            200,
            leak(format!(
                r#"{{"success": true, "results": [{{"success": true, "machine_id": {id}, "notifications_sent": 0}}]}}"#
            )),
        )
    };
    let (page, fetch) = contract_safe_planner(
        from,
        vec![
            fleet_reply(&fleet),
            ("create_asks", ok()),
            ("maintenances/batch", scheduled(1001)),
            fleet_reply(&fleet),
            (
                "create_asks",
                json(
                    400,
                    r#"{"error": "invalid_args", "msg": "end_date must be in the future"}"#,
                ),
            ),
            // The retry.
            fleet_reply(&over),
            ("create_asks", ok()),
            ("maintenances/batch", scheduled(1002)),
        ],
    )
    .await;
    schedule_and_wait(&page, &fetch, 1).await;
    assert_eq!(offer_calls(&fetch), [(1001, from), (1002, from + HOUR)]);
    schedule_and_wait(&page, &fetch, 2).await;
    assert_eq!(
        offer_calls(&fetch)[2],
        (1002, from + 2.0 * HOUR),
        "planned again from the machine as read at the retry"
    );
    page.wait_for("[data-testid=plan-done]").await;
}
