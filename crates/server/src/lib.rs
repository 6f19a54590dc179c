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
pub mod holding;
pub mod keys;
pub mod limits;
pub mod middleware;
pub mod notifications;
pub mod openapi;
pub mod query;
pub mod query_string;
pub mod quote;
pub mod router;
pub mod routes;
pub mod serve;
pub mod state;
pub mod static_files;
pub mod upstream;

pub use config::{Clock, Config, DbLocation};
pub use db::Db;
pub use error::ApiError;
pub use middleware::panic_response;
pub use router::{app, app_with};
pub use serve::{start, RunningServer};
pub use state::AppState;
