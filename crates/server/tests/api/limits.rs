//! Limits: body size, machine_ids per request, string lengths, request target and header
//! size, JSON nesting, integer ranges, and the optional per-key rate limit. Every refusal
//! is a JSON `{error, msg}`, never a 5xx. (Request time-outs: http.rs.)

use crate::common;

use axum::http::Method;
use common::{TestApp, NOW};
use gpudeck_server::config::{MAX_HEADER_BYTES, MAX_ROLE_NAME_CHARS, MAX_URI_BYTES};
use gpudeck_server::demo::*;
use gpudeck_server::limits::RefusalShape;
use gpudeck_server::{app, AppState, Clock, Config};
use gpudeck_wire::{paths, MAX_MACHINE_IDS};
use serde_json::json;

#[tokio::test]
async fn bodies_over_the_limit_are_413_json() {
    let app = TestApp::demo();
    let body = json!({"id": ASK_500_FREE, "size": 1, "padding": "x".repeat(70_000)});
    let msg = app
        .put(paths::VOLUMES)
        .key(ALICE_KEY)
        .json(body)
        .send()
        .await
        .error(413, "too_large");
    assert!(msg.contains("65536"), "{msg}");
}

#[tokio::test]
async fn machine_ids_are_capped_at_1000_in_every_form() {
    let app = TestApp::demo();
    let ids = |n: i64| (1..=n).map(|i| 100_000 + i).collect::<Vec<i64>>();
    // 1000 is allowed (none exists: 404, not 400), in the query and in the body.
    // As the official client sends it: a JSON array with ", " between ids.
    let query = format!(
        "[{}]",
        ids(MAX_MACHINE_IDS as i64)
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let uri = format!("{}?machine_ids={}", paths::MAINTENANCES, urlencode(&query));
    assert!(uri.len() <= MAX_URI_BYTES, "1000 ids fit in the URI limit");
    app.get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    let ok = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!({ "machine_ids": ids(1000) }))
        .send()
        .await
        .ok();
    assert_eq!(ok["success"], false);
    // 1001 is refused, whatever the form.
    let too_many = ids(1001);
    let text = too_many
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let uri = format!("{}?machine_ids={text}", paths::MAINTENANCES);
    let msg = app
        .get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(msg, "at most 1000 machine ids per request; 1001 were given");
    for body in [
        json!({ "machine_ids": too_many }),
        json!({ "machine_ids": text }),
        json!({ "machine_ids": "1-1001" }),
        json!({ "machine_ids": "1-99999999999999" }),
    ] {
        let msg = app
            .put(paths::DEFRAG_OFFERS)
            .key(ALICE_KEY)
            .json(body)
            .send()
            .await
            .error(400, "invalid_args");
        assert!(msg.starts_with("at most 1000 machine ids"), "{msg}");
    }
}

fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test]
async fn role_names_are_capped() {
    let app = TestApp::demo();
    let longest = "r".repeat(MAX_ROLE_NAME_CHARS);
    let msg = app
        .get(&paths::team_role(&longest))
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert!(msg.len() < 200, "the name is quoted shortened: {msg}");
    // Counted in characters, not bytes.
    let too_long = "ü".repeat(MAX_ROLE_NAME_CHARS + 1);
    let msg = app
        .get(&paths::team_role(&too_long))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(
        msg,
        "a role name has at most 200 characters; this one has 201"
    );
}

#[tokio::test]
async fn long_request_targets_are_414_and_big_headers_431() {
    let app = TestApp::demo();
    let uri = format!(
        "{}?owner=me&machine_ids=1001&pad={}",
        paths::MAINTENANCES,
        "x".repeat(MAX_URI_BYTES)
    );
    let msg = app
        .get(&uri)
        .key(ALICE_KEY)
        .send()
        .await
        .error(414, "uri_too_long");
    assert!(msg.contains("32768"), "{msg}");
    // The same for paths the API does not know, and the console's.
    let uri = format!("/{}", "a".repeat(MAX_URI_BYTES));
    app.get(&uri).send().await.error(414, "uri_too_long");

    let msg = app
        .get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .header("x-padding", &"h".repeat(MAX_HEADER_BYTES))
        .send()
        .await
        .error(431, "headers_too_large");
    assert!(msg.contains("16384"), "{msg}");
    // Ordinary headers pass.
    app.get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .header("x-padding", &"h".repeat(1000))
        .send()
        .await
        .ok();
}

#[tokio::test]
async fn deeply_nested_json_is_refused_cleanly() {
    let app = TestApp::demo();
    let depth = 20_000;
    let nested = format!(
        "{{\"machine_ids\": {}1{}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let msg = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", nested)
        .send()
        .await
        .error(400, "invalid_json");
    assert!(msg.contains("recursion limit"), "{msg}");
    // Nesting within serde_json's limit (128) parses and is refused for its type.
    let shallow = format!("{{\"machine_ids\": {}1{}}}", "[".repeat(50), "]".repeat(50));
    app.put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", shallow)
        .send()
        .await
        .error(400, "invalid_args");
}

#[tokio::test]
async fn integers_out_of_range_are_400_not_500() {
    let app = TestApp::demo();
    for raw in [
        "99999999999999999999",
        "1e19",
        "-1e300",
        "9223372036854775808",
    ] {
        let body = format!("{{\"template_id\": {raw}}}");
        let msg = app
            .delete(paths::TEMPLATE_ALIAS)
            .key(ALICE_KEY)
            .raw("application/json", body)
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(
            msg,
            "template_id must be an integer, not a number out of range"
        );
        let body = format!("{{\"id\": {raw}, \"size\": 1}}");
        app.put(paths::VOLUMES)
            .key(ALICE_KEY)
            .raw("application/json", body)
            .send()
            .await
            .error(400, "invalid_args");
        let body = format!("{{\"id\": 8, \"size\": {raw}}}");
        app.put(paths::VOLUMES)
            .key(ALICE_KEY)
            .raw("application/json", body)
            .send()
            .await
            .error(400, "invalid_args");
    }
    // The extremes that fit are handled: unknown template, unknown ask, too big a size.
    app.delete(paths::TEMPLATE_ALIAS)
        .key(ALICE_KEY)
        .json(json!({ "template_id": i64::MAX }))
        .send()
        .await
        .error(404, "not_found");
    app.delete(paths::TEMPLATE_ALIAS)
        .key(ALICE_KEY)
        .json(json!({ "template_id": i64::MIN }))
        .send()
        .await
        .error(404, "not_found");
    app.put(paths::VOLUMES)
        .key(ALICE_KEY)
        .json(json!({"id": ASK_500_FREE, "size": i64::MAX}))
        .send()
        .await
        .error(409, "insufficient_capacity");
    // A whole number written as a fraction is an integer, as in JSON Schema.
    app.delete(paths::TEMPLATE_ALIAS)
        .key(ALICE_KEY)
        .raw("application/json", "{\"template_id\": 501.0}")
        .send()
        .await
        .ok();
    let result = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", "{\"machine_ids\": [1001.0, 1002]}")
        .send()
        .await
        .ok();
    assert_eq!(result["defragmented"], json!([1001, 1002]));
    // A path id out of range.
    let msg = app
        .delete("/api/v0/users/99999999999999999999/templates")
        .key(ALICE_KEY)
        .json(json!({ "template_id": 501 }))
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.starts_with("user_id must be an integer"), "{msg}");
}

#[tokio::test]
async fn long_strings_give_short_messages() {
    let app = TestApp::demo();
    let long = "9".repeat(60_000);
    for body in [
        json!({ "template_id": long }),
        json!({ "template_id": [long] }),
    ] {
        let msg = app
            .delete(paths::TEMPLATE_ALIAS)
            .key(ALICE_KEY)
            .json(body)
            .send()
            .await
            .error(400, "invalid_args");
        assert!(msg.len() < 100, "{msg}");
    }
    let msg = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .json(json!({ "machine_ids": format!("x{long}") }))
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 200, "{msg}");
    let msg = app
        .get(&format!("/api/v0/{}", "p".repeat(10_000)))
        .send()
        .await
        .error(404, "not_found");
    assert!(msg.len() < 300, "{msg}");
}

/// N1–N7: the body limit (N5 too, though it ignores its body), 100 per batch, ids and
/// numbers out of range, long strings quoted short; none of it writes anything.
#[tokio::test]
async fn the_machine_routes_hold_to_every_limit() {
    let app = TestApp::demo();
    let windows = || {
        (
            app.scalar("SELECT COUNT(*) FROM maintenances"),
            app.scalar("SELECT COUNT(cancelled_at) FROM maintenances"),
        )
    };
    let before = windows();
    let padding = "x".repeat(70_000);
    for (method, uri) in [
        (Method::PUT, paths::machine_dnotify(1001)),
        (Method::POST, paths::MAINTENANCES_BATCH.to_owned()),
        (Method::PUT, paths::machine_cancel_maint(1001)),
        (Method::DELETE, paths::MAINTENANCES.to_owned()),
        (Method::DELETE, paths::MAINTENANCES_BATCH.to_owned()),
    ] {
        app.call(method.clone(), &uri)
            .key(ALICE_KEY)
            .json(json!({ "padding": padding }))
            .send()
            .await
            .error(413, "too_large");
    }
    let long = "9".repeat(60_000);
    let future = NOW + 86_400.0;
    for (body, status, msg) in [
        (
            json!({"sdate": long}),
            422,
            "sdate must be a numeric timestamp",
        ),
        (json!({"sdate": 1e300}), 422, "sdate must be within 1 year"),
        (json!({"sdate": -1e300}), 422, "sdate must be in the future"),
        (
            json!({"sdate": future, "duration": 1e300}),
            400,
            "duration must be at most 8760 hours",
        ),
        (
            json!({"sdate": future, "maintenance_category": long}),
            400,
            "maintenance_category can only be one of (power, internet, disk, gpu, software, other)",
        ),
        (
            json!({"sdate": future, "maintenance_reason": long}),
            400,
            "maintenance_reason must be a string of at most 300 characters",
        ),
    ] {
        let answer = app
            .put(&paths::machine_dnotify(1001))
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await;
        assert_eq!(answer.error(status, "invalid_args"), msg, "{body}");
    }
    let out_of_range = "99999999999999999999";
    let msg = app
        .get(&format!("{}/{out_of_range}", paths::MACHINES))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(
        msg,
        format!("Missing or invalid machine_id: '{out_of_range}'")
    );
    let msg = app
        .get(&format!("{}/{}", paths::MACHINES, &long[..20_000]))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 80, "{msg}");
    for uri in [
        format!("{}/{out_of_range}/dnotify", paths::MACHINES),
        format!("{}/{out_of_range}/cancel_maint", paths::MACHINES),
    ] {
        let msg = app
            .put(&uri)
            .key(ALICE_KEY)
            .json(json!({"sdate": future}))
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, "Missing machine_id");
    }
    for raw in ["1e19", out_of_range, "-1e300"] {
        let msg = app
            .delete(paths::MAINTENANCES)
            .key(ALICE_KEY)
            .raw("application/json", format!("{{\"maintenance_id\": {raw}}}"))
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(msg, "Missing maintenance_id");
    }
    // Large whole numbers written with a fraction part are read exactly (float_roundtrip).
    for raw in ["9223372036854775807", "1882283265751437.0"] {
        app.delete(paths::MAINTENANCES)
            .key(ALICE_KEY)
            .raw("application/json", format!("{{\"maintenance_id\": {raw}}}"))
            .send()
            .await
            .error(404, "not_found");
    }
    let defrag = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", "{\"machine_ids\": 1882283265751437.0}")
        .send()
        .await
        .ok();
    assert_eq!(defrag["success"], false);
    let msg = app
        .delete(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(json!({ "maintenance_ids": format!("x{long}") }))
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(msg, "No valid maintenance_ids provided");
    assert_eq!(windows(), before, "refusals wrote nothing");
    // 100 machines in one batch is allowed, and so are 100 windows.
    let hundred: Vec<i64> = (1001..=1100).collect();
    let body = app
        .post(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(json!({"machine_ids": hundred, "sdate": future}))
        .send()
        .await
        .ok();
    assert_eq!(body["results"].as_array().unwrap().len(), 100);
    let created: Vec<i64> = (0..100)
        .map(|k| {
            app.scalar(&format!(
                "SELECT id FROM maintenances WHERE start_time = {future} AND machine_id = {}",
                1001 + k
            ))
        })
        .collect();
    let body = app
        .delete(paths::MAINTENANCES_BATCH)
        .key(ALICE_KEY)
        .json(json!({ "maintenance_ids": created }))
        .send()
        .await
        .ok();
    assert!(body["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["success"] == true));
}

/// The demo with `limits` on, its clock fixed at [`NOW`]: tokens come back only when the
/// test moves the clock.
fn rate_limited_app(limits: Config) -> TestApp {
    common::init_logging();
    let state = AppState::new(Config {
        demo: true,
        clock: Clock::fixed(NOW),
        ..limits
    })
    .unwrap();
    TestApp::with_router(state.clone(), app(state))
}

/// A server limited to two requests a second per key, answering in `shape`, and its answer
/// to a third call at once.
async fn third_call_at_two_a_second(shape: RefusalShape) -> (TestApp, common::Answer) {
    let app = rate_limited_app(Config {
        rate_limit: Some(2),
        rate_limit_shape: shape,
        ..Config::default()
    });
    for _ in 0..2 {
        app.get(paths::CURRENT_USER)
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
    }
    let refused = app.get(paths::CURRENT_USER).key(ALICE_KEY).send().await;
    (app, refused)
}

#[tokio::test]
async fn the_rate_limit_answers_429_json_with_retry_after() {
    let (app, refused) = third_call_at_two_a_second(RefusalShape::Json).await;
    let msg = refused.error(429, "rate_limited");
    assert_eq!(
        msg,
        "this key may make 2 requests per second; retry after 1 s"
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    // A browser can read the refusal: CORS headers are on it.
    let refused = app
        .get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .header("origin", "http://127.0.0.1:8080")
        .send()
        .await;
    assert_eq!(refused.status, 429);
    assert_eq!(
        refused.header("access-control-allow-origin"),
        Some("http://127.0.0.1:8080")
    );
    // Per key: bob is not affected, and the key in the query string counts the same.
    app.get(paths::CURRENT_USER).key(BOB_KEY).send().await.ok();
    app.get(&format!("{}?api_key={ALICE_KEY}", paths::CURRENT_USER))
        .send()
        .await
        .error(429, "rate_limited");
    // Writes too, and unknown keys (guessing is limited as well).
    app.put(paths::VOLUMES)
        .key(ALICE_KEY)
        .json(json!({"id": 8, "size": 1}))
        .send()
        .await
        .error(429, "rate_limited");
    for _ in 0..2 {
        app.get(paths::CURRENT_USER)
            .key("guess-1")
            .send()
            .await
            .error(401, "auth_error");
    }
    app.get(paths::CURRENT_USER)
        .key("guess-1")
        .send()
        .await
        .error(429, "rate_limited");
    // Requests without a key and the public document are not limited.
    for _ in 0..10 {
        app.get(paths::OPENAPI).send().await.ok();
        app.get(paths::CURRENT_USER)
            .send()
            .await
            .error(401, "auth_error");
    }
    // Half a second later one token is back, and only one.
    app.state.clock.set(NOW + 0.5);
    app.get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    app.get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .send()
        .await
        .error(429, "rate_limited");
}

#[tokio::test]
async fn public_rate_limits_space_each_operations_calls_as_the_public_service() {
    let app = rate_limited_app(Config {
        public_rate_limits: true,
        ..Config::default()
    });
    let future = NOW + 86_400.0;
    let schedule = |machine: i64| {
        app.post(paths::MAINTENANCES_BATCH)
            .key(ALICE_KEY)
            .header("origin", "http://127.0.0.1:8080")
            .json(json!({"machine_ids": [machine], "sdate": future}))
    };
    let windows = || app.scalar("SELECT COUNT(*) FROM maintenances");
    let before = windows();
    schedule(1001).send().await.ok();
    let refused = schedule(1002).send().await;
    assert_eq!(
        refused.error(429, "rate_limited"),
        "this key may call N4 (POST /api/v0/machines/maintenances/batch) once every 2 s; \
         retry after 2 s"
    );
    assert_eq!(refused.header("retry-after"), Some("2"));
    assert_eq!(
        refused.header("access-control-allow-origin"),
        Some("http://127.0.0.1:8080")
    );
    assert_eq!(windows(), before + 1, "the refused call wrote nothing");
    // Other operations, and other keys, keep their own pace; seed op 1 is not N2, and
    // keeps its own 2 s (spec neighbours §1.5).
    app.put(&paths::machine_dnotify(1003))
        .key(ALICE_KEY)
        .json(json!({"sdate": future}))
        .send()
        .await
        .ok();
    let bobs = app
        .post(paths::MAINTENANCES_BATCH)
        .key(BOB_KEY)
        .json(json!({"machine_ids": [1001], "sdate": future}))
        .send()
        .await;
    assert_ne!(bobs.status.as_u16(), 429, "{}", bobs.text());
    let windows_of_1001 = || {
        app.get(&format!("{}?machine_ids=1001", paths::MAINTENANCES))
            .key(ALICE_KEY)
    };
    windows_of_1001().send().await.ok();
    assert_eq!(
        windows_of_1001().send().await.error(429, "rate_limited"),
        "this key may call seed op 1 (GET /api/v0/machines/maintenances) once every 2 s; \
         retry after 2 s"
    );
    app.get(&paths::machine(1001))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    app.get(&paths::machine(1001))
        .key(ALICE_KEY)
        .send()
        .await
        .error(429, "rate_limited");
    // A trailing slash names the same operation.
    app.post(&format!("{}/", paths::MAINTENANCES_BATCH))
        .key(ALICE_KEY)
        .json(json!({"machine_ids": [1002], "sdate": future}))
        .send()
        .await
        .error(429, "rate_limited");
    // Once the interval has passed the call goes through, once.
    app.state.clock.set(NOW + 2.0);
    schedule(1002).send().await.ok();
    schedule(1004).send().await.error(429, "rate_limited");
    assert_eq!(windows(), before + 3);
}

/// Two refusals of N5 in each `--rate-limit-shape`: what the body, its type and the headers
/// say, and that the refused call changed nothing.
#[tokio::test]
async fn the_public_limits_answer_in_either_shape() {
    for shape in [RefusalShape::Json, RefusalShape::Public] {
        let app = rate_limited_app(Config {
            public_rate_limits: true,
            rate_limit_shape: shape,
            ..Config::default()
        });
        let cancel = |machine: i64| {
            app.put(&paths::machine_cancel_maint(machine))
                .key(ALICE_KEY)
                .header("origin", "http://127.0.0.1:8080")
                .json(json!({}))
        };
        cancel(1001).send().await.ok();
        let open = "SELECT COUNT(*) FROM maintenances WHERE cancelled_at IS NULL";
        let windows = app.scalar(open);
        let refused = cancel(1002).send().await;
        assert_eq!(refused.status.as_u16(), 429, "{shape:?}");
        assert_eq!(
            app.scalar(open),
            windows,
            "{shape:?}: the refused call wrote nothing"
        );
        // A browser may read either shape.
        assert_eq!(
            refused.header("access-control-allow-origin"),
            Some("http://127.0.0.1:8080")
        );
        match shape {
            RefusalShape::Json => {
                assert_eq!(refused.header("retry-after"), Some("3"));
                assert!(refused
                    .error(429, "rate_limited")
                    .starts_with("this key may call N5"));
            }
            RefusalShape::Public => {
                assert_eq!(refused.header("retry-after"), None);
                assert_eq!(
                    refused.header("content-type"),
                    Some("text/plain; charset=utf-8")
                );
                assert_eq!(
                    refused.text(),
                    "API requests too frequent: endpoint threshold=2.5"
                );
            }
        }
        // The interval later, the call goes through in either shape.
        app.state.clock.set(NOW + 2.5);
        cancel(1002).send().await.ok();
    }
}

/// The token bucket of `--rate-limit` answers in the public shape too.
#[tokio::test]
async fn the_rate_limit_answers_in_the_public_shape_when_asked() {
    let (_app, refused) = third_call_at_two_a_second(RefusalShape::Public).await;
    assert_eq!(refused.status.as_u16(), 429);
    assert_eq!(refused.header("retry-after"), None);
    assert_eq!(
        refused.text(),
        "API requests too frequent: endpoint threshold=0.5"
    );
}

#[tokio::test]
async fn there_is_no_rate_limit_by_default() {
    let app = TestApp::demo();
    assert!(app.state.rate_limiter.is_none());
    assert!(app.state.operation_limiter.is_none());
    for _ in 0..100 {
        app.get(paths::CURRENT_USER)
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
    }
}

/// N8–N12 and N20: the body limit (N12 too, though its body is optional), ids and numbers
/// out of range, long names and values quoted short; none of it writes anything.
#[tokio::test]
async fn the_account_routes_hold_to_every_limit() {
    let app = TestApp::demo();
    let fingerprint = |app: &TestApp| {
        (
            app.scalar("SELECT COUNT(*) FROM users"),
            app.scalar("SELECT COUNT(*) FROM volumes WHERE deleted_at IS NULL"),
        )
    };
    let before = fingerprint(&app);
    let padding = "x".repeat(70_000);
    for (method, path) in [
        (Method::POST, paths::VOLUMES_SEARCH),
        (Method::DELETE, paths::VOLUMES),
        (Method::POST, paths::USERS),
    ] {
        app.call(method.clone(), path)
            .key(ALICE_KEY)
            .json(json!({ "id": ALICE_VOLUME_FREE, "padding": padding }))
            .send()
            .await
            .error(413, "too_large");
    }
    // Long field names and operators are quoted short.
    let long = "f".repeat(50_000);
    let msg = app
        .post(paths::VOLUMES_SEARCH)
        .key(ALICE_KEY)
        .json(json!({ long.clone(): {"eq": 1} }))
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 100, "{msg}");
    let filters: String = form_urlencoded::byte_serialize(
        json!({ "name": { "o".repeat(10_000): "x" } })
            .to_string()
            .as_bytes(),
    )
    .collect();
    let msg = app
        .get(&format!(
            "{}?select_filters={filters}",
            paths::TEMPLATE_ALIAS
        ))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 100, "{msg}");
    // Numbers beyond i64 and f64, as ids, limits and filter values.
    for id in ["9223372036854775808", "1e400", "-1", "0x10"] {
        app.delete(&format!("{}?id={id}", paths::VOLUMES))
            .key(ALICE_KEY)
            .send()
            .await
            .error(400, "invalid_args");
    }
    app.delete(&format!("{}?id=9223372036854775807", paths::VOLUMES))
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "no_such_volume");
    for body in [
        json!({"limit": 1e300}),
        json!({"limit": 9_223_372_036_854_775_807_i64}),
        json!({"allocated_storage": -1e308}),
        json!({"disk_space": {"gt": "1e400"}}),
        json!({"id": {"in": vec![1; 10_000].into_iter().map(|_| "x").collect::<Vec<_>>()}}),
    ] {
        app.post(paths::VOLUMES_SEARCH)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(400, "invalid_args");
    }
    // A huge `in` list of valid values is answered, not refused or failed.
    let many: Vec<i64> = (0..5_000).collect();
    app.post(paths::VOLUMES_SEARCH)
        .key(ALICE_KEY)
        .json(json!({"id": {"in": many}}))
        .send()
        .await
        .ok();
    // Strings at and past their limits.
    for (body, status) in [
        (
            json!({"email": format!("{}@b.cd", "a".repeat(59)), "username": "u".repeat(64), "password": "p".repeat(256), "parent_id": "me"}),
            200,
        ),
        (
            json!({"email": "a@b.cd", "username": "ü".repeat(65), "password": "12345678", "parent_id": "me"}),
            400,
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": "p".repeat(60_000), "parent_id": "me"}),
            400,
        ),
    ] {
        let answer = app
            .post(paths::USERS)
            .key(ALICE_KEY)
            .json(body)
            .send()
            .await;
        assert_eq!(answer.status.as_u16(), status, "{}", answer.text());
        assert!(answer.text().len() < 2_000);
    }
    assert_eq!(fingerprint(&app), (before.0 + 1, before.1));
}

/// N13–N19: the body limit on every team route that reads a body (N16–N18 too, though
/// theirs is optional), ids beyond 64 bits, long names quoted short; none of it writes.
#[tokio::test]
async fn the_team_routes_hold_to_every_limit() {
    let app = TestApp::demo();
    let fingerprint = |app: &TestApp| {
        (
            app.scalar("SELECT COUNT(*) FROM team_roles"),
            app.scalar("SELECT COUNT(*) FROM team_invitations"),
            app.scalar("SELECT COUNT(*) FROM team_members WHERE removed_at IS NULL"),
            app.scalar("SELECT COUNT(*) FROM team_member_roles"),
        )
    };
    let before = fingerprint(&app);
    let padding = "x".repeat(70_000);
    for (method, path) in [
        (Method::POST, paths::TEAM_ROLES.to_owned()),
        (Method::PUT, paths::team_role_by_id(UNICODE_ROLE_ID)),
        (Method::DELETE, paths::team_role_removal(MARKUP_ROLE)),
        (
            Method::POST,
            format!("{}?email=a%40b.org&role=member", paths::TEAM_INVITE),
        ),
        (Method::DELETE, paths::team_member(CAROL_ID)),
        (Method::POST, paths::team_member_roles(CAROL_ID)),
        (Method::PUT, paths::team_member_roles(CAROL_ID)),
        (Method::DELETE, paths::team_member_roles(FRANK_ID)),
    ] {
        app.call(method.clone(), &path)
            .key(ALICE_KEY)
            .json(json!({"name": "ok", "permissions": {}, "role": "member", "role_id": 4, "padding": padding}))
            .send()
            .await
            .error(413, "too_large");
    }
    // Ids beyond 64 bits in the path are refused as such, the largest is merely unknown.
    for (path, msg) in [
        (
            format!("{}/9223372036854775808/", paths::TEAM_ROLES),
            "Role id must be an integer",
        ),
        (
            "/api/v0/team/members/9223372036854775808/roles/".to_owned(),
            "Missing team member's user id",
        ),
    ] {
        let answer = app
            .put(&path)
            .key(ALICE_KEY)
            .json(json!({"name": "xx"}))
            .send()
            .await;
        assert_eq!(answer.error(400, "invalid_args"), msg);
    }
    app.put(&paths::team_role_by_id(i64::MAX))
        .key(ALICE_KEY)
        .json(json!({"name": "xx"}))
        .send()
        .await
        .error(404, "not_found");
    // Long names and permission groups are quoted short.
    let long = "g".repeat(40_000);
    let msg = app
        .post(paths::TEAM_ROLES)
        .key(ALICE_KEY)
        .json(json!({"name": "ok", "permissions": {"api": {long.clone(): {}}}}))
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 100, "{msg}");
    let answer = app
        .post(&format!(
            "{}?email=a%40b.org&role={}",
            paths::TEAM_INVITE,
            &long[..20_000]
        ))
        .key(ALICE_KEY)
        .send()
        .await;
    assert_eq!(
        answer.error(404, "not_found"),
        "Invalid role choice for invitee"
    );
    let msg = app
        .post(&paths::team_member_roles(CAROL_ID))
        .key(ALICE_KEY)
        .json(json!({"role": long}))
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "Role not found");
    assert_eq!(fingerprint(&app), before);
}

/// N22 (one call per 5 s per key) and N23 (one per 1.8 s) under `--public-rate-limits`; a
/// refused call changes nothing.
#[tokio::test]
async fn public_rate_limits_pace_listing_and_unlisting() {
    let app = rate_limited_app(Config {
        public_rate_limits: true,
        ..Config::default()
    });
    let offer = || {
        app.text("SELECT ifnull(end_date, '-') || ifnull(withdrawn_at, '-') FROM offers WHERE machine_id = 1003")
    };
    let list = |days: f64| {
        app.put(&paths::machine_create_asks())
            .key(ALICE_KEY)
            .json(json!({"machine": TIDY_MACHINE, "end_date": NOW + days * 86_400.0}))
    };
    list(40.0).send().await.ok();
    let listed = offer();
    let refused = list(41.0).send().await;
    assert_eq!(
        refused.error(429, "rate_limited"),
        "this key may call N22 (PUT /api/v0/machines/create_asks/) once every 5 s; \
         retry after 5 s"
    );
    assert_eq!(offer(), listed, "the refused call wrote nothing");
    let unlist = || {
        app.delete(&paths::machine_asks(TIDY_MACHINE))
            .key(ALICE_KEY)
            .json(json!({}))
    };
    unlist().send().await.ok();
    let withdrawn = offer();
    assert_ne!(withdrawn, listed);
    let msg = unlist().send().await.error(429, "rate_limited");
    assert!(
        msg.starts_with(
            "this key may call N23 (DELETE /api/v0/machines/{id}/asks/) once every 1.8 s"
        ),
        "{msg}"
    );
    // bob keeps his own pace.
    let bobs = app
        .put(&paths::machine_create_asks())
        .key(BOB_KEY)
        .json(json!({"machine": 2001, "end_date": NOW + 86_400.0}))
        .send()
        .await;
    assert_eq!(bobs.status.as_u16(), 200, "{}", bobs.text());
    // Just past the interval (exactly 1.8 s may fall a rounding short of a whole token).
    app.state.clock.set(NOW + 1.85);
    unlist().send().await.ok();
    list(42.0).send().await.error(429, "rate_limited");
    app.state.clock.set(NOW + 5.0);
    list(42.0).send().await.ok();
}

/// Spec fleet-health §5: N28–N33 once every 2 s each; N25–N27, which have no published
/// threshold, unlimited.
#[tokio::test]
async fn public_rate_limits_pace_webhooks_and_leave_preferences_alone() {
    let app = rate_limited_app(Config {
        public_rate_limits: true,
        ..Config::default()
    });
    let create = |n: i64| {
        app.post(paths::WEBHOOKS).key(ALICE_KEY).json(json!({
            "webhook_url": format!("https://hooks.example.com/paced/{n}"),
            "event_types": ["host:machine_offline"]
        }))
    };
    let webhooks = || app.scalar("SELECT COUNT(*) FROM webhooks");
    let before = webhooks();
    create(1).send().await.ok();
    let refused = create(2).send().await;
    assert_eq!(
        refused.error(429, "rate_limited"),
        "this key may call N29 (POST /api/v0/webhooks/) once every 2 s; retry after 2 s"
    );
    assert_eq!(webhooks(), before + 1, "the refused call wrote nothing");
    // N28 keeps its own pace.
    app.get(paths::WEBHOOKS).key(ALICE_KEY).send().await.ok();
    for _ in 0..3 {
        app.get(paths::NOTIFICATION_TYPES)
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
        app.get(&paths::notification_prefs("me"))
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
        app.put(&paths::notification_prefs("me"))
            .key(ALICE_KEY)
            .json(json!({"notification_preferences": {"client": {"outbid": {"email": true}}}}))
            .send()
            .await
            .ok();
    }
}

/// N24, N34 and N35 (fleet-health.md): a long query or path still gets a short 400 that
/// quotes nothing long, a body on the GET is ignored whatever its size under the limit, N35's
/// body is held to the limit, and with `--public-rate-limits` each is paced at its public
/// interval (1.2 s, 2 s and 1.5 s).
#[tokio::test]
async fn the_report_and_earnings_reads_hold_to_every_limit() {
    let app = TestApp::demo();
    let long = "9".repeat(20_000);
    let msg = app
        .get(&format!("{}?sday={long}&eday=1", paths::machine_earnings()))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(
        msg,
        "Invalid input syntax: sday must be a number of days since 1970-01-01"
    );
    let msg = app
        .get(&format!("/api/v0/machines/{long}/reports/"))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert!(msg.len() < 100, "{msg}");
    app.get(&paths::machine_reports(1058))
        .key(ALICE_KEY)
        .json(json!({"padding": "x".repeat(60_000)}))
        .send()
        .await
        .ok();
    let floor = || app.scalar_f64("SELECT price_min_bid FROM offers WHERE machine_id = 1001");
    let before = floor();
    app.put(&paths::machine_min_bid(1001))
        .key(ALICE_KEY)
        .json(json!({"price": 0.2, "padding": "x".repeat(70_000)}))
        .send()
        .await
        .error(413, "too_large");
    let msg = app
        .put(&paths::machine_min_bid(1001))
        .key(ALICE_KEY)
        .json(json!({"price": long}))
        .send()
        .await
        .error(422, "invalid_args");
    assert_eq!(msg, "min_bid must be a number.");
    assert_eq!(floor(), before);

    let app = rate_limited_app(Config {
        public_rate_limits: true,
        ..Config::default()
    });
    let reports = || app.get(&paths::machine_reports(1058)).key(ALICE_KEY);
    let earnings = || app.get(&paths::machine_earnings()).key(ALICE_KEY);
    reports().send().await.ok();
    let msg = reports().send().await.error(429, "rate_limited");
    assert!(
        msg.starts_with(
            "this key may call N24 (GET /api/v0/machines/{id}/reports/) once every 1.2 s"
        ),
        "{msg}"
    );
    earnings().send().await.ok();
    let msg = earnings().send().await.error(429, "rate_limited");
    assert!(
        msg.starts_with(
            "this key may call N34 (GET /api/v0/users/{user_id}/machine-earnings) once every 2 s"
        ),
        "{msg}"
    );
    app.state.clock.set(NOW + 1.25);
    reports().send().await.ok();
    earnings().send().await.error(429, "rate_limited");
    app.state.clock.set(NOW + 2.0);
    earnings().send().await.ok();
    let min_bid = || {
        app.put(&paths::machine_min_bid(1001))
            .key(ALICE_KEY)
            .json(json!({"price": 0.2}))
    };
    min_bid().send().await.ok();
    let msg = min_bid().send().await.error(429, "rate_limited");
    assert!(
        msg.starts_with(
            "this key may call N35 (PUT /api/v0/machines/{id}/minbid/) once every 1.5 s"
        ),
        "{msg}"
    );
    app.state.clock.set(NOW + 3.55);
    min_bid().send().await.ok();
}

/// The demo triggers have no rate limit (spec fleet-health D1–D3): with both limits on, a
/// key that has used up its requests still raises events, and D1 called again at once is
/// answered, while the same key's API calls are refused.
#[tokio::test]
async fn the_demo_triggers_are_never_rate_limited() {
    let (app, refused) = third_call_at_two_a_second(RefusalShape::Json).await;
    refused.error(429, "rate_limited");
    for _ in 0..3 {
        app.put(&paths::demo_machine_health(1001))
            .key(ALICE_KEY)
            .json(json!({"gpu_max_cur_temp": 60}))
            .send()
            .await
            .ok();
        app.post(&paths::demo_machine_events(1001))
            .key(ALICE_KEY)
            .json(json!({"event_type": "host:near_end_date"}))
            .send()
            .await
            .ok();
    }
    app.get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .send()
        .await
        .error(429, "rate_limited");
    let app = rate_limited_app(Config {
        public_rate_limits: true,
        ..Config::default()
    });
    for _ in 0..3 {
        app.put(&paths::demo_machine_health(1001))
            .key(ALICE_KEY)
            .json(json!({}))
            .send()
            .await
            .ok();
    }
}
