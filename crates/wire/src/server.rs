//! `GET /api/v0/gpudeck/server` (project rule, not the public service's): which server
//! answers, so that the console can say whether it shows demo data or a real account.
//! The public service does not have it; the console then shows the base URL.

use serde::{Deserialize, Serialize};

/// Where the data a server answers with comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "data")]
pub enum ServerInfo {
    /// The reference server's own database, seeded with the demo data.
    Demo,
    /// The reference server's own database, without the demo.
    Local,
    /// Every `/api/v0/` request goes on to another service: `upstream` is its host name
    /// (never its path or anything after it).
    Forwarded { upstream: String },
}
