//! gpudeck's reference server for the marketplace REST interface: axum over an embedded
//! SQLite database, with demo data, static hosting of the built console and an optional
//! forwarding mode.
//!
//! Use it in-process:
//!
//! ```no_run
//! # async fn run() -> anyhow::Result<()> {
//! let server = gpudeck_server::start(gpudeck_server::Config {
//!     addr: "127.0.0.1:0".parse()?,
//!     demo: true,
//!     ..Default::default()
//! })
//! .await?;
//! println!("{}", server.url());
//! server.shutdown().await?;
//! # Ok(()) }
//! ```

pub mod auth;
pub mod body;
pub mod config;
pub mod db;
pub mod defrag;
pub mod demo;
pub mod error;
pub mod keys;
pub mod limits;
pub mod openapi;
pub mod routes;
pub mod static_files;
pub mod upstream;

pub use config::{Clock, Config, DbLocation};
pub use db::Db;
pub use error::ApiError;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use gpudeck_wire::paths;
use std::any::Any;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tower::Layer;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::normalize_path::NormalizePathLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::timeout::TimeoutLayer;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub clock: Clock,
    /// The secret subaccount keys are derived from (read once from the database).
    pub secret: Arc<[u8]>,
    pub config: Arc<Config>,
    /// Set in forwarding mode.
    pub upstream: Option<upstream::Upstream>,
    /// Set when [`Config::rate_limit`] is.
    pub rate_limiter: Option<Arc<limits::RateLimiter>>,
    static_dir: Option<ServeDir<ServeFile>>,
    /// The Content-Security-Policy sent with the console's pages.
    content_security_policy: axum::http::HeaderValue,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("db", &self.db)
            .field("clock", &self.clock)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// Opens the database (seeding the demo into an empty one when `config.demo`) and
    /// prepares forwarding and static hosting. Blocking: call it before serving, or from
    /// `spawn_blocking`.
    pub fn new(config: Config) -> anyhow::Result<AppState> {
        let db = Db::open(&config.db)?;
        let secret: Arc<[u8]> = db.secret().map_err(|e| anyhow::anyhow!("{e}"))?.into();
        let clock = config.clock.clone();
        if config.demo {
            // Whole seconds, so the demo's times read cleanly.
            let now = clock.now().floor();
            let seed_secret = secret.clone();
            db.with_conn(|conn| {
                if demo::is_empty(conn)? {
                    demo::seed(conn, &seed_secret, now)?;
                }
                Ok(())
            })
            .map_err(|e| anyhow::anyhow!("seeding the demo: {e}"))?;
        }
        let upstream = config
            .upstream
            .as_deref()
            .map(upstream::Upstream::new)
            .transpose()?;
        let static_dir = match &config.static_dir {
            Some(dir) => {
                anyhow::ensure!(
                    dir.join("index.html").is_file(),
                    "--static-dir {} has no index.html (build the console first)",
                    dir.display()
                );
                Some(static_files::service(dir))
            }
            None => None,
        };
        let rate_limiter = config
            .rate_limit
            .map(|n| Arc::new(limits::RateLimiter::new(n)));
        let content_security_policy = static_files::content_security_policy(&config.connect_src)?;
        Ok(AppState {
            content_security_policy,
            db,
            clock,
            secret,
            config: Arc::new(config),
            upstream,
            rate_limiter,
            static_dir,
        })
    }

    /// An in-memory database with the demo data and a clock fixed at `now`: the fixture
    /// of the tests.
    pub fn demo_at(now: f64) -> anyhow::Result<AppState> {
        AppState::new(Config {
            demo: true,
            clock: Clock::fixed(now),
            ..Config::default()
        })
    }
}

/// The whole application: the API, the static console (when configured), and the
/// cross-cutting layers (trailing-slash trimming, CORS, compression, logging, panics,
/// body limit, timeout, JSON error bodies).
pub fn app(state: AppState) -> Router {
    app_with(state, Router::new())
}

/// [`app`] with `extra` routes merged into the API, under the same layers. Tests use it to
/// mount, e.g., a handler that panics. In forwarding mode `extra` is not mounted: the whole
/// API belongs to the upstream.
pub fn app_with(state: AppState, extra: Router<AppState>) -> Router {
    let api = match state.upstream {
        Some(_) => Router::new().route("/api/v0/{*rest}", any(upstream::forward)),
        None => routes::api().merge(extra),
    };
    let inner = api
        .route(paths::OPENAPI, get(openapi::serve))
        .fallback(fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(state.config.body_limit))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            state.config.request_timeout,
        ))
        .layer(middleware::from_fn(json_error_bodies))
        .layer(CatchPanicLayer::custom(panic_response))
        .with_state(state.clone());
    // Trimming must happen before routing, so it wraps the router rather than sitting
    // inside it; never a redirect, which would break a browser's CORS preflight.
    let normalized = NormalizePathLayer::trim_trailing_slash().layer(inner);
    let mut router = Router::new().fallback_service(normalized);
    // Inside CORS, so that a browser can read a 429 and retry.
    if let Some(limiter) = &state.rate_limiter {
        router = router.layer(middleware::from_fn_with_state(
            limiter.clone(),
            limits::rate_limit,
        ));
    }
    router
        .layer(middleware::from_fn(limits::request_size))
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(log_requests))
        .layer(cors(&state.config.cors_origins))
}

fn cors(origins: &[String]) -> CorsLayer {
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o.trim_end_matches('/')).ok())
        .collect();
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::PUT, Method::DELETE])
        .allow_headers([AUTHORIZATION, CONTENT_TYPE])
        .max_age(std::time::Duration::from_secs(600))
}

fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Unknown `/api/...` paths get a JSON 404; anything else is the console (when served).
async fn fallback(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    if !is_api(&path) {
        if let Some(dir) = &state.static_dir {
            return static_files::serve(dir, request, &state.content_security_policy).await;
        }
    }
    ApiError::not_found(format!(
        "no such route: {} {}",
        request.method(),
        error::quote(&path, 200)
    ))
    .into_response()
}

async fn method_not_allowed(request: Request) -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed on {}",
            request.method(),
            error::quote(request.uri().path(), 200)
        ),
    )
    .into_response()
}

/// Gives every error answer that is not JSON yet (a timeout, an axum rejection) the
/// `{error, msg}` body. Forwarded answers are the upstream's and stay as they are.
async fn json_error_bodies(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    // HTML is the console's own answer (e.g. its index page); leave it too.
    let has_body =
        content_type.starts_with("application/json") || content_type.starts_with("text/html");
    if status.is_success()
        || status.is_redirection()
        || has_body
        || response.extensions().get::<upstream::Forwarded>().is_some()
    {
        return response;
    }
    let (error, msg) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ("too_large", "the request body is too large".to_owned()),
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::REQUEST_TIMEOUT => (
            "timeout",
            "the request took too long and was abandoned".to_owned(),
        ),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "method not allowed".to_owned()),
        StatusCode::NOT_FOUND => ("not_found", "not found".to_owned()),
        s if s.is_client_error() => (
            "invalid_args",
            format!(
                "the request was refused: {}",
                s.canonical_reason().unwrap_or("bad request")
            ),
        ),
        _ => ("internal_error", error::INTERNAL_MSG.to_owned()),
    };
    let mut answer = ApiError::new(status, error, msg).into_response();
    for (name, value) in response.headers() {
        if name != CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

/// A panicking handler becomes a 500 with the usual body; the panic text is logged only.
pub fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    ApiError::internal(format!("handler panicked: {detail}")).into_response()
}

/// One line per request: method, path (never the query, which may carry `api_key`),
/// status and latency. Headers are never logged.
async fn log_requests(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    tracing::info!(
        target: "gpudeck_server::http",
        "{method} {path} {} {:.1}ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

/// A server that is running. Dropping it leaves the server running until the runtime
/// ends; call [`RunningServer::shutdown`] to stop it gracefully.
pub struct RunningServer {
    /// The address actually bound (port 0 resolved).
    pub addr: SocketAddr,
    state: AppState,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl std::fmt::Debug for RunningServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl RunningServer {
    /// `http://ADDR`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The shared state (database, clock), for inspecting or adjusting a running server.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Stops accepting connections, lets in-flight requests finish, and waits.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.task.await??;
        Ok(())
    }

    /// Serves until Ctrl-C or SIGTERM, then shuts down gracefully.
    pub async fn run_until_signal(self) -> anyhow::Result<()> {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.shutdown().await
    }

    /// Waits until the server stops on its own (it only does on an I/O error).
    pub async fn wait(self) -> anyhow::Result<()> {
        let RunningServer { stop, task, .. } = self;
        let result = task.await?;
        drop(stop);
        Ok(result?)
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// Opens the database, binds `config.addr` (port 0 allowed) and starts serving in the
/// background.
pub async fn start(config: Config) -> anyhow::Result<RunningServer> {
    let addr = config.addr;
    let state = tokio::task::spawn_blocking(move || AppState::new(config)).await??;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("binding {addr}: {e}"))?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let router = app(state.clone());
    let task = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(RunningServer {
        addr,
        state,
        stop,
        task,
    })
}
