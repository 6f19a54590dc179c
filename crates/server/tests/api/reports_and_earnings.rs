//! Fleet-health N24 (a machine's renter reports) and N34 (machine earnings) against the
//! demo data, through the router: the answers are checked against the stored rows, and
//! every refusal for its exact words.

use crate::common;

use common::{TestApp, NOW};
use gpudeck_server::db::reports::{add_report, NewReport};
use gpudeck_server::demo::*;
use gpudeck_wire::paths;
use serde_json::{json, Value};

const HOUR: f64 = 3_600.0;
/// The demo's "today": the day index of [`NOW`].
const TODAY: i64 = 20_833;

// ------------------------------------------------------------------------------ N24

#[tokio::test]
async fn n24_lists_a_machines_reports_newest_first_as_the_client_asks() {
    let app = TestApp::demo();
    let path = paths::machine_reports(REPORTED_MACHINE);
    // The official client sends a JSON body on this GET; it is ignored.
    let answer = app
        .get(&path)
        .key(ALICE_KEY)
        .json(json!({"machine_id": REPORTED_MACHINE}))
        .send()
        .await
        .ok();
    assert_eq!(
        answer,
        json!([
            {"problem": "Other", "message": MARKUP, "created_at": NOW - 2.0 * HOUR},
            {"problem": "Machine Has Port Issues",
             "message": "Port 22 refused – ssh unreachable 🌀", "created_at": NOW - 30.0 * HOUR},
            {"problem": "Unable To Start Instance",
             "message": "Stuck at \"loading\" for an hour.", "created_at": NOW - 240.0 * HOUR},
        ])
    );
    let without_slash = app
        .get(path.trim_end_matches('/'))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(without_slash, answer);
}

#[tokio::test]
async fn n24_answers_an_empty_array_and_each_hosts_own_reports() {
    let app = TestApp::demo();
    let none = app
        .get(&paths::machine_reports(FRAGMENTED_MACHINE))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(none, json!([]));
    let bobs = app
        .get(&paths::machine_reports(2001))
        .key(BOB_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        bobs,
        json!([{"problem": OLD_REPORT.0, "message": OLD_REPORT.1,
                "created_at": NOW - 240.0 * HOUR}])
    );
}

#[tokio::test]
async fn n24_refuses_bad_ids_and_machines_that_are_not_the_callers() {
    let app = TestApp::demo();
    for (raw, shown) in [
        ("x", "x"),
        ("0", "0"),
        ("-1", "-1"),
        ("1.5", "1.5"),
        ("%D9%A1%D9%A0%D9%A5%D9%A8", "١٠٥٨"),
        ("99999999999999999999", "99999999999999999999"),
    ] {
        let msg = app
            .get(&format!("/api/v0/machines/{raw}/reports/"))
            .key(ALICE_KEY)
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, format!("Missing or invalid machine_id: '{shown}'"));
    }
    for (key, machine) in [
        (ALICE_KEY, 2001),
        (BOB_KEY, REPORTED_MACHINE),
        (ALICE_KEY, 424_242),
    ] {
        let msg = app
            .get(&paths::machine_reports(machine))
            .key(key)
            .send()
            .await
            .error(404, "not_found");
        assert_eq!(msg, "No such machine id");
    }
}

#[tokio::test]
async fn n24_answers_the_newest_20_and_stored_messages_keep_512_characters() {
    let app = TestApp::demo();
    let long = "ü".repeat(600);
    app.state
        .db
        .with_conn(|conn| {
            for i in 0..25 {
                add_report(
                    conn,
                    &NewReport {
                        machine_id: FRAGMENTED_MACHINE,
                        reporter_id: GUSTAV_ID,
                        instance_id: None,
                        problem: "Other",
                        message: if i == 24 { &long } else { "slow" },
                        created_at: NOW - (100 - i) as f64,
                    },
                )?;
            }
            Ok(())
        })
        .unwrap();
    let answer = app
        .get(&paths::machine_reports(FRAGMENTED_MACHINE))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let times: Vec<f64> = answer
        .as_array()
        .unwrap()
        .iter()
        .map(|report| report["created_at"].as_f64().unwrap())
        .collect();
    let newest_20: Vec<f64> = (5..25).rev().map(|i| NOW - (100 - i) as f64).collect();
    assert_eq!(times, newest_20);
    assert_eq!(answer[0]["message"], "ü".repeat(512));
}

// ------------------------------------------------------------------------------ N34

/// N34 for alice with `query`, through the client's path.
async fn earnings(app: &TestApp, query: &str) -> Value {
    app.get(&format!("{}?{query}", paths::machine_earnings()))
        .key(ALICE_KEY)
        .send()
        .await
        .ok()
}

/// The stored GPU earnings of alice's machines (one, or all) from day `from` to `to`.
fn stored_gpu(app: &TestApp, machine: Option<i64>, from: i64, to: i64) -> f64 {
    let machine = machine.map_or("NULL".to_owned(), |id| id.to_string());
    app.scalar_f64(&format!(
        "SELECT COALESCE(SUM(e.gpu_earn), 0) FROM machine_earnings e
         JOIN machines m ON m.id = e.machine_id
         WHERE m.owner_id = {ALICE_ID} AND ({machine} IS NULL OR m.id = {machine})
           AND e.day BETWEEN {from} AND {to}"
    ))
    .unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.000_51
}

#[tokio::test]
async fn n34_reads_the_official_clients_default_as_yesterday_for_every_machine() {
    let app = TestApp::demo();
    // `vastai show earnings`: now/86400 − 1 as a float, machid null.
    let query = format!(
        "owner=me&sday={0}&eday={0}&machid=null",
        NOW / 86_400.0 - 1.0
    );
    let answer = earnings(&app, &query).await;
    assert_eq!(answer["sday"], TODAY - 1);
    assert_eq!(answer["eday"], TODAY - 1);
    let ids: Vec<i64> = answer["per_machine"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["machine_id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, ALICE_MACHINES.collect::<Vec<_>>());
    let days = answer["per_day"].as_array().unwrap();
    assert_eq!(days.len(), 1);
    assert_eq!(days[0]["day"], TODAY - 1);
    assert!(days[0]["reliability"].is_null());
    let stored = stored_gpu(&app, None, TODAY - 1, TODAY - 1);
    assert!(stored > 0.0);
    assert!(close(
        answer["summary"]["total_gpu"].as_f64().unwrap(),
        stored
    ));
    assert!(close(days[0]["gpu_earn"].as_f64().unwrap(), stored));
    // The demo's rule for one machine on that day.
    let earn_day = app
        .scalar_f64("SELECT earn_day FROM machines WHERE id = 1001")
        .unwrap();
    let expected = earn_day * (0.75 + 0.05 * ((1001 + TODAY - 1) % 6) as f64);
    assert!(close(
        answer["per_machine"][0]["gpu_earn"].as_f64().unwrap(),
        expected
    ));
    assert_eq!(answer["per_machine"][0]["sto_earn"], 0.4);
    // The same answer without `me`'s slashless form, and with the caller's id.
    for path in [
        format!("{}/?{query}", paths::machine_earnings()),
        format!("/api/v0/users/{ALICE_ID}/machine-earnings/?{query}"),
    ] {
        let again = app.get(&path).key(ALICE_KEY).send().await.ok();
        assert_eq!(again, answer, "{path}");
    }
}

#[tokio::test]
async fn n34_answers_one_machine_over_a_window_with_a_row_for_every_day() {
    let app = TestApp::demo();
    let answer = earnings(&app, "sday=20772.5&eday=20834&machid=1001").await;
    assert_eq!(
        (answer["sday"].clone(), answer["eday"].clone()),
        (json!(20_772), json!(20_834))
    );
    let per_machine = answer["per_machine"].as_array().unwrap();
    assert_eq!(per_machine.len(), 1);
    assert_eq!(per_machine[0]["machine_id"], 1001);
    let reliability = app
        .scalar_f64("SELECT reliability2 FROM machines WHERE id = 1001")
        .unwrap();
    assert_eq!(per_machine[0]["reliability"], reliability);
    assert_eq!(answer["summary"]["avg_reliability"], reliability);
    let days = answer["per_day"].as_array().unwrap();
    let indexes: Vec<i64> = days.iter().map(|d| d["day"].as_i64().unwrap()).collect();
    assert_eq!(indexes, (20_772..=20_834).collect::<Vec<_>>());
    // Seeded: the 60 days before today; the day before them and today on read as zeros.
    let zero_days: Vec<i64> = days
        .iter()
        .filter(|d| d["gpu_earn"] == 0.0 && d["sto_earn"] == 0.0)
        .map(|d| d["day"].as_i64().unwrap())
        .collect();
    assert_eq!(zero_days, vec![20_772, TODAY, TODAY + 1]);
    let total = stored_gpu(&app, Some(1001), 20_772, 20_834);
    let by_day: f64 = days.iter().map(|d| d["gpu_earn"].as_f64().unwrap()).sum();
    assert!(close(per_machine[0]["gpu_earn"].as_f64().unwrap(), total));
    assert!((by_day - total).abs() < 0.01);
}

#[tokio::test]
async fn n34_defaults_to_last_days_and_reports_the_account() {
    let app = TestApp::demo();
    let answer = earnings(&app, "last_days=7").await;
    assert_eq!(answer["sday"], TODAY - 7);
    assert_eq!(answer["eday"], TODAY - 1);
    assert_eq!(answer["per_day"].as_array().unwrap().len(), 7);
    assert!(close(
        answer["summary"]["total_gpu"].as_f64().unwrap(),
        stored_gpu(&app, None, TODAY - 7, TODAY - 1)
    ));
    assert_eq!(
        answer["current"],
        json!({"balance": 4200.5, "service_fee": 0.0, "total": 4200.5, "credit": 0.0})
    );
    assert_eq!(answer["username"], "alice");
    assert_eq!(answer["email"], "alice@example.com");
    assert!(answer["fullname"].is_null());
    let mean: f64 = app
        .scalar_f64(&format!(
            "SELECT AVG(reliability2) FROM machines WHERE owner_id = {ALICE_ID}"
        ))
        .unwrap();
    assert!(close(
        answer["summary"]["avg_reliability"].as_f64().unwrap(),
        mean
    ));
}

#[tokio::test]
async fn n34_sees_only_the_callers_machines() {
    let app = TestApp::demo();
    let bob = app
        .get(&format!("{}?last_days=3", paths::machine_earnings()))
        .key(BOB_KEY)
        .send()
        .await
        .ok();
    let ids: Vec<i64> = bob["per_machine"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["machine_id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, BOB_MACHINES.collect::<Vec<_>>());
    for machid in ["2001", "424242"] {
        let msg = app
            .get(&format!("{}?machid={machid}", paths::machine_earnings()))
            .key(ALICE_KEY)
            .send()
            .await
            .error(404, "not_found");
        assert_eq!(msg, "No such machine id");
    }
    for user in [BOB_ID.to_string(), "abc".into(), "m%C3%A9".into()] {
        let msg = app
            .get(&format!(
                "/api/v0/users/{user}/machine-earnings/?sday=nonsense"
            ))
            .key(ALICE_KEY)
            .send()
            .await
            .error(403, "forbidden");
        assert_eq!(msg, "you may only read your own earnings");
    }
}

#[tokio::test]
async fn n34_refuses_a_bad_query_in_the_generated_refs_words() {
    let app = TestApp::demo();
    let long = "9".repeat(5_000);
    for (query, reason) in [
        (
            "sday=abc&eday=20454".to_owned(),
            "sday must be a number of days since 1970-01-01",
        ),
        (
            "sday=20454&eday=%2220454%22".into(),
            "eday must be a number of days since 1970-01-01",
        ),
        (
            "sday=-1&eday=20454".into(),
            "sday must be a number of days since 1970-01-01",
        ),
        (
            "sday=%EF%BC%92%EF%BC%90&eday=20454".into(),
            "sday must be a number of days since 1970-01-01",
        ),
        (
            format!("sday=20454&eday={long}"),
            "eday must be a number of days since 1970-01-01",
        ),
        ("sday=20455&eday=20454".into(), "sday is after eday"),
        (
            "sday=20000&eday=20366".into(),
            "window longer than 366 days",
        ),
        (
            "last_days=0".into(),
            "last_days must be an integer from 1 to 366",
        ),
        (
            "last_days=1.5".into(),
            "last_days must be an integer from 1 to 366",
        ),
        (
            "machid=%221001%22".into(),
            "machid must be a machine id or null",
        ),
        (
            "machid=1001.5".into(),
            "machid must be a machine id or null",
        ),
        (
            "machid=%5B1001%5D".into(),
            "machid must be a machine id or null",
        ),
    ] {
        let msg = app
            .get(&format!("{}?{query}", paths::machine_earnings()))
            .key(ALICE_KEY)
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, format!("Invalid input syntax: {reason}"), "{query}");
    }
}

// ---------------------------------------------------------------------- demo data

#[tokio::test]
async fn the_demo_stores_60_days_of_earnings_and_none_from_an_offline_day_on() {
    let app = TestApp::demo();
    let days = |machine: i64| {
        app.scalar(&format!(
            "SELECT COUNT(*) FROM machine_earnings WHERE machine_id = {machine}
               AND day BETWEEN {} AND {}",
            TODAY - 60,
            TODAY - 1
        ))
    };
    assert_eq!(days(1001), 60);
    assert_eq!(days(2005), 60);
    // 1119 went offline 26 hours before seeding, yesterday; 1113 an hour before, today.
    assert_eq!(days(1119), 59);
    assert_eq!(days(1113), 60);
    assert_eq!(
        app.scalar(&format!(
            "SELECT COUNT(*) FROM machine_earnings WHERE day >= {TODAY}"
        )),
        0
    );
    // Storage and bandwidth only while rented: 1007 has no contract.
    assert_eq!(
        app.scalar_f64("SELECT MAX(sto_earn + bwu_earn + bwd_earn) FROM machine_earnings WHERE machine_id = 1007"),
        Some(0.0)
    );
}
