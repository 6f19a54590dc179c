//! The fetch layer's pure half: the request of each operation, the one error type and the
//! outcome classes, when to send again, and the public pace of each endpoint. The
//! console's `api` sends them.

pub mod client;
pub mod error;
pub mod in_flight;
pub mod pacing;
pub mod requests;
pub mod retry;

pub use error::{ApiError, Outcome, Refusal};
pub use retry::{
    long_limit, may_send_again, retry_after_seconds, LongLimit, MAX_RATE_LIMIT_RETRIES,
    MAX_RETRY_AFTER_SECONDS,
};
