//! The headers every answer carries: `X-Content-Type-Options: nosniff` on all of them and
//! `Cache-Control: no-store` on every API answer, local or forwarded, for every route of
//! the OpenAPI document; and which server answers (`GET /api/v0/gpudeck/server`).

use crate::common;

use common::NOW;
use gpudeck_server::demo::ALICE_KEY;
use gpudeck_server::{start, Clock, Config, DbLocation, RunningServer};
use gpudeck_wire::{paths, ServerInfo};
use serde_json::Value;

async fn server(upstream: Option<String>, console: &std::path::Path) -> RunningServer {
    start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: DbLocation::Memory,
        demo: upstream.is_none(),
        clock: Clock::fixed(NOW),
        upstream,
        static_dir: Some(console.to_owned()),
        ..Config::default()
    })
    .await
    .unwrap()
}

/// Every operation of the document as (method, path), its path parameters filled in.
fn operations(document: &Value) -> Vec<(reqwest::Method, String)> {
    let mut out = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        let path = path
            .replace("{id}", "1001")
            .replace("{name}", "owner")
            .replace("{user_id}", "1");
        for method in item.as_object().unwrap().keys() {
            out.push((method.to_uppercase().parse().unwrap(), path.clone()));
        }
    }
    out
}

/// Fails naming the answer when it lacks a header it must carry.
fn assert_headers(answer: &reqwest::Response, what: &str, api: bool) {
    let header = |name: &str| {
        answer
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    assert_eq!(
        header("x-content-type-options").as_deref(),
        Some("nosniff"),
        "{what}"
    );
    if api {
        assert_eq!(
            header("cache-control").as_deref(),
            Some("no-store"),
            "{what}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_local_or_forwarded_carries_the_security_headers() {
    let console = tempfile::tempdir().unwrap();
    std::fs::write(
        console.path().join("index.html"),
        "<!doctype html><title>c</title>",
    )
    .unwrap();
    let origin = server(None, console.path()).await;
    let forwarder = server(Some(origin.url()), console.path()).await;
    let client = reqwest::Client::new();
    let document = client
        .get(format!("{}{}", origin.url(), paths::OPENAPI))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let document: Value = serde_json::from_str(&document).unwrap();
    let operations = operations(&document);
    assert!(operations.len() >= 33, "{} operations", operations.len());
    for base in [origin.url(), forwarder.url()] {
        for (method, path) in &operations {
            let answer = client
                .request(method.clone(), format!("{base}{path}"))
                .bearer_auth(ALICE_KEY)
                .send()
                .await
                .unwrap();
            assert_headers(
                &answer,
                &format!("{method} {base}{path}: {}", answer.status()),
                true,
            );
        }
        // Refusals made here, before any route: an unknown API path and a CORS preflight.
        let unknown = client
            .get(format!("{base}/api/v0/nowhere"))
            .send()
            .await
            .unwrap();
        assert_eq!(unknown.status(), 404);
        assert_headers(&unknown, "an unknown API path", true);
        let preflight = client
            .request(
                reqwest::Method::OPTIONS,
                format!("{base}{}", paths::MACHINES),
            )
            .header("origin", "http://127.0.0.1:8080")
            .header("access-control-request-method", "GET")
            .send()
            .await
            .unwrap();
        assert_headers(&preflight, "a CORS preflight", true);
        // The console's own files are not the API: nosniff, and their own caching.
        let page = client.get(format!("{base}/machines")).send().await.unwrap();
        assert_eq!(page.status(), 200);
        assert_headers(&page, "the console's page", false);
        assert_ne!(
            page.headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap()),
            Some("no-store")
        );
    }
    forwarder.shutdown().await.unwrap();
    origin.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_says_whether_it_answers_with_demo_data_its_own_or_an_upstreams() {
    let console = tempfile::tempdir().unwrap();
    std::fs::write(console.path().join("index.html"), "<!doctype html>").unwrap();
    let demo = server(None, console.path()).await;
    let forwarder = server(Some(format!("{}/", demo.url())), console.path()).await;
    let own = start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..Config::default()
    })
    .await
    .unwrap();
    let client = reqwest::Client::new();
    let about = |base: String| {
        let client = client.clone();
        async move {
            // No key: it says nothing about any account.
            let answer = client
                .get(format!("{base}{}", paths::SERVER))
                .send()
                .await
                .unwrap();
            assert_eq!(answer.status(), 200);
            serde_json::from_str::<ServerInfo>(&answer.text().await.unwrap()).unwrap()
        }
    };
    assert_eq!(about(demo.url()).await, ServerInfo::Demo);
    assert_eq!(about(own.url()).await, ServerInfo::Local);
    let upstream = demo.url().trim_start_matches("http://").to_owned();
    assert_eq!(
        about(forwarder.url()).await,
        ServerInfo::Forwarded { upstream }
    );
    for server in [forwarder, own, demo] {
        server.shutdown().await.unwrap();
    }
}
