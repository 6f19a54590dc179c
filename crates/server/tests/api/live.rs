//! Real servers on real sockets: concurrency, forwarding, shutdown and the command line.

use crate::common;

use axum::extract::Request;
use axum::Router;
use common::NOW;
use gpudeck_server::demo::*;
use gpudeck_server::{start, Clock, Config, DbLocation, RunningServer};
use gpudeck_wire::paths;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn config(db: DbLocation) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db,
        demo: true,
        clock: Clock::fixed(NOW),
        ..Config::default()
    }
}

async fn call(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    key: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = client.request(method, url).bearer_auth(key);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

// Concurrent writes on a file database: concurrency.rs.

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_accepts_on_the_in_memory_database_too() {
    let server = start(config(DbLocation::Memory)).await.unwrap();
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let client = client.clone();
        let url = format!("{}{}", server.url(), paths::VOLUMES);
        tasks.push(tokio::spawn(async move {
            call(
                &client,
                reqwest::Method::PUT,
                url,
                BOB_KEY,
                Some(json!({"id": ASK_30_LEFT, "size": 10})),
            )
            .await
            .0
        }));
    }
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 3);
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 17);
    server.shutdown().await.unwrap();
}

async fn forwarder(upstream: &str) -> RunningServer {
    start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        upstream: Some(upstream.to_owned()),
        ..Config::default()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarding_passes_requests_and_answers_through() {
    let origin = start(config(DbLocation::Memory)).await.unwrap();
    let proxy = forwarder(&origin.url()).await;
    let client = reqwest::Client::new();
    let base = proxy.url();

    let (status, me) = call(
        &client,
        reqwest::Method::GET,
        format!("{base}{}", paths::CURRENT_USER),
        ALICE_KEY,
        None,
    )
    .await;
    assert_eq!((status, me["id"].clone()), (200, json!(ALICE_ID)));

    let url = format!(
        "{base}{}?owner=me&machine_ids=%5B1001%2C+1007%5D",
        paths::MAINTENANCES
    );
    let (status, windows) = call(&client, reqwest::Method::GET, url, ALICE_KEY, None).await;
    assert_eq!(status, 200);
    assert_eq!(windows.as_array().unwrap().len(), 2);

    let url = format!("{base}{}/", paths::VOLUMES);
    let (status, body) = call(
        &client,
        reqwest::Method::PUT,
        url,
        ALICE_KEY,
        Some(json!({"size": 20, "id": 7})),
    )
    .await;
    assert_eq!(
        (status, body),
        (200, json!({"success": true, "volume_name": "V.20118484"}))
    );
    let owner = origin
        .state()
        .db
        .with_conn(|c| {
            Ok(c.query_row(
                "SELECT owner_id FROM volumes WHERE id = 20118484",
                [],
                |r| r.get::<_, i64>(0),
            )?)
        })
        .unwrap();
    assert_eq!(owner, ALICE_ID);

    // Refusals come back exactly as the upstream gave them.
    let (status, body) = call(
        &client,
        reqwest::Method::GET,
        format!("{base}{}", paths::SUBACCOUNTS),
        "bad-key",
        None,
    )
    .await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({"error": "auth_error", "msg": "Invalid user key"})
        )
    );
    let url = format!("{base}{}", paths::user_templates(ALICE_ID));
    let (status, body) = call(
        &client,
        reqwest::Method::DELETE,
        url,
        ALICE_KEY,
        Some(json!({"template_id": TEMPLATE_IN_USE})),
    )
    .await;
    assert_eq!(status, 409);
    assert_eq!(body["error"], "in_use");
    // The api_key query form is forwarded too.
    let response = client
        .get(format!("{base}{}?api_key={BOB_KEY}", paths::CURRENT_USER))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.json_value().await["id"], BOB_ID);

    proxy.shutdown().await.unwrap();
    origin.shutdown().await.unwrap();
}

/// The demo triggers change this server's database, never an upstream's: a forwarding
/// server does not serve them, even in test mode, and does not forward them (they are
/// outside `/api/v0/`), while the upstream itself (a demo) has them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarding_serves_and_forwards_no_demo_trigger() {
    let origin = start(config(DbLocation::Memory)).await.unwrap();
    let proxy = start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        upstream: Some(origin.url()),
        test_mode: true,
        ..Config::default()
    })
    .await
    .unwrap();
    let client = reqwest::Client::new();
    let trigger = |base: String| {
        call(
            &client,
            reqwest::Method::PUT,
            format!("{base}{}", paths::demo_machine_health(1001)),
            ALICE_KEY,
            Some(json!({"gpu_max_cur_temp": 99})),
        )
    };
    let (status, body) = trigger(proxy.url()).await;
    assert_eq!((status, body["error"].clone()), (404, json!("not_found")));
    assert_eq!(
        body["msg"],
        "no such route: PUT /_demo/machines/1001/health"
    );
    let (status, body) = trigger(origin.url()).await;
    assert_eq!(
        (status, body["machine"]["gpu_max_cur_temp"].clone()),
        (200, json!(99.0))
    );
    proxy.shutdown().await.unwrap();
    origin.shutdown().await.unwrap();
}

trait JsonValue {
    async fn json_value(self) -> Value;
}

impl JsonValue for reqwest::Response {
    async fn json_value(self) -> Value {
        serde_json::from_str(&self.text().await.unwrap()).unwrap()
    }
}

/// An upstream that answers with what it received, to check forwarding is verbatim.
async fn echo_server() -> (String, tokio::task::JoinHandle<()>) {
    let router = Router::new().fallback(|request: Request| async move {
        let (parts, body) = request.into_parts();
        let body = body.collect().await.unwrap().to_bytes();
        let header = |name: &str| {
            parts
                .headers
                .get(name)
                .map(|v| v.to_str().unwrap().to_owned())
        };
        (
            axum::http::StatusCode::IM_A_TEAPOT,
            [
                ("content-type", "text/plain; charset=utf-8"),
                ("retry-after", "7"),
            ],
            json!({
                "method": parts.method.as_str(),
                "uri": parts.uri.to_string(),
                "authorization": header("authorization"),
                "content_type": header("content-type"),
                "cookie": header("cookie"),
                "body": String::from_utf8_lossy(&body),
            })
            .to_string(),
        )
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    (url, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarding_is_verbatim() {
    let (echo, task) = echo_server().await;
    let proxy = forwarder(&echo).await;
    let response = reqwest::Client::new()
        .put(format!(
            "{}/api/v0/machines/defrag_offers/?x=%5B1%2C+2%5D",
            proxy.url()
        ))
        .header("authorization", "Bearer abc")
        .header("content-type", "application/json")
        .header("cookie", "session=1")
        .body(r#"{"machine_ids": [1, 2]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 418);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(response.headers()["retry-after"], "7");
    let seen: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_eq!(
        seen,
        json!({
            "method": "PUT",
            "uri": "/api/v0/machines/defrag_offers/?x=%5B1%2C+2%5D",
            "authorization": "Bearer abc",
            "content_type": "application/json",
            "cookie": null,
            "body": "{\"machine_ids\": [1, 2]}",
        })
    );
    // The OpenAPI document stays local; other /api paths are not forwarded.
    let doc = reqwest::get(format!("{}{}", proxy.url(), paths::OPENAPI))
        .await
        .unwrap();
    assert_eq!(doc.status(), 200);
    let other = reqwest::get(format!("{}/api/v1/x", proxy.url()))
        .await
        .unwrap();
    assert_eq!(other.status(), 404);
    proxy.shutdown().await.unwrap();
    task.abort();
}

#[tokio::test]
async fn an_unreachable_upstream_is_a_json_502() {
    // Bind and drop, so the port is (almost certainly) closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let proxy = forwarder(&format!("http://127.0.0.1:{port}")).await;
    let client = reqwest::Client::new();
    let (status, body) = call(
        &client,
        reqwest::Method::GET,
        format!("{}{}", proxy.url(), paths::CURRENT_USER),
        ALICE_KEY,
        None,
    )
    .await;
    assert_eq!(status, 502);
    assert_eq!(body["error"], "upstream_unreachable");
    proxy.shutdown().await.unwrap();
}

#[tokio::test]
async fn shutdown_stops_serving() {
    let server = start(config(DbLocation::Memory)).await.unwrap();
    let url = format!("{}{}", server.url(), paths::CURRENT_USER);
    let client = reqwest::Client::new();
    assert_eq!(
        call(&client, reqwest::Method::GET, url.clone(), ALICE_KEY, None)
            .await
            .0,
        200
    );
    assert!(server.url().starts_with("http://127.0.0.1:"));
    assert_ne!(server.addr.port(), 0);
    server.shutdown().await.unwrap();
    assert!(reqwest::Client::new().get(url).send().await.is_err());
}

#[test]
fn bad_upstream_urls_are_refused() {
    for url in ["not a url", "ftp://example.com"] {
        let error = gpudeck_server::AppState::new(Config {
            upstream: Some(url.into()),
            ..Config::default()
        })
        .unwrap_err();
        assert!(error.to_string().contains("--upstream"), "{error}");
    }
}

const BIN: &str = env!("CARGO_BIN_EXE_gpudeck-server");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_create_makes_a_working_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("k.sqlite");
    let output = Command::new(BIN)
        .args(["keys", "create", "--db"])
        .arg(&db)
        .args(["--email", "zoe@example.com", "--username", "zoë"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let key = stdout
        .lines()
        .find_map(|l| l.strip_prefix("API key (shown once; only its hash is stored): "))
        .unwrap()
        .to_owned();
    assert_eq!(key.len(), 64);

    let server = start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: DbLocation::File(db),
        ..Config::default()
    })
    .await
    .unwrap();
    let client = reqwest::Client::new();
    let (status, me) = call(
        &client,
        reqwest::Method::GET,
        format!("{}{}", server.url(), paths::CURRENT_USER),
        &key,
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(me["email"], "zoe@example.com");
    assert_eq!(me["username"], "zoë");
    assert_eq!(me["balance"], 0.0);
    // Without --demo the database holds only that user.
    let (status, _) = call(
        &client,
        reqwest::Method::GET,
        format!("{}{}", server.url(), paths::CURRENT_USER),
        ALICE_KEY,
        None,
    )
    .await;
    assert_eq!(status, 401);
    server.shutdown().await.unwrap();
}

#[test]
fn the_binary_prints_its_address_and_the_demo_keys() {
    let mut child = Command::new(BIN)
        .args(["--addr", "127.0.0.1:0", "--memory", "--demo"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let url = first
        .strip_prefix("gpudeck-server listening on ")
        .unwrap()
        .to_owned();
    assert!(
        url.starts_with("http://127.0.0.1:") && !url.ends_with(":0"),
        "{first}"
    );
    assert_eq!(lines.next().unwrap().unwrap(), "demo keys:");
    let keys: Vec<String> = lines.take(KEYS.len()).map(|l| l.unwrap()).collect();
    for ((who, key), line) in KEYS.iter().zip(&keys) {
        assert_eq!(line, &format!("  {who}: {key}"));
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let status = runtime.block_on(async {
        reqwest::Client::new()
            .get(format!("{url}{}", paths::CURRENT_USER))
            .bearer_auth(ALICE_KEY)
            .send()
            .await
            .unwrap()
            .status()
    });
    assert_eq!(status, 200);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn the_binary_refuses_to_start_when_its_upstream_does_not_answer() {
    // Bind and drop, so the port is (almost certainly) closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let output = Command::new(BIN)
        .args(["--addr", "127.0.0.1:0", "--memory"])
        .args(["--upstream", &format!("http://127.0.0.1:{port}")])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(&format!(
            "the upstream http://127.0.0.1:{port} does not answer"
        )),
        "{said}"
    );
    assert!(String::from_utf8_lossy(&output.stdout).is_empty());
}
