//! The seven operations (and `users/current`) against the demo data, through the router.

use crate::common;

use common::{TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_wire::paths;
use serde_json::{json, Value};

fn ids_of(windows: &Value) -> Vec<i64> {
    windows
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["machine_id"].as_i64().unwrap())
        .collect()
}

// ---------------------------------------------------------------- users/current and auth

#[tokio::test]
async fn current_user_is_the_keys_user() {
    let app = TestApp::demo();
    let body = app
        .get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(body["id"], ALICE_ID);
    assert_eq!(body["email"], "alice@example.com");
    assert_eq!(body["username"], "alice");
    assert_eq!(body["balance"], 4200.5);

    let body = app.get(paths::CURRENT_USER).key(BOB_KEY).send().await.ok();
    assert_eq!(body["id"], BOB_ID);
}

#[tokio::test]
async fn api_key_query_parameter_works_and_the_header_wins() {
    let app = TestApp::demo();
    let uri = format!("{}?api_key={ALICE_KEY}", paths::CURRENT_USER);
    assert_eq!(app.get(&uri).send().await.ok()["id"], ALICE_ID);
    assert_eq!(app.get(&uri).key(BOB_KEY).send().await.ok()["id"], BOB_ID);
    let uri = format!(
        "{}?owner=me&machine_ids=1001&api_key={ALICE_KEY}",
        paths::MAINTENANCES
    );
    assert_eq!(ids_of(&app.get(&uri).send().await.ok()), vec![1001]);
}

#[tokio::test]
async fn missing_malformed_and_unknown_keys_are_401() {
    let app = TestApp::demo();
    let msg = app
        .get(paths::CURRENT_USER)
        .send()
        .await
        .error(401, "auth_error");
    assert!(msg.contains("API key is required"), "{msg}");
    let msg = app
        .get(paths::CURRENT_USER)
        .key("nope")
        .send()
        .await
        .error(401, "auth_error");
    assert_eq!(msg, "Invalid user key");
    for header in ["Basic YWxpY2U6eA==", "Bearer", "Bearer    ", ALICE_KEY] {
        let msg = app
            .get(paths::CURRENT_USER)
            .header("authorization", header)
            .send()
            .await
            .error(401, "auth_error");
        assert!(msg.contains("Bearer <API key>"), "{header}: {msg}");
    }
    // A removed member's team key no longer works.
    app.get(paths::CURRENT_USER)
        .key(ERIN_TEAM_KEY)
        .send()
        .await
        .error(401, "auth_error");
    // Every operation needs a key.
    for (method, uri) in [
        ("GET", format!("{}?machine_ids=1001", paths::MAINTENANCES)),
        ("PUT", paths::DEFRAG_OFFERS.to_owned()),
        ("DELETE", paths::user_templates(ALICE_ID)),
        ("DELETE", paths::TEMPLATE_ALIAS.to_owned()),
        ("PUT", paths::VOLUMES.to_owned()),
        ("GET", paths::SUBACCOUNTS.to_owned()),
        ("GET", paths::team_role("owner")),
        ("GET", paths::TEAM_MEMBERS.to_owned()),
    ] {
        app.call(method.parse().unwrap(), &uri)
            .json(json!({}))
            .send()
            .await
            .error(401, "auth_error");
    }
}

// ------------------------------------------------------------------------ maintenances

#[tokio::test]
async fn maintenance_list_shows_only_active_windows_by_start() {
    let app = TestApp::demo();
    let uri = format!("{}?machine_ids=1001-1012", paths::MAINTENANCES);
    let windows = app.get(&uri).key(ALICE_KEY).send().await.ok();
    let list = windows.as_array().unwrap();
    // 6 ongoing (1007-1012) + 6 upcoming (1001-1006); expired and cancelled are absent.
    assert_eq!(list.len(), 12, "{windows:#}");
    assert_eq!(
        ids_of(&windows),
        vec![1012, 1011, 1010, 1009, 1008, 1007, 1001, 1002, 1003, 1004, 1005, 1006]
    );
    let mut starts = Vec::new();
    for window in list {
        let start = window["start_time"].as_f64().unwrap();
        let hours = window["duration_hours"].as_i64().unwrap();
        assert_eq!(
            window["end_time"].as_f64().unwrap(),
            start + hours as f64 * 3600.0
        );
        assert!(window["end_time"].as_f64().unwrap() > NOW);
        assert_eq!(window["cancelled_at"], Value::Null);
        assert!(window["created_at"].is_number());
        assert!(window["id"].is_i64());
        starts.push(start);
    }
    assert!(starts.windows(2).all(|w| w[0] <= w[1]));
    // Every category appears both ongoing and upcoming.
    for category in ["power", "internet", "disk", "gpu", "software", "other"] {
        let of: Vec<&Value> = list
            .iter()
            .filter(|w| w["maintenance_category"] == category)
            .collect();
        assert_eq!(of.len(), 2, "{category}");
        assert!(of.iter().any(|w| w["start_time"].as_f64().unwrap() <= NOW));
        assert!(of.iter().any(|w| w["start_time"].as_f64().unwrap() > NOW));
    }
    // Reasons arrive verbatim: markup as text, unicode intact, null kept.
    let reasons: Vec<&Value> = list.iter().map(|w| &w["maintenance_reason"]).collect();
    assert!(reasons.contains(&&json!(MARKUP)));
    assert!(reasons.contains(&&json!(UNICODE_REASON)));
    assert!(reasons.contains(&&Value::Null));
    assert!(!reasons
        .iter()
        .any(|r| r.as_str().is_some_and(|r| r.contains("Cancelled"))));
    assert!(!reasons.contains(&&json!("Ended just now")));
    assert!(!reasons.contains(&&json!("Finished long ago")));
}

#[tokio::test]
async fn a_window_ending_exactly_now_is_expired() {
    let app = TestApp::demo();
    let uri = format!("{}?machine_ids=1007", paths::MAINTENANCES);
    assert_eq!(
        app.get(&uri)
            .key(ALICE_KEY)
            .send()
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The ongoing window on 1007 ends at NOW + 2h.
    app.state.clock.set(NOW + 2.0 * 3600.0);
    assert_eq!(app.get(&uri).key(ALICE_KEY).send().await.ok(), json!([]));
    app.state.clock.set(NOW + 2.0 * 3600.0 - 0.5);
    assert_eq!(
        app.get(&uri)
            .key(ALICE_KEY)
            .send()
            .await
            .ok()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn every_query_form_of_machine_ids_is_accepted() {
    let app = TestApp::demo();
    for query in [
        "owner=me&machine_ids=%5B1001%2C+1007%5D",
        "machine_ids=%5B1001%2C%201007%5D",
        "machine_ids=[1001,1007]",
        "machine_ids=1001,1007",
        "machine_ids=1001%2C1007",
        "machine_ids=1001&machine_ids=1007",
        "owner=me&machine_ids=1007&machine_ids=1001&owner=me",
    ] {
        let uri = format!("{}?{query}", paths::MAINTENANCES);
        let windows = app.get(&uri).key(ALICE_KEY).send().await.ok();
        let mut ids = ids_of(&windows);
        ids.sort();
        assert_eq!(ids, vec![1001, 1007], "{query}");
    }
    let uri = format!("{}?machine_ids=1007", paths::MAINTENANCES);
    assert_eq!(
        ids_of(&app.get(&uri).key(ALICE_KEY).send().await.ok()),
        vec![1007]
    );
}

#[tokio::test]
async fn maintenance_list_refusals() {
    let app = TestApp::demo();
    for query in [
        "",
        "?owner=me",
        "?machine_ids=",
        "?machine_ids=%5B%5D",
        "?machine_ids=+",
    ] {
        let uri = format!("{}{query}", paths::MAINTENANCES);
        let msg = app
            .get(&uri)
            .key(ALICE_KEY)
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, "machine_ids cannot be empty", "{query}");
    }
    let uri = format!("{}?machine_ids=1001,abc", paths::MAINTENANCES);
    let msg = app
        .get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.contains("\"abc\""), "{msg}");
    let many: Vec<String> = (1..=1001).map(|i| i.to_string()).collect();
    let uri = format!("{}?machine_ids={}", paths::MAINTENANCES, many.join(","));
    let msg = app
        .get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.contains("at most 1000"), "{msg}");
    let uri = format!("{}?machine_ids=1-99999999999", paths::MAINTENANCES);
    app.get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    let huge = format!("{}?machine_ids={}", paths::MAINTENANCES, "9".repeat(20_000));
    let msg = app
        .get(&huge)
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 200, "{msg}");

    let uri = format!("{}?machine_ids=999998,999999", paths::MAINTENANCES);
    let msg = app
        .get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert!(msg.contains("machine_ids do not exist"), "{msg}");
    assert!(
        msg.ends_with(": 999998,999999"),
        "names the ids at fault: {msg}"
    );
    let uri = format!("{}?machine_ids=2001,2002", paths::MAINTENANCES);
    let msg = app
        .get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert!(msg.contains("owned by you"), "{msg}");
    assert!(
        msg.ends_with("none of 2001,2002 is yours"),
        "names the ids at fault: {msg}"
    );
}

#[tokio::test]
async fn others_machines_are_never_revealed() {
    let app = TestApp::demo();
    let uri = format!("{}?machine_ids=1001,2001,2002,999999", paths::MAINTENANCES);
    let windows = app.get(&uri).key(ALICE_KEY).send().await.ok();
    assert_eq!(ids_of(&windows), vec![1001]);
    let uri = format!("{}?machine_ids=2001-2005,1001-1012", paths::MAINTENANCES);
    let windows = app.get(&uri).key(BOB_KEY).send().await.ok();
    let ids = ids_of(&windows);
    assert!(!ids.is_empty());
    assert!(ids.iter().all(|id| BOB_MACHINES.contains(id)), "{ids:?}");
    // The whole fleet: 100 machines at once.
    let uri = format!("{}?machine_ids=1001-1100", paths::MAINTENANCES);
    let windows = app.get(&uri).key(ALICE_KEY).send().await.ok();
    assert!(windows.as_array().unwrap().len() > 50);
    assert!(ids_of(&windows)
        .iter()
        .all(|id| ALICE_MACHINES.contains(id)));
}

#[tokio::test]
async fn team_keys_need_instance_read_for_maintenances() {
    let app = TestApp::demo();
    let uri = format!("{}?machine_ids=1001", paths::MAINTENANCES);
    // carol's team key acts as carol, who owns no machines.
    let msg = app
        .get(&uri)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert!(msg.contains("owned"));
}

// ------------------------------------------------------------------------------ defrag

fn slots(app: &TestApp, machine: i64) -> Vec<(i64, i64)> {
    app.state
        .db
        .with_conn(move |c| {
            let mut s = c.prepare(
                "SELECT id, slot_start FROM contracts WHERE machine_id = ?1 ORDER BY id",
            )?;
            let rows = s.query_map([machine], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .unwrap()
}

#[tokio::test]
async fn defrag_packs_fragmented_machines_and_is_idempotent() {
    let app = TestApp::demo();
    let tidy_before = slots(&app, TIDY_MACHINE);
    let body = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!({"machine_ids": [1001, 1002, 1003]}))
        .send()
        .await
        .ok();
    assert_eq!(
        body,
        json!({"success": true, "defragmented": [1001, 1002], "n0": 5, "n1": 8, "n2": 5})
    );
    assert_eq!(
        slots(&app, FRAGMENTED_MACHINE),
        vec![(9001, 0), (9002, 1), (9003, 2)]
    );
    assert_eq!(
        slots(&app, FRAGMENTED_MACHINE_2),
        vec![(9004, 0), (9005, 2)]
    );
    assert_eq!(slots(&app, TIDY_MACHINE), tidy_before);

    let again = app
        .put(&format!("{}/", paths::DEFRAG_OFFERS))
        .key(ALICE_KEY)
        .json(json!({"machine_ids": "1001,1002,1003"}))
        .send()
        .await
        .ok();
    assert_eq!(
        again,
        json!({"success": true, "defragmented": [], "n0": 0, "n1": 5, "n2": 5})
    );
}

#[tokio::test]
async fn defrag_takes_every_body_form() {
    let app = TestApp::demo();
    for machine_ids in [
        json!(1003),
        json!("1003"),
        json!([1003]),
        json!("1003, 1003"),
    ] {
        let body = app
            .put(paths::DEFRAG_OFFERS)
            .key(ALICE_KEY)
            .json(json!({ "machine_ids": machine_ids }))
            .send()
            .await
            .ok();
        assert_eq!(
            body,
            json!({"success": true, "defragmented": [], "n0": 0, "n1": 1, "n2": 1}),
            "{machine_ids}"
        );
    }
}

#[tokio::test]
async fn defrag_without_a_valid_machine_is_the_specified_failure() {
    let app = TestApp::demo();
    let bob_before = slots(&app, 2001);
    for machine_ids in [json!([2001, 2002]), json!(999_999), json!("424242")] {
        let body = app
            .put(paths::DEFRAG_OFFERS)
            .key(ALICE_KEY)
            .json(json!({ "machine_ids": machine_ids }))
            .send()
            .await
            .ok();
        assert_eq!(
            body,
            json!({"success": false, "defragmented": null}),
            "{machine_ids}"
        );
    }
    assert_eq!(slots(&app, 2001), bob_before);
    // Mixed: only the caller's machine is touched.
    let body = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!({"machine_ids": [2001, 1001]}))
        .send()
        .await
        .ok();
    assert_eq!(body["defragmented"], json!([1001]));
    assert_eq!(slots(&app, 2001), bob_before);
}

#[tokio::test]
async fn defrag_refusals_name_the_problem() {
    let app = TestApp::demo();
    let send = |body: Value| {
        app.put(paths::DEFRAG_OFFERS)
            .key(ALICE_KEY)
            .json(body)
            .send()
    };
    assert_eq!(
        send(json!({})).await.error(400, "invalid_args"),
        "machine_ids is required"
    );
    for (value, kind) in [
        (json!(null), "null"),
        (json!({"a": 1}), "an object"),
        (json!(true), "a boolean"),
        (json!([1.5]), "an array"),
        (json!(1.5), "a fraction"),
    ] {
        let msg = send(json!({ "machine_ids": value }))
            .await
            .error(400, "invalid_args");
        assert!(msg.starts_with("machine_ids must be"), "{msg}");
        assert!(msg.ends_with(kind), "{msg}");
    }
    for value in [json!([]), json!(""), json!("  ")] {
        let msg = send(json!({ "machine_ids": value }))
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, "machine_ids cannot be empty");
    }
    let msg = send(json!({"machine_ids": [-3]}))
        .await
        .error(400, "invalid_args");
    assert!(msg.contains("-3"), "{msg}");
    let many: Vec<i64> = (1..=1001).collect();
    let msg = send(json!({ "machine_ids": many }))
        .await
        .error(400, "invalid_args");
    assert!(msg.contains("at most 1000"), "{msg}");
    let msg = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", "{\"machine_ids\": [1,")
        .send()
        .await
        .error(400, "invalid_json");
    assert!(msg.starts_with("the body is not valid JSON"), "{msg}");
    app.put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("text/plain", "machine_ids=1001")
        .send()
        .await
        .error(400, "invalid_json");
    let msg = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!([1001]))
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(msg, "the body must be a JSON object");
}

#[tokio::test]
async fn defrag_needs_machine_write_on_team_keys() {
    let app = TestApp::demo();
    let msg = app
        .put(paths::DEFRAG_OFFERS)
        .key(CAROL_TEAM_KEY)
        .json(json!({"machine_ids": [1001]}))
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(
        msg,
        "this key's team role lacks the permission machine_write"
    );
    assert_eq!(
        slots(&app, FRAGMENTED_MACHINE),
        vec![(9001, 1), (9002, 3), (9003, 6)]
    );
    // dave's manager key has machine_write; he owns no machines, so nothing is valid.
    let body = app
        .put(paths::DEFRAG_OFFERS)
        .key(DAVE_TEAM_KEY)
        .json(json!({"machine_ids": [1001]}))
        .send()
        .await
        .ok();
    assert_eq!(body, json!({"success": false, "defragmented": null}));
}

// --------------------------------------------------------------------------- templates

fn deleted_at(app: &TestApp, template: i64) -> Option<f64> {
    app.scalar_f64(&format!(
        "SELECT deleted_at FROM templates WHERE id = {template}"
    ))
}

#[tokio::test]
async fn deleting_a_free_template_soft_deletes_it() {
    let app = TestApp::demo();
    let body = app
        .delete(&paths::user_templates(ALICE_ID))
        .key(ALICE_KEY)
        .json(json!({"template_id": TEMPLATE_FREE}))
        .send()
        .await
        .ok();
    assert_eq!(
        body,
        json!({"success": true, "msg": "Template 501 deleted"})
    );
    assert_eq!(deleted_at(&app, TEMPLATE_FREE), Some(NOW));
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM templates WHERE id = 501"),
        1
    );
    // Gone for every later call, through either path.
    let msg = app
        .delete(&paths::user_templates(ALICE_ID))
        .key(ALICE_KEY)
        .json(json!({"template_id": TEMPLATE_FREE}))
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "template 501 not found");
    app.delete(paths::TEMPLATE_ALIAS)
        .key(ALICE_KEY)
        .json(json!({"template_id": TEMPLATE_FREE}))
        .send()
        .await
        .error(404, "not_found");
}

#[tokio::test]
async fn inactive_relationships_do_not_block_deletion() {
    let app = TestApp::demo();
    let body = app
        .delete(&format!("{}/", paths::user_templates(ALICE_ID)))
        .key(ALICE_KEY)
        .json(json!({"template_id": TEMPLATE_INACTIVE_USE}))
        .send()
        .await
        .ok();
    assert_eq!(body["success"], true);
    assert_eq!(deleted_at(&app, TEMPLATE_INACTIVE_USE), Some(NOW));
}

#[tokio::test]
async fn the_alias_path_deletes_for_the_caller() {
    let app = TestApp::demo();
    for path in [
        paths::TEMPLATE_ALIAS.to_owned(),
        format!("{}/", paths::TEMPLATE_ALIAS),
    ] {
        let template = if path.ends_with('/') {
            TEMPLATE_MARKUP
        } else {
            TEMPLATE_FREE
        };
        let body = app
            .delete(&path)
            .key(ALICE_KEY)
            .json(json!({ "template_id": template }))
            .send()
            .await
            .ok();
        assert_eq!(body["msg"], format!("Template {template} deleted"));
        assert!(deleted_at(&app, template).is_some());
    }
}

#[tokio::test]
async fn template_refusals() {
    let app = TestApp::demo();
    let delete = |user: &str, body: Value| {
        app.delete(&format!("/api/v0/users/{user}/templates"))
            .key(ALICE_KEY)
            .json(body)
            .send()
    };
    let msg = delete("1", json!({"template_id": TEMPLATE_IN_USE}))
        .await
        .error(409, "in_use");
    assert_eq!(
        msg,
        "template 502 is in use by 2 other users; it was not deleted"
    );
    assert_eq!(deleted_at(&app, TEMPLATE_IN_USE), None);

    let msg = delete("1", json!({"template_id": BOB_TEMPLATE}))
        .await
        .error(403, "forbidden");
    assert_eq!(msg, "template 601 is not yours");
    assert_eq!(deleted_at(&app, BOB_TEMPLATE), None);

    let msg = delete("1", json!({"template_id": TEMPLATE_DELETED}))
        .await
        .error(404, "not_found");
    assert_eq!(msg, "template 505 not found");
    delete("1", json!({"template_id": 424242}))
        .await
        .error(404, "not_found");

    let msg = delete("2", json!({"template_id": BOB_TEMPLATE}))
        .await
        .error(403, "forbidden");
    assert!(msg.contains("user_id 2"), "{msg}");
    let msg = delete("abc", json!({"template_id": TEMPLATE_FREE}))
        .await
        .error(400, "invalid_args");
    assert!(msg.contains("user_id must be an integer"), "{msg}");

    assert_eq!(
        delete("1", json!({})).await.error(400, "invalid_args"),
        "template_id is required"
    );
    assert_eq!(
        delete("1", json!({"template_id": "501"}))
            .await
            .error(400, "invalid_args"),
        "template_id must be an integer, not a string"
    );
    delete("1", json!({"template_id": 501.5}))
        .await
        .error(400, "invalid_args");
    assert_eq!(deleted_at(&app, TEMPLATE_FREE), None);

    // bob's own template is in use by one other user.
    let msg = app
        .delete(paths::TEMPLATE_ALIAS)
        .key(BOB_KEY)
        .json(json!({"template_id": BOB_TEMPLATE}))
        .send()
        .await
        .error(409, "in_use");
    assert_eq!(
        msg,
        "template 601 is in use by 1 other user; it was not deleted"
    );
    // and bob cannot touch alice's.
    app.delete(paths::TEMPLATE_ALIAS)
        .key(BOB_KEY)
        .json(json!({"template_id": TEMPLATE_FREE}))
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(deleted_at(&app, TEMPLATE_FREE), None);
}

// ----------------------------------------------------------------------------- volumes

#[tokio::test]
async fn accepting_a_volume_ask_creates_a_volume() {
    let app = TestApp::demo();
    let before = app.scalar("SELECT COUNT(*) FROM volumes");
    let body = app
        .put(&format!("{}/", paths::VOLUMES))
        .key(ALICE_KEY)
        .json(json!({"size": 20, "id": ASK_30_LEFT}))
        .send()
        .await
        .ok();
    assert_eq!(body, json!({"success": true, "volume_name": "V.20118484"}));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM volumes"), before + 1);
    assert_eq!(
        app.scalar("SELECT owner_id FROM volumes WHERE id = 20118484"),
        ALICE_ID
    );
    assert_eq!(
        app.scalar("SELECT size FROM volumes WHERE id = 20118484"),
        20
    );
    assert_eq!(
        app.scalar("SELECT ask_id FROM volumes WHERE id = 20118484"),
        ASK_30_LEFT
    );

    let msg = app
        .put(paths::VOLUMES)
        .key(BOB_KEY)
        .json(json!({"id": ASK_30_LEFT, "size": 20}))
        .send()
        .await
        .error(409, "insufficient_capacity");
    assert_eq!(msg, "volume ask 7 has 10 GB left; 20 GB asked");
    let body = app
        .put(paths::VOLUMES)
        .key(BOB_KEY)
        .json(json!({"id": ASK_30_LEFT, "size": 10}))
        .send()
        .await
        .ok();
    assert_eq!(body["volume_name"], "V.20118485");
    assert_eq!(
        app.scalar("SELECT SUM(size) FROM volumes WHERE ask_id = 7"),
        100
    );
}

#[tokio::test]
async fn volume_refusals_name_the_field() {
    let app = TestApp::demo();
    let before = app.scalar("SELECT COUNT(*) FROM volumes");
    let send = |body: Value| app.put(paths::VOLUMES).key(ALICE_KEY).json(body).send();
    assert_eq!(
        send(json!({"size": 20})).await.error(400, "invalid_args"),
        "id is required"
    );
    assert_eq!(
        send(json!({"id": 8})).await.error(400, "invalid_args"),
        "size is required"
    );
    assert_eq!(
        send(json!({"id": "7", "size": 20}))
            .await
            .error(400, "invalid_args"),
        "id must be an integer, not a string"
    );
    assert_eq!(
        send(json!({"id": 8, "size": 1.5}))
            .await
            .error(400, "invalid_args"),
        "size must be an integer, not a fraction"
    );
    assert_eq!(
        send(json!({"id": 8, "size": null}))
            .await
            .error(400, "invalid_args"),
        "size must be an integer, not null"
    );
    for size in [0, -5] {
        let msg = send(json!({"id": 8, "size": size}))
            .await
            .error(422, "invalid_args");
        assert!(msg.starts_with("size must be at least 1 GB"), "{msg}");
    }
    assert_eq!(
        send(json!({"id": 12345, "size": 1}))
            .await
            .error(404, "not_found"),
        "volume ask 12345 not found"
    );
    assert_eq!(
        send(json!({"id": ASK_FULL, "size": 1}))
            .await
            .error(409, "insufficient_capacity"),
        "volume ask 9 has 0 GB left; 1 GB asked"
    );
    send(json!({"id": ASK_500_FREE, "size": 1_000_000_000_000i64}))
        .await
        .error(409, "insufficient_capacity");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM volumes"), before);
}

// ------------------------------------------------------------------------- subaccounts

#[tokio::test]
async fn subaccounts_are_listed_with_working_derived_keys() {
    let app = TestApp::demo();
    let body = app
        .get(&format!("{}?owner=me", paths::SUBACCOUNTS))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(body["msg"], "4 subaccounts");
    let users = body["users"].as_array().unwrap();
    let ids: Vec<i64> = users.iter().map(|u| u["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, ALICE_SUBACCOUNTS.to_vec());
    assert_eq!(users[0]["email"], "render-farm@alice.example");
    assert_eq!(users[0]["balance"], 25.5);
    assert_eq!(users[1]["balance"], 0.0);
    assert_eq!(users[2]["balance"], 1200.75);
    assert_eq!(users[3]["email"], "<b>sub</b>@alice.example");
    // The username N20 took and whether the account only hosts.
    assert_eq!(users[0]["username"], "render-farm");
    assert_eq!(users[0]["host_only"], true);
    assert_eq!(users[1]["username"], "ci-runner");
    assert_eq!(users[1]["host_only"], false);
    // Each derived key authenticates as its subaccount.
    for user in users {
        let key = user["api_key"].as_str().unwrap();
        assert_eq!(key.len(), 64);
        let me = app.get(paths::CURRENT_USER).key(key).send().await.ok();
        assert_eq!(me["id"], user["id"]);
        assert_eq!(me["email"], user["email"]);
        // and a subaccount has no subaccounts of its own.
        let own = app.get(paths::SUBACCOUNTS).key(key).send().await.ok();
        assert_eq!(own, json!({"users": [], "msg": "0 subaccounts"}));
    }
    // The list is stable: the same keys every time.
    let again = app.get(paths::SUBACCOUNTS).key(ALICE_KEY).send().await.ok();
    assert_eq!(again["users"], body["users"]);

    let bob = app.get(paths::SUBACCOUNTS).key(BOB_KEY).send().await.ok();
    assert_eq!(bob["msg"], "1 subaccount");
    assert_eq!(bob["users"][0]["id"], BOB_SUBACCOUNT);

    let msg = app
        .get(paths::SUBACCOUNTS)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(msg, "this key's team role lacks the permission user_read");
}

#[tokio::test]
async fn only_hashes_of_keys_are_stored() {
    let app = TestApp::demo();
    let clear = app.scalar(&format!(
        "SELECT COUNT(*) FROM api_keys WHERE key_hash = '{ALICE_KEY}'"
    ));
    assert_eq!(clear, 0);
    let hashed = app.scalar(&format!(
        "SELECT COUNT(*) FROM api_keys WHERE key_hash = '{}'",
        gpudeck_server::keys::hash_key(ALICE_KEY)
    ));
    assert_eq!(hashed, 1);
}

// -------------------------------------------------------------------------------- team

#[tokio::test]
async fn team_roles_by_name() {
    let app = TestApp::demo();
    let owner = app
        .get(&format!("{}/", paths::team_role("owner")))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(owner["id"], 1);
    assert_eq!(owner["name"], "owner");
    assert_eq!(owner["permissions"]["api"].as_object().unwrap().len(), 11);
    assert_eq!(owner["permissions"]["api.team.delete"], json!({}));

    let manager = app
        .get(&paths::team_role("manager"))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(manager["permissions"]["api"].as_object().unwrap().len(), 11);
    assert!(manager["permissions"].get("api.team.delete").is_none());

    let member = app
        .get(&paths::team_role("member"))
        .key(DAVE_TEAM_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        member["permissions"],
        json!({
            "api": {"instance_read": {}, "instance_write": {}},
            "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}}
        })
    );

    for name in [UNICODE_ROLE, MARKUP_ROLE] {
        let role = app
            .get(&paths::team_role(name))
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
        assert_eq!(role["name"], name);
    }
}

#[tokio::test]
async fn team_role_refusals() {
    let app = TestApp::demo();
    let msg = app
        .get(&paths::team_role("x"))
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "no role named \"x\" in team Alice Compute");
    let msg = app
        .get(&paths::team_role("a/b <i>c</i>"))
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "no role named \"a/b <i>c</i>\" in team Alice Compute");
    // Names longer than 200 characters are refused before any lookup (limits.rs).
    let huge = "ü".repeat(5000);
    let msg = app
        .get(&paths::team_role(&huge))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.chars().count() < 120, "{msg}");
    // bob's team has only the default roles.
    let bob_owner = app
        .get(&paths::team_role("owner"))
        .key(BOB_KEY)
        .send()
        .await
        .ok();
    assert_eq!(bob_owner["id"], 6);
    let msg = app
        .get(&paths::team_role(UNICODE_ROLE))
        .key(BOB_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert!(msg.ends_with("in team Bob Labs"), "{msg}");
    app.get(&paths::team_role("owner"))
        .key(GUSTAV_KEY)
        .send()
        .await
        .error(404, "no_team");
    let msg = app
        .get(&paths::team_role("owner"))
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(msg, "this key's team role lacks the permission team_read");
}

#[tokio::test]
async fn team_members_are_the_active_ones() {
    let app = TestApp::demo();
    let members = app
        .get(paths::TEAM_MEMBERS)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        members,
        json!([
            {"id": ALICE_ID, "username": "alice", "email": "alice@example.com", "fullname": "Alice Liddell", "roles": ["owner"]},
            {"id": CAROL_ID, "username": "carol", "email": "carol@example.com", "fullname": "Zoë Ångström", "roles": ["member"]},
            {"id": DAVE_ID, "username": "dave", "email": "dave@example.com", "fullname": "Dave Nakamura", "roles": ["manager"]},
            {"id": FRANK_ID, "username": "frank", "email": "frank@example.com", "fullname": format!("Frank {MARKUP}"), "roles": ["manager", "member"]},
        ])
    );
    // The same team through dave's personal key (he is a member, not the owner) and
    // through his and frank's team keys.
    for key in [DAVE_KEY, DAVE_TEAM_KEY, FRANK_TEAM_KEY] {
        assert_eq!(
            app.get(&format!("{}/", paths::TEAM_MEMBERS))
                .key(key)
                .send()
                .await
                .ok(),
            members
        );
    }
    let bob = app.get(paths::TEAM_MEMBERS).key(BOB_KEY).send().await.ok();
    assert_eq!(bob.as_array().unwrap().len(), 1);
    assert_eq!(bob[0]["id"], BOB_ID);
    app.get(paths::TEAM_MEMBERS)
        .key(GUSTAV_KEY)
        .send()
        .await
        .error(404, "no_team");
    let msg = app
        .get(paths::TEAM_MEMBERS)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(403, "forbidden");
    assert!(msg.ends_with("team_read"));
}
