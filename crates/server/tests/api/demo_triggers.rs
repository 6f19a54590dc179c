//! The demo triggers D1–D3 (spec fleet-health, a project rule): each field's effect on N2,
//! each event of §3.5 on its transition, received by a webhook on a local port, none when
//! nothing transitions, the verification rule, and every refusal changing nothing.

use crate::common;

use common::{plain_app, receiver, Receiver, TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_wire::calendar::rfc3339_utc;
use gpudeck_wire::paths;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const DAY: f64 = 86_400.0;

/// Every host type of the catalog (§3.2).
const HOST_TYPES: [&str; 7] = [
    "host:machine_offline",
    "host:machine_verification_failed",
    "host:machine_error",
    "host:machine_reported",
    "host:low_disk_space",
    "host:near_end_date",
    "host:maintenance_scheduled",
];

/// A verified, online alice machine with no error and most of its disk free.
const HEALTHY: i64 = 1001;

/// A local receiver, subscribed by a new webhook of alice's to every host type.
async fn subscribed(app: &TestApp) -> Receiver {
    let receiver = receiver().await;
    app.post(paths::WEBHOOKS)
        .key(ALICE_KEY)
        .json(json!({"webhook_url": receiver.url, "event_types": HOST_TYPES}))
        .send()
        .await
        .ok();
    receiver
}

async fn d1(app: &TestApp, id: i64, body: Value) -> common::Answer {
    app.put(&paths::demo_machine_health(id))
        .key(ALICE_KEY)
        .json(body)
        .send()
        .await
}

async fn d2(app: &TestApp, id: i64, body: Value) -> common::Answer {
    app.post(&paths::demo_machine_reports(id))
        .key(ALICE_KEY)
        .json(body)
        .send()
        .await
}

async fn d3(app: &TestApp, id: i64, event_type: &str) -> common::Answer {
    app.post(&paths::demo_machine_events(id))
        .key(ALICE_KEY)
        .json(json!({ "event_type": event_type }))
        .send()
        .await
}

/// The machine as N2 serves it to alice.
async fn n2(app: &TestApp, id: i64) -> Value {
    app.get(&paths::machine(id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok()[0]
        .clone()
}

/// The keys of an answer's events, in order.
fn keys(answer: &Value) -> Vec<String> {
    answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap().to_owned())
        .collect()
}

/// The next `n` deliveries, by `notif_type` (deliveries are unordered), each checked to
/// carry the id the answer gave its event.
async fn delivered(receiver: &mut Receiver, answer: &Value) -> BTreeMap<String, Value> {
    let ids: BTreeMap<String, String> = answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let slug = e["key"].as_str().unwrap().split_once(':').unwrap().1;
            (slug.to_owned(), e["event_id"].as_str().unwrap().to_owned())
        })
        .collect();
    let mut got = BTreeMap::new();
    for _ in 0..ids.len() {
        let delivery = receiver.got.recv().await.unwrap();
        let body: Value = serde_json::from_slice(&delivery.body).unwrap();
        let slug = body["notif_type"].as_str().unwrap().to_owned();
        assert_eq!(body["event_id"], ids[&slug], "{body}");
        assert_eq!(body["user_id"], ALICE_ID);
        got.insert(slug, body);
    }
    got
}

/// `(subject, message)` of a delivery.
fn texts(delivery: &Value) -> (&str, &str) {
    (
        delivery["subject"].as_str().unwrap(),
        delivery["message"].as_str().unwrap(),
    )
}

#[tokio::test]
async fn each_health_field_shows_in_n2_and_the_others_keep_their_defaults() {
    let app = TestApp::demo();
    let before = n2(&app, HEALTHY).await;
    let answer = d1(
        &app,
        HEALTHY,
        json!({"offline": true, "error_description": "GPU 3 fell off the bus",
               "vm_error_msg": "VMs unavailable: ☃", "verification": "unverified",
               "reliability2": 0.5, "avail_disk_space": 10.5, "gpu_max_cur_temp": 91.5,
               "driver_version": "560.28.03", "cuda_max_good": 12.6}),
    )
    .await
    .ok();
    let m = n2(&app, HEALTHY).await;
    assert_eq!(answer["machine"], m, "the answer is N2's machine");
    assert_eq!(answer["success"], true);
    for (field, value) in [
        ("error_description", json!("GPU 3 fell off the bus")),
        ("vm_error_msg", json!("VMs unavailable: ☃")),
        ("verification", json!("unverified")),
        ("reliability2", json!(0.5)),
        ("avail_disk_space", json!(10.5)),
        ("gpu_max_cur_temp", json!(91.5)),
        ("driver_version", json!("560.28.03")),
        ("cuda_max_good", json!(12.6)),
    ] {
        assert_eq!(m[field], value, "{field}");
    }
    // Offline from now: N1's timeout grows from 0 as time passes.
    assert_eq!(m["timeout"], 0.0);
    app.state.clock.set(NOW + 600.0);
    assert_eq!(n2(&app, HEALTHY).await["timeout"], 600.0);
    // Offline again keeps the first time; online clears it.
    d1(&app, HEALTHY, json!({"offline": true})).await.ok();
    assert_eq!(n2(&app, HEALTHY).await["timeout"], 600.0);
    d1(&app, HEALTHY, json!({"offline": false})).await.ok();
    assert_eq!(n2(&app, HEALTHY).await["timeout"], 0.0);
    // Null clears an error; a signal not sent keeps its specified default (stored null).
    let m = d1(&app, HEALTHY, json!({"error_description": null}))
        .await
        .ok()["machine"]
        .clone();
    assert_eq!(m["error_description"], Value::Null);
    assert_eq!(m["vm_error_msg"], "VMs unavailable: ☃");
    assert_eq!(m["max_disk_space"], before["max_disk_space"]);
    d1(&app, 1002, json!({"reliability2": 0.95})).await.ok();
    for column in [
        "gpu_max_cur_temp",
        "avail_disk_space",
        "cuda_max_good IS NOT 12.4",
    ] {
        let stored = app.scalar_f64(&format!("SELECT {column} FROM machines WHERE id = 1002"));
        assert!(matches!(stored, None | Some(0.0)), "{column}: {stored:?}");
    }
    // An empty body changes nothing.
    let m = n2(&app, HEALTHY).await;
    let answer = d1(&app, HEALTHY, json!({})).await.ok();
    assert_eq!(answer["machine"], m);
    assert_eq!(keys(&answer), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_transition_emits_its_event_and_a_repeated_state_none() {
    let app = TestApp::demo();
    let mut receiver = subscribed(&app).await;
    let host = n2(&app, HEALTHY).await["hostname"]
        .as_str()
        .unwrap()
        .to_owned();

    let answer = d1(&app, HEALTHY, json!({"offline": true})).await.ok();
    assert_eq!(keys(&answer), ["host:machine_offline"]);
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(
        texts(&got["machine_offline"]),
        (
            "Machine 1001 is offline",
            format!("Machine 1001 ({host}) stopped responding to the platform.").as_str()
        )
    );
    let again = d1(&app, HEALTHY, json!({"offline": true})).await.ok();
    assert_eq!(keys(&again), Vec::<String>::new());

    // An error on a verified machine: the error, and the verification it costs.
    let answer = d1(&app, HEALTHY, json!({"error_description": "Xid 79"}))
        .await
        .ok();
    assert_eq!(
        keys(&answer),
        ["host:machine_error", "host:machine_verification_failed"]
    );
    assert_eq!(answer["machine"]["verification"], "deverified");
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(
        texts(&got["machine_error"]),
        ("Machine 1001 reported an error", "Xid 79")
    );
    assert_eq!(
        texts(&got["machine_verification_failed"]),
        (
            "Machine 1001 lost verified status",
            format!("Machine 1001 ({host}) is now deverified.").as_str()
        )
    );
    // Another error in its place is no transition.
    let again = d1(&app, HEALTHY, json!({"error_description": "Xid 48"}))
        .await
        .ok();
    assert_eq!(keys(&again), Vec::<String>::new());
    // A VM error is one of its own; blank is none.
    let blank = d1(&app, HEALTHY, json!({"vm_error_msg": "  "})).await.ok();
    assert_eq!(keys(&blank), Vec::<String>::new());
    let answer = d1(&app, HEALTHY, json!({"vm_error_msg": "IOMMU off"}))
        .await
        .ok();
    assert_eq!(keys(&answer), ["host:machine_error"]);
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(got["machine_error"]["message"], "IOMMU off");

    // Disk: at 10 % free nothing; under it the event; lower still nothing.
    let max = answer["machine"]["max_disk_space"].as_f64().unwrap();
    let at_gate = d1(&app, HEALTHY, json!({"avail_disk_space": max * 0.10}))
        .await
        .ok();
    assert_eq!(keys(&at_gate), Vec::<String>::new());
    let answer = d1(&app, HEALTHY, json!({"avail_disk_space": 700}))
        .await
        .ok();
    assert_eq!(keys(&answer), ["host:low_disk_space"]);
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(
        texts(&got["low_disk_space"]),
        (
            "Machine 1001 is low on disk space",
            format!("700 of {max} GB free.").as_str()
        )
    );
    let lower = d1(&app, HEALTHY, json!({"avail_disk_space": 1})).await.ok();
    assert_eq!(keys(&lower), Vec::<String>::new());

    // Clearing the error restores verified and emits nothing; so does coming back online.
    let cleared = d1(
        &app,
        HEALTHY,
        json!({"error_description": null, "offline": false}),
    )
    .await
    .ok();
    assert_eq!(keys(&cleared), Vec::<String>::new());
    assert_eq!(cleared["machine"]["verification"], "verified");
    // Verification set directly.
    let answer = d1(&app, HEALTHY, json!({"verification": "unverified"}))
        .await
        .ok();
    assert_eq!(keys(&answer), ["host:machine_verification_failed"]);
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(
        got["machine_verification_failed"]["message"],
        format!("Machine 1001 ({host}) is now unverified.")
    );

    // Nothing else was delivered: the next delivery is the one raised now.
    let answer = d3(&app, HEALTHY, "host:machine_offline").await.ok();
    let next = receiver.got.recv().await.unwrap();
    let body: Value = serde_json::from_slice(&next.body).unwrap();
    assert_eq!(body["event_id"], answer["events"][0]["event_id"]);
}

#[tokio::test]
async fn clearing_an_error_restores_only_what_the_error_took() {
    let app = TestApp::demo();
    // 1037 was deverified before its error (the demo's): clearing it leaves it so.
    let m = n2(&app, ERROR_MACHINE).await;
    assert_eq!(
        (m["verification"].as_str(), m["error_description"].as_str()),
        (Some("deverified"), Some(MACHINE_ERROR))
    );
    let cleared = d1(&app, ERROR_MACHINE, json!({"error_description": null}))
        .await
        .ok();
    assert_eq!(cleared["machine"]["verification"], "deverified");
    assert_eq!(keys(&cleared), Vec::<String>::new());
    // An error on a machine that is not verified costs nothing more.
    let answer = d1(&app, ERROR_MACHINE, json!({"error_description": "again"}))
        .await
        .ok();
    assert_eq!(keys(&answer), ["host:machine_error"]);
    assert_eq!(answer["machine"]["verification"], "deverified");
    // Deverified by hand, then an error set and cleared: still deverified.
    d1(&app, HEALTHY, json!({"verification": "deverified"}))
        .await
        .ok();
    d1(&app, HEALTHY, json!({"error_description": "x"}))
        .await
        .ok();
    let m = d1(&app, HEALTHY, json!({"error_description": null}))
        .await
        .ok()["machine"]
        .clone();
    assert_eq!(m["verification"], "deverified");
    // Deverified by an error, then verified by hand: the error no longer decides.
    let other = 1002;
    assert_eq!(n2(&app, other).await["verification"], "verified");
    d1(&app, other, json!({"error_description": "x"}))
        .await
        .ok();
    d1(&app, other, json!({"verification": "unverified"}))
        .await
        .ok();
    let m = d1(&app, other, json!({"error_description": null}))
        .await
        .ok()["machine"]
        .clone();
    assert_eq!(m["verification"], "unverified");
    // Only the machine's error deverifies, not a VM error alone.
    let third = 1004;
    assert_eq!(n2(&app, third).await["verification"], "verified");
    let m = d1(&app, third, json!({"vm_error_msg": "vm"})).await.ok()["machine"].clone();
    assert_eq!(m["verification"], "verified");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d2_files_a_report_that_n24_lists_and_n1_counts() {
    let app = TestApp::demo();
    let mut receiver = subscribed(&app).await;
    let long = "é".repeat(600);
    let answer = d2(
        &app,
        HEALTHY,
        json!({"problem": "Machine Has Port Issues", "message": long}),
    )
    .await
    .ok();
    let kept: String = long.chars().take(512).collect();
    assert_eq!(
        answer["report"],
        json!({"problem": "Machine Has Port Issues", "message": kept, "created_at": NOW})
    );
    assert_eq!(keys(&answer), ["host:machine_reported"]);
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(
        texts(&got["machine_reported"]),
        (
            "Machine 1001 was reported by a renter",
            format!("Machine Has Port Issues: {kept}").as_str()
        )
    );
    let listed = app
        .get(&paths::machine_reports(HEALTHY))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(listed, json!([answer["report"]]));
    assert_eq!(
        app.scalar("SELECT reporter_id FROM machine_reports WHERE machine_id = 1001"),
        GUSTAV_ID
    );
    // An old one counts in all reports, not the recent ones; no message is empty.
    let old = d2(
        &app,
        HEALTHY,
        json!({"problem": "Other", "created_at": NOW - 8.0 * DAY, "message": null}),
    )
    .await
    .ok();
    assert_eq!(old["report"]["message"], "");
    let m = n2(&app, HEALTHY).await;
    assert_eq!(
        (m["num_reports"].clone(), m["num_recent_reports"].clone()),
        (json!(2), json!(1.0))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d3_raises_each_host_event_with_its_standard_texts_and_changes_nothing() {
    let app = TestApp::demo();
    let mut receiver = subscribed(&app).await;
    // 1058 has reports; give it a window so maintenance_scheduled has one to name.
    let id = REPORTED_MACHINE;
    app.put(&paths::machine_dnotify(id))
        .key(ALICE_KEY)
        .json(json!({"sdate": NOW + 3.0 * 3600.0, "duration": 2, "maintenance_category": "power"}))
        .send()
        .await
        .ok();
    receiver.got.recv().await.unwrap();
    let m = n2(&app, id).await;
    let next = &m["machine_maintenance"][0];
    let window = format!(
        "{} window from {} for {} hour(s).",
        next["maintenance_category"].as_str().unwrap(),
        rfc3339_utc(next["start_time"].as_f64().unwrap()),
        next["duration_hours"]
    );
    let gb = |field: &str| m[field].as_f64().unwrap();
    let reports = app.scalar(&format!(
        "SELECT COUNT(*) FROM machine_reports WHERE machine_id = {id}"
    ));
    let host = m["hostname"].as_str().unwrap();
    let end = rfc3339_utc(m["end_date"].as_f64().expect("1058 is listed with an end"));
    let expected = [
        (
            "host:machine_offline",
            format!("Machine {id} is offline"),
            format!("Machine {id} ({host}) stopped responding to the platform."),
        ),
        (
            "host:machine_verification_failed",
            format!("Machine {id} lost verified status"),
            format!(
                "Machine {id} ({host}) is now {}.",
                m["verification"].as_str().unwrap()
            ),
        ),
        (
            "host:machine_error",
            format!("Machine {id} reported an error"),
            "The machine reports no error now.".to_owned(),
        ),
        (
            "host:machine_reported",
            format!("Machine {id} was reported by a renter"),
            format!("Other: {MARKUP}"),
        ),
        (
            "host:low_disk_space",
            format!("Machine {id} is low on disk space"),
            format!(
                "{} of {} GB free.",
                gb("avail_disk_space"),
                gb("max_disk_space")
            ),
        ),
        (
            "host:near_end_date",
            format!("The listing of machine {id} ends soon"),
            format!("The offer ends at {end}."),
        ),
        (
            "host:maintenance_scheduled",
            format!("Maintenance scheduled on machine {id}"),
            window,
        ),
    ];
    for (key, subject, message) in expected {
        let answer = d3(&app, id, key).await.ok();
        assert_eq!(keys(&answer), [key]);
        let slug = key.split_once(':').unwrap().1;
        let got = delivered(&mut receiver, &answer).await;
        assert_eq!(
            texts(&got[slug]),
            (subject.as_str(), message.as_str()),
            "{key}"
        );
    }
    assert_eq!(n2(&app, id).await, m, "D3 changes nothing");
    assert_eq!(
        app.scalar(&format!(
            "SELECT COUNT(*) FROM machine_reports WHERE machine_id = {id}"
        )),
        reports
    );
    // An unlisted machine's listing event says so.
    let unlisted = (1001..=1120).find(|id| !alice_listed(*id)).unwrap();
    let answer = d3(&app, unlisted, "host:near_end_date").await.ok();
    let got = delivered(&mut receiver, &answer).await;
    assert_eq!(
        got["near_end_date"]["message"],
        "The machine is not listed."
    );
}

/// Every bad body, per trigger: 400 naming the field (or `invalid_json`), and nothing
/// changed: not the machine, not its reports, and no event.
#[tokio::test]
async fn every_bad_body_is_refused_and_changes_nothing() {
    let app = TestApp::demo();
    let before = n2(&app, HEALTHY).await;
    let max = before["max_disk_space"].as_f64().unwrap();
    let health: Vec<(Value, &str)> = vec![
        (json!({"offline": "yes"}), "offline must be true or false"),
        (json!({"offline": null}), "offline must be true or false"),
        (json!({"error_description": 7}), "error_description must be a string or null"),
        (json!({"vm_error_msg": ["x"]}), "vm_error_msg must be a string or null"),
        (
            json!({"error_description": "x".repeat(1001)}),
            "error_description must be at most 1000 characters",
        ),
        (
            json!({"verification": "Verified"}),
            "verification must be one of: verified, unverified, deverified",
        ),
        (json!({"verification": null}), "verification must be one of: verified, unverified, deverified"),
        (json!({"reliability2": 1.01}), "reliability2 must be a number from 0 to 1"),
        (json!({"reliability2": -0.1}), "reliability2 must be a number from 0 to 1"),
        (json!({"reliability2": "0.5"}), "reliability2 must be a number from 0 to 1"),
        (json!({"avail_disk_space": -1}), "avail_disk_space must be a number of GB, 0 or more"),
        (
            json!({"avail_disk_space": max + 1.0}),
            &*format!("avail_disk_space must be at most {max} (the machine's max_disk_space)").leak(),
        ),
        (json!({"gpu_max_cur_temp": "hot"}), "gpu_max_cur_temp must be a number"),
        (json!({"driver_version": ""}), "driver_version must be a string of 1 to 64 characters"),
        (
            json!({"driver_version": "9".repeat(65)}),
            "driver_version must be a string of 1 to 64 characters",
        ),
        (json!({"driver_version": 550}), "driver_version must be a string of 1 to 64 characters"),
        (json!({"cuda_max_good": -1}), "cuda_max_good must be a number, 0 or more"),
        (
            json!({"offline": true, "erorr_description": "x"}),
            "'erorr_description' is not a field of this trigger, which takes: offline, error_description, vm_error_msg, verification, reliability2, avail_disk_space, gpu_max_cur_temp, driver_version, cuda_max_good",
        ),
    ];
    for (body, msg) in health {
        let refused = d1(&app, HEALTHY, body.clone()).await;
        assert_eq!(refused.error(400, "invalid_args"), msg, "{body}");
    }
    let problems = "Problem must be one of: Unable To Start Instance, Instance Takes Too Long To Load, Instance Has Less Disk Space Than Requested, Machine Has Port Issues, Machine Performance Is Less Than Expected, Other";
    let reports: Vec<(Value, &str)> = vec![
        (json!({}), problems),
        (json!({"problem": "other"}), problems),
        (json!({"problem": 1}), problems),
        (json!({"problem": "Other", "message": 5}), "message must be a string"),
        (
            json!({"problem": "Other", "created_at": NOW + 1.0}),
            "created_at must be a number of Unix seconds, from 0 to now",
        ),
        (
            json!({"problem": "Other", "created_at": "yesterday"}),
            "created_at must be a number of Unix seconds, from 0 to now",
        ),
        (
            json!({"problem": "Other", "instance_id": 3}),
            "'instance_id' is not a field of this trigger, which takes: problem, message, created_at",
        ),
    ];
    for (body, msg) in reports {
        let refused = d2(&app, HEALTHY, body.clone()).await;
        assert_eq!(refused.error(400, "invalid_args"), msg, "{body}");
    }
    let events: Vec<(Value, &str)> = vec![
        (json!({}), "event_type is required"),
        (
            json!({"event_type": "client:outbid"}),
            "Unknown event type: client:outbid",
        ),
        (
            json!({"event_type": "webhook_test"}),
            "Unknown event type: webhook_test",
        ),
        (json!({"event_type": null}), "Unknown event type: null"),
    ];
    for (body, msg) in events {
        let refused = app
            .post(&paths::demo_machine_events(HEALTHY))
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await;
        assert_eq!(refused.error(400, "invalid_args"), msg, "{body}");
    }
    // Not a JSON object, for each trigger.
    for path in [
        paths::demo_machine_health(HEALTHY),
        paths::demo_machine_reports(HEALTHY),
        paths::demo_machine_events(HEALTHY),
    ] {
        let call = |content_type: &str, body: &'static str| {
            let method = if path.ends_with("health") {
                "PUT"
            } else {
                "POST"
            };
            app.call(method.parse().unwrap(), &path)
                .key(ALICE_KEY)
                .raw(content_type, body)
        };
        call("application/json", "")
            .send()
            .await
            .error(400, "invalid_json");
        call("application/json", "{")
            .send()
            .await
            .error(400, "invalid_json");
        call("text/plain", "{}")
            .send()
            .await
            .error(400, "invalid_json");
        let msg = call("application/json", "[1]")
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, "the body must be a JSON object");
    }
    assert_eq!(n2(&app, HEALTHY).await, before);
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM machine_reports WHERE machine_id = 1001"),
        0
    );
}

#[tokio::test]
async fn another_users_machine_is_no_such_machine() {
    let app = TestApp::demo();
    let bobs = *BOB_MACHINES.start();
    let before = app
        .get(&paths::machine(bobs))
        .key(BOB_KEY)
        .send()
        .await
        .ok();
    let answers = [
        d1(&app, bobs, json!({"offline": true})).await,
        d2(&app, bobs, json!({"problem": "Other"})).await,
        d3(&app, bobs, "host:machine_offline").await,
        d1(&app, 999_999, json!({})).await,
    ];
    for answer in answers {
        assert_eq!(answer.error(404, "not_found"), "No such machine id");
    }
    let after = app
        .get(&paths::machine(bobs))
        .key(BOB_KEY)
        .send()
        .await
        .ok();
    assert_eq!(after, before);
    let msg = d1(&app, 0, json!({})).await.error(400, "invalid_args");
    assert_eq!(msg, "Missing or invalid machine_id: '0'");
}

/// The three triggers on machine 1, each with an empty object.
fn calls<'a>(app: &'a TestApp, key: &str) -> [common::Call<'a>; 3] {
    [
        app.put(&paths::demo_machine_health(1)),
        app.post(&paths::demo_machine_reports(1)),
        app.post(&paths::demo_machine_events(1)),
    ]
    .map(|call| call.key(key).json(json!({})))
}

/// Only demo or test mode has the triggers: elsewhere their paths are unknown.
#[tokio::test]
async fn the_triggers_exist_only_in_demo_or_test_mode() {
    let (normal, key) = plain_app(false);
    for call in calls(&normal, key) {
        let answer = call.send().await;
        let msg = answer.error(404, "not_found");
        assert!(msg.starts_with("no such route"), "{msg}");
        assert_eq!(answer.header("cache-control"), Some("no-store"));
    }
    // Test mode: the routes answer (the plain database has no machine 1).
    let (test_mode, key) = plain_app(true);
    let answers = calls(&test_mode, key);
    let [health, report, event] = answers;
    assert_eq!(
        health.send().await.error(404, "not_found"),
        "No such machine id"
    );
    let refused = report.send().await.error(400, "invalid_args");
    assert!(refused.starts_with("Problem must be one of"), "{refused}");
    assert_eq!(
        event.send().await.error(400, "invalid_args"),
        "event_type is required"
    );
    // Without the demo's renter, the owner stands for the reporter.
    test_mode
        .state
        .db
        .with_conn(|c| {
            c.execute(
                "INSERT INTO machines (id, owner_id, hostname, num_gpus) VALUES (1, 1, 'p-1', 1)",
                [],
            )?;
            Ok(())
        })
        .unwrap();
    let filed = test_mode
        .post(&paths::demo_machine_reports(1))
        .key(key)
        .json(json!({"problem": "Other"}))
        .send()
        .await
        .ok();
    assert_eq!(filed["report"]["problem"], "Other");
    assert_eq!(
        test_mode.scalar("SELECT reporter_id FROM machine_reports WHERE machine_id = 1"),
        1
    );
}
