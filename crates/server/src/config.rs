//! Server configuration and the clock.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Where the SQLite database lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbLocation {
    /// A file, created (with its schema) when missing.
    File(PathBuf),
    /// A private in-memory database that lives as long as the server.
    Memory,
}

/// Everything [`crate::start`] needs. [`Config::default`] is a local server on
/// `127.0.0.1:8787` with an in-memory database and no demo data.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to bind; port 0 picks a free port (see [`crate::RunningServer::addr`]).
    pub addr: SocketAddr,
    pub db: DbLocation,
    /// Seed the demo data of [`crate::demo`] when the database is empty.
    pub demo: bool,
    /// Serve the built console from this directory, with an SPA fallback to `index.html`.
    pub static_dir: Option<PathBuf>,
    /// Forward every `/api/v0/...` request to this base URL instead of answering locally.
    pub upstream: Option<String>,
    /// Origins allowed to call the API from a browser.
    pub cors_origins: Vec<String>,
    /// Largest accepted request body, in bytes.
    pub body_limit: usize,
    /// Longest a request may take before it is answered with 503.
    pub request_timeout: Duration,
    /// The clock; [`Clock::System`] unless a test fixes "now".
    pub clock: Clock,
    /// Requests per second allowed per API key (token bucket, bursts of the same size);
    /// `None` (the default) turns rate limiting off. Beyond it: 429 `rate_limited`.
    pub rate_limit: Option<u32>,
    /// Limit each operation per API key as the public service does, to one call per its
    /// minimum interval (`gpudeck_wire::operations`); beyond it: 429
    /// `rate_limited`. Off by default; operations forwarded upstream are not limited here.
    pub public_rate_limits: bool,
    /// How the 429s of `rate_limit` and `public_rate_limits` answer: JSON with
    /// `Retry-After` (the default) or the public service's plain text without it.
    pub rate_limit_shape: crate::limits::RefusalShape,
    /// Origins the served console may call besides its own, e.g. a REST base URL people
    /// sign in with; they join `connect-src` of the Content-Security-Policy.
    pub connect_src: Vec<String>,
    /// Test mode (spec fleet-health §3.3): webhooks may also target `127.0.0.1` and
    /// `localhost` over http, as in demo mode, so that tests can receive deliveries, and
    /// the demo triggers D1–D3 exist. Nothing else changes.
    pub test_mode: bool,
}

/// Origins `trunk serve` uses.
pub const DEFAULT_CORS_ORIGINS: [&str; 2] = ["http://127.0.0.1:8080", "http://localhost:8080"];
pub const DEFAULT_ADDR: &str = "127.0.0.1:8787";
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest request target (path and query string), in bytes; longer → 414 `uri_too_long`.
/// Room for 1000 machine ids as a URL-encoded JSON array.
pub const MAX_URI_BYTES: usize = 32 * 1024;
/// Most bytes of request headers (names and values); more → 431 `headers_too_large`.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Longest team role name looked up, in characters; longer → 400 `invalid_args`.
pub const MAX_ROLE_NAME_CHARS: usize = 200;
/// A role's name when created or renamed (N14 create role, N15 update role), in characters.
pub const ROLE_NAME_CHARS: std::ops::RangeInclusive<usize> = 2..=50;
/// Longest e-mail address an invitation takes (N17, invite member), in characters.
pub const MAX_INVITE_EMAIL_CHARS: usize = 254;
/// An invitation expires four hours after it is sent (N17).
pub const INVITATION_LIFETIME_SECS: f64 = 4.0 * 3600.0;
/// A second invitation to the same address waits this long after the first (N17).
pub const INVITATION_REPEAT_SECS: f64 = 60.0;
/// Invitations a team may send in any 3600 s (N17).
pub const INVITATIONS_PER_HOUR: i64 = 20;

impl Config {
    /// Demo or test mode (spec fleet-health §3.3): webhooks may target this machine
    /// (`127.0.0.1`, `localhost`), and the demo triggers D1–D3 exist.
    pub fn demo_or_test_mode(&self) -> bool {
        self.demo || self.test_mode
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: DEFAULT_ADDR.parse().expect("valid default address"),
            db: DbLocation::Memory,
            demo: false,
            static_dir: None,
            upstream: None,
            cors_origins: DEFAULT_CORS_ORIGINS.iter().map(|o| o.to_string()).collect(),
            body_limit: DEFAULT_BODY_LIMIT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            clock: Clock::System,
            rate_limit: None,
            public_rate_limits: false,
            rate_limit_shape: Default::default(),
            connect_src: Vec::new(),
            test_mode: false,
        }
    }
}

/// "Now" in Unix seconds. Tests use [`Clock::fixed`] so that expiry is exact.
#[derive(Debug, Clone, Default)]
pub enum Clock {
    #[default]
    System,
    /// A settable time, shared by every clone (f64 bits).
    Fixed(Arc<AtomicU64>),
}

impl Clock {
    pub fn fixed(now: f64) -> Self {
        Clock::Fixed(Arc::new(AtomicU64::new(now.to_bits())))
    }

    pub fn now(&self) -> f64 {
        match self {
            Clock::System => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0),
            Clock::Fixed(bits) => f64::from_bits(bits.load(Ordering::SeqCst)),
        }
    }

    /// Moves a fixed clock; does nothing to the system clock.
    pub fn set(&self, now: f64) {
        if let Clock::Fixed(bits) = self {
            bits.store(now.to_bits(), Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_is_shared_by_clones() {
        let clock = Clock::fixed(10.0);
        let other = clock.clone();
        clock.set(20.5);
        assert_eq!(other.now(), 20.5);
        assert!(Clock::System.now() > 1.7e9);
    }
}
