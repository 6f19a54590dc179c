//! Serving the built console: files from a directory, an SPA fallback to `index.html`,
//! and cache headers — hashed assets (trunk names them `name-<hex hash>...`) are immutable,
//! `index.html` is always revalidated. The build writes brotli and gzip copies beside the
//! files (`cargo xtask`'s compress step); those are sent as they are to a browser that
//! accepts them. A file without them is compressed on the fly by the router's layer.

use axum::body::Body;
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, VARY,
};
use axum::http::{HeaderValue, Method, Request};
use axum::response::{IntoResponse, Response};
use std::path::Path;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::error::ApiError;

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const NO_CACHE: &str = "no-cache";

/// The policy for the console's pages: scripts only from this origin (no inline script;
/// `wasm-unsafe-eval` lets the bundle be compiled), styles only from files and the CSSOM,
/// requests only to this origin and to `connect_src`, no plugins, frames or base changes.
pub fn content_security_policy(connect_src: &[String]) -> anyhow::Result<HeaderValue> {
    for origin in connect_src {
        anyhow::ensure!(
            (origin.starts_with("https://") || origin.starts_with("http://"))
                && !origin.contains([' ', ';', ',', '\'', '"']),
            "--connect-src {origin:?} is not an http(s) origin"
        );
    }
    let connect = std::iter::once("'self'")
        .chain(connect_src.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let policy = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
         img-src 'self' data:; connect-src {connect}; object-src 'none'; base-uri 'none'; \
         frame-ancestors 'none'; form-action 'self'"
    );
    Ok(HeaderValue::from_str(&policy)?)
}

/// The console's files, preferring their precompressed copies, falling back to
/// `index.html` for paths that are no file.
pub fn service(dir: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(
            ServeFile::new(dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip(),
        )
}

/// Trunk prints a 64-bit hash in hex without leading zeros, so one name in sixteen has
/// 15 digits, one in 256 has 14; the split build always writes 16.
const HASH_DIGITS: std::ops::RangeInclusive<usize> = 12..=16;

/// Whether a file name carries a content hash as the builds write it: `-` then 12 to 16
/// hex digits, then `.` or `_` (e.g. `gpudeck-1a2b3c4d5e6f7a8b_bg.wasm`).
pub fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).as_bytes();
    name.iter().enumerate().any(|(i, &b)| {
        let digits = name[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        b == b'-'
            && HASH_DIGITS.contains(&digits)
            && matches!(name.get(i + 1 + digits), Some(b'.' | b'_'))
    })
}

/// Answers a non-API request from `dir`. Only GET and HEAD are served; pages carry
/// `policy` as their Content-Security-Policy.
pub async fn serve(
    dir: &ServeDir<ServeFile>,
    request: Request<Body>,
    policy: &HeaderValue,
) -> Response {
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
        let caching = if html {
            Some(NO_CACHE)
        } else if is_hashed(&path) {
            Some(IMMUTABLE)
        } else {
            None
        };
        // The same address answers differently by Accept-Encoding (a precompressed copy
        // or the file), so shared caches must keep them apart.
        if !response.headers().contains_key(VARY) {
            response
                .headers_mut()
                .insert(VARY, HeaderValue::from_static(ACCEPT_ENCODING.as_str()));
        }
        if let Some(caching) = caching {
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static(caching));
        }
        if html {
            response
                .headers_mut()
                .insert(CONTENT_SECURITY_POLICY, policy.clone());
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_only_this_origin_and_the_listed_ones() {
        let policy = content_security_policy(&[]).unwrap();
        let policy = policy.to_str().unwrap();
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';"));
        assert!(policy.contains("connect-src 'self';"));
        assert!(!policy.contains("unsafe-inline"));
        let wider = content_security_policy(&["https://api.example.com".into()]).unwrap();
        assert!(wider
            .to_str()
            .unwrap()
            .contains("connect-src 'self' https://api.example.com;"));
        assert!(content_security_policy(&["https://x; script-src *".into()]).is_err());
        assert!(content_security_policy(&["javascript:alert(1)".into()]).is_err());
    }

    #[test]
    fn trunk_hashes_are_recognised() {
        assert!(is_hashed("/gpudeck-1a2b3c4d5e6f7a8b_bg.wasm"));
        assert!(is_hashed("/gpudeck-1a2b3c4d5e6f7a8b.js"));
        assert!(is_hashed("style-0123456789abcdef.css"));
        // Trunk drops leading zeros: 6368cc0ba58ca99 is 0x06368cc0ba58ca99.
        assert!(is_hashed("/gpudeck-6368cc0ba58ca99_bg.wasm"));
        assert!(is_hashed("/gpudeck-split-0123456789abcdef.js"));
        assert!(!is_hashed("/gpudeck-0123456789abcdef0.js"));
        assert!(!is_hashed("/index.html"));
        assert!(!is_hashed("/gpudeck-1a2b3c4d.js"));
        assert!(!is_hashed("/gpudeck-1a2b3c4d5e6f7a8bx.js"));
        assert!(!is_hashed("/a-1a2b3c4d5e6f7a8b"));
    }
}
