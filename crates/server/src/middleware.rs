//! The cross-cutting layers around every answer: request size limits, the rate limits
//! (per key, and per key and operation), CORS, JSON error bodies, panics as 500s, the
//! request log, and the headers every answer carries.

use crate::auth::presented_key;
use crate::config::{MAX_HEADER_BYTES, MAX_URI_BYTES};
use crate::error::{self, ApiError};
use crate::limits::{OperationLimiter, PublicRefusal, RateLimiter, RefusalShape, TooSoon};
use crate::{keys, upstream};
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header::{
    AUTHORIZATION, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::any::Any;
use std::sync::Arc;
use std::time::Instant;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Refuses request targets longer than [`MAX_URI_BYTES`] (414) and header sections larger
/// than [`MAX_HEADER_BYTES`] (431), before any routing or database work.
pub async fn request_size(request: Request, next: Next) -> Response {
    let uri_bytes = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    if uri_bytes > MAX_URI_BYTES {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!(
                "the request path and query are {uri_bytes} bytes; the limit is {MAX_URI_BYTES}"
            ),
        )
        .into_response();
    }
    let header_bytes: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    if header_bytes > MAX_HEADER_BYTES {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!(
                "the request headers are {header_bytes} bytes; the limit is {MAX_HEADER_BYTES}"
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// A rate limit's 429 in `shape`: JSON `rate_limited` with `Retry-After` (whole seconds,
/// at least 1), or the public service's plain text for an interval of `threshold` seconds.
fn too_frequent(
    shape: RefusalShape,
    msg: String,
    wait: std::time::Duration,
    threshold: f64,
) -> Response {
    match shape {
        RefusalShape::Json => ApiError::rate_limited(msg, whole_seconds(wait)).into_response(),
        RefusalShape::Public => {
            let mut response = (
                StatusCode::TOO_MANY_REQUESTS,
                [(CONTENT_TYPE, "text/plain; charset=utf-8")],
                RefusalShape::public_text(threshold),
            )
                .into_response();
            response.extensions_mut().insert(PublicRefusal);
            response
        }
    }
}

/// 429 (see [`too_frequent`]) when the presented key has used up its requests. The demo
/// triggers are never limited (spec fleet-health D1–D3), nor counted.
pub async fn rate_limit(
    State((limiter, shape)): State<(Arc<RateLimiter>, RefusalShape)>,
    request: Request,
    next: Next,
) -> Response {
    if is_demo_trigger(request.uri().path()) {
        return next.run(request).await;
    }
    let (request, key) = hashed_key(request);
    let Some(key) = key else {
        return next.run(request).await;
    };
    match limiter.check(&key) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let seconds = whole_seconds(wait);
            let msg = format!(
                "this key may make {} requests per second; retry after {seconds} s",
                limiter.per_second()
            );
            too_frequent(shape, msg, wait, 1.0 / f64::from(limiter.per_second()))
        }
    }
}

/// 429 (see [`too_frequent`]) when the presented key calls an operation again sooner than
/// its interval allows. Runs after routing: the matched route names the operation.
pub async fn operation_rate_limit(
    State((limiter, shape)): State<(Arc<OperationLimiter>, RefusalShape)>,
    request: Request,
    next: Next,
) -> Response {
    let route = request.extensions().get::<MatchedPath>().cloned();
    let (request, key) = hashed_key(request);
    let (Some(key), Some(route)) = (key, route) else {
        return next.run(request).await;
    };
    match limiter.check(&key, request.method().as_str(), route.as_str()) {
        Ok(()) => next.run(request).await,
        Err(TooSoon { interval, wait }) => {
            let msg = format!(
                "this key may call {} ({} {}) once every {} s; retry after {} s",
                interval.operation,
                interval.method,
                interval.path,
                interval.seconds,
                whole_seconds(wait)
            );
            too_frequent(shape, msg, wait, interval.seconds)
        }
    }
}

/// The SHA-256 of the key the request presents, if any: limits are kept per key, and
/// never by the key itself.
fn hashed_key(request: Request) -> (Request, Option<String>) {
    let (parts, body) = request.into_parts();
    let key = presented_key(&parts).ok().map(|key| keys::hash_key(&key));
    (Request::from_parts(parts, body), key)
}

/// A wait as `Retry-After` gives it: whole seconds, rounded up (sooner would be refused
/// again), at least 1.
fn whole_seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

/// Browsers on `origins` may call the API with a key and a JSON body.
pub fn cors(origins: &[String]) -> CorsLayer {
    let origins: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o.trim_end_matches('/')).ok())
        .collect();
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::DELETE])
        .allow_headers([AUTHORIZATION, CONTENT_TYPE])
        .max_age(std::time::Duration::from_secs(600))
}

/// Gives every error answer that is not JSON yet (a timeout, an axum rejection) the
/// `{error, msg}` body. Forwarded answers are the upstream's and stay as they are.
pub async fn json_error_bodies(request: Request, next: Next) -> Response {
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
        || response.extensions().get::<PublicRefusal>().is_some()
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
        if name != CONTENT_TYPE && name != CONTENT_LENGTH {
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
pub async fn log_requests(request: Request, next: Next) -> Response {
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

/// Whether `path` is under the demo triggers' prefix.
fn is_demo_trigger(path: &str) -> bool {
    path.strip_prefix(gpudeck_wire::paths::DEMO_PREFIX)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether `path` is the API's (answered here or forwarded) or the demo triggers' rather
/// than the console's: such paths get JSON refusals and are never cached.
pub fn is_api(path: &str) -> bool {
    let api = path
        .strip_prefix("/api")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    api || is_demo_trigger(path)
}

/// Every answer says `X-Content-Type-Options: nosniff`, so a browser never runs a body as
/// anything but its declared type. Every API answer, local or forwarded, says
/// `Cache-Control: no-store`: subaccount keys and account details must not stay in a
/// browser's cache (OWASP ASVS V8.2.1).
pub async fn security_headers(request: Request, next: Next) -> Response {
    let api = is_api(request.uri().path());
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if api {
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}
