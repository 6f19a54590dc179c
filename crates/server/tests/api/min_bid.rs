//! Fleet-health N35 `PUT /machines/{id}/minbid/` against the demo data, through the router:
//! the floor is checked in the database and on N2, and every refusal for its exact words
//! and for changing nothing.

use crate::common;

use common::TestApp;
use gpudeck_server::demo::*;
use gpudeck_wire::paths;
use serde_json::{json, Value};

/// Every offer's terms and every contract: what a refusal must leave as it was.
fn offers_and_contracts(app: &TestApp) -> (Option<String>, Option<String>) {
    (
        app.text(
            "SELECT group_concat(machine_id || ':' || price_gpu || ':' || price_min_bid || ':'
                 || price_disk || ':' || min_chunk || ':' || ifnull(end_date, '-') || ':'
                 || ifnull(withdrawn_at, '-'), ',')
             FROM (SELECT * FROM offers ORDER BY machine_id)",
        ),
        app.text(
            "SELECT group_concat(id || ':' || ifnull(price_gpu, '-') || ':' || ifnull(end_date, '-'), ',')
             FROM (SELECT * FROM contracts ORDER BY id)",
        ),
    )
}

fn floor_of(app: &TestApp, machine: i64) -> Option<f64> {
    app.scalar_f64(&format!(
        "SELECT price_min_bid FROM offers WHERE machine_id = {machine}"
    ))
}

async fn set(app: &TestApp, key: &str, path: &str, body: Value) -> common::Answer {
    app.put(path).key(key).json(body).send().await
}

#[tokio::test]
async fn n35_sets_the_floor_alone_and_echoes_the_clients_body() {
    let app = TestApp::demo();
    let (offers, contracts) = offers_and_contracts(&app);
    let body = json!({"client_id": "me", "price": 0.25});
    let answer = set(&app, ALICE_KEY, &paths::machine_min_bid(1001), body.clone())
        .await
        .ok();
    assert_eq!(answer, json!({"success": true, "you_sent": body}));
    assert_eq!(floor_of(&app, 1001), Some(0.25));
    let shown = app
        .get(&paths::machine(1001))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(shown[0]["min_bid_price"], 0.25);
    // Nothing else changed: 1001's other terms, every other offer, every contract.
    let (offers_after, contracts_after) = offers_and_contracts(&app);
    assert_eq!(contracts_after, contracts);
    let others = |all: &Option<String>| {
        all.as_deref()
            .unwrap()
            .split(',')
            .map(|offer| {
                let mut terms: Vec<&str> = offer.split(':').collect();
                if terms[0] == "1001" {
                    terms.remove(2);
                }
                terms.join(":")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(others(&offers_after), others(&offers));
    // The path without its slash, and a whole number.
    set(
        &app,
        ALICE_KEY,
        paths::MACHINE_MIN_BID.replace("{id}", "1001").as_str(),
        json!({"price": 2}),
    )
    .await
    .ok();
    assert_eq!(floor_of(&app, 1001), Some(2.0));
}

#[tokio::test]
async fn n35_keeps_a_withdrawn_offers_floor_for_its_next_listing() {
    let app = TestApp::demo();
    set(
        &app,
        ALICE_KEY,
        &paths::machine_min_bid(WITHDRAWN_MACHINE),
        json!({"price": 0.3}),
    )
    .await
    .ok();
    assert_eq!(floor_of(&app, WITHDRAWN_MACHINE), Some(0.3));
    assert!(app
        .scalar_f64(&format!(
            "SELECT withdrawn_at FROM offers WHERE machine_id = {WITHDRAWN_MACHINE}"
        ))
        .is_some());
}

#[tokio::test]
async fn n35_refuses_in_the_specs_words_and_changes_nothing() {
    let app = TestApp::demo();
    let before = offers_and_contracts(&app);
    let path = paths::machine_min_bid(1001);
    for (body, msg) in [
        (
            json!({"client_id": "me", "price": null}),
            "Missing argument: min_bid.",
        ),
        (json!({"client_id": "me"}), "Missing argument: min_bid."),
        (json!({"price": "0.25"}), "min_bid must be a number."),
        (json!({"price": [0.25]}), "min_bid must be a number."),
        (json!({"price": 0}), "min_bid must be greater than 0."),
        (json!({"price": -1e300}), "min_bid must be greater than 0."),
    ] {
        let answer = set(&app, ALICE_KEY, &path, body.clone()).await;
        assert_eq!(answer.error(422, "invalid_args"), msg, "{body}");
    }
    // The body's values are judged before the machine's existence (spec §1.2 rule 7).
    let answer = set(
        &app,
        ALICE_KEY,
        &paths::machine_min_bid(2001),
        json!({"price": "x"}),
    )
    .await;
    assert_eq!(
        answer.error(422, "invalid_args"),
        "min_bid must be a number."
    );
    for (raw, shown) in [("x", "x"), ("0", "0"), ("1.5", "1.5"), ("%C3%BC", "ü")] {
        let answer = set(
            &app,
            ALICE_KEY,
            &format!("/api/v0/machines/{raw}/minbid/"),
            json!({"price": 1}),
        )
        .await;
        assert_eq!(
            answer.error(400, "invalid_args"),
            format!("Missing or invalid machine_id: '{shown}'")
        );
    }
    for (key, machine) in [(ALICE_KEY, 2001), (BOB_KEY, 1001), (ALICE_KEY, 424_242)] {
        let answer = set(
            &app,
            key,
            &paths::machine_min_bid(machine),
            json!({"price": 0.2}),
        )
        .await;
        assert_eq!(answer.error(404, "not_found"), "No such machine id");
    }
    // 1009 was never listed: there are no offer terms to change.
    let answer = set(
        &app,
        ALICE_KEY,
        &paths::machine_min_bid(1009),
        json!({"price": 0.2}),
    )
    .await;
    assert_eq!(
        answer.error(409, "no_offer"),
        "Machine 1009 has no offer terms yet; list it first"
    );
    let answer = app
        .put(&path)
        .key(ALICE_KEY)
        .raw("application/json", "{\"price\": 0.2")
        .send()
        .await;
    answer.error(400, "invalid_json");
    let answer = app.put(&path).key(ALICE_KEY).send().await;
    answer.error(400, "invalid_json");
    assert_eq!(offers_and_contracts(&app), before);
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM offers WHERE machine_id = 1009"),
        0
    );
}

/// The ceiling is `2 * 0.1 *` N1's `total_flops` per GPU, and there is none while N1 does
/// not know a machine's `total_flops` (fleet-health N35): whichever N2 says, the server
/// answers accordingly.
#[tokio::test]
async fn n35_bounds_the_floor_by_the_tflops_n1_serves() {
    let app = TestApp::demo();
    let machine = app
        .get(&paths::machine(1001))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let huge = json!({"price": 1e9});
    let answer = set(&app, ALICE_KEY, &paths::machine_min_bid(1001), huge).await;
    match machine[0]["total_flops"].as_f64() {
        None => {
            answer.ok();
            assert_eq!(floor_of(&app, 1001), Some(1e9));
        }
        Some(total) => {
            let max = 2.0 * 0.1 * total / machine[0]["num_gpus"].as_f64().unwrap();
            let shown = format!("{max:.4}");
            let shown = shown.trim_end_matches('0').trim_end_matches('.');
            assert_eq!(
                answer.error(422, "invalid_args"),
                format!("min_bid must be <= {shown} (2 * 0.1 * gpu_tflops).")
            );
            assert_ne!(floor_of(&app, 1001), Some(1e9));
            set(
                &app,
                ALICE_KEY,
                &paths::machine_min_bid(1001),
                json!({"price": max}),
            )
            .await
            .ok();
        }
    }
}
