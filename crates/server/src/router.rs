//! The whole application as one axum [`Router`]: the API (or forwarding), the OpenAPI
//! document, the static console, and the layers around them.

use crate::error::ApiError;
use crate::middleware::{
    cors, is_api, json_error_bodies, log_requests, operation_rate_limit, panic_response,
    rate_limit, request_size, security_headers,
};
use crate::quote::quote;
use crate::state::AppState;
use crate::{openapi, routes, static_files};
use axum::extract::{DefaultBodyLimit, OriginalUri, Request, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use gpudeck_wire::paths;
use tower::Layer;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::normalize_path::NormalizePathLayer;
use tower_http::timeout::TimeoutLayer;

/// The whole application: the API, the static console (when configured), and the
/// cross-cutting layers (trailing-slash trimming, CORS, compression, logging, panics,
/// body limit, timeout, JSON error bodies, security headers).
pub fn app(state: AppState) -> Router {
    app_with(state, Router::new())
}

/// [`app`] with `extra` routes merged into the API, under the same layers. Tests use it to
/// mount, e.g., a handler that panics. In forwarding mode `extra` is not mounted: the whole
/// API belongs to the upstream, and so are not the demo triggers (whose changes would be
/// to this server's database, not the upstream's).
pub fn app_with(state: AppState, extra: Router<AppState>) -> Router {
    let api = match state.upstream.clone() {
        Some(upstream) => {
            let body_limit = state.config.body_limit;
            Router::new()
                .route(
                    "/api/v0/{*rest}",
                    any(move |OriginalUri(original), request: Request| async move {
                        upstream.forward(&original, request, body_limit).await
                    }),
                )
                // Which server answers is this one's to say, not the upstream's.
                .route(paths::SERVER, get(routes::server::about))
        }
        None => {
            let api = Router::from(routes::api()).merge(extra);
            if state.config.demo_or_test_mode() {
                api.merge(Router::from(routes::demo_triggers()))
            } else {
                api
            }
        }
    };
    let mut inner = api
        .route(paths::OPENAPI, get(openapi::serve))
        .fallback(fallback)
        .method_not_allowed_fallback(method_not_allowed);
    // A layer of the router itself runs after routing, so the route matched is known.
    if let Some(limiter) = &state.operation_limiter {
        inner = inner.layer(middleware::from_fn_with_state(
            (limiter.clone(), state.config.rate_limit_shape),
            operation_rate_limit,
        ));
    }
    let inner = inner
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
            (limiter.clone(), state.config.rate_limit_shape),
            rate_limit,
        ));
    }
    router
        .layer(middleware::from_fn(request_size))
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(log_requests))
        .layer(cors(&state.config.cors_origins))
        // Outermost, so that CORS preflights and every refusal carry the headers too.
        .layer(middleware::from_fn(security_headers))
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
        quote(&path, 200)
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
            quote(request.uri().path(), 200)
        ),
    )
    .into_response()
}
