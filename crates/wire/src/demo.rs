//! The reference server's demo triggers (fleet-health D1–D3, a project rule): a machine's
//! health changed, a renter's report added, or a host event raised, so that tests and demo
//! scripts can make the server emit the events of §3.5. They exist only in demo or test
//! mode, outside `/api/v0/`; the console never calls them.

use crate::fleet::Machine;
use crate::reports::RenterReport;
use serde::{Deserialize, Serialize};

/// An event a trigger emitted: its type's full key and the id every delivery of it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EmittedEvent {
    /// e.g. `host:machine_offline`.
    pub key: String,
    /// 32 lower-case hex characters.
    pub event_id: String,
}

/// Body of D1 `PUT /_demo/machines/{id}/health`: any subset of these fields; an absent
/// field is left as it is. Any other field is refused. For sending (tests, the OpenAPI
/// schema): the server reads bodies field by field, and serde reads a `null` error as
/// absent here, not as `Some(None)`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DemoHealthRequest {
    /// true stores the offline time as now (kept when already offline); false clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offline: Option<bool>,
    /// The machine's error, at most 1000 characters; null (or blank) for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_description: Option<Option<String>>,
    /// An error about VM instances, at most 1000 characters; null (or blank) for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vm_error_msg: Option<Option<String>>,
    /// `verified`, `unverified` or `deverified`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(schema_with = schemas::verification))]
    pub verification: Option<String>,
    /// 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1))]
    pub reliability2: Option<f64>,
    /// GB, 0 to the machine's `max_disk_space`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avail_disk_space: Option<f64>,
    /// °C.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_max_cur_temp: Option<f64>,
    /// 1 to 64 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 64))]
    pub driver_version: Option<String>,
    /// 0 or more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub cuda_max_good: Option<f64>,
}

/// Answer of D1: the machine as N1 now serves it, and the events its changes emitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DemoHealthResponse {
    pub success: bool,
    pub machine: Machine,
    pub events: Vec<EmittedEvent>,
}

/// Body of D2 `POST /_demo/machines/{id}/reports`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DemoReportRequest {
    /// One of [`crate::reports::REPORT_PROBLEMS`].
    #[cfg_attr(feature = "openapi", schema(schema_with = schemas::problem))]
    pub problem: String,
    /// Truncated to 512 characters; empty when absent or null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Unix seconds, 0 to now; now when absent or null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<f64>,
}

/// Answer of D2: the report as N24 will list it, and the `host:machine_reported` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DemoReportResponse {
    pub success: bool,
    pub report: RenterReport,
    pub events: Vec<EmittedEvent>,
}

/// Body of D3 `POST /_demo/machines/{id}/events`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DemoEventRequest {
    /// A `host:` key of the catalog (N25), e.g. `host:near_end_date`.
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = "^host:[a-z_]+$", example = "host:near_end_date")
    )]
    pub event_type: String,
}

/// Answer of D3: the one event emitted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DemoEventsResponse {
    pub success: bool,
    pub events: Vec<EmittedEvent>,
}

/// The enumerated fields' schemas, from the one list of their values.
#[cfg(feature = "openapi")]
mod schemas {
    use crate::reports::REPORT_PROBLEMS;
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::RefOr;

    fn one_of(values: &[&str]) -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(values.iter().copied()))
            .into()
    }

    /// The renter form's six problems.
    pub fn problem() -> RefOr<Schema> {
        one_of(&REPORT_PROBLEMS)
    }

    /// The three states of verification.
    pub fn verification() -> RefOr<Schema> {
        one_of(&crate::fleet::VERIFICATIONS)
    }
}
