//! Helpers shared by the integration tests: a demo app with a fixed clock, and a small
//! request builder over `tower::ServiceExt::oneshot`.
#![allow(dead_code)]

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::Router;
use gpudeck_server::{app, AppState};
use http_body_util::BodyExt;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tower::ServiceExt;

/// "Now" for every test: the demo's windows are relative to it.
pub const NOW: f64 = 1_800_000_000.0;

/// Logs (errors with their causes) go to the test's captured output.
pub fn init_logging() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .with_test_writer()
        .try_init();
}

pub struct TestApp {
    pub router: Router,
    pub state: AppState,
}

impl TestApp {
    pub fn demo() -> Self {
        init_logging();
        let state = AppState::demo_at(NOW).expect("demo state");
        Self {
            router: app(state.clone()),
            state,
        }
    }

    pub fn with_router(state: AppState, router: Router) -> Self {
        Self { router, state }
    }

    pub fn get(&self, uri: &str) -> Call<'_> {
        self.call(Method::GET, uri)
    }

    pub fn put(&self, uri: &str) -> Call<'_> {
        self.call(Method::PUT, uri)
    }

    pub fn post(&self, uri: &str) -> Call<'_> {
        self.call(Method::POST, uri)
    }

    pub fn delete(&self, uri: &str) -> Call<'_> {
        self.call(Method::DELETE, uri)
    }

    pub fn call(&self, method: Method, uri: &str) -> Call<'_> {
        Call {
            app: self,
            request: Request::builder().method(method).uri(uri),
            body: Body::empty(),
        }
    }

    /// A number from the database.
    pub fn scalar(&self, sql: &str) -> i64 {
        let sql = sql.to_owned();
        self.state
            .db
            .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, i64>(0))?))
            .unwrap()
    }

    /// A text (or NULL) from the database.
    pub fn text(&self, sql: &str) -> Option<String> {
        let sql = sql.to_owned();
        self.state
            .db
            .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, Option<String>>(0))?))
            .unwrap()
    }

    pub fn scalar_f64(&self, sql: &str) -> Option<f64> {
        let sql = sql.to_owned();
        self.state
            .db
            .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, Option<f64>>(0))?))
            .unwrap()
    }
}

pub struct Call<'a> {
    app: &'a TestApp,
    request: axum::http::request::Builder,
    body: Body,
}

impl Call<'_> {
    pub fn key(mut self, key: &str) -> Self {
        self.request = self
            .request
            .header("authorization", format!("Bearer {key}"));
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.request = self.request.header(name, value);
        self
    }

    pub fn json(mut self, body: Value) -> Self {
        self.request = self.request.header("content-type", "application/json");
        self.body = Body::from(body.to_string());
        self
    }

    pub fn raw(mut self, content_type: &str, body: impl Into<Body>) -> Self {
        self.request = self.request.header("content-type", content_type);
        self.body = body.into();
        self
    }

    pub async fn send(self) -> Answer {
        let request = self.request.body(self.body).unwrap();
        let response = self.app.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        Answer {
            status,
            headers,
            bytes,
        }
    }
}

#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {} {:?}",
                self.status,
                String::from_utf8_lossy(&self.bytes)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the status and the `{error, msg}` body; returns `msg`.
    #[track_caller]
    pub fn error(&self, status: u16, error: &str) -> String {
        assert_eq!(self.status.as_u16(), status, "body: {}", self.text());
        let body = self.json();
        assert_eq!(body["error"], error, "body: {body}");
        body["msg"].as_str().expect("msg is a string").to_owned()
    }

    #[track_caller]
    pub fn ok(&self) -> Value {
        assert_eq!(self.status, StatusCode::OK, "body: {}", self.text());
        self.json()
    }
}

/// What the receiver got: the headers and the exact body.
pub struct Received {
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// A local webhook receiver: every POST to `/hook` is sent on the channel and answered
/// with the status it is currently set to.
pub struct Receiver {
    pub url: String,
    pub status: Arc<Mutex<StatusCode>>,
    pub got: mpsc::UnboundedReceiver<Received>,
}

pub async fn receiver() -> Receiver {
    let (tx, got) = mpsc::unbounded_channel();
    let status = Arc::new(Mutex::new(StatusCode::OK));
    let answer = status.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: HeaderMap, body: Bytes| {
            let tx = tx.clone();
            let answer = *answer.lock().unwrap();
            async move {
                tx.send(Received { headers, body }).unwrap();
                answer
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Receiver {
        url: format!("http://127.0.0.1:{port}/hook"),
        status,
        got,
    }
}

/// A server on an empty database with one user and key, in test mode or not (no demo).
pub fn plain_app(test_mode: bool) -> (TestApp, &'static str) {
    init_logging();
    let state = gpudeck_server::AppState::new(gpudeck_server::Config {
        clock: gpudeck_server::Clock::fixed(NOW),
        test_mode,
        ..gpudeck_server::Config::default()
    })
    .unwrap();
    let key = "plain-user-key-000000000000000000000000000000001";
    state
        .db
        .with_conn(move |c| {
            c.execute(
                "INSERT INTO users (id, email, username, created_at) VALUES (1, 'p@x', 'p', 0)",
                [],
            )?;
            c.execute(
                "INSERT INTO api_keys (key_hash, user_id, created_at) VALUES (?1, 1, 0)",
                [gpudeck_server::keys::hash_key(key)],
            )?;
            Ok(())
        })
        .unwrap();
    (
        TestApp::with_router(state.clone(), gpudeck_server::app(state)),
        key,
    )
}
