//! [`AppState`]: what every handler shares, made once from a [`Config`].

use crate::config::{Clock, Config};
use crate::db::Db;
use crate::{demo, limits, static_files, upstream};
use std::sync::Arc;
use tower_http::services::{ServeDir, ServeFile};

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
    /// Set when [`Config::public_rate_limits`] is.
    pub operation_limiter: Option<Arc<limits::OperationLimiter>>,
    /// The built console, when [`Config::static_dir`] is set.
    pub(crate) static_dir: Option<ServeDir<ServeFile>>,
    /// The Content-Security-Policy sent with the console's pages.
    pub(crate) content_security_policy: axum::http::HeaderValue,
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
        let secret: Arc<[u8]> = db.secret()?.into();
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
            .map(|n| Arc::new(limits::RateLimiter::new(n, clock.clone())));
        let operation_limiter = config
            .public_rate_limits
            .then(|| Arc::new(limits::OperationLimiter::public(clock.clone())));
        let content_security_policy = static_files::content_security_policy(&config.connect_src)?;
        Ok(AppState {
            content_security_policy,
            db,
            clock,
            secret,
            config: Arc::new(config),
            upstream,
            rate_limiter,
            operation_limiter,
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
