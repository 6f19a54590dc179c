//! Serving the built console: files from a directory, an SPA fallback to `index.html`,
//! and cache headers — hashed assets (trunk names them `name-<16 hex>...`) are immutable,
//! `index.html` is always revalidated.

use axum::body::Body;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, Method, Request};
use axum::response::{IntoResponse, Response};
use std::path::Path;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::error::ApiError;

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const NO_CACHE: &str = "no-cache";

/// The console's files, falling back to `index.html` for paths that are no file.
pub fn service(dir: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")))
}

/// Whether a file name carries a content hash as trunk writes it: `-` then 16 hex
/// digits, then `.` or `_` (e.g. `gpudeck-1a2b3c4d5e6f7a8b_bg.wasm`).
pub fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).as_bytes();
    name.iter().enumerate().any(|(i, &b)| {
        b == b'-'
            && name.len() > i + 17
            && name[i + 1..i + 17].iter().all(u8::is_ascii_hexdigit)
            && matches!(name[i + 17], b'.' | b'_')
    })
}

/// Answers a non-API request from `dir`. Only GET and HEAD are served.
pub async fn serve(dir: &ServeDir<ServeFile>, request: Request<Body>) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return ApiError::new(
            axum::http::StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!(
                "{} is not allowed here; the console is served with GET",
                request.method()
            ),
        )
        .into_response();
    }
    let path = request.uri().path().to_owned();
    let mut response = match dir.clone().oneshot(request).await {
        Ok(response) => response.map(Body::new),
        Err(never) => match never {},
    };
    if response.status().is_success() {
        let html = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/html"));
        let policy = if html {
            Some(NO_CACHE)
        } else if is_hashed(&path) {
            Some(IMMUTABLE)
        } else {
            None
        };
        if let Some(policy) = policy {
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static(policy));
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_hashes_are_recognised() {
        assert!(is_hashed("/gpudeck-1a2b3c4d5e6f7a8b_bg.wasm"));
        assert!(is_hashed("/gpudeck-1a2b3c4d5e6f7a8b.js"));
        assert!(is_hashed("style-0123456789abcdef.css"));
        assert!(!is_hashed("/index.html"));
        assert!(!is_hashed("/gpudeck-1a2b3c4d.js"));
        assert!(!is_hashed("/gpudeck-1a2b3c4d5e6f7a8bx.js"));
        assert!(!is_hashed("/a-1a2b3c4d5e6f7a8b"));
    }
}
