//! The error body every refusal carries.

use serde::{Deserialize, Serialize};

/// `{error, msg}`. The public service sometimes adds `success: false` or other fields,
/// and a few of its answers carry only `msg`; both fields therefore default to empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// A short machine-readable code, e.g. `invalid_args`, `not_found`, `auth_error`.
    #[serde(default)]
    pub error: String,
    /// A sentence for people.
    #[serde(default)]
    pub msg: String,
}

impl ErrorBody {
    pub fn new(error: impl Into<String>, msg: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            msg: msg.into(),
        }
    }
}
