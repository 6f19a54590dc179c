//! N1–N7 and N21 against the demo data, through the router: the caller's machines,
//! scheduling and cancelling maintenance windows, and the host flag. Every write is
//! checked in the database, and every refusal for changing nothing.

use crate::common;

use common::{TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_wire::paths;
use serde_json::{json, Value};

const DAY: f64 = 86_400.0;

/// Rows of the maintenances table, so a refusal can be shown to change nothing.
fn windows_fingerprint(app: &TestApp) -> (i64, i64) {
    (
        app.scalar("SELECT COUNT(*) FROM maintenances"),
        app.scalar("SELECT COUNT(*) FROM maintenances WHERE cancelled_at IS NOT NULL"),
    )
}

/// Ids of the windows seed operation 1 lists for `machine`.
async fn listed(app: &TestApp, machine: i64) -> Vec<i64> {
    let uri = format!("{}?machine_ids={machine}", paths::MAINTENANCES);
    let key = if BOB_MACHINES.contains(&machine) {
        BOB_KEY
    } else {
        ALICE_KEY
    };
    app.get(&uri)
        .key(key)
        .send()
        .await
        .ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_i64().unwrap())
        .collect()
}

/// An upcoming window alice scheduled on one of her machines (the first, by id).
fn alice_upcoming(app: &TestApp) -> i64 {
    app.scalar(&format!(
        "SELECT MIN(w.id) FROM maintenances w JOIN machines m ON m.id = w.machine_id
         WHERE m.owner_id = {ALICE_ID} AND w.cancelled_at IS NULL AND w.start_time > {NOW}
           AND w.scheduled_by_marketplace = 0"
    ))
}

// ------------------------------------------------------------------ N1, N2 and N21

#[tokio::test]
async fn n1_lists_the_callers_machines_by_id_whatever_the_query() {
    let app = TestApp::demo();
    for uri in [
        format!("{}?owner=me", paths::MACHINES),
        format!("{}/?owner=me&user_id={BOB_ID}", paths::MACHINES),
        paths::MACHINES.to_owned(),
    ] {
        let body = app.get(&uri).key(ALICE_KEY).send().await.ok();
        let ids: Vec<i64> = body["machines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, ALICE_MACHINES.collect::<Vec<_>>(), "{uri}");
    }
    let bob = app.get(paths::MACHINES).key(BOB_KEY).send().await.ok();
    assert_eq!(bob["machines"].as_array().unwrap().len(), 5);
    assert!(bob["machines"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| BOB_MACHINES.contains(&m["id"].as_i64().unwrap())));
    let renter = app.get(paths::MACHINES).key(GUSTAV_KEY).send().await.ok();
    assert_eq!(renter, json!({"machines": []}));
}

#[tokio::test]
async fn n1_machines_carry_every_required_field_and_parse_as_the_wire_type() {
    let app = TestApp::demo();
    let body = app.get(paths::MACHINES).key(ALICE_KEY).send().await.ok();
    let list: gpudeck_wire::MachineList = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(list.machines.len(), 120);
    for machine in &body["machines"].as_array().unwrap()[..] {
        for field in [
            "id",
            "machine_id",
            "hostname",
            "gpu_name",
            "cpu_name",
            "driver_version",
            "num_gpus",
            "cpu_cores",
            "current_rentals_running",
            "gpu_ram",
            "cpu_ram",
            "disk_space",
            "listed",
            "verification",
            "reliability2",
            "gpu_occupancy",
            "geolocation",
            "public_ipaddr",
            "timeout",
            "listed_gpu_cost",
            "min_bid_price",
            "earn_day",
        ] {
            assert!(machine.get(field).is_some(), "{field} of {machine}");
        }
    }
    let m = &list.machines[0];
    assert_eq!((m.id, m.machine_id, m.num_gpus), (1001, 1001, 8));
    assert_eq!(m.gpu_occupancy, "x D x I x x R x");
    assert_eq!(m.current_rentals_running, 3);
    assert_eq!(m.timeout, 0.0);
    assert!(m.listed && m.listed_gpu_cost.is_some());
    assert!((m.earn_day - m.earn_hour.unwrap() * 24.0).abs() < 0.01);
    let offline: Vec<(i64, f64)> = list
        .machines
        .iter()
        .filter(|m| m.timeout > 0.0)
        .map(|m| (m.id, m.timeout))
        .collect();
    assert_eq!(
        offline,
        vec![(1113, 3600.0), (1117, 5.0 * 3600.0), (1119, 26.0 * 3600.0)]
    );
    let unlisted = list.machines.iter().filter(|m| !m.listed).count();
    assert_eq!(unlisted, 24);
    // Unlisted machines show no prices, except the one whose withdrawn offer kept its terms.
    let priced_unlisted: Vec<i64> = list
        .machines
        .iter()
        .filter(|m| !m.listed && (m.listed_gpu_cost.is_some() || m.min_bid_price.is_some()))
        .map(|m| m.id)
        .collect();
    assert_eq!(priced_unlisted, vec![WITHDRAWN_MACHINE]);
    for verification in ["verified", "unverified", "deverified"] {
        assert!(list.machines.iter().any(|m| m.verification == verification));
    }
    for code in ["D", "R", "I"] {
        assert!(list
            .machines
            .iter()
            .any(|m| m.gpu_occupancy.split(' ').any(|c| c == code)));
    }
    assert!(list
        .machines
        .iter()
        .all(|m| m.gpu_occupancy.split(' ').count() == m.num_gpus as usize));
}

/// One of alice's machines, as N1 answers it.
async fn alice_machine(app: &TestApp, id: i64) -> Value {
    let body = app.get(paths::MACHINES).key(ALICE_KEY).send().await.ok();
    body["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id)
        .cloned()
        .unwrap()
}

#[tokio::test]
async fn n1_health_fields_are_the_stored_row_or_the_specified_default() {
    let app = TestApp::demo();
    let body = app.get(paths::MACHINES).key(ALICE_KEY).send().await.ok();
    for m in body["machines"].as_array().unwrap() {
        let id = m["id"].as_i64().unwrap();
        let column =
            |name: &str| app.scalar_f64(&format!("SELECT {name} FROM machines WHERE id = {id}"));
        let text = |name: &str| app.text(&format!("SELECT {name} FROM machines WHERE id = {id}"));
        let gpus = m["num_gpus"].as_f64().unwrap();
        // Stored or defaulted, fleet-health §1.1 "How the reference server fills them".
        assert_eq!(
            m["error_description"],
            json!(text("error_description")),
            "{id}"
        );
        assert_eq!(m["vm_error_msg"], json!(text("vm_error_msg")), "{id}");
        assert_eq!(m["kernel_version"], json!(text("kernel_version")), "{id}");
        assert_eq!(m["ubuntu_version"], json!(text("ubuntu_version")), "{id}");
        assert_eq!(m["pcie_bw"], json!(column("pcie_bw")), "{id}");
        // Counted from the reports: all of them, and those of the last 7 days.
        let reports = |since: f64| {
            app.scalar(&format!(
                "SELECT COUNT(*) FROM machine_reports WHERE machine_id = {id} AND created_at >= {since}"
            ))
        };
        assert_eq!(m["num_reports"], json!(reports(f64::MIN)), "{id}");
        assert_eq!(
            m["num_recent_reports"],
            json!(reports(NOW - 7.0 * DAY) as f64),
            "{id}"
        );
        assert_eq!(
            m["gpu_max_cur_temp"],
            json!(column("gpu_max_cur_temp").unwrap_or((40 + (id * 7) % 36) as f64)),
            "{id}"
        );
        assert_eq!(
            m["direct_port_count"],
            json!(column("direct_port_count").map_or(100 * gpus as i64, |p| p as i64)),
            "{id}"
        );
        let rented_gpus = app.scalar(&format!(
            "SELECT COALESCE(SUM(gpu_count), 0) FROM contracts
             WHERE machine_id = {id} AND (end_date IS NULL OR end_date > {NOW})"
        ));
        let alloc =
            column("alloc_disk_space").or((rented_gpus > 0).then_some(100.0 * rented_gpus as f64));
        let max = column("max_disk_space").unwrap_or(m["disk_space"].as_f64().unwrap());
        assert_eq!(m["alloc_disk_space"], json!(alloc), "{id}");
        assert_eq!(m["max_disk_space"], json!(max), "{id}");
        assert_eq!(
            m["avail_disk_space"],
            json!(column("avail_disk_space").unwrap_or(max - alloc.unwrap_or(0.0))),
            "{id}"
        );
        let per_gpu = match m["gpu_name"].as_str().unwrap() {
            "H100 SXM" => 67.0,
            "A100 SXM4" => 19.5,
            "RTX 4090" => 82.6,
            "RTX 3090" => 35.6,
            "RTX A6000" => 38.7,
            "RTX 4080" => 48.7,
            other => panic!("{other}"),
        };
        assert_eq!(m["total_flops"], json!(per_gpu * gpus), "{id}");
        // A rolling offer's length, else null.
        let duration = (id == ROLLING_MACHINE).then_some(ROLLING_DURATION);
        assert_eq!(m["duration"], json!(duration), "{id}");
        // The windows seed op 1 lists for the machine, with six of their fields.
        let windows = app
            .get(&format!("{}?machine_ids={id}", paths::MAINTENANCES))
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
        let announced: Vec<Value> = windows
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                json!({"id": w["id"], "machine_id": w["machine_id"],
                       "start_time": w["start_time"], "duration_hours": w["duration_hours"],
                       "maintenance_category": w["maintenance_category"],
                       "maintenance_reason": w["maintenance_reason"]})
            })
            .collect();
        let expected = if announced.is_empty() {
            Value::Null
        } else {
            Value::Array(announced)
        };
        assert_eq!(m["machine_maintenance"], expected, "{id}");
    }
}

#[tokio::test]
async fn n1_demo_machines_show_each_health_case_of_the_spec() {
    let app = TestApp::demo();
    let m = alice_machine(&app, 1037).await;
    assert_eq!(
        (m["verification"].clone(), m["num_gpus"].clone()),
        (json!("deverified"), json!(4))
    );
    assert!(m["current_rentals_running"].as_i64().unwrap() > 0);
    assert_eq!(
        m["error_description"],
        "failed to inject CDI devices: unresolvable CDI devices"
    );
    let m = alice_machine(&app, 1046).await;
    assert_eq!(m["vm_error_msg"], "VMs unavailable: IOMMU is disabled");
    assert_eq!(m["error_description"], Value::Null);
    assert_eq!(alice_machine(&app, 1052).await["reliability2"], 0.874);
    let m = alice_machine(&app, 1058).await;
    assert_eq!(
        (m["num_reports"].clone(), m["num_recent_reports"].clone()),
        (json!(3), json!(2.0))
    );
    let m = alice_machine(&app, 1062).await;
    assert_eq!(
        (m["max_disk_space"].clone(), m["avail_disk_space"].clone()),
        (json!(8000.0), json!(480.0))
    );
    assert_eq!(alice_machine(&app, 1066).await["gpu_max_cur_temp"], 88.0);
    let m = alice_machine(&app, 1072).await;
    assert_eq!(m["gpu_name"], "RTX 4090");
    assert_eq!(
        (
            m["driver_version"].clone(),
            m["cuda_max_good"].clone(),
            m["kernel_version"].clone()
        ),
        (
            json!("535.104.05"),
            json!(12.2),
            json!("5.15.0-119-generic")
        )
    );
    let m = alice_machine(&app, 1082).await;
    assert_eq!(m["verification"], "unverified");
    assert_eq!(
        (m["driver_version"].clone(), m["cuda_max_good"].clone()),
        (json!("520.61.05"), json!(11.8))
    );
    assert_eq!(
        (m["direct_port_count"].clone(), m["pcie_bw"].clone()),
        (json!(2), json!(2.1))
    );
    // No other machine is hot, erring or under the gate.
    let body = app.get(paths::MACHINES).key(ALICE_KEY).send().await.ok();
    let ids_where = |test: &dyn Fn(&Value) -> bool| -> Vec<i64> {
        body["machines"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| test(m))
            .map(|m| m["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(
        ids_where(&|m| m["gpu_max_cur_temp"].as_f64().unwrap() >= 85.0),
        [1066]
    );
    assert_eq!(ids_where(&|m| !m["error_description"].is_null()), [1037]);
    assert_eq!(ids_where(&|m| !m["vm_error_msg"].is_null()), [1046]);
    // Every RTX 4090 machine but 1072 runs the same driver.
    assert_eq!(
        ids_where(&|m| m["gpu_name"] == "RTX 4090" && m["driver_version"] != "550.54.14"),
        [1072]
    );
    // The old reports: one each, none recent; no other machine has any.
    for id in [1012, 1035, 1081, 1104] {
        let m = alice_machine(&app, id).await;
        assert_eq!(
            (m["num_reports"].clone(), m["num_recent_reports"].clone()),
            (json!(1), json!(0.0)),
            "{id}"
        );
    }
    assert_eq!(
        ids_where(&|m| m["num_reports"] != 0),
        [1012, 1035, 1058, 1081, 1104]
    );
    let bobs = app
        .get(&paths::machine(2001))
        .key(BOB_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        (
            bobs[0]["num_reports"].clone(),
            bobs[0]["num_recent_reports"].clone()
        ),
        (json!(1), json!(0.0))
    );
}

/// N1's report counts are read from the reports, not stored: a report added (as D2 adds
/// one) counts at once, in both counts while it is recent, and leaves the recent count
/// once it is more than 7 days old.
#[tokio::test]
async fn n1_report_counts_follow_the_reports() {
    let app = TestApp::demo();
    let counts = |m: Value| (m["num_reports"].clone(), m["num_recent_reports"].clone());
    assert_eq!(
        counts(alice_machine(&app, 1001).await),
        (json!(0), json!(0.0))
    );
    app.state
        .db
        .with_conn(|c| {
            let report = |created_at| gpudeck_server::db::reports::NewReport {
                machine_id: 1001,
                reporter_id: GUSTAV_ID,
                instance_id: None,
                problem: "Other",
                message: "",
                created_at,
            };
            gpudeck_server::db::reports::add_report(c, &report(NOW - 7.0 * DAY))?;
            gpudeck_server::db::reports::add_report(c, &report(NOW - 7.0 * DAY - 1.0))?;
            Ok(())
        })
        .unwrap();
    // The one exactly 7 days old is still recent.
    assert_eq!(
        counts(alice_machine(&app, 1001).await),
        (json!(2), json!(1.0))
    );
    app.state.clock.set(NOW + 1.0);
    assert_eq!(
        counts(alice_machine(&app, 1001).await),
        (json!(2), json!(0.0))
    );
}

#[tokio::test]
async fn n1_occupancy_follows_the_contracts_through_a_defrag() {
    let app = TestApp::demo();
    app.put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!({"machine_ids": [FRAGMENTED_MACHINE]}))
        .send()
        .await
        .ok();
    let body = app
        .get(&paths::machine(FRAGMENTED_MACHINE))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(body[0]["gpu_occupancy"], "D I R x x x x x");
    assert_eq!(body[0]["current_rentals_running"], 3);
}

#[tokio::test]
async fn n2_is_a_bare_array_of_the_callers_machine() {
    let app = TestApp::demo();
    for uri in [
        format!("{}?owner=me", paths::machine(1101)),
        format!("{}/", paths::machine(1101)),
        // The whole-number rule holds for path ids too.
        format!("{}/1101.0", paths::MACHINES),
    ] {
        let body = app.get(&uri).key(ALICE_KEY).send().await.ok();
        let machines = body.as_array().unwrap();
        assert_eq!(machines.len(), 1);
        assert_eq!(machines[0]["machine_id"], 1101);
        assert_eq!(machines[0]["gpu_occupancy"], "x I x x x x x x");
    }
    let all = app.get(paths::MACHINES).key(ALICE_KEY).send().await.ok();
    let one = app
        .get(&paths::machine(1050))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(one[0], all["machines"][49]);
    for (key, id) in [(ALICE_KEY, 2001), (ALICE_KEY, 999_999), (BOB_KEY, 1001)] {
        let msg = app
            .get(&paths::machine(id))
            .key(key)
            .send()
            .await
            .error(404, "not_found");
        assert_eq!(msg, "No such machine id");
    }
    for (raw, quoted) in [
        ("abc", "abc".to_owned()),
        ("0", "0".to_owned()),
        ("-3", "-3".to_owned()),
        ("1.5", "1.5".to_owned()),
        ("%C3%BCber", "über".to_owned()),
        (&"9".repeat(40), format!("{}…", "9".repeat(32))),
    ] {
        let msg = app
            .get(&format!("{}/{raw}", paths::MACHINES))
            .key(ALICE_KEY)
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, format!("Missing or invalid machine_id: '{quoted}'"));
    }
}

#[tokio::test]
async fn n21_current_user_tells_hosts_from_renters() {
    let app = TestApp::demo();
    for (key, host) in [
        (ALICE_KEY, true),
        (BOB_KEY, true),
        (GUSTAV_KEY, false),
        (CAROL_TEAM_KEY, false),
    ] {
        let body = app.get(paths::CURRENT_USER).key(key).send().await.ok();
        assert_eq!(body["host_agreement_accepted"], host, "{body}");
    }
}

// ------------------------------------------------------------------------------- N3

#[tokio::test]
async fn n3_schedules_the_official_clients_body_and_lists_it_at_once() {
    let app = TestApp::demo();
    let before = listed(&app, 1001).await;
    let body = app
        .put(&paths::machine_dnotify(1001))
        .key(ALICE_KEY)
        .json(
            json!({"client_id": "me", "sdate": NOW + DAY, "duration": 2.7,
                     "maintenance_category": "power"}),
        )
        .send()
        .await
        .ok();
    // Two renters have contracts on 1001.
    assert_eq!(
        body,
        json!({"success": true, "machine_id": 1001, "notifications_sent": 2,
               "you_sent": "2 notifications sent"})
    );
    let id = app.scalar("SELECT MAX(id) FROM maintenances");
    let row = app
        .state
        .db
        .with_conn(move |c| {
            Ok(c.query_row(
                "SELECT machine_id, start_time, duration_hours, category, reason, created_at,
                    cancelled_at, scheduled_by_marketplace FROM maintenances WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, f64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, Option<String>>(4)?,
                        r.get::<_, f64>(5)?,
                        r.get::<_, Option<f64>>(6)?,
                        r.get::<_, bool>(7)?,
                    ))
                },
            )?)
        })
        .unwrap();
    assert_eq!(
        row,
        (
            1001,
            NOW + DAY,
            2,
            "power".to_owned(),
            None,
            NOW,
            None,
            false
        )
    );
    let after = listed(&app, 1001).await;
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.contains(&id));
}

#[tokio::test]
async fn n3_defaults_rounding_dates_and_reasons() {
    let app = TestApp::demo();
    let stored = |app: &TestApp| {
        app.state
            .db
            .with_conn(|c| {
                Ok(c.query_row(
                    "SELECT start_time, duration_hours, category, reason FROM maintenances
                 ORDER BY id DESC LIMIT 1",
                    [],
                    |r| {
                        Ok((
                            r.get::<_, f64>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, Option<String>>(3)?,
                        ))
                    },
                )?)
            })
            .unwrap()
    };
    // 2027-03-01T00:00:00Z is 1803859200, about 44 days after NOW.
    let cases = [
        (
            json!({"sdate": NOW + 60.0, "duration": null,
                "maintenance_category": "not provided"}),
            (NOW + 60.0, 1, "other", None),
        ),
        (
            json!({"sdate": NOW + 60.0, "duration": 0.5}),
            (NOW + 60.0, 1, "other", None),
        ),
        (
            json!({"sdate": "2027-03-01T00:00:00Z", "duration": 8760,
                "maintenance_category": "software", "maintenance_reason": UNICODE_REASON}),
            (
                1_803_859_200.0,
                8760,
                "software",
                Some(UNICODE_REASON.to_owned()),
            ),
        ),
        (
            json!({"sdate": NOW + 31_536_000.0, "maintenance_reason": ""}),
            (NOW + 31_536_000.0, 1, "other", None),
        ),
        (
            json!({"sdate": NOW + 1.0, "maintenance_reason": MARKUP, "duration": 12.0}),
            (NOW + 1.0, 12, "other", Some(MARKUP.to_owned())),
        ),
    ];
    for (body, (start, hours, category, reason)) in cases {
        app.put(&paths::machine_dnotify(1050))
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .ok();
        assert_eq!(
            stored(&app),
            (start, hours, category.to_owned(), reason),
            "{body}"
        );
    }
}

#[tokio::test]
async fn n3_refusals_name_the_problem_and_change_nothing() {
    let app = TestApp::demo();
    let before = windows_fingerprint(&app);
    let future = NOW + DAY;
    let category =
        "maintenance_category can only be one of (power, internet, disk, gpu, software, other)";
    let cases: Vec<(String, Value, u16, &str, &str)> = vec![
        (
            paths::machine_dnotify(1001),
            json!({}),
            422,
            "invalid_args",
            "Missing sdate",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": null}),
            422,
            "invalid_args",
            "Missing sdate",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": "1900000000"}),
            422,
            "invalid_args",
            "sdate must be a numeric timestamp",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": "tomorrow"}),
            422,
            "invalid_args",
            "sdate must be a numeric timestamp",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": NOW}),
            422,
            "invalid_args",
            "sdate must be in the future",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": NOW + 31_536_001.0}),
            422,
            "invalid_args",
            "sdate must be within 1 year",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "duration": 0}),
            400,
            "invalid_args",
            "duration must be a positive number",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "duration": "2"}),
            400,
            "invalid_args",
            "duration must be a positive number",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "duration": 8761}),
            400,
            "invalid_args",
            "duration must be at most 8760 hours",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "maintenance_category": "POWER"}),
            400,
            "invalid_args",
            category,
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "maintenance_category": 1}),
            400,
            "invalid_args",
            category,
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "maintenance_reason": "ü".repeat(301)}),
            400,
            "invalid_args",
            "maintenance_reason must be a string of at most 300 characters",
        ),
        (
            paths::machine_dnotify(1001),
            json!({"sdate": future, "maintenance_reason": []}),
            400,
            "invalid_args",
            "maintenance_reason must be a string of at most 300 characters",
        ),
        // The path comes before the body; existence after it.
        (
            format!("{}/0/dnotify", paths::MACHINES),
            json!({}),
            400,
            "invalid_args",
            "Missing machine_id",
        ),
        (
            format!("{}/x/dnotify/", paths::MACHINES),
            json!({"sdate": future}),
            400,
            "invalid_args",
            "Missing machine_id",
        ),
        (
            paths::machine_dnotify(2001),
            json!({"sdate": future}),
            404,
            "not_found",
            "No such machine id",
        ),
        (
            paths::machine_dnotify(999_999),
            json!({"sdate": future}),
            404,
            "not_found",
            "No such machine id",
        ),
        (
            paths::machine_dnotify(2001),
            json!({"sdate": NOW}),
            422,
            "invalid_args",
            "sdate must be in the future",
        ),
    ];
    for (uri, body, status, error, msg) in cases {
        let said = app
            .put(&uri)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(status, error);
        assert_eq!(said, msg, "{uri} {body}");
    }
    for (content_type, raw) in [
        ("application/json", "{"),
        ("application/json", ""),
        ("text/plain", r#"{"sdate": 1900000000}"#),
    ] {
        app.put(&paths::machine_dnotify(1001))
            .key(ALICE_KEY)
            .raw(content_type, raw)
            .send()
            .await
            .error(400, "invalid_json");
    }
    let msg = app
        .put(&paths::machine_dnotify(1001))
        .key(ALICE_KEY)
        .raw("application/json", "[1]")
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(msg, "the body must be a JSON object");
    assert_eq!(windows_fingerprint(&app), before);
}

// ------------------------------------------------------------------------------- N4

#[tokio::test]
async fn n4_schedules_each_of_the_callers_machines_in_one_go() {
    let app = TestApp::demo();
    let before = app.scalar("SELECT COUNT(*) FROM maintenances");
    let body = app
        .post(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(
            json!({"machine_ids": [1003, 2001, 1003, 999999, 1110.0], "sdate": NOW + DAY,
                     "duration": 3, "maintenance_category": "gpu"}),
        )
        .send()
        .await
        .ok();
    let missing = |id: i64| {
        json!({"success": false, "machine_id": id, "error": "not_found",
               "msg": "No such machine id or not owned"})
    };
    assert_eq!(
        body,
        json!({"success": true, "results": [
            {"success": true, "machine_id": 1003, "notifications_sent": 1},
            missing(2001),
            missing(999_999),
            {"success": true, "machine_id": 1110, "notifications_sent": 1},
        ]})
    );
    assert_eq!(app.scalar("SELECT COUNT(*) FROM maintenances"), before + 2);
    assert_eq!(
        app.scalar(&format!(
            "SELECT COUNT(*) FROM maintenances WHERE created_at = {NOW} AND category = 'gpu'
               AND duration_hours = 3 AND machine_id IN (1003, 1110) AND reason IS NULL"
        )),
        2
    );
    assert_eq!(
        app.scalar(
            "SELECT COUNT(*) FROM maintenances WHERE machine_id = 2001 AND created_at = 1800000000"
        ),
        0
    );
    // Comma strings and single ids, defaults.
    let body = app
        .post(&format!("{}/", paths::MAINTENANCES_BATCH))
        .key(ALICE_KEY)
        .json(json!({"machine_ids": "1004,1005", "sdate": "2027-03-01T00:00:00Z"}))
        .send()
        .await
        .ok();
    assert_eq!(body["results"].as_array().unwrap().len(), 2);
    assert_eq!(
        app.scalar(
            "SELECT COUNT(*) FROM maintenances WHERE machine_id IN (1004, 1005)
                    AND start_time = 1803859200 AND duration_hours = 1 AND category = 'other'"
        ),
        2
    );
}

#[tokio::test]
async fn n4_refusals_change_nothing() {
    let app = TestApp::demo();
    let before = windows_fingerprint(&app);
    let future = NOW + DAY;
    let hundred_and_one: Vec<i64> = (1001..=1101).collect();
    let cases = [
        (
            json!({"sdate": future}),
            400,
            "machine_ids must be a non-empty list",
        ),
        (
            json!({"machine_ids": [], "sdate": future}),
            400,
            "machine_ids must be a non-empty list",
        ),
        (
            json!({"machine_ids": "", "sdate": future}),
            400,
            "machine_ids must be a non-empty list",
        ),
        (
            json!({"machine_ids": hundred_and_one, "sdate": future}),
            400,
            "machine_ids must contain at most 100 entries",
        ),
        (
            json!({"machine_ids": [1001, 0], "sdate": future}),
            400,
            "No valid machine_ids provided",
        ),
        (
            json!({"machine_ids": [1001, "x"], "sdate": future}),
            400,
            "No valid machine_ids provided",
        ),
        (
            json!({"machine_ids": {"a": 1}}),
            400,
            "No valid machine_ids provided",
        ),
        (json!({"machine_ids": [1001]}), 422, "Missing sdate"),
        (
            json!({"machine_ids": [1001], "sdate": NOW - 1.0}),
            422,
            "sdate must be in the future",
        ),
        (
            json!({"machine_ids": [1001], "sdate": future, "duration": -1}),
            400,
            "duration must be a positive number",
        ),
        (
            json!({"machine_ids": [1001], "sdate": future, "maintenance_category": "fire"}),
            400,
            "maintenance_category must be one of: disk, gpu, internet, other, power, software",
        ),
    ];
    for (body, status, msg) in cases {
        let said = app
            .post(paths::MAINTENANCES_BATCH)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(status, "invalid_args");
        assert_eq!(said, msg, "{body}");
    }
    // Duplicates are dropped; none of these is bob's.
    let answer = app
        .post(paths::MAINTENANCES_BATCH)
        .key(BOB_KEY)
        .json(json!({"machine_ids": [1001, 1002, 1001], "sdate": future}))
        .send()
        .await;
    let msg = answer.error(400, "nothing_scheduled");
    assert_eq!(msg, "none of the machine_ids exists or is yours");
    let body = answer.json();
    assert_eq!(body["success"], false);
    assert_eq!(body["results"].as_array().unwrap().len(), 2);
    assert_eq!(windows_fingerprint(&app), before);
}

// ------------------------------------------------------------------------------- N5

#[tokio::test]
async fn n5_cancels_a_machines_windows_but_keeps_the_marketplaces() {
    let app = TestApp::demo();
    assert_eq!(
        listed(&app, MARKETPLACE_MACHINE).await,
        vec![MARKETPLACE_WINDOW, MARKETPLACE_MACHINE_OWN_WINDOW]
    );
    let body = app
        .put(&paths::machine_cancel_maint(MARKETPLACE_MACHINE))
        .key(ALICE_KEY)
        .raw("", r#"{"client_id": "me", "machine_id": 1001}"#)
        .send()
        .await
        .ok();
    assert_eq!(
        body,
        json!({"success": true, "ctime": NOW, "machine_id": MARKETPLACE_MACHINE,
               "msg": "deleted 1 scheduled maintenance window(s) on machine 1101; 1 window(s) scheduled by the marketplace were kept"})
    );
    assert_eq!(
        listed(&app, MARKETPLACE_MACHINE).await,
        vec![MARKETPLACE_WINDOW]
    );
    assert_eq!(
        app.scalar_f64(&format!(
            "SELECT cancelled_at FROM maintenances WHERE id = {MARKETPLACE_MACHINE_OWN_WINDOW}"
        )),
        Some(NOW)
    );
    // 1001 (the body's machine_id) was not touched: the path wins.
    assert!(!listed(&app, 1001).await.is_empty());
}

#[tokio::test]
async fn n5_takes_any_body_and_cancels_upcoming_and_ongoing_only() {
    let app = TestApp::demo();
    // 1007: an ongoing window, a cancelled one and an expired one (on 1001's pattern).
    let active = listed(&app, 1007).await.len() as i64;
    assert!(active >= 1);
    let cancelled_before = app.scalar(
        "SELECT COUNT(*) FROM maintenances WHERE machine_id = 1007 AND cancelled_at IS NOT NULL",
    );
    let body = app
        .put(&paths::machine_cancel_maint(1007))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        body["msg"],
        format!("deleted {active} scheduled maintenance window(s) on machine 1007")
    );
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM maintenances WHERE machine_id = 1007 AND cancelled_at IS NOT NULL"),
        cancelled_before + active
    );
    // An earlier cancellation keeps its time.
    assert_eq!(
        app.scalar(&format!(
            "SELECT COUNT(*) FROM maintenances WHERE machine_id = 1007 AND cancelled_at = {}",
            NOW - 3600.0
        )),
        1
    );
    assert!(listed(&app, 1007).await.is_empty());
    for (content_type, raw) in [
        ("application/json", "{}"),
        ("application/json", ""),
        ("application/json", "null"),
        ("text/plain", "{}"),
        ("", "  "),
    ] {
        let body = app
            .put(&format!(
                "{}/",
                paths::MACHINES.to_owned() + "/1007/cancel_maint"
            ))
            .key(ALICE_KEY)
            .raw(content_type, raw)
            .send()
            .await
            .ok();
        assert_eq!(
            body["msg"], "deleted 0 scheduled maintenance window(s) on machine 1007",
            "{content_type} {raw:?}"
        );
    }
}

#[tokio::test]
async fn n5_refusals() {
    let app = TestApp::demo();
    let before = windows_fingerprint(&app);
    for (uri, status, error, msg) in [
        (
            paths::machine_cancel_maint(2001),
            404,
            "not_found",
            "No such machine id",
        ),
        (
            paths::machine_cancel_maint(999_999),
            404,
            "not_found",
            "No such machine id",
        ),
        (
            format!("{}/0/cancel_maint", paths::MACHINES),
            400,
            "invalid_args",
            "Missing machine_id",
        ),
        (
            format!("{}/%20/cancel_maint/", paths::MACHINES),
            400,
            "invalid_args",
            "Missing machine_id",
        ),
    ] {
        let said = app
            .put(&uri)
            .key(ALICE_KEY)
            .send()
            .await
            .error(status, error);
        assert_eq!(said, msg, "{uri}");
    }
    app.put(&paths::machine_cancel_maint(1001))
        .key(ALICE_KEY)
        .raw("application/json", "{")
        .send()
        .await
        .error(400, "invalid_json");
    app.put(&paths::machine_cancel_maint(1001))
        .key(ALICE_KEY)
        .raw("application/json", "[1001]")
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(windows_fingerprint(&app), before);
}

// ------------------------------------------------------------------------------- N6

#[tokio::test]
async fn n6_cancels_one_window_which_leaves_the_list_at_once() {
    let app = TestApp::demo();
    let id = alice_upcoming(&app);
    let machine = app.scalar(&format!(
        "SELECT machine_id FROM maintenances WHERE id = {id}"
    ));
    assert!(listed(&app, machine).await.contains(&id));
    let body = app
        .delete(paths::MAINTENANCES)
        .key(ALICE_KEY)
        .json(json!({"maintenance_id": id as f64}))
        .send()
        .await
        .ok();
    assert_eq!(
        body,
        json!({"success": true, "msg": "Maintenance cancelled"})
    );
    assert_eq!(
        app.scalar_f64(&format!(
            "SELECT cancelled_at FROM maintenances WHERE id = {id}"
        )),
        Some(NOW)
    );
    assert!(!listed(&app, machine).await.contains(&id));
    let msg = app
        .delete(&format!("{}/", paths::MAINTENANCES))
        .key(ALICE_KEY)
        .json(json!({"maintenance_id": id}))
        .send()
        .await
        .error(409, "not_cancellable");
    assert_eq!(msg, "Maintenance not found or already cancelled");
}

#[tokio::test]
async fn n6_refusals_in_the_specified_order() {
    let app = TestApp::demo();
    let before = windows_fingerprint(&app);
    let completed = app.scalar(&format!(
        "SELECT MIN(id) FROM maintenances WHERE machine_id = 1001 AND start_time < {NOW} - 86400"
    ));
    let ends_now = app.scalar("SELECT id FROM maintenances WHERE reason = 'Ended just now'");
    let bobs = app.scalar("SELECT MIN(id) FROM maintenances WHERE machine_id = 2001");
    let cases = [
        (json!({}), 400, "invalid_args", "Missing maintenance_id"),
        (
            json!({"maintenance_id": null}),
            400,
            "invalid_args",
            "Missing maintenance_id",
        ),
        (
            json!({"maintenance_id": "5"}),
            400,
            "invalid_args",
            "Missing maintenance_id",
        ),
        (
            json!({"maintenance_id": 0}),
            400,
            "invalid_args",
            "Missing maintenance_id",
        ),
        (
            json!({"maintenance_id": 1.5}),
            400,
            "invalid_args",
            "Missing maintenance_id",
        ),
        (
            json!({"maintenance_id": 999_999_999}),
            404,
            "not_found",
            "Maintenance record not found",
        ),
        (
            json!({"maintenance_id": bobs}),
            403,
            "forbidden",
            "User is not the owner of the machine",
        ),
        (
            json!({"maintenance_id": MARKETPLACE_WINDOW}),
            403,
            "scheduled_by_marketplace",
            "This window was scheduled by the marketplace; contact support to cancel it",
        ),
        (
            json!({"maintenance_id": completed}),
            409,
            "not_cancellable",
            "Completed maintenance windows cannot be cancelled",
        ),
        (
            json!({"maintenance_id": ends_now}),
            409,
            "not_cancellable",
            "Completed maintenance windows cannot be cancelled",
        ),
    ];
    for (body, status, error, msg) in cases {
        let said = app
            .delete(paths::MAINTENANCES)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(status, error);
        assert_eq!(said, msg, "{body}");
    }
    app.delete(paths::MAINTENANCES)
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_json");
    assert_eq!(windows_fingerprint(&app), before);
}

// ------------------------------------------------------------------------------- N7

#[tokio::test]
async fn n7_cancels_many_and_says_what_happened_to_each() {
    let app = TestApp::demo();
    let first = alice_upcoming(&app);
    let cancelled = app.scalar(
        "SELECT MIN(id) FROM maintenances WHERE machine_id = 1007 AND cancelled_at IS NOT NULL",
    );
    let completed = app.scalar("SELECT id FROM maintenances WHERE reason = 'Ended just now'");
    let bobs = app.scalar("SELECT MIN(id) FROM maintenances WHERE machine_id = 2001");
    let ongoing = app.scalar(&format!(
        "SELECT MIN(id) FROM maintenances WHERE machine_id = 1008 AND cancelled_at IS NULL
           AND start_time < {NOW} AND start_time + duration_hours * 3600 > {NOW}"
    ));
    let body = app
        .delete(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(
            json!({"maintenance_ids": [first, bobs, cancelled, first, completed,
                                         MARKETPLACE_WINDOW, 999_999_999, ongoing]}),
        )
        .send()
        .await
        .ok();
    let item = |id: i64, success: bool, msg: &str| json!({"success": success, "maintenance_id": id, "msg": msg});
    assert_eq!(
        body,
        json!({"success": true, "results": [
            item(first, true, "Maintenance record deleted"),
            item(bobs, false, "Maintenance record not found"),
            item(cancelled, false, "Maintenance not found or already cancelled"),
            item(completed, false, "Completed maintenance windows cannot be cancelled"),
            item(MARKETPLACE_WINDOW, false, "Scheduled by the marketplace; contact support to cancel it"),
            item(999_999_999, false, "Maintenance record not found"),
            item(ongoing, true, "Maintenance record deleted"),
        ]})
    );
    assert_eq!(
        app.scalar(&format!(
            "SELECT COUNT(*) FROM maintenances WHERE cancelled_at = {NOW} AND id IN ({first}, {ongoing})"
        )),
        2
    );
    assert_eq!(
        app.scalar(&format!("SELECT COUNT(*) FROM maintenances WHERE cancelled_at IS NULL AND id IN ({bobs}, {MARKETPLACE_WINDOW})")),
        2
    );
}

#[tokio::test]
async fn n7_refusals_change_nothing() {
    let app = TestApp::demo();
    let before = windows_fingerprint(&app);
    let too_many: Vec<i64> = (1..=101).collect();
    for (body, msg) in [
        (json!({}), "maintenance_ids must be a non-empty list"),
        (
            json!({"maintenance_ids": []}),
            "maintenance_ids must be a non-empty list",
        ),
        (
            json!({"maintenance_ids": too_many}),
            "maintenance_ids must contain at most 100 entries",
        ),
        // Entries are counted, not distinct ids (a fuzzed 101 copies of one id).
        (
            json!({"maintenance_ids": vec![1; 101]}),
            "maintenance_ids must contain at most 100 entries",
        ),
        (
            json!({"maintenance_ids": [1, -1]}),
            "No valid maintenance_ids provided",
        ),
        (
            json!({"maintenance_ids": true}),
            "No valid maintenance_ids provided",
        ),
    ] {
        let said = app
            .delete(paths::MAINTENANCES_BATCH)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(said, msg, "{body}");
    }
    let bobs = app.scalar("SELECT MIN(id) FROM maintenances WHERE machine_id = 2001");
    let answer = app
        .delete(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(json!({"maintenance_ids": [bobs, MARKETPLACE_WINDOW]}))
        .send()
        .await;
    assert_eq!(
        answer.error(400, "nothing_cancelled"),
        "No maintenance window was cancelled"
    );
    assert_eq!(answer.json()["results"].as_array().unwrap().len(), 2);
    assert_eq!(windows_fingerprint(&app), before);
}
