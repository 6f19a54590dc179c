//! The per-key rate limit: token buckets, one per presented key.
//!
//! The other limits on what one request may ask of the server are enforced where they
//! apply: the request target and headers ([`crate::config::MAX_URI_BYTES`],
//! [`crate::config::MAX_HEADER_BYTES`]) and this limiter in [`crate::middleware`], body
//! size ([`crate::Config::body_limit`], 413) and request time
//! ([`crate::Config::request_timeout`], 503) in [`crate::router`], the number of
//! `machine_ids` ([`gpudeck_wire::MAX_MACHINE_IDS`], 400) where they are parsed, and role
//! names ([`crate::config::MAX_ROLE_NAME_CHARS`]) in their route.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
