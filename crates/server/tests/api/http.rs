//! Cross-cutting behaviour through the router: paths, errors, limits, CORS, panics,
//! timeouts, the OpenAPI document and the static console.

use crate::common;

use axum::http::Method;
use axum::routing::get;
use axum::Router;
use common::{TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_server::{app, app_with, AppState, Clock, Config};
use gpudeck_wire::{operations, paths};
use serde_json::{json, Value};
use std::time::Duration;

#[tokio::test]
async fn every_route_answers_with_and_without_a_trailing_slash() {
    let app = TestApp::demo();
    let routes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, paths::CURRENT_USER.into(), None),
        (Method::GET, paths::MAINTENANCES.into(), None),
        (
            Method::PUT,
            paths::DEFRAG_OFFERS.into(),
            Some(json!({"machine_ids": [1003]})),
        ),
        (
            Method::DELETE,
            paths::user_templates(ALICE_ID),
            Some(json!({"template_id": 424242})),
        ),
        (
            Method::DELETE,
            paths::TEMPLATE_ALIAS.into(),
            Some(json!({"template_id": 424242})),
        ),
        (
            Method::PUT,
            paths::VOLUMES.into(),
            Some(json!({"id": ASK_500_FREE, "size": 1})),
        ),
        (Method::GET, paths::SUBACCOUNTS.into(), None),
        (Method::GET, paths::team_role("owner"), None),
        (Method::GET, paths::TEAM_MEMBERS.into(), None),
        (Method::GET, paths::OPENAPI.into(), None),
    ];
    for (method, path, body) in routes {
        let query = if path == paths::MAINTENANCES {
            "?machine_ids=1001"
        } else {
            ""
        };
        let mut answers = Vec::new();
        for variant in [path.clone(), format!("{path}/")] {
            let mut call = app
                .call(method.clone(), &format!("{variant}{query}"))
                .key(ALICE_KEY);
            if let Some(body) = &body {
                call = call.json(body.clone());
            }
            let answer = call.send().await;
            assert!(
                !answer.status.is_redirection() && answer.status != 404 || body.is_some(),
                "{method} {variant}: {}",
                answer.status
            );
            assert!(answer.header("location").is_none());
            answers.push(answer.status);
        }
        assert_eq!(answers[0], answers[1], "{method} {path}");
        if body.is_none() {
            assert_eq!(answers[0], 200, "{method} {path}");
        }
    }
}

/// Whether `answer` came from a route rather than the router's fallbacks.
fn routed(answer: &common::Answer) -> bool {
    let unrouted = match answer.status.as_u16() {
        404 => answer.json()["msg"]
            .as_str()
            .is_some_and(|msg| msg.starts_with("no such route")),
        405 => true,
        _ => false,
    };
    !unrouted
}

/// Spec neighbours §1.2 rule 1: every operation of the table (and every demo trigger)
/// answers the official client's path (with its trailing slash wherever the client puts
/// one) and the same path without it alike, and never by a redirect. Ids that name nothing, so no write happens.
#[tokio::test]
async fn every_operation_answers_the_clients_path_and_the_other_form_alike() {
    let app = TestApp::demo();
    for operation in operations::ALL.into_iter().chain(operations::DEMO) {
        let values: Vec<String> = operation
            .path
            .split('/')
            .filter(|segment| segment.starts_with('{'))
            .map(|segment| match segment {
                "{name}" => "no-such-role".to_owned(),
                "{user_id}" => ALICE_ID.to_string(),
                _ => "424242".to_owned(),
            })
            .collect();
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let clients = operation.path_with(&values);
        let other = match clients.strip_suffix('/') {
            Some(without) => without.to_owned(),
            None => format!("{clients}/"),
        };
        let mut statuses = Vec::new();
        for path in [&clients, &other] {
            let method = Method::from_bytes(operation.method.as_bytes()).unwrap();
            let mut call = app.call(method, path).key(ALICE_KEY);
            if operation.method != "GET" {
                call = call.json(json!({}));
            }
            let answer = call.send().await;
            assert!(
                routed(&answer) && !answer.status.is_redirection(),
                "{} {} {path}: {} {}",
                operation.name,
                operation.method,
                answer.status,
                answer.text()
            );
            assert!(answer.header("location").is_none(), "{path}");
            statuses.push(answer.status);
        }
        assert_eq!(statuses[0], statuses[1], "{} {clients}", operation.name);
    }
}

#[tokio::test]
async fn unknown_api_routes_are_json_404s() {
    let app = TestApp::demo();
    let msg = app
        .get("/api/v0/x")
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "no such route: GET /api/v0/x");
    let msg = app
        .delete("/api/v0/x/y/")
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "no such route: DELETE /api/v0/x/y");
    app.get("/api").send().await.error(404, "not_found");
    // The demo triggers' prefix is answered as the API's, never by the console.
    let msg = app.get("/_demo/x").send().await.error(404, "not_found");
    assert_eq!(msg, "no such route: GET /_demo/x");
    // Without a static console, other paths are JSON 404s too.
    app.get("/index.html").send().await.error(404, "not_found");
}

#[tokio::test]
async fn wrong_methods_are_json_405s() {
    let app = TestApp::demo();
    let msg = app
        .call(Method::POST, paths::MAINTENANCES)
        .key(ALICE_KEY)
        .send()
        .await
        .error(405, "method_not_allowed");
    assert_eq!(msg, "POST is not allowed on /api/v0/machines/maintenances");
    app.get(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .send()
        .await
        .error(405, "method_not_allowed");
    app.call(Method::PATCH, &format!("{}/", paths::VOLUMES))
        .send()
        .await
        .error(405, "method_not_allowed");
    app.get(paths::VOLUMES_SEARCH)
        .send()
        .await
        .error(405, "method_not_allowed");
}

#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let app = TestApp::demo();
    let big = format!("{{\"machine_ids\": \"{}\"}}", "1,".repeat(40_000));
    let msg = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", big)
        .send()
        .await
        .error(413, "too_large");
    assert!(msg.contains("65536"), "{msg}");
    // Just under the limit is read (and then refused for its content).
    let under = format!("{{\"machine_ids\": \"{}\"}}", "x".repeat(60_000));
    app.put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .raw("application/json", under)
        .send()
        .await
        .error(400, "invalid_args");
}

#[tokio::test]
async fn json_content_type_variants_are_accepted() {
    let app = TestApp::demo();
    for content_type in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
    ] {
        app.put(paths::DEFRAG_OFFERS)
            .key(ALICE_KEY)
            .raw(content_type, r#"{"machine_ids": 1003}"#)
            .send()
            .await
            .ok();
    }
    // No Content-Type at all is read as JSON too (curl -d sends a form type; some send none).
    let answer = app
        .put(paths::DEFRAG_OFFERS)
        .key(ALICE_KEY)
        .header("x-none", "1")
        .send()
        .await;
    assert_eq!(
        answer.error(400, "invalid_json"),
        "a JSON object body is required"
    );
    let msg = app
        .put(paths::VOLUMES)
        .key(ALICE_KEY)
        .raw("application/x-www-form-urlencoded", "id=8&size=1")
        .send()
        .await
        .error(400, "invalid_json");
    assert!(msg.contains("application/json"), "{msg}");
}

#[tokio::test]
async fn a_panicking_handler_is_a_json_500_and_the_server_goes_on() {
    common::init_logging();
    let state = AppState::demo_at(NOW).unwrap();
    let extra = Router::new().route(
        "/api/v0/boom",
        get(|| async {
            panic!("secret detail: /var/lib/db.sqlite");
            #[allow(unreachable_code)]
            ""
        }),
    );
    let app = TestApp::with_router(state.clone(), app_with(state, extra));
    let answer = app.get("/api/v0/boom").send().await;
    let msg = answer.error(500, "internal_error");
    assert!(
        !msg.contains("secret") && !answer.text().contains("sqlite"),
        "{msg}"
    );
    let me = app
        .get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(me["id"], ALICE_ID);
}

#[tokio::test]
async fn slow_requests_time_out_with_json() {
    let state = AppState::new(Config {
        demo: true,
        clock: Clock::fixed(NOW),
        request_timeout: Duration::from_millis(50),
        ..Config::default()
    })
    .unwrap();
    let extra = Router::new().route(
        "/api/v0/slow",
        get(|| async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        }),
    );
    let app = TestApp::with_router(state.clone(), app_with(state, extra));
    app.get("/api/v0/slow").send().await.error(503, "timeout");
}

#[tokio::test]
async fn cors_allows_the_configured_origins_only() {
    let app = TestApp::demo();
    let preflight = |origin: &str| {
        app.call(Method::OPTIONS, &format!("{}/", paths::DEFRAG_OFFERS))
            .header("origin", origin)
            .header("access-control-request-method", "PUT")
            .header(
                "access-control-request-headers",
                "authorization,content-type",
            )
            .send()
    };
    let answer = preflight("http://localhost:8080").await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("http://localhost:8080")
    );
    let methods = answer
        .header("access-control-allow-methods")
        .unwrap()
        .to_ascii_uppercase();
    for method in ["GET", "POST", "PUT", "DELETE"] {
        assert!(methods.contains(method), "{methods}");
    }
    let headers = answer
        .header("access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    assert!(headers.contains("authorization") && headers.contains("content-type"));
    assert!(preflight("http://127.0.0.1:8080")
        .await
        .header("access-control-allow-origin")
        .is_some());
    assert!(preflight("https://evil.example")
        .await
        .header("access-control-allow-origin")
        .is_none());

    let simple = app
        .get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .header("origin", "http://localhost:8080")
        .send()
        .await;
    assert_eq!(
        simple.header("access-control-allow-origin"),
        Some("http://localhost:8080")
    );
}

#[tokio::test]
async fn json_answers_are_compressed_when_asked() {
    let app = TestApp::demo();
    let uri = format!("{}?machine_ids=1001-1100", paths::MAINTENANCES);
    for encoding in ["gzip", "br"] {
        let answer = app
            .get(&uri)
            .key(ALICE_KEY)
            .header("accept-encoding", encoding)
            .send()
            .await;
        assert_eq!(answer.status, 200);
        assert_eq!(answer.header("content-encoding"), Some(encoding));
    }
}

#[tokio::test]
async fn the_openapi_document_lists_every_operation() {
    let app = TestApp::demo();
    let answer = app.get(paths::OPENAPI).send().await;
    let doc = answer.ok();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert_eq!(doc["info"]["version"], "1.0.0");
    let operations = [
        ("get", paths::CURRENT_USER),
        ("get", paths::MAINTENANCES),
        ("put", paths::DEFRAG_OFFERS),
        ("delete", paths::USER_TEMPLATES),
        ("delete", paths::TEMPLATE_ALIAS),
        ("put", paths::VOLUMES),
        ("get", paths::SUBACCOUNTS),
        ("get", "/api/v0/team/roles/{name}"),
        ("get", paths::TEAM_MEMBERS),
        ("get", paths::MACHINES),
        ("get", paths::MACHINE),
        ("put", paths::MACHINE_DNOTIFY),
        ("post", paths::MAINTENANCES_BATCH),
        ("put", paths::MACHINE_CANCEL_MAINT),
        ("delete", paths::MAINTENANCES),
        ("delete", paths::MAINTENANCES_BATCH),
        ("get", paths::TEMPLATE_ALIAS),
        ("get", paths::USER_TEMPLATES),
        ("post", paths::VOLUMES_SEARCH),
        ("get", paths::VOLUMES),
        ("delete", paths::VOLUMES),
        ("post", paths::USERS),
        ("get", paths::TEAM_ROLES_FULL),
        ("post", paths::TEAM_ROLES),
        ("put", paths::TEAM_ROLE),
        ("delete", paths::TEAM_ROLE),
        ("delete", paths::TEAM_ROLES),
        ("post", paths::TEAM_INVITE),
        ("get", paths::TEAM_INVITES),
        ("delete", paths::TEAM_MEMBER),
        ("post", paths::TEAM_MEMBER_ROLES),
        ("put", paths::TEAM_MEMBER_ROLES),
        ("delete", paths::TEAM_MEMBER_ROLES),
        ("put", paths::MACHINE_CREATE_ASKS),
        ("delete", paths::MACHINE_ASKS),
        ("get", paths::MACHINE_REPORTS),
        ("get", paths::MACHINE_EARNINGS),
        ("put", paths::MACHINE_MIN_BID),
        ("get", paths::NOTIFICATION_TYPES),
        ("get", paths::NOTIFICATION_PREFS),
        ("put", paths::NOTIFICATION_PREFS),
        ("get", paths::WEBHOOKS),
        ("post", paths::WEBHOOKS),
        ("put", paths::WEBHOOK),
        ("delete", paths::WEBHOOK),
        ("post", paths::WEBHOOK_ROTATE_SECRET),
        ("post", paths::WEBHOOK_TEST),
        // The demo triggers D1–D3 (demo or test mode only; the document says so).
        ("put", paths::DEMO_MACHINE_HEALTH),
        ("post", paths::DEMO_MACHINE_REPORTS),
        ("post", paths::DEMO_MACHINE_EVENTS),
    ];
    // N6 shares the maintenance list's path, N7 N4's, N8 and N9 the template deletions',
    // N11 and N12 seed op 4's, N15 and N16 seed op 6's, N16 without a name N14's, N19's
    // three methods one path, N27 N26's, N29 N28's, N31 N30's. The project's own server
    // route needs no key.
    assert_eq!(
        doc["paths"].as_object().unwrap().len(),
        operations.len() - 14 + 1
    );
    let server = &doc["paths"][paths::SERVER]["get"];
    assert!(server["security"].is_null(), "{server}");
    assert!(server["responses"]["200"].is_object(), "{server}");
    for (method, path) in operations {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path}");
        assert_eq!(operation["security"], json!([{"bearer": []}]), "{path}");
        assert!(operation["responses"]["200"].is_object(), "{path}");
        assert!(operation["responses"]["401"].is_object(), "{path}");
    }
    let defrag = &doc["paths"][paths::DEFRAG_OFFERS]["put"];
    let description = defrag["description"].as_str().unwrap();
    for count in ["n0", "n1", "n2"] {
        assert!(description.contains(count), "{description}");
    }
    assert!(defrag["requestBody"].is_object());
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        json!({"type": "http", "scheme": "bearer", "description": "The API key"})
    );
    for schema in [
        "MaintenanceWindow",
        "DefragResult",
        "ErrorBody",
        "TeamRole",
        "SubaccountList",
        "TeamRoleEntry",
        "RoleRequest",
        "Invitation",
        "MemberRoleReplaced",
    ] {
        assert!(doc["components"]["schemas"][schema].is_object(), "{schema}");
    }
    assert_eq!(
        doc["paths"][paths::VOLUMES]["put"]["responses"]["409"]["content"]["application/json"]
            ["schema"]["$ref"],
        "#/components/schemas/ErrorBody"
    );
}

fn console_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<!doctype html><title>gpudeck</title><script src=\"/gpudeck-1a2b3c4d5e6f7a8b.js\"></script>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("gpudeck-1a2b3c4d5e6f7a8b_bg.wasm"),
        vec![0u8; 4096],
    )
    .unwrap();
    std::fs::write(
        dir.path().join("gpudeck-1a2b3c4d5e6f7a8b.js"),
        "export function init() {}\n".repeat(100),
    )
    .unwrap();
    std::fs::write(dir.path().join("robots.txt"), "User-agent: *\n").unwrap();
    dir
}

#[tokio::test]
async fn the_console_is_served_with_an_spa_fallback_and_cache_headers() {
    let dir = console_dir();
    let state = AppState::new(Config {
        demo: true,
        clock: Clock::fixed(NOW),
        static_dir: Some(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    let app = TestApp::with_router(state.clone(), app(state));

    for path in [
        "/",
        "/index.html",
        "/maintenance",
        "/team/roles/owner/",
        "/deep/link?machine_ids=1,2",
    ] {
        let answer = app.get(path).send().await;
        assert_eq!(answer.status, 200, "{path}");
        assert!(answer.text().contains("<title>gpudeck</title>"), "{path}");
        assert_eq!(answer.header("cache-control"), Some("no-cache"), "{path}");
        assert!(answer
            .header("content-type")
            .unwrap()
            .starts_with("text/html"));
    }
    let wasm = app.get("/gpudeck-1a2b3c4d5e6f7a8b_bg.wasm").send().await;
    assert_eq!(wasm.status, 200);
    assert_eq!(wasm.header("content-type"), Some("application/wasm"));
    assert_eq!(
        wasm.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(wasm.bytes.len(), 4096);

    let js = app
        .get("/gpudeck-1a2b3c4d5e6f7a8b.js")
        .header("accept-encoding", "gzip")
        .send()
        .await;
    assert_eq!(js.header("content-encoding"), Some("gzip"));
    assert_eq!(
        js.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert!(js.header("content-type").unwrap().contains("javascript"));

    let robots = app.get("/robots.txt").send().await;
    assert_eq!(robots.text(), "User-agent: *\n");
    assert_eq!(robots.header("cache-control"), None);

    // The API, and the demo triggers' prefix, are never shadowed by the console.
    app.get("/api/v0/nope").send().await.error(404, "not_found");
    app.get("/_demo/nope").send().await.error(404, "not_found");
    assert_eq!(
        app.get(paths::CURRENT_USER)
            .key(ALICE_KEY)
            .send()
            .await
            .ok()["id"],
        ALICE_ID
    );
    app.call(Method::POST, "/maintenance")
        .send()
        .await
        .error(405, "method_not_allowed");
}

#[tokio::test]
async fn precompressed_copies_are_sent_to_browsers_that_accept_them() {
    let dir = console_dir();
    // The server sends the copies as they are; distinct bytes show which one came.
    let wasm = "gpudeck-1a2b3c4d5e6f7a8b_bg.wasm";
    std::fs::write(dir.path().join(format!("{wasm}.br")), b"brotli copy").unwrap();
    std::fs::write(dir.path().join(format!("{wasm}.gz")), b"gzip copy").unwrap();
    std::fs::write(dir.path().join("index.html.br"), b"brotli page").unwrap();
    let state = AppState::new(Config {
        static_dir: Some(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap();
    let app = TestApp::with_router(state.clone(), app(state));
    let path = format!("/{wasm}");

    let brotli = app
        .get(&path)
        .header("accept-encoding", "gzip, deflate, br, zstd")
        .send()
        .await;
    assert_eq!(brotli.status, 200);
    assert_eq!(brotli.header("content-encoding"), Some("br"));
    assert_eq!(brotli.bytes, b"brotli copy".as_slice());
    assert_eq!(brotli.header("content-type"), Some("application/wasm"));
    assert_eq!(
        brotli.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(brotli.header("vary"), Some("accept-encoding"));

    let gzip = app
        .get(&path)
        .header("accept-encoding", "gzip")
        .send()
        .await;
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    assert_eq!(gzip.bytes, b"gzip copy".as_slice());

    let plain = app.get(&path).send().await;
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.bytes, vec![0u8; 4096]);
    assert_eq!(plain.header("vary"), Some("accept-encoding"));

    // A deep link falls back to the page, and to its compressed copy.
    let page = app
        .get("/machines/maintenance")
        .header("accept-encoding", "br")
        .send()
        .await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-encoding"), Some("br"));
    assert_eq!(page.bytes, b"brotli page".as_slice());
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    assert!(page.header("content-security-policy").is_some());
}

#[test]
fn a_static_dir_without_index_html_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let error = AppState::new(Config {
        static_dir: Some(dir.path().to_owned()),
        ..Config::default()
    })
    .unwrap_err();
    assert!(error.to_string().contains("index.html"), "{error}");
}

#[tokio::test]
async fn demo_seeding_is_deterministic_and_happens_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: gpudeck_server::DbLocation::File(dir.path().join("demo.sqlite")),
        demo: true,
        clock: Clock::fixed(NOW),
        ..Config::default()
    };
    let first = TestApp::with_router(AppState::new(config.clone()).unwrap(), Router::new());
    let count = |app: &TestApp| {
        (
            app.scalar("SELECT COUNT(*) FROM users"),
            app.scalar("SELECT COUNT(*) FROM maintenances"),
            app.scalar("SELECT COUNT(*) FROM machines"),
        )
    };
    let counts = count(&first);
    assert_eq!(counts.2, 125);
    let again = TestApp::with_router(AppState::new(config).unwrap(), Router::new());
    assert_eq!(count(&again), counts);
    // A fresh in-memory demo has the very same windows.
    let memory = TestApp::demo();
    assert_eq!(count(&memory), counts);
    assert_eq!(
        memory.scalar("SELECT CAST(SUM(start_time) AS INTEGER) FROM maintenances"),
        first.scalar("SELECT CAST(SUM(start_time) AS INTEGER) FROM maintenances")
    );
}

#[tokio::test]
async fn users_current_says_whether_a_personal_or_a_team_key_acts() {
    let app = TestApp::demo();
    let alice = app
        .get(paths::CURRENT_USER)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(alice["id"], ALICE_ID);
    assert_eq!(alice["key_scope"], json!({"kind": "personal"}));
    let carol = app
        .get(paths::CURRENT_USER)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .ok();
    assert_eq!(carol["username"], "carol");
    let team_id = carol["key_scope"]["team_id"].as_i64().expect("a team id");
    assert_eq!(
        carol["key_scope"],
        json!({"kind": "team", "team_id": team_id, "team_name": "Alice Compute"})
    );
    let dave = app.get(paths::CURRENT_USER).key(DAVE_KEY).send().await.ok();
    assert_eq!(dave["key_scope"], json!({"kind": "personal"}));
}
