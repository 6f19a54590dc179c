//! Renter reports (fleet-health N24): the problems renters reported on a machine.

use crate::fleet::NumberOrText;
use serde::{Deserialize, Serialize};

/// The most reports N24 answers with, newest first ("the 20 most recent", generated ref).
pub const MAX_REPORTS: usize = 20;
/// The longest `message` kept, in characters ("truncated to 512 characters").
pub const MAX_REPORT_MESSAGE_CHARS: usize = 512;
/// The problems the renter's report form offers (generated ref for `PUT …/report`).
pub const REPORT_PROBLEMS: [&str; 6] = [
    "Unable To Start Instance",
    "Instance Takes Too Long To Load",
    "Instance Has Less Disk Space Than Requested",
    "Machine Has Port Issues",
    "Machine Performance Is Less Than Expected",
    "Other",
];

/// One report of `GET /machines/{id}/reports/` (N24), whose answer is a bare array of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RenterReport {
    /// The category the renter chose, e.g. `Machine Has Port Issues`; shown as received.
    pub problem: String,
    /// The renter's text: plain text, never markup.
    pub message: String,
    /// When it was filed. The reference server sends Unix seconds (the generated ref's
    /// type); the docs type it as a date-time string, so a string is read too.
    pub created_at: NumberOrText,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_report_reads_either_form_of_created_at() {
        let seconds: RenterReport = serde_json::from_value(json!({
            "problem": "Other", "message": "fan noise", "created_at": 1717632000
        }))
        .unwrap();
        assert_eq!(seconds.created_at, NumberOrText::Number(1_717_632_000.0));
        let text: RenterReport = serde_json::from_value(json!({
            "problem": "Other", "message": "", "created_at": "2024-06-06T00:00:00Z",
            "id": 4
        }))
        .unwrap();
        assert_eq!(
            text.created_at,
            NumberOrText::Text("2024-06-06T00:00:00Z".into())
        );
    }

    #[test]
    fn a_report_needs_its_three_fields() {
        let missing = serde_json::from_value::<RenterReport>(json!({
            "problem": "Other", "created_at": 1
        }));
        assert!(missing.is_err());
    }
}
