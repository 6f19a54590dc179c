//! Offers and rental contracts (§1.7) through N1, N22 and N23: the demo's listings, first
//! listings with their defaults, extension, expiry, the client end date, unlisting, rolling
//! offers and every refusal, each checked in the answer and in the database.

use crate::common;

use common::{Answer, TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_wire::paths;
use serde_json::{json, Value};

const HOUR: f64 = 3600.0;
const DAY: f64 = 86_400.0;

/// N1's object for alice's machine `id`.
async fn machine(app: &TestApp, id: i64) -> Value {
    let body = app
        .get(&paths::machine(id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    body[0].clone()
}

/// N22 as alice, with `body`.
async fn list(app: &TestApp, body: Value) -> Answer {
    app.put(&paths::machine_create_asks())
        .key(ALICE_KEY)
        .json(body)
        .send()
        .await
}

/// N23 as alice, with the official client's `{}`.
async fn unlist(app: &TestApp, id: i64) -> Answer {
    app.delete(&paths::machine_asks(id))
        .key(ALICE_KEY)
        .json(json!({}))
        .send()
        .await
}

fn contract_end(app: &TestApp, contract: i64) -> Option<f64> {
    app.scalar_f64(&format!(
        "SELECT end_date FROM contracts WHERE id = {contract}"
    ))
}

/// Every offer and every contract's terms and slots, to compare before and after.
fn listing_state(app: &TestApp) -> Option<String> {
    app.text(
        "SELECT (SELECT group_concat(machine_id || ':' || price_gpu || ':' || price_min_bid || ':'
                     || price_disk || ':' || ifnull(price_inetu, '-') || ':'
                     || ifnull(price_inetd, '-') || ':' || min_chunk || ':'
                     || credit_discount_max || ':' || ifnull(end_date, '-') || ':'
                     || ifnull(duration, '-') || ':' || ifnull(vol_size, '-') || ':'
                     || ifnull(vol_price, '-') || ':' || ifnull(withdrawn_at, '-'), '|')
                 FROM offers)
             || '#' ||
             (SELECT group_concat(id || ':' || slot_start || ':' || ifnull(price_gpu, '-') || ':'
                     || ifnull(price_disk, '-') || ':' || ifnull(price_inetu, '-') || ':'
                     || ifnull(price_inetd, '-') || ':' || ifnull(end_date, '-'), '|')
                 FROM contracts)",
    )
}

#[tokio::test]
async fn n1_shows_each_machines_offer_and_when_its_rentals_end() {
    let app = TestApp::demo();
    // Rentals ending in hours; the offer ends in 3 days.
    let hours = machine(&app, RENTALS_END_IN_HOURS).await;
    assert_eq!(hours["listed"], true);
    assert_eq!(hours["end_date"], NOW + 3.0 * DAY);
    assert_eq!(hours["client_end_date"], NOW + 9.0 * HOUR);
    assert_eq!(hours["current_rentals_running"], 3);
    assert_eq!(hours["listed_min_gpu_count"], 2);
    assert_eq!(hours["listed_storage_cost"], 0.1);
    assert_eq!(hours["credit_discount_max"], 0.4);
    assert_eq!(hours["listed_inet_up_cost"], 0.01);
    assert_eq!(hours["listed_inet_down_cost"], 0.005);
    // Open-ended offer, rentals without an end date.
    let open = machine(&app, RENTALS_WITHOUT_END).await;
    assert_eq!(open["listed"], true);
    assert!(open["end_date"].is_null() && open["client_end_date"].is_null());
    assert_eq!(open["current_rentals_running"], 2);
    // Rentals ending in weeks and days on the tidy machine.
    let tidy = machine(&app, TIDY_MACHINE).await;
    assert_eq!(tidy["end_date"], NOW + 30.0 * DAY);
    assert_eq!(tidy["client_end_date"], NOW + 30.0 * DAY);
    assert_eq!(contract_end(&app, CHEAPER_CONTRACT), Some(NOW + 10.0 * DAY));
    // Unlisted with its rental running: the terms stay, the end date does not.
    let withdrawn = machine(&app, WITHDRAWN_MACHINE).await;
    assert_eq!(withdrawn["listed"], false);
    assert!(withdrawn["end_date"].is_null());
    assert!(withdrawn["listed_gpu_cost"].is_number());
    assert_eq!(withdrawn["current_rentals_running"], 1);
    assert_eq!(withdrawn["client_end_date"], NOW + DAY);
    // A rolling offer ends 30 days from now, whenever asked.
    assert_eq!(
        machine(&app, ROLLING_MACHINE).await["end_date"],
        NOW + 30.0 * DAY
    );
    app.state.clock.set(NOW + DAY);
    assert_eq!(
        machine(&app, ROLLING_MACHINE).await["end_date"],
        NOW + 31.0 * DAY
    );
    app.state.clock.set(NOW);
    // Idle listed machines, with and without an offer end date.
    let [dated, open_ended] = IDLE_LISTED_MACHINES;
    for (id, end) in [(dated, json!(NOW + 4.0 * DAY)), (open_ended, Value::Null)] {
        let idle = machine(&app, id).await;
        assert_eq!(idle["listed"], true, "{id}");
        assert_eq!(idle["end_date"], end, "{id}");
        assert_eq!(idle["current_rentals_running"], 0, "{id}");
        assert!(idle["client_end_date"].is_null(), "{id}");
        assert!(!idle["gpu_occupancy"]
            .as_str()
            .unwrap()
            .contains(['D', 'R', 'I']));
    }
    // The listing fields are always sent, null when unknown.
    let list = app
        .get(&format!("{}?owner=me", paths::MACHINES))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    for m in list["machines"].as_array().unwrap() {
        for field in ["end_date", "client_end_date", "listed_min_gpu_count"] {
            assert!(m.get(field).is_some(), "{field} of {}", m["id"]);
        }
    }
}

/// §1.7 "Client end date": one active contract without an end date makes the machine's
/// latest rental end unknown, so N1 gives null even beside contracts that have one.
#[tokio::test]
async fn the_client_end_date_is_null_while_any_active_rental_has_no_end() {
    let app = TestApp::demo();
    let set_end = |contract: i64, end: Option<f64>| {
        app.state
            .db
            .with_conn(move |c| {
                c.execute(
                    "UPDATE contracts SET end_date = ?2 WHERE id = ?1",
                    rusqlite::params![contract, end],
                )?;
                Ok(())
            })
            .unwrap()
    };
    // 9006 ends with the offer (30 days), 9007 in 10 days; now 9007 has no end date.
    set_end(CHEAPER_CONTRACT, None);
    let tidy = machine(&app, TIDY_MACHINE).await;
    assert_eq!(tidy["current_rentals_running"], 2);
    assert!(
        tidy["client_end_date"].is_null(),
        "{}",
        tidy["client_end_date"]
    );
    // Once that rental has an end again, the latest end is known.
    set_end(CHEAPER_CONTRACT, Some(NOW + 10.0 * DAY));
    assert_eq!(
        machine(&app, TIDY_MACHINE).await["client_end_date"],
        NOW + 30.0 * DAY
    );
    // An ended contract no longer counts, with or without an end date beside it.
    set_end(9006, Some(NOW - HOUR));
    assert_eq!(
        machine(&app, TIDY_MACHINE).await["client_end_date"],
        NOW + 10.0 * DAY
    );
}

#[tokio::test]
async fn a_first_listing_needs_a_price_and_takes_the_defaults() {
    let app = TestApp::demo();
    // 1009 was never listed; its running contract locked $0.42 and ends in 2 days.
    let never = 1009;
    let before = listing_state(&app);
    let msg = list(
        &app,
        json!({"machine": never, "end_date": NOW + 10.0 * DAY}),
    )
    .await
    .error(400, "invalid_args");
    assert_eq!(msg, "price_gpu is needed to list this machine");
    assert_eq!(listing_state(&app), before, "nothing changed");
    let body = list(
        &app,
        json!({"machine": never, "price_gpu": 0.45, "price_disk": null, "price_inetu": null,
               "price_inetd": null, "price_min_bid": null, "min_chunk": 1,
               "end_date": NOW + 10.0 * DAY, "credit_discount_max": null, "duration": null,
               "vol_size": null, "vol_price": null}),
    )
    .await
    .ok();
    // A higher price than the contract's: no extension.
    assert_eq!(
        body,
        json!({"success": true, "extended": 0, "msg": "offer created"})
    );
    assert_eq!(
        app.text(&format!(
            "SELECT price_gpu || ' ' || price_min_bid || ' ' || price_disk || ' ' || min_chunk
                    || ' ' || credit_discount_max || ' ' || end_date || ' '
                    || ifnull(duration, '-') || ' ' || ifnull(withdrawn_at, '-')
             FROM offers WHERE machine_id = {never}"
        )),
        Some(format!("0.45 0.45 0.1 1 0.4 {:.1} - -", NOW + 10.0 * DAY))
    );
    let listed = machine(&app, never).await;
    assert_eq!(listed["listed"], true);
    assert_eq!(listed["end_date"], NOW + 10.0 * DAY);
    assert_eq!(listed["client_end_date"], NOW + 2.0 * DAY);
    // The same request again changes the offer it made.
    let again = list(&app, json!({"machine": never, "price_gpu": 0.45}))
        .await
        .ok();
    assert_eq!(again["msg"], "offer updated");
}

#[tokio::test]
async fn a_later_end_date_extends_the_contracts_at_or_below_their_price() {
    let app = TestApp::demo();
    let price = app.scalar_f64("SELECT price_gpu FROM offers WHERE machine_id = 1003");
    // Only the end date: the prices stay; 9006 locked the offer's price, 9007 a lower one.
    let body = list(
        &app,
        json!({"machine": TIDY_MACHINE, "end_date": NOW + 40.0 * DAY}),
    )
    .await
    .ok();
    assert_eq!(
        body,
        json!({"success": true, "extended": 1, "msg": "offer updated"})
    );
    assert_eq!(contract_end(&app, 9006), Some(NOW + 40.0 * DAY));
    assert_eq!(contract_end(&app, CHEAPER_CONTRACT), Some(NOW + 10.0 * DAY));
    assert_eq!(
        app.scalar_f64("SELECT price_gpu FROM offers WHERE machine_id = 1003"),
        price
    );
    let tidy = machine(&app, TIDY_MACHINE).await;
    assert_eq!(tidy["end_date"], NOW + 40.0 * DAY);
    assert_eq!(tidy["client_end_date"], NOW + 40.0 * DAY);
    // At the cheaper contract's price both are extended.
    let lower = price.unwrap() - 0.05;
    let body = list(
        &app,
        json!({"machine": TIDY_MACHINE, "price_gpu": lower, "end_date": NOW + 50.0 * DAY}),
    )
    .await
    .ok();
    assert_eq!(body["extended"], 2);
    assert_eq!(contract_end(&app, 9006), Some(NOW + 50.0 * DAY));
    assert_eq!(contract_end(&app, CHEAPER_CONTRACT), Some(NOW + 50.0 * DAY));
    // The same end date again extends nothing more.
    let body = list(
        &app,
        json!({"machine": TIDY_MACHINE, "end_date": NOW + 50.0 * DAY}),
    )
    .await
    .ok();
    assert_eq!(body["extended"], 0);
}

/// §1.7: a contract locks each of the offer's prices (GPU, storage, upload, download), and a
/// later offer end date extends it only when none of them is higher than it locked.
#[tokio::test]
async fn a_raised_storage_or_transfer_price_stops_the_extension() {
    let app = TestApp::demo();
    // 9006 locked the tidy machine's offer as it stands: $0.10/GB-month storage, $0.01 and
    // $0.005/GB upload and download.
    let locked = |contract: i64| {
        app.text(&format!(
            "SELECT price_disk || ' ' || price_inetu || ' ' || price_inetd FROM contracts
             WHERE id = {contract}"
        ))
    };
    for (field, raised, kept) in [
        ("price_disk", 0.2, 0.1),
        ("price_inetu", 0.02, 0.01),
        ("price_inetd", 0.006, 0.005),
    ] {
        let body = list(
            &app,
            json!({"machine": TIDY_MACHINE, field: raised, "end_date": NOW + 40.0 * DAY}),
        )
        .await
        .ok();
        assert_eq!(body["extended"], 0, "{field} raised");
        assert_eq!(contract_end(&app, 9006), Some(NOW + 30.0 * DAY), "{field}");
        // Back to the locked price, with no end date: nothing is extended either.
        let back = list(&app, json!({"machine": TIDY_MACHINE, field: kept}))
            .await
            .ok();
        assert_eq!(back["extended"], 0, "{field} back");
    }
    assert_eq!(locked(9006), Some("0.1 0.01 0.005".to_owned()), "as seeded");
    // Every price at or below what 9006 locked: it is extended (9007 locked a lower GPU
    // price, so it is not).
    let body = list(
        &app,
        json!({"machine": TIDY_MACHINE, "price_disk": 0.05, "price_inetu": 0.01,
               "end_date": NOW + 45.0 * DAY}),
    )
    .await
    .ok();
    assert_eq!(body["extended"], 1);
    assert_eq!(contract_end(&app, 9006), Some(NOW + 45.0 * DAY));
    assert_eq!(contract_end(&app, CHEAPER_CONTRACT), Some(NOW + 10.0 * DAY));
    // The contract's locks do not follow the offer.
    assert_eq!(locked(9006), Some("0.1 0.01 0.005".to_owned()));
}

#[tokio::test]
async fn a_shorter_end_date_a_new_price_or_no_end_date_changes_no_contract() {
    let app = TestApp::demo();
    let contracts = || {
        app.text("SELECT group_concat(id || ':' || price_gpu || ':' || end_date) FROM contracts")
    };
    let before = contracts();
    let body = list(
        &app,
        json!({"machine": TIDY_MACHINE, "end_date": NOW + DAY}),
    )
    .await
    .ok();
    assert_eq!(body["extended"], 0);
    let raised = list(&app, json!({"machine": TIDY_MACHINE, "price_gpu": 9.5}))
        .await
        .ok();
    assert_eq!(raised["extended"], 0);
    assert_eq!(contracts(), before);
    // The host must keep the machine until its last rental ends, after the offer.
    let tidy = machine(&app, TIDY_MACHINE).await;
    assert_eq!(tidy["end_date"], NOW + DAY);
    assert_eq!(tidy["client_end_date"], NOW + 30.0 * DAY);
    assert_eq!(tidy["listed_gpu_cost"], 9.5);
    // Contracts without an end date are never extended (they need none).
    let body = list(
        &app,
        json!({"machine": RENTALS_WITHOUT_END, "end_date": NOW + 60.0 * DAY}),
    )
    .await
    .ok();
    assert_eq!(body["extended"], 0);
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM contracts WHERE machine_id = 1002 AND end_date IS NULL"),
        2
    );
}

#[tokio::test]
async fn the_offer_expires_by_itself_and_ended_contracts_stop_counting() {
    let app = TestApp::demo();
    let slots =
        || app.text("SELECT group_concat(slot_start) FROM contracts WHERE machine_id = 1001");
    let slots_before = slots();
    // Two of the three contracts have ended: they hold no slot.
    app.state.clock.set(NOW + 7.0 * HOUR);
    let m = machine(&app, RENTALS_END_IN_HOURS).await;
    assert_eq!(m["current_rentals_running"], 1);
    assert_eq!(m["gpu_occupancy"], "x x x x x x R x");
    assert_eq!(m["client_end_date"], NOW + 9.0 * HOUR);
    assert_eq!(m["listed"], true);
    // Past the offer end date: not listed, the terms stay, nothing runs.
    app.state.clock.set(NOW + 3.0 * DAY + 1.0);
    let m = machine(&app, RENTALS_END_IN_HOURS).await;
    assert_eq!(m["listed"], false);
    assert!(m["end_date"].is_null() && m["client_end_date"].is_null());
    assert!(m["listed_gpu_cost"].is_number());
    assert_eq!(m["current_rentals_running"], 0);
    assert_eq!(m["gpu_occupancy"], "x x x x x x x x");
    // Ended contracts are not moved by a defrag.
    let defrag = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!({"machine_ids": [RENTALS_END_IN_HOURS]}))
        .send()
        .await
        .ok();
    assert_eq!(defrag["defragmented"], json!([]));
    assert_eq!(defrag["n0"], 0);
    assert_eq!(slots(), slots_before);
    // Listing again with the kept terms: open-ended, since the old end date has passed.
    let body = list(&app, json!({"machine": RENTALS_END_IN_HOURS}))
        .await
        .ok();
    assert_eq!(body["msg"], "offer created");
    let m = machine(&app, RENTALS_END_IN_HOURS).await;
    assert_eq!(m["listed"], true);
    assert!(m["end_date"].is_null());
}

#[tokio::test]
async fn unlisting_stops_new_rentals_only_and_keeps_the_terms() {
    let app = TestApp::demo();
    let before = machine(&app, TIDY_MACHINE).await;
    let body = unlist(&app, TIDY_MACHINE).await.ok();
    assert_eq!(
        body,
        json!({"success": true, "machine_id": TIDY_MACHINE, "user_id": ALICE_ID})
    );
    let after = machine(&app, TIDY_MACHINE).await;
    assert_eq!(after["listed"], false);
    assert!(after["end_date"].is_null());
    for kept in [
        "listed_gpu_cost",
        "min_bid_price",
        "listed_min_gpu_count",
        "current_rentals_running",
        "gpu_occupancy",
        "client_end_date",
    ] {
        assert_eq!(after[kept], before[kept], "{kept}");
    }
    let row = || {
        app.text(
            "SELECT withdrawn_at || ' ' || ifnull(end_date, '-') || ' ' || ifnull(duration, '-')
             FROM offers WHERE machine_id = 1003",
        )
    };
    assert_eq!(row(), Some(format!("{NOW:.1} - -")));
    // Again, with no body at all (older clients): still 200, nothing changes.
    app.state.clock.set(NOW + 60.0);
    app.delete(&paths::machine_asks(TIDY_MACHINE))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(row(), Some(format!("{NOW:.1} - -")));
    // A machine that never had an offer unlists too.
    unlist(&app, 1009).await.ok();
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM offers WHERE machine_id = 1009"),
        0
    );
    // Listing again brings the kept terms back.
    let body = list(&app, json!({"machine": TIDY_MACHINE})).await.ok();
    assert_eq!(body["msg"], "offer created");
    let relisted = machine(&app, TIDY_MACHINE).await;
    assert_eq!(relisted["listed"], true);
    assert_eq!(relisted["listed_gpu_cost"], before["listed_gpu_cost"]);
}

#[tokio::test]
async fn a_rolling_offer_stays_ahead_until_an_end_date_replaces_it() {
    let app = TestApp::demo();
    let [idle, _] = IDLE_LISTED_MACHINES;
    list(&app, json!({"machine": idle, "duration": "2 weeks"}))
        .await
        .ok();
    assert_eq!(machine(&app, idle).await["end_date"], NOW + 14.0 * DAY);
    app.state.clock.set(NOW + DAY);
    assert_eq!(machine(&app, idle).await["end_date"], NOW + 15.0 * DAY);
    let row = |id: i64| {
        app.text(&format!(
            "SELECT ifnull(end_date, '-') || ' ' || ifnull(duration, '-') FROM offers
             WHERE machine_id = {id}"
        ))
    };
    assert_eq!(row(idle), Some("- 1209600.0".to_owned()));
    list(&app, json!({"machine": idle, "duration": 3600}))
        .await
        .ok();
    assert_eq!(row(idle), Some("- 3600.0".to_owned()));
    list(&app, json!({"machine": idle, "end_date": NOW + 20.0 * DAY}))
        .await
        .ok();
    assert_eq!(row(idle), Some(format!("{:.1} -", NOW + 20.0 * DAY)));
    // A rolling end date extends like a fixed one.
    let body = list(
        &app,
        json!({"machine": TIDY_MACHINE, "duration": "6 weeks"}),
    )
    .await
    .ok();
    assert_eq!(body["extended"], 1);
    assert_eq!(contract_end(&app, 9006), Some(NOW + DAY + 42.0 * DAY));
}

/// N22's `min_chunk` as the public backend reads it (`int(params.get("min_chunk", 1))`):
/// absent is 1, so a request without it resets the offer's minimum; a number sets it.
#[tokio::test]
async fn an_absent_min_chunk_resets_the_minimum_to_one() {
    let app = TestApp::demo();
    let row = || {
        app.text(
            "SELECT min_chunk || ' ' || price_gpu || ' ' || price_disk FROM offers
             WHERE machine_id = 1003",
        )
    };
    let before = row().unwrap();
    let terms = before.split_once(' ').unwrap().1.to_owned();
    assert!(before.starts_with("2 "), "{before}");
    list(&app, json!({"machine": TIDY_MACHINE, "min_chunk": 4.0}))
        .await
        .ok();
    assert_eq!(row(), Some(format!("4 {terms}")));
    assert_eq!(machine(&app, TIDY_MACHINE).await["listed_min_gpu_count"], 4);
    // The same minimum again keeps it.
    list(
        &app,
        json!({"machine": TIDY_MACHINE, "min_chunk": 4, "price_gpu": null}),
    )
    .await
    .ok();
    assert_eq!(row(), Some(format!("4 {terms}")));
    // Only the end date: the minimum is 1 again; the other terms stay.
    list(
        &app,
        json!({"machine": TIDY_MACHINE, "end_date": NOW + 40.0 * DAY, "price_disk": null}),
    )
    .await
    .ok();
    assert_eq!(row(), Some(format!("1 {terms}")));
    assert_eq!(machine(&app, TIDY_MACHINE).await["listed_min_gpu_count"], 1);
}

/// N22's `vol_size: 0` withdraws the volume offer; `vol_price` is refused only when it is
/// given for no volume. A price already kept stays, as the other terms do, for the next
/// volume offer.
#[tokio::test]
async fn vol_size_zero_withdraws_the_volume_offer_and_keeps_its_price() {
    let app = TestApp::demo();
    let volume = || {
        app.text(
            "SELECT ifnull(vol_size, '-') || ' ' || ifnull(vol_price, '-') FROM offers
             WHERE machine_id = 1003",
        )
    };
    list(
        &app,
        json!({"machine": TIDY_MACHINE, "min_chunk": 2, "vol_size": 500, "vol_price": 0.05}),
    )
    .await
    .ok();
    assert_eq!(volume(), Some("500 0.05".to_owned()));
    list(
        &app,
        json!({"machine": TIDY_MACHINE, "min_chunk": 2, "vol_size": 0}),
    )
    .await
    .ok();
    assert_eq!(volume(), Some("0 0.05".to_owned()));
    let before = listing_state(&app);
    for body in [
        json!({"machine": TIDY_MACHINE, "min_chunk": 2, "vol_price": 0.1}),
        json!({"machine": TIDY_MACHINE, "min_chunk": 2, "vol_size": 0, "vol_price": 0.05}),
    ] {
        let msg = list(&app, body.clone()).await.error(400, "invalid_args");
        assert_eq!(msg, "vol_price needs a vol_size above 0", "{body}");
    }
    assert_eq!(listing_state(&app), before, "nothing changed");
    list(
        &app,
        json!({"machine": TIDY_MACHINE, "min_chunk": 2, "vol_size": 200}),
    )
    .await
    .ok();
    assert_eq!(volume(), Some("200 0.05".to_owned()));
}

const DURATION_FORMAT: &str = "duration must be N days, weeks, months or years, or seconds";
const MIN_CHUNK_OF_8: &str = "min_chunk must be 1 or a power of two up to 8";
const NULL_MIN_CHUNK: &str = "Invalid machine id or min_chunk";

/// N22 bodies and their refusals: the `error` code (`not_found` is 404, the others 400)
/// and `msg`. Machine 1003 has 8 GPUs and no volume; 2001 is bob's.
#[rustfmt::skip]
fn n22_refusals() -> Vec<(Value, &'static str, &'static str)> {
    let long = "9".repeat(60_000);
    let positive = "machine must be a positive integer";
    vec![
        (json!({}), "invalid_args", positive),
        (json!({"machine": "1003"}), "invalid_args", positive),
        (json!({"machine": 0}), "invalid_args", positive),
        (json!({"machine": 1e300}), "invalid_args", positive),
        (json!({"machine": 1003, "end_date": NOW}), "invalid_args", "end_date must be in the future"),
        (json!({"machine": 1003, "end_date": "12/31/2027"}), "invalid_args", "end_date must be a Unix timestamp"),
        (json!({"machine": 1003, "end_date": NOW + DAY, "duration": "1 day"}), "invalid_args", "end_date and duration cannot both be given"),
        (json!({"machine": 1003, "duration": long}), "invalid_args", DURATION_FORMAT),
        (json!({"machine": 1003, "duration": "３ days"}), "invalid_args", DURATION_FORMAT),
        (json!({"machine": 1003, "duration": "<b>1 day</b>"}), "invalid_args", DURATION_FORMAT),
        (json!({"machine": 1003, "price_gpu": -0.01}), "invalid_args", "price_gpu must be a number >= 0"),
        (json!({"machine": 1003, "price_disk": "cheap"}), "invalid_args", "price_disk must be a number >= 0"),
        (json!({"machine": 1003, "price_min_bid": [1]}), "invalid_args", "price_min_bid must be a number >= 0"),
        (json!({"machine": 1003, "credit_discount_max": 1.5}), "invalid_args", "credit_discount_max must be between 0 and 1"),
        (json!({"machine": 1003, "vol_size": -1}), "invalid_args", "vol_size must be a whole number >= 0"),
        (json!({"machine": 1003, "vol_size": 0, "vol_price": 0.1}), "invalid_args", "vol_price needs a vol_size above 0"),
        // Judged against the stored offer, which has no volume.
        (json!({"machine": 1003, "vol_price": 0.1}), "invalid_args", "vol_price needs a vol_size above 0"),
        (json!({"machine": 1003, "min_chunk": 3}), "invalid_min_chunk", MIN_CHUNK_OF_8),
        (json!({"machine": 1003, "min_chunk": 16}), "invalid_min_chunk", MIN_CHUNK_OF_8),
        (json!({"machine": 1003, "min_chunk": "two"}), "invalid_min_chunk", MIN_CHUNK_OF_8),
        // A null minimum, as the public backend answers it; body values come before the
        // machine is looked up, and the other fields of the first row before it.
        (json!({"machine": 1003, "min_chunk": null}), "invalid_args", NULL_MIN_CHUNK),
        (json!({"machine": 2001, "min_chunk": null}), "invalid_args", NULL_MIN_CHUNK),
        (json!({"machine": 1003, "min_chunk": null, "vol_size": -1}), "invalid_args", "vol_size must be a whole number >= 0"),
        (json!({"machine": 2001, "price_gpu": 0.1}), "not_found", "No such machine id"),
        (json!({"machine": 999_999, "price_gpu": 0.1}), "not_found", "No such machine id"),
        // Body values are judged before the machine is looked up.
        (json!({"machine": 2001, "price_gpu": -1}), "invalid_args", "price_gpu must be a number >= 0"),
    ]
}

#[tokio::test]
async fn every_refusal_says_why_and_changes_nothing() {
    let app = TestApp::demo();
    let before = listing_state(&app);
    for (body, code, msg) in n22_refusals() {
        let status = if code == "not_found" { 404 } else { 400 };
        let answer = list(&app, body.clone()).await;
        assert_eq!(answer.error(status, code), msg, "{body}");
    }
    let not_json = app
        .put(&paths::machine_create_asks())
        .key(ALICE_KEY)
        .raw("application/json", "{\"machine\": 1003,")
        .send()
        .await;
    not_json.error(400, "invalid_json");
    let huge = app
        .put(&paths::machine_create_asks())
        .key(ALICE_KEY)
        .json(json!({"machine": 1003, "padding": "x".repeat(70_000)}))
        .send()
        .await;
    huge.error(413, "too_large");
    app.delete(&paths::machine_asks(TIDY_MACHINE))
        .key(ALICE_KEY)
        .json(json!({"padding": "x".repeat(70_000)}))
        .send()
        .await
        .error(413, "too_large");
    // (path segment, status, code, the value the 400 quotes back).
    for (raw, status, code, shown) in [
        ("abc", 400, "invalid_args", "abc"),
        ("0", 400, "invalid_args", "0"),
        (
            "99999999999999999999",
            400,
            "invalid_args",
            "99999999999999999999",
        ),
        ("%3Cb%3E1%3C%2Fb%3E", 400, "invalid_args", "<b>1</b>"),
        ("2001", 404, "not_found", ""),
        ("999999", 404, "not_found", ""),
    ] {
        let answer = app
            .delete(&format!("{}/machines/{raw}/asks/", paths::PREFIX))
            .key(ALICE_KEY)
            .json(json!({}))
            .send()
            .await;
        let msg = answer.error(status, code);
        if status == 400 {
            assert_eq!(msg, format!("Missing or invalid machine_id: '{shown}'"));
        }
    }
    // bob may not touch alice's machines, nor alice bob's.
    app.put(&paths::machine_create_asks())
        .key(BOB_KEY)
        .json(json!({"machine": TIDY_MACHINE, "end_date": NOW + 90.0 * DAY}))
        .send()
        .await
        .error(404, "not_found");
    app.delete(&paths::machine_asks(TIDY_MACHINE))
        .key(BOB_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(listing_state(&app), before, "no refusal changed anything");
}

/// A team key acts through its member's roles (§1.4): without `machine_write` it is
/// refused before the body is judged; with it, it acts on the key user's own machines only.
#[tokio::test]
async fn team_keys_list_only_with_machine_write_and_only_their_own_machines() {
    let app = TestApp::demo();
    let before = listing_state(&app);
    for (key, status, code) in [
        (CAROL_TEAM_KEY, 403, "forbidden"),
        (DAVE_TEAM_KEY, 404, "not_found"),
    ] {
        let listed = app
            .put(&paths::machine_create_asks())
            .key(key)
            .json(json!({"machine": TIDY_MACHINE, "end_date": NOW + 40.0 * DAY}))
            .send()
            .await;
        listed.error(status, code);
        let unlisted = app
            .delete(&paths::machine_asks(TIDY_MACHINE))
            .key(key)
            .json(json!({}))
            .send()
            .await;
        unlisted.error(status, code);
    }
    let msg = app
        .put(&paths::machine_create_asks())
        .key(CAROL_TEAM_KEY)
        .json(json!({"machine": "not even a number"}))
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(
        msg,
        "this key's team role lacks the permission machine_write"
    );
    assert_eq!(listing_state(&app), before);
}

/// The published schema says what N22 does with `min_chunk`, so the fuzz suite sends only
/// whole numbers as valid data and takes `null` for the invalid data it is (answered 400).
#[tokio::test]
async fn the_published_schema_never_offers_a_null_min_chunk() {
    let app = TestApp::demo();
    let doc = app.get(paths::OPENAPI).send().await.ok();
    let request = &doc["components"]["schemas"]["ListMachineRequest"];
    let min_chunk = &request["properties"]["min_chunk"];
    assert_eq!(min_chunk["type"], "integer", "{min_chunk}");
    assert_eq!(min_chunk["minimum"], 1);
    let required = request["required"].as_array().unwrap();
    assert!(!required.contains(&json!("min_chunk")), "{required:?}");
    let refusals = doc["paths"][paths::MACHINE_CREATE_ASKS]["put"]["responses"]["400"]
        ["description"]
        .as_str()
        .unwrap();
    assert!(refusals.contains("null `min_chunk`"), "{refusals}");
}
