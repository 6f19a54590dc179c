//! Limits on what one request, or one key, may ask of the server: the length of the
//! request target, the size of the headers, and an optional per-key rate limit.
//!
//! Body size ([`crate::Config::body_limit`], 413), request time
//! ([`crate::Config::request_timeout`], 503) and the number of `machine_ids`
//! ([`gpudeck_wire::MAX_MACHINE_IDS`], 400) are enforced where they apply; role names
//! ([`crate::config::MAX_ROLE_NAME_CHARS`]) in their route.

use crate::auth::presented_key;
use crate::config::{MAX_HEADER_BYTES, MAX_URI_BYTES};
use crate::error::ApiError;
use crate::keys;
use axum::extract::{Request, State};
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Buckets kept before idle, full ones are forgotten.
const MAX_TRACKED_KEYS: usize = 10_000;

/// A token bucket per API key: `rate` requests per second, in bursts of up to `rate`.
/// Keys are tracked by their SHA-256 only, whether or not they are valid, so guessing keys
/// is limited too. Requests without a key are not limited (they are refused with 401
/// before any database work).
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    /// `per_second` requests per second per key (at least 1).
    pub fn new(per_second: u32) -> Self {
        Self {
            rate: f64::from(per_second.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn per_second(&self) -> u32 {
        self.rate as u32
    }

    /// Takes a token for `key` at `now`; `Err(wait)` when the bucket is empty.
    pub fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_TRACKED_KEYS && !buckets.contains_key(key) {
            let rate = self.rate;
            buckets.retain(|_, b| b.refilled(now, rate) < rate);
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: self.rate,
            updated: now,
        });
        bucket.tokens = bucket.refilled(now, self.rate);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / self.rate))
        }
    }

    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }
}

impl Bucket {
    fn refilled(&self, now: Instant, rate: f64) -> f64 {
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        (self.tokens + elapsed * rate).min(rate)
    }
}

/// 429 `rate_limited` with `Retry-After` (whole seconds, at least 1) when the presented
/// key has used up its requests.
pub async fn rate_limit(
    State(limiter): State<Arc<RateLimiter>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let key = presented_key(&parts).ok();
    let request = Request::from_parts(parts, body);
    let Some(key) = key else {
        return next.run(request).await;
    };
    match limiter.check(&keys::hash_key(&key)) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
            let mut response = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!(
                    "this key may make {} requests per second; retry after {seconds} s",
                    limiter.per_second()
                ),
            )
            .into_response();
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_allow_bursts_then_refill() {
        let limiter = RateLimiter::new(3);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at("a", t0).is_ok());
        }
        let wait = limiter.check_at("a", t0).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(334),
            "{wait:?}"
        );
        // Another key has its own bucket.
        assert!(limiter.check_at("b", t0).is_ok());
        // A third of a second later one token is back, and only one.
        let later = t0 + Duration::from_millis(340);
        assert!(limiter.check_at("a", later).is_ok());
        assert!(limiter.check_at("a", later).is_err());
        // After a long pause the bucket is full again, but no fuller than the burst.
        let much_later = t0 + Duration::from_secs(60);
        for _ in 0..3 {
            assert!(limiter.check_at("a", much_later).is_ok());
        }
        assert!(limiter.check_at("a", much_later).is_err());
    }

    #[test]
    fn idle_full_buckets_are_forgotten() {
        let limiter = RateLimiter::new(1);
        let t0 = Instant::now();
        for i in 0..MAX_TRACKED_KEYS {
            let _ = limiter.check_at(&i.to_string(), t0);
        }
        let later = t0 + Duration::from_secs(5);
        assert!(limiter.check_at("new", later).is_ok());
        assert!(limiter.buckets.lock().unwrap().len() < 10);
    }
}
