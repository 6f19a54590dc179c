//! The rate limits: a token bucket per presented key over every request (`--rate-limit`),
//! and the public service's minimum interval between calls of one operation by one key
//! (`--public-rate-limits`, spec neighbours §1.5).
//!
//! The other limits on what one request may ask of the server are enforced where they
//! apply: the request target and headers ([`crate::config::MAX_URI_BYTES`],
//! [`crate::config::MAX_HEADER_BYTES`]) and these limiters in [`crate::middleware`], body
//! size ([`crate::Config::body_limit`], 413) and request time
//! ([`crate::Config::request_timeout`], 503) in [`crate::router`], the number of
//! `machine_ids` ([`gpudeck_wire::MAX_MACHINE_IDS`], 400) where they are parsed, and role
//! names ([`crate::config::MAX_ROLE_NAME_CHARS`]) in their route.

use crate::config::Clock;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// Buckets kept before idle, full ones are forgotten.
const MAX_TRACKED_BUCKETS: usize = 10_000;

/// Token buckets by name, all of one size and refill rate. Time is the server's
/// [`Clock`] in seconds, so a test with a fixed clock decides when tokens come back.
#[derive(Debug)]
struct Buckets {
    /// Tokens a second.
    rate: f64,
    /// The most tokens a bucket holds: the burst.
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    /// Unix seconds.
    updated: f64,
}

impl Buckets {
    fn new(rate: f64, burst: f64) -> Self {
        Self {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token from bucket `name` at `now`; `Err(wait)` when it is empty.
    fn take(&self, name: &str, now: f64) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_TRACKED_BUCKETS && !buckets.contains_key(name) {
            buckets.retain(|_, b| self.refilled(b, now) < self.burst);
        }
        let bucket = buckets.entry(name.to_owned()).or_insert(Bucket {
            tokens: self.burst,
            updated: now,
        });
        let tokens = self.refilled(bucket, now);
        if tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - tokens) / self.rate));
        }
        // Only a request let through moves the bucket: a refused one costs nothing.
        *bucket = Bucket {
            tokens: tokens - 1.0,
            updated: now,
        };
        Ok(())
    }

    fn refilled(&self, bucket: &Bucket, now: f64) -> f64 {
        let elapsed = (now - bucket.updated).max(0.0);
        (bucket.tokens + elapsed * self.rate).min(self.burst)
    }
}

/// A token bucket per API key: `rate` requests per second, in bursts of up to `rate`.
/// Keys are tracked by their SHA-256 only, whether or not they are valid, so guessing keys
/// is limited too. Requests without a key are not limited (they are refused with 401
/// before any database work).
#[derive(Debug)]
pub struct RateLimiter {
    per_second: u32,
    buckets: Buckets,
    clock: Clock,
}

impl RateLimiter {
    /// `per_second` requests per second per key (at least 1), timed by `clock`.
    pub fn new(per_second: u32, clock: Clock) -> Self {
        let per_second = per_second.max(1);
        let rate = f64::from(per_second);
        Self {
            per_second,
            buckets: Buckets::new(rate, rate),
            clock,
        }
    }

    pub fn per_second(&self) -> u32 {
        self.per_second
    }

    /// Takes a token for `key` at `now` (Unix seconds); `Err(wait)` when none is left.
    pub fn check_at(&self, key: &str, now: f64) -> Result<(), Duration> {
        self.buckets.take(key, now)
    }

    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, self.clock.now())
    }
}

/// How the rate limits' 429s answer (`--rate-limit-shape`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RefusalShape {
    /// `{"error": "rate_limited", "msg": …}` with `Retry-After`: the reference server's own.
    #[default]
    Json,
    /// The public service's (spec neighbours §1.5): plain text `API requests too frequent:
    /// endpoint threshold=X` and no `Retry-After`, so clients must pace themselves.
    Public,
}

/// Marks a plain-text 429 of [`RefusalShape::Public`], which the error-body middleware
/// leaves as it is rather than wrapping it in JSON.
#[derive(Debug, Clone, Copy)]
pub struct PublicRefusal;

impl RefusalShape {
    /// The plain-text body of a public-shaped refusal for an interval of `seconds`.
    pub fn public_text(seconds: f64) -> String {
        format!("API requests too frequent: endpoint threshold={seconds}")
    }
}

use gpudeck_wire::operations::{self, Operation};
/// One operation's interval: the wire crate's operation table, shared with the console.
pub use gpudeck_wire::rate_limits::PublicInterval;

/// The public service's limits (the operation table's intervals): per key and operation, a call no
/// sooner than the operation's interval after the last one let through. The operation is
/// known by the route the router matched, so e.g. seed op 1 (`GET` on the maintenance
/// list) is not taken for N2 (`GET` on one machine).
#[derive(Debug)]
pub struct OperationLimiter {
    operations: Vec<(&'static Operation, PublicInterval, Buckets)>,
    clock: Clock,
}

/// Why a call was refused: the operation's interval and how long to wait.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TooSoon {
    pub interval: PublicInterval,
    pub wait: Duration,
}

impl OperationLimiter {
    /// The limits of the operation table, timed by `clock`.
    pub fn public(clock: Clock) -> Self {
        let operations = operations::ALL
            .into_iter()
            .filter_map(|operation| {
                let interval = PublicInterval::of(operation)?;
                Some((
                    operation,
                    interval,
                    Buckets::new(1.0 / interval.seconds, 1.0),
                ))
            })
            .collect();
        Self { operations, clock }
    }

    /// Lets `key` call `method` on `route` at `now` (Unix seconds), or says how long it
    /// must wait. Routes of no listed operation always pass.
    pub fn check_at(&self, key: &str, method: &str, route: &str, now: f64) -> Result<(), TooSoon> {
        let Some((_, interval, buckets)) = self
            .operations
            .iter()
            .find(|(operation, _, _)| operation.is_route(method, route))
        else {
            return Ok(());
        };
        buckets.take(key, now).map_err(|wait| TooSoon {
            interval: *interval,
            wait,
        })
    }

    pub fn check(&self, key: &str, method: &str, route: &str) -> Result<(), TooSoon> {
        self.check_at(key, method, route, self.clock.now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpudeck_wire::paths;

    const T0: f64 = 1_900_000_000.0;

    #[test]
    fn buckets_allow_bursts_then_refill() {
        let limiter = RateLimiter::new(3, Clock::fixed(T0));
        for _ in 0..3 {
            assert!(limiter.check_at("a", T0).is_ok());
        }
        let wait = limiter.check_at("a", T0).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(334),
            "{wait:?}"
        );
        // Another key has its own bucket.
        assert!(limiter.check_at("b", T0).is_ok());
        // A third of a second later one token is back, and only one.
        let later = T0 + 0.34;
        assert!(limiter.check_at("a", later).is_ok());
        assert!(limiter.check_at("a", later).is_err());
        // After a long pause the bucket is full again, but no fuller than the burst.
        let much_later = T0 + 60.0;
        for _ in 0..3 {
            assert!(limiter.check_at("a", much_later).is_ok());
        }
        assert!(limiter.check_at("a", much_later).is_err());
    }

    #[test]
    fn the_limiter_reads_the_servers_clock() {
        let clock = Clock::fixed(T0);
        let limiter = RateLimiter::new(1, clock.clone());
        assert!(limiter.check("a").is_ok());
        assert!(limiter.check("a").is_err());
        clock.set(T0 + 1.0);
        assert!(limiter.check("a").is_ok());
    }

    #[test]
    fn idle_full_buckets_are_forgotten() {
        let limiter = RateLimiter::new(1, Clock::fixed(T0));
        for i in 0..MAX_TRACKED_BUCKETS {
            let _ = limiter.check_at(&i.to_string(), T0);
        }
        assert!(limiter.check_at("new", T0 + 5.0).is_ok());
        assert!(limiter.buckets.buckets.lock().unwrap().len() < 10);
    }

    #[test]
    fn each_operation_keeps_its_public_interval_per_key() {
        let limiter = OperationLimiter::public(Clock::fixed(T0));
        let batch =
            |key: &str, now: f64| limiter.check_at(key, "POST", paths::MAINTENANCES_BATCH, now);
        assert_eq!(batch("a", T0), Ok(()));
        let refused = batch("a", T0 + 0.5).unwrap_err();
        assert_eq!(refused.interval.operation, "N4");
        assert_eq!(refused.interval.seconds, 2.0);
        assert_eq!(refused.wait, Duration::from_secs_f64(1.5));
        // Another key, and another operation of the same key, are not held back.
        assert_eq!(batch("b", T0 + 0.5), Ok(()));
        let dnotify = limiter.check_at("a", "PUT", paths::MACHINE_DNOTIFY, T0 + 0.5);
        assert_eq!(dnotify, Ok(()));
        // Two seconds after the call let through, the next one goes; a refused call
        // does not move that moment.
        assert_eq!(batch("a", T0 + 2.0), Ok(()));
        assert!(batch("a", T0 + 3.9).is_err());
        assert_eq!(batch("a", T0 + 4.0), Ok(()));
        // Waiting longer saves up no burst.
        assert_eq!(batch("a", T0 + 60.0), Ok(()));
        assert!(batch("a", T0 + 60.0).is_err());
    }

    #[test]
    fn the_intervals_are_the_public_services() {
        let limiter = OperationLimiter::public(Clock::fixed(T0));
        let wait_after_one = |method: &str, route: &str| {
            limiter.check_at("k", method, route, T0).unwrap();
            limiter
                .check_at("k", method, route, T0)
                .unwrap_err()
                .wait
                .as_secs_f64()
        };
        for (method, route, seconds) in [
            ("PUT", paths::MACHINE_DNOTIFY, 2.5),
            ("PUT", paths::MACHINE_CANCEL_MAINT, 2.5),
            ("POST", paths::MAINTENANCES_BATCH, 2.0),
            ("DELETE", paths::MAINTENANCES_BATCH, 2.0),
            ("GET", paths::MACHINE, 1.1),
            // The generated reference's 2 for N12 and N18, not the docs' 5.5 and 3.0.
            ("DELETE", paths::VOLUMES, 2.0),
            ("DELETE", paths::TEAM_MEMBER, 2.0),
            // The seed operations' own thresholds (spec neighbours §1.5).
            ("GET", paths::MAINTENANCES, 2.0),
            ("PUT", paths::DEFRAG_OFFERS, 2.8),
            ("DELETE", paths::USER_TEMPLATES, 0.9),
            ("DELETE", paths::TEMPLATE_ALIAS, 2.0),
            ("PUT", paths::VOLUMES, 1.0),
            ("GET", paths::SUBACCOUNTS, 2.1),
            ("GET", paths::TEAM_ROLE, 2.0),
            ("GET", paths::TEAM_MEMBERS, 2.0),
        ] {
            let wait = wait_after_one(method, route);
            assert!((wait - seconds).abs() < 1e-6, "{method} {route}: {wait}");
        }
        // The key's own account and the document are not limited, nor is a method the
        // operation does not use.
        for (method, route) in [
            ("GET", paths::CURRENT_USER),
            ("GET", paths::OPENAPI),
            ("GET", paths::MAINTENANCES_BATCH),
        ] {
            for _ in 0..5 {
                assert_eq!(
                    limiter.check_at("k", method, route, T0),
                    Ok(()),
                    "{method} {route}"
                );
            }
        }
    }
}
