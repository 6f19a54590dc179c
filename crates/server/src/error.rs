//! One error type for every refusal: a status plus the `{error, msg}` body.
//!
//! Internal failures (SQLite, the pool, a panicking task) are logged with their detail and
//! answered with a fixed 500 body, so no SQL, path or panic text ever reaches a client.

use crate::db::DbError;
use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gpudeck_wire::ErrorBody;
use std::borrow::Cow;

/// A refusal: an HTTP status, a machine-readable code and a sentence for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: Cow<'static, str>,
    pub msg: String,
    /// Seconds for a `Retry-After` header (a 429 that says when to retry).
    pub retry_after: Option<u64>,
}

/// The message of every 500; the cause goes to the log only.
pub const INTERNAL_MSG: &str = "the server failed to handle this request; it has been logged";

impl ApiError {
    pub fn new(
        status: StatusCode,
        error: impl Into<Cow<'static, str>>,
        msg: impl Into<String>,
    ) -> Self {
        Self {
            status,
            error: error.into(),
            msg: msg.into(),
            retry_after: None,
        }
    }

    /// 429 `rate_limited`, with `Retry-After: seconds` (at least 1).
    pub fn rate_limited(msg: impl Into<String>, seconds: u64) -> Self {
        Self {
            retry_after: Some(seconds.max(1)),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", msg)
        }
    }

    /// 400 `invalid_args`: the request is malformed or names something impossible.
    pub fn invalid_args(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_args", msg)
    }

    /// 400 `invalid_json`: the body is not JSON.
    pub fn invalid_json(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_json", msg)
    }

    /// 401 `auth_error`.
    pub fn unauthorized(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "auth_error", msg)
    }

    /// 403 `forbidden`.
    pub fn forbidden(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", msg)
    }

    /// 404 `not_found`.
    pub fn not_found(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", msg)
    }

    /// 409 with a specific code (`in_use`, `insufficient_capacity`).
    pub fn conflict(error: &'static str, msg: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, error, msg)
    }

    /// 422 `invalid_args`: the body parses but a value is out of range.
    pub fn unprocessable(msg: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_args", msg)
    }

    /// 413 `too_large`.
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request body is larger than the limit of {limit} bytes"),
        )
    }

    /// 500 `internal_error`; `cause` is logged, never sent.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            INTERNAL_MSG,
        )
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody::new(self.error.clone(), self.msg.clone())
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.error, self.msg)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// A storage fault is the server's: a 500, its cause in the log only.
impl From<DbError> for ApiError {
    fn from(error: DbError) -> Self {
        Self::internal(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_never_carry_their_cause() {
        let error = ApiError::internal("no such table: secret_stuff at /var/db");
        assert_eq!(error.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(error.error, "internal_error");
        assert!(!error.msg.contains("secret_stuff"));
    }

    #[test]
    fn storage_faults_are_500s_without_their_cause() {
        let fault = DbError::from(rusqlite::Error::InvalidColumnName("secret_column".into()));
        let error = ApiError::from(fault);
        assert_eq!(error.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(error.msg, INTERNAL_MSG);
    }
}
