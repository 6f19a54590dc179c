//! Notification types, preferences and webhooks (N25–N33, spec fleet-health §3): every
//! refusal changes nothing, the secret is shown only on create and rotate, and N33 really
//! delivers a signed request, received here on a local port.

use crate::common;

use axum::http::StatusCode;
use common::{plain_app, receiver, Received, TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_wire::notifications::headers;
use gpudeck_wire::paths;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;

/// The signature as a receiver checks it (docs): HMAC-SHA256 of `<timestamp>.<body>`.
fn expected_signature(secret: &str, timestamp: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

async fn create(app: &TestApp, key: &str, body: Value) -> common::Answer {
    app.post(&format!("{}/", paths::WEBHOOKS))
        .key(key)
        .json(body)
        .send()
        .await
}

/// Everything a refusal must leave as it was.
fn notification_state(app: &TestApp) -> Option<String> {
    app.text(
        "SELECT (SELECT group_concat(id || '|' || ifnull(name, '-') || '|' || webhook_url || '|'
                                     || event_types || '|' || secret || '|' || updated_at, ';')
                 FROM (SELECT * FROM webhooks ORDER BY id))
             || '#' || ifnull((SELECT group_concat(user_id || key || channel || enabled, ';')
                 FROM (SELECT * FROM notification_preferences ORDER BY 1, 2, 3)), '')",
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_delivery_is_signed_received_and_follows_a_rotated_secret() {
    let app = TestApp::demo();
    let mut receiver = receiver().await;
    let created = create(
        &app,
        ALICE_KEY,
        json!({"name": "Local test", "webhook_url": receiver.url,
               "event_types": ["host:low_disk_space"]}),
    )
    .await
    .ok();
    let id = created["webhook"]["id"].as_i64().unwrap();
    let secret = created["webhook"]["webhook_secret"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(secret.len(), 64);
    assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));

    let answer = app
        .post(&paths::webhook_test(id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(answer["msg"], "Test webhook delivered");
    assert_eq!(answer["webhook_id"], id);
    let event_id = answer["event_id"].as_str().unwrap().to_owned();

    let delivery = receiver.got.recv().await.unwrap();
    let header = |name: &str| delivery.headers[name].to_str().unwrap().to_owned();
    assert_eq!(header("content-type"), "application/json");
    assert_eq!(header(headers::EVENT_ID), event_id);
    assert_eq!(header(headers::DELIVERY_ATTEMPT), "1");
    let timestamp = header(headers::TIMESTAMP);
    assert_eq!(timestamp, format!("{}", NOW as u64));
    assert_eq!(
        header(headers::SIGNATURE),
        expected_signature(&secret, &timestamp, &delivery.body)
    );
    // The six fields, compact, in the spec's order.
    assert_eq!(
        std::str::from_utf8(&delivery.body).unwrap(),
        format!(
            r#"{{"event_id":"{event_id}","user_id":1,"notif_type":"webhook_test","subject":"Webhook test","message":"Test delivery for webhook {id}.","timestamp":{NOW:.1}}}"#
        )
    );

    // Rotating answers a new secret once; the next delivery is signed with it alone.
    let rotated = app
        .post(&paths::webhook_rotate_secret(id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let new_secret = rotated["webhook"]["webhook_secret"].as_str().unwrap();
    assert_ne!(new_secret, secret);
    assert_eq!(rotated["webhook"]["webhook_url"], receiver.url.as_str());
    app.post(&paths::webhook_test(id))
        .key(ALICE_KEY)
        .raw("application/json", "{}")
        .send()
        .await
        .ok();
    let second = receiver.got.recv().await.unwrap();
    let signature = second.headers[headers::SIGNATURE].to_str().unwrap();
    let timestamp = second.headers[headers::TIMESTAMP].to_str().unwrap();
    assert_eq!(
        signature,
        expected_signature(new_secret, timestamp, &second.body)
    );
    assert_ne!(
        signature,
        expected_signature(&secret, timestamp, &second.body)
    );

    // No other answer carries a secret.
    let listed = app
        .get(&format!("{}/", paths::WEBHOOKS))
        .key(ALICE_KEY)
        .send()
        .await;
    let updated = app
        .put(&paths::webhook(id))
        .key(ALICE_KEY)
        .json(json!({"name": null}))
        .send()
        .await;
    for answer in [&listed, &updated] {
        let text = answer.ok().to_string();
        assert!(!text.contains("webhook_secret"), "{text}");
        assert!(!text.contains(new_secret), "{text}");
    }
    assert_eq!(updated.json()["webhook"]["name"], Value::Null);

    // `localhost` reaches the receiver too, the request still naming the host it was given.
    let by_name = receiver.url.replace("127.0.0.1", "localhost");
    app.put(&paths::webhook(id))
        .key(ALICE_KEY)
        .json(json!({ "webhook_url": by_name }))
        .send()
        .await
        .ok();
    app.post(&paths::webhook_test(id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let third = receiver.got.recv().await.unwrap();
    assert_eq!(
        third.headers["host"].to_str().unwrap(),
        by_name
            .trim_start_matches("http://")
            .trim_end_matches("/hook")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_test_says_whose_failure_it_was_and_is_not_retried() {
    let app = TestApp::demo();
    let mut receiver = receiver().await;
    let id = create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": receiver.url, "event_types": ["machine_error"]}),
    )
    .await
    .ok()["webhook"]["id"]
        .as_i64()
        .unwrap();
    let test = || async {
        app.post(&paths::webhook_test(id))
            .key(ALICE_KEY)
            .send()
            .await
    };
    for (status, refusal) in [
        (StatusCode::INTERNAL_SERVER_ERROR, (502, "delivery_failed")),
        (StatusCode::TOO_MANY_REQUESTS, (502, "delivery_failed")),
        (StatusCode::NOT_FOUND, (400, "undeliverable")),
        (StatusCode::FOUND, (400, "undeliverable")),
    ] {
        *receiver.status.lock().unwrap() = status;
        let msg = test().await.error(refusal.0, refusal.1);
        assert_eq!(
            msg,
            if refusal.0 == 502 {
                "Webhook delivery failed"
            } else {
                "Webhook URL is not deliverable"
            }
        );
        receiver.got.recv().await.unwrap();
        // One attempt only: nothing more arrives.
        assert!(receiver.got.try_recv().is_err(), "{status}");
    }
    // A private address is refused before any connection, even in demo mode.
    app.put(&paths::webhook(id))
        .key(ALICE_KEY)
        .json(json!({"webhook_url": "https://192.168.0.1/hook"}))
        .send()
        .await
        .ok();
    test().await.error(400, "undeliverable");
    // Nothing listens on a closed port: a connection error, the receiver's side.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    app.put(&paths::webhook(id))
        .key(ALICE_KEY)
        .json(json!({"webhook_url": format!("http://localhost:{port}/hook")}))
        .send()
        .await
        .ok();
    test().await.error(502, "delivery_failed");
    assert!(receiver.got.try_recv().is_err());
}

#[tokio::test]
async fn creating_turns_on_the_webhook_channel_and_says_which() {
    let app = TestApp::demo();
    let created = create(
        &app,
        ALICE_KEY,
        json!({"name": "", "webhook_url": "https://hooks.example.com/second",
               "event_types": ["host:low_disk_space", "host:machine_offline", "client:outbid"]}),
    )
    .await
    .ok();
    // machine_offline's channel was on already (the demo's webhook subscribes to it).
    assert_eq!(
        created["enabled_notification_preferences"],
        json!(["host:low_disk_space", "client:outbid"])
    );
    let webhook = &created["webhook"];
    assert_eq!(webhook["name"], Value::Null);
    assert_eq!(webhook["user_id"], ALICE_ID);
    assert_eq!(webhook["created_at"], NOW);
    assert_eq!(webhook["updated_at"], NOW);
    assert_eq!(
        webhook["event_types"],
        json!([
            "host:low_disk_space",
            "host:machine_offline",
            "client:outbid"
        ])
    );
    let prefs = app
        .get(&paths::notification_prefs("me"))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let host = &prefs["notification_preferences"]["host"];
    assert_eq!(
        host["low_disk_space"],
        json!({"email": true, "webhooks": true})
    );
    assert_eq!(
        host["near_end_date"],
        json!({"email": true, "webhooks": false})
    );
    // Updating the subscriptions turns on only the newly subscribed keys' channel.
    let id = webhook["id"].as_i64().unwrap();
    let updated = app
        .put(&paths::webhook(id))
        .key(ALICE_KEY)
        .json(json!({"event_types": ["client:outbid", "near_end_date"]}))
        .send()
        .await
        .ok();
    assert_eq!(
        updated["enabled_notification_preferences"],
        json!(["host:near_end_date"])
    );
    assert_eq!(
        updated["webhook"]["event_types"],
        json!(["client:outbid", "host:near_end_date"])
    );
    // Unsubscribing left the preferences as they were.
    assert_eq!(
        app.scalar(
            "SELECT enabled FROM notification_preferences
             WHERE user_id = 1 AND key = 'host:low_disk_space' AND channel = 'webhooks'"
        ),
        1
    );
}

#[tokio::test]
async fn bad_webhook_input_is_refused_in_the_specs_words_and_changes_nothing() {
    let app = TestApp::demo();
    let before = notification_state(&app);
    let url = "https://hooks.example.com/new";
    let types = json!(["host:machine_offline"]);
    let long_url = format!("https://hooks.example.com/{}", "x".repeat(2100));
    let cases = [
        (
            json!({"event_types": types}),
            "webhook_url is required and must be a string",
        ),
        (
            json!({"webhook_url": 5, "event_types": types}),
            "webhook_url is required and must be a string",
        ),
        (
            json!({"webhook_url": long_url, "event_types": types}),
            "webhook_url exceeds maximum length of 2048 characters",
        ),
        (
            json!({"webhook_url": "http://hooks.example.com/x", "event_types": types}),
            "webhook_url must use HTTPS",
        ),
        (
            json!({"webhook_url": "http://10.1.1.1/x", "event_types": types}),
            "webhook_url must use HTTPS",
        ),
        (
            json!({"webhook_url": "https://", "event_types": types}),
            "webhook_url must include a hostname",
        ),
        (
            json!({"webhook_url": "https://hooks.example.com:70000/", "event_types": types}),
            "webhook_url has an invalid port",
        ),
        (json!({"webhook_url": url}), "event_types must be a list"),
        (
            json!({"webhook_url": url, "event_types": "host:machine_offline"}),
            "event_types must be a list",
        ),
        (
            json!({"webhook_url": url, "event_types": []}),
            "event_types must contain at least one event type",
        ),
        (
            json!({"webhook_url": url, "event_types": ["<script>alert(1)</script>"]}),
            "Unknown event type: <script>alert(1)</script>",
        ),
        (
            json!({"webhook_url": url, "event_types": [{"a": 1}]}),
            "Unknown event type: {\"a\":1}",
        ),
        (
            json!({"webhook_url": url, "event_types": ["host:machine_offline", "machine_offline"]}),
            "Duplicate event type: machine_offline",
        ),
        (
            json!({"name": 7, "webhook_url": url, "event_types": types}),
            "name must be a string",
        ),
        (
            json!({"name": "x".repeat(121), "webhook_url": url, "event_types": types}),
            "name exceeds maximum length of 120 characters",
        ),
        (
            json!({"name": "a\u{0007}b", "webhook_url": url, "event_types": types}),
            "name must not contain control characters",
        ),
        // The name is judged before the URL, the URL before the types.
        (
            json!({"name": 7, "webhook_url": 7, "event_types": 7}),
            "name must be a string",
        ),
        (
            json!({"webhook_url": 7, "event_types": 7}),
            "webhook_url is required and must be a string",
        ),
    ];
    for (body, msg) in cases {
        let answer = create(&app, ALICE_KEY, body.clone()).await;
        assert_eq!(answer.error(400, "invalid_args"), msg, "{body}");
    }
    let huge_type = "t".repeat(10_000);
    let answer = create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": url, "event_types": [huge_type]}),
    )
    .await;
    assert!(answer.error(400, "invalid_args").chars().count() < 100);
    let malformed = app
        .post(paths::WEBHOOKS)
        .key(ALICE_KEY)
        .raw("application/json", "{\"webhook_url\": ")
        .send()
        .await;
    malformed.error(400, "invalid_json");
    let array = app
        .post(paths::WEBHOOKS)
        .key(ALICE_KEY)
        .raw("application/json", "[1]")
        .send()
        .await;
    array.error(400, "invalid_args");
    let too_big = app
        .post(paths::WEBHOOKS)
        .key(ALICE_KEY)
        .raw(
            "application/json",
            format!("{{\"name\": \"{}\"}}", "x".repeat(70_000)),
        )
        .send()
        .await;
    assert_eq!(too_big.status, 413);
    // A duplicate of alice's own URL; bob may register the same URL.
    let taken = create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": ALICE_WEBHOOK_URL, "event_types": types}),
    )
    .await;
    assert_eq!(
        taken.error(409, "duplicate_url"),
        "This webhook URL is already registered"
    );
    assert_eq!(notification_state(&app), before);
    create(
        &app,
        BOB_KEY,
        json!({"webhook_url": ALICE_WEBHOOK_URL, "event_types": types}),
    )
    .await
    .ok();
}

#[tokio::test]
async fn four_webhooks_at_most_and_unicode_and_markup_kept_as_given() {
    let app = TestApp::demo();
    // alice has two already.
    for n in 3..=4 {
        let created = create(
            &app,
            ALICE_KEY,
            json!({"name": format!("{UNICODE_REASON} {MARKUP} {n}"),
                   "webhook_url": format!("https://hooks.example.com/ü/{n}"),
                   "event_types": ["host:machine_reported"]}),
        )
        .await
        .ok();
        assert_eq!(
            created["webhook"]["name"],
            format!("{UNICODE_REASON} {MARKUP} {n}")
        );
        assert_eq!(
            created["webhook"]["webhook_url"],
            format!("https://hooks.example.com/ü/{n}")
        );
    }
    let before = notification_state(&app);
    let fifth = create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": "https://hooks.example.com/5", "event_types": ["host:machine_reported"]}),
    )
    .await;
    assert_eq!(
        fifth.error(409, "limit_reached"),
        "Maximum of 4 webhooks per user"
    );
    assert_eq!(notification_state(&app), before);
    let listed = app.get(paths::WEBHOOKS).key(ALICE_KEY).send().await.ok();
    let ids: Vec<i64> = listed["webhooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 4);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert!(!listed.to_string().contains(BOB_WEBHOOK_URL));
}

#[tokio::test]
async fn someone_elses_webhook_reads_as_absent_and_bad_ids_are_400() {
    let app = TestApp::demo();
    let before = notification_state(&app);
    for (method, path) in [
        ("PUT", paths::webhook(BOB_WEBHOOK)),
        ("DELETE", paths::webhook(BOB_WEBHOOK)),
        ("POST", paths::webhook_rotate_secret(BOB_WEBHOOK)),
        ("POST", paths::webhook_test(BOB_WEBHOOK)),
        ("DELETE", paths::webhook(999)),
    ] {
        let answer = app
            .call(method.parse().unwrap(), &path)
            .key(ALICE_KEY)
            .json(json!({"name": "mine now"}))
            .send()
            .await;
        assert_eq!(
            answer.error(404, "not_found"),
            "Webhook not found",
            "{path}"
        );
    }
    for raw in ["abc", "0", "-3", "1.5", "99999999999999999999"] {
        let answer = app
            .delete(&format!("{}/{raw}/", paths::WEBHOOKS))
            .key(ALICE_KEY)
            .send()
            .await;
        assert_eq!(
            answer.error(400, "invalid_args"),
            "Webhook id must be a positive integer",
            "{raw}"
        );
    }
    let nothing = app
        .put(&paths::webhook(ALICE_WEBHOOK))
        .key(ALICE_KEY)
        .json(json!({"webhook_url": null, "event_types": null}))
        .send()
        .await;
    assert_eq!(
        nothing.error(400, "invalid_args"),
        "At least one of webhook_url, event_types, or name is required"
    );
    let empty = app
        .put(&paths::webhook(ALICE_WEBHOOK))
        .key(ALICE_KEY)
        .json(json!({"event_types": []}))
        .send()
        .await;
    empty.error(400, "invalid_args");
    // N31 takes any JSON object or none, but not other JSON.
    let not_object = app
        .delete(&paths::webhook(ALICE_WEBHOOK))
        .key(ALICE_KEY)
        .raw("application/json", "[1]")
        .send()
        .await;
    not_object.error(400, "invalid_args");
    assert_eq!(notification_state(&app), before);

    let deleted = app
        .delete(&paths::webhook(ALICE_WEBHOOK))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(deleted, json!({"success": true}));
    assert_eq!(app.scalar("SELECT COUNT(*) FROM webhooks WHERE id = 1"), 0);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM webhooks"), 2);
    // Preferences are unchanged by the deletion.
    assert_eq!(
        app.scalar(
            "SELECT COUNT(*) FROM notification_preferences WHERE user_id = 1 AND enabled = 1"
        ),
        3
    );
}

#[tokio::test]
async fn types_and_preferences_are_the_callers_own() {
    let app = TestApp::demo();
    let keys_of = |answer: &Value| -> Vec<String> {
        answer["notification_types"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["key"].as_str().unwrap().to_owned())
            .collect()
    };
    let host = app
        .get(paths::NOTIFICATION_TYPES)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let keys = keys_of(&host);
    assert_eq!(keys.len(), 17);
    assert_eq!(keys[0], "client:low_credit");
    assert_eq!(keys[16], "host:maintenance_scheduled");
    let billing_failed = &host["notification_types"][2];
    assert_eq!(billing_failed["mandatory_email"], true);
    assert_eq!(
        host["notification_types"][10],
        json!({"key": "host:machine_offline", "slug": "machine_offline", "context": "host",
               "topic": "machines", "category": "host", "display_name": "Machine offline",
               "default_preferences": {"email": true, "webhooks": false},
               "mandatory_email": false})
    );
    // gustav owns no machine: no host types, no host preferences.
    let renter = app
        .get(&format!("{}/", paths::NOTIFICATION_TYPES))
        .key(GUSTAV_KEY)
        .send()
        .await
        .ok();
    assert!(keys_of(&renter).iter().all(|k| k.starts_with("client:")));
    let prefs = app
        .get(&paths::notification_prefs(&GUSTAV_ID.to_string()))
        .key(GUSTAV_KEY)
        .send()
        .await
        .ok();
    assert!(prefs["notification_preferences"]["host"].is_null());
    assert_eq!(
        prefs["notification_preferences"]["client"]["low_credit"],
        json!({"email": true, "webhooks": false})
    );

    let before = notification_state(&app);
    let put = |user: &str, body: Value| {
        let path = paths::notification_prefs(user);
        let app = &app;
        async move { app.put(&path).key(GUSTAV_KEY).json(body).send().await }
    };
    let change = |map: Value| json!({ "notification_preferences": map });
    for (body, msg) in [
        (
            json!({}),
            "notification_preferences is required and must be an object",
        ),
        (
            change(json!([1])),
            "notification_preferences is required and must be an object",
        ),
        (
            change(json!({"host": {"machine_offline": {"email": true}}})),
            "Unknown event type: host:machine_offline",
        ),
        (
            change(json!({"client": {"nope": {"email": true}}})),
            "Unknown event type: client:nope",
        ),
        (
            change(json!({"client": {"outbid": {"sms": true}}})),
            "Unknown channel sms for client:outbid",
        ),
        (
            change(json!({"client": {"outbid": {"email": "yes"}}})),
            "client:outbid.email must be true or false",
        ),
        (
            change(json!({"client": {"billing_failed": {"email": false}}})),
            "Email is mandatory for client:billing_failed",
        ),
    ] {
        assert_eq!(
            put("me", body.clone()).await.error(400, "invalid_args"),
            msg,
            "{body}"
        );
    }
    assert_eq!(
        put("x", change(json!({}))).await.error(400, "invalid_args"),
        "user_id must be an integer or me"
    );
    assert_eq!(
        put(&ALICE_ID.to_string(), change(json!({})))
            .await
            .error(403, "forbidden"),
        "you may only read or change your own notification preferences"
    );
    assert_eq!(notification_state(&app), before);

    let changed = put(
        "me",
        change(json!({"client": {"outbid": {"webhooks": true},
                                 "billing_failed": {"email": true, "webhooks": true}}})),
    )
    .await
    .ok();
    let client = &changed["notification_preferences"]["client"];
    // The channels left out keep their values.
    assert_eq!(client["outbid"], json!({"email": true, "webhooks": true}));
    assert_eq!(
        client["billing_failed"],
        json!({"email": true, "webhooks": true})
    );
    assert_eq!(
        client["low_credit"],
        json!({"email": true, "webhooks": false})
    );
    let read = app
        .get(&paths::notification_prefs("me"))
        .key(GUSTAV_KEY)
        .send()
        .await
        .ok();
    assert_eq!(read, changed);
}

/// A window a day after `NOW`, for `machine`, through N3.
async fn schedule_window(app: &TestApp, machine: i64) {
    app.put(&paths::machine_dnotify(machine))
        .key(ALICE_KEY)
        .json(json!({"sdate": NOW + 86_400.0, "duration": 3, "maintenance_category": "disk"}))
        .send()
        .await
        .ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduled_window_is_delivered_to_subscribers_whose_channel_is_on() {
    let app = TestApp::demo();
    let mut subscribed = receiver().await;
    let mut other = receiver().await;
    let created = create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": subscribed.url, "event_types": ["host:maintenance_scheduled"]}),
    )
    .await
    .ok();
    let secret = created["webhook"]["webhook_secret"]
        .as_str()
        .unwrap()
        .to_owned();
    create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": other.url, "event_types": ["host:machine_offline"]}),
    )
    .await
    .ok();

    schedule_window(&app, 1005).await;
    let delivery = subscribed.got.recv().await.unwrap();
    let body: Value = serde_json::from_slice(&delivery.body).unwrap();
    assert_eq!(body["notif_type"], "maintenance_scheduled");
    assert_eq!(body["user_id"], ALICE_ID);
    assert_eq!(body["subject"], "Maintenance scheduled on machine 1005");
    assert_eq!(
        body["message"],
        "disk window from 2027-01-16T08:00:00Z for 3 hour(s)."
    );
    assert_eq!(
        body["event_id"],
        delivery.headers[headers::EVENT_ID].to_str().unwrap()
    );
    let timestamp = delivery.headers[headers::TIMESTAMP].to_str().unwrap();
    assert_eq!(
        delivery.headers[headers::SIGNATURE].to_str().unwrap(),
        expected_signature(&secret, timestamp, &delivery.body)
    );

    // N4 on two machines: one event per window, each its own id.
    app.post(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(json!({"machine_ids": [1006, 1007], "sdate": NOW + 86_400.0}))
        .send()
        .await
        .ok();
    let mut subjects = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let delivery = subscribed.got.recv().await.unwrap();
        let body: Value = serde_json::from_slice(&delivery.body).unwrap();
        subjects.push(body["subject"].as_str().unwrap().to_owned());
        ids.push(body["event_id"].as_str().unwrap().to_owned());
    }
    subjects.sort();
    assert_eq!(
        subjects,
        [
            "Maintenance scheduled on machine 1006",
            "Maintenance scheduled on machine 1007"
        ]
    );
    assert_ne!(ids[0], ids[1]);

    // With the webhook channel off, nothing is sent: the next delivery the subscribed
    // receiver gets is N33's test, sent after another window was scheduled.
    app.put(&paths::notification_prefs("me"))
        .key(ALICE_KEY)
        .json(json!({"notification_preferences":
            {"host": {"maintenance_scheduled": {"webhooks": false}}}}))
        .send()
        .await
        .ok();
    schedule_window(&app, 1008).await;
    let id = created["webhook"]["id"].as_i64().unwrap();
    app.post(&paths::webhook_test(id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let next: Value = serde_json::from_slice(&subscribed.got.recv().await.unwrap().body).unwrap();
    assert_eq!(next["notif_type"], "webhook_test");
    // The webhook subscribed to another type got nothing at all.
    let other_id = app.scalar(&format!(
        "SELECT id FROM webhooks WHERE webhook_url = '{}'",
        other.url
    ));
    app.post(&paths::webhook_test(other_id))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let first: Value = serde_json::from_slice(&other.got.recv().await.unwrap().body).unwrap();
    assert_eq!(first["notif_type"], "webhook_test");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_is_retried_with_its_id_after_a_retryable_failure() {
    let app = TestApp::demo();
    let mut receiver = receiver().await;
    create(
        &app,
        ALICE_KEY,
        json!({"webhook_url": receiver.url, "event_types": ["host:maintenance_scheduled"]}),
    )
    .await
    .ok();
    *receiver.status.lock().unwrap() = StatusCode::SERVICE_UNAVAILABLE;
    schedule_window(&app, 1005).await;
    let first = receiver.got.recv().await.unwrap();
    *receiver.status.lock().unwrap() = StatusCode::OK;
    let second = receiver.got.recv().await.unwrap();
    let header =
        |received: &Received, name: &str| received.headers[name].to_str().unwrap().to_owned();
    assert_eq!(header(&first, headers::DELIVERY_ATTEMPT), "1");
    assert_eq!(header(&second, headers::DELIVERY_ATTEMPT), "2");
    assert_eq!(
        header(&first, headers::EVENT_ID),
        header(&second, headers::EVENT_ID)
    );
    assert_eq!(first.body, second.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_demo_or_test_mode_lets_a_webhook_reach_this_machine() {
    let mut receiver = receiver().await;
    let local = json!({"webhook_url": receiver.url, "event_types": ["client:outbid"]});
    // Normal mode: the public service's rules. http is refused; https to loopback is
    // stored, as the public service stores it, and refused at delivery.
    let (app, key) = plain_app(false);
    assert_eq!(
        create(&app, key, local.clone())
            .await
            .error(400, "invalid_args"),
        "webhook_url must use HTTPS"
    );
    let https = receiver.url.replace("http://", "https://");
    let id = create(
        &app,
        key,
        json!({"webhook_url": https, "event_types": ["client:outbid"]}),
    )
    .await
    .ok()["webhook"]["id"]
        .as_i64()
        .unwrap();
    let refused = app.post(&paths::webhook_test(id)).key(key).send().await;
    refused.error(400, "undeliverable");
    // Test mode (`--test-mode`): the same http URL is taken and delivered to.
    let (app, key) = plain_app(true);
    let id = create(&app, key, local).await.ok()["webhook"]["id"]
        .as_i64()
        .unwrap();
    app.post(&paths::webhook_test(id))
        .key(key)
        .send()
        .await
        .ok();
    let delivery = receiver.got.recv().await.unwrap();
    let body: Value = serde_json::from_slice(&delivery.body).unwrap();
    assert_eq!(body["message"], format!("Test delivery for webhook {id}."));
    // Nothing reached the receiver from normal mode.
    assert!(receiver.got.try_recv().is_err());
}
