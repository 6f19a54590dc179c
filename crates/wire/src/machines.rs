//! Host machines: maintenance windows and defragmentation of GPU offers.

use crate::machine_ids::MachineIdsInput;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An element of `GET /machines/maintenances`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MaintenanceWindow {
    pub id: i64,
    pub machine_id: i64,
    /// Unix seconds when maintenance begins.
    pub start_time: f64,
    /// Whole hours, at least 1.
    pub duration_hours: i64,
    pub maintenance_category: MaintenanceCategory,
    #[serde(default)]
    pub maintenance_reason: Option<String>,
    /// Unix seconds when the record was created.
    pub created_at: f64,
    /// Unix seconds of cancellation; null while the window is active.
    #[serde(default)]
    pub cancelled_at: Option<f64>,
    /// `start_time + duration_hours * 3600`.
    pub end_time: f64,
    /// The marketplace scheduled this window; the host cannot cancel it. Absent (older
    /// answers, the public service) means false.
    #[serde(default)]
    pub scheduled_by_marketplace: bool,
}

impl MaintenanceWindow {
    /// The end the specification defines: `start_time + duration_hours * 3600`.
    pub fn computed_end(start_time: f64, duration_hours: i64) -> f64 {
        start_time + duration_hours as f64 * 3600.0
    }
}

/// The stored category of a maintenance window. Values the specification does not list
/// are kept as they came rather than refused, so a new category on the public service
/// shows up in the console instead of breaking the whole list.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MaintenanceCategory {
    Power,
    Internet,
    Disk,
    Gpu,
    Software,
    Other,
    Unrecognised(String),
}

impl MaintenanceCategory {
    /// The categories of the specification, in the order the console lists them.
    pub const KNOWN: [MaintenanceCategory; 6] = [
        MaintenanceCategory::Power,
        MaintenanceCategory::Internet,
        MaintenanceCategory::Disk,
        MaintenanceCategory::Gpu,
        MaintenanceCategory::Software,
        MaintenanceCategory::Other,
    ];

    /// The stored value, as on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            MaintenanceCategory::Power => "power",
            MaintenanceCategory::Internet => "internet",
            MaintenanceCategory::Disk => "disk",
            MaintenanceCategory::Gpu => "gpu",
            MaintenanceCategory::Software => "software",
            MaintenanceCategory::Other => "other",
            MaintenanceCategory::Unrecognised(raw) => raw,
        }
    }

    /// The label people know from the marketplace console (`software` reads "Updates").
    pub fn label(&self) -> &str {
        match self {
            MaintenanceCategory::Power => "Power",
            MaintenanceCategory::Internet => "Internet",
            MaintenanceCategory::Disk => "Disk",
            MaintenanceCategory::Gpu => "GPU",
            MaintenanceCategory::Software => "Updates",
            MaintenanceCategory::Other => "Other",
            MaintenanceCategory::Unrecognised(raw) => raw,
        }
    }

    /// Reads a stored value; anything unlisted becomes [`MaintenanceCategory::Unrecognised`].
    pub fn from_stored(raw: &str) -> Self {
        Self::KNOWN
            .into_iter()
            .find(|known| known.as_str() == raw)
            .unwrap_or_else(|| MaintenanceCategory::Unrecognised(raw.to_owned()))
    }
}

/// On the wire a plain string; the schema lists the known values as examples only, since
/// unknown values are kept (see [`MaintenanceCategory::Unrecognised`]).
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for MaintenanceCategory {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "One of power, internet, disk, gpu, software, other (the console labels software \"Updates\").",
            ))
            .examples(Self::KNOWN.iter().map(|c| c.as_str().to_owned()))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for MaintenanceCategory {}

impl Serialize for MaintenanceCategory {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MaintenanceCategory {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        Ok(Self::from_stored(&raw))
    }
}

/// Body of `PUT /machines/defrag_offers`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DefragRequest {
    pub machine_ids: MachineIdsInput,
}

/// Answer of `PUT /machines/defrag_offers`.
///
/// The reference server's counts: `n0` contracts whose GPU slots moved, `n1` free-slot
/// offers before, `n2` free-slot offers after, summed over the machines asked for.
/// When no valid machine was named the answer is `{success: false, defragmented: null}`
/// and the counts are absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DefragResult {
    pub success: bool,
    /// Machines whose layout changed; null when no valid machine was named.
    #[serde(default)]
    pub defragmented: Option<Vec<i64>>,
    /// Contracts whose slot assignment moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n0: Option<i64>,
    /// Free-slot offers (aligned power-of-two blocks) before defragmenting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n1: Option<i64>,
    /// Free-slot offers after defragmenting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n2: Option<i64>,
}

impl DefragResult {
    /// The answer when none of the named machines exists and is the caller's.
    pub fn nothing_valid() -> Self {
        Self {
            success: false,
            defragmented: None,
            n0: None,
            n1: None,
            n2: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maintenance_window_round_trips_the_spec_shape() {
        let text = json!({
            "id": 9, "machine_id": 1001, "start_time": 1_800_000_000.0, "duration_hours": 4,
            "maintenance_category": "software", "maintenance_reason": null,
            "created_at": 1_799_000_000.5, "cancelled_at": null, "end_time": 1_800_014_400.0,
            "something_new": [1, 2]
        });
        let window: MaintenanceWindow = serde_json::from_value(text).unwrap();
        assert_eq!(window.maintenance_category, MaintenanceCategory::Software);
        assert_eq!(window.maintenance_category.label(), "Updates");
        assert_eq!(window.cancelled_at, None);
        assert_eq!(window.maintenance_reason, None);
        assert_eq!(
            window.end_time,
            MaintenanceWindow::computed_end(window.start_time, 4)
        );
        let back = serde_json::to_value(&window).unwrap();
        assert_eq!(back["cancelled_at"], serde_json::Value::Null);
        assert_eq!(back["maintenance_category"], "software");
        assert!(back.get("something_new").is_none());
        assert!(!window.scheduled_by_marketplace);
        assert_eq!(back["scheduled_by_marketplace"], false);
    }

    #[test]
    fn unknown_categories_are_kept() {
        let category: MaintenanceCategory = serde_json::from_str("\"cooling\"").unwrap();
        assert_eq!(
            category,
            MaintenanceCategory::Unrecognised("cooling".into())
        );
        assert_eq!(serde_json::to_string(&category).unwrap(), "\"cooling\"");
        for known in MaintenanceCategory::KNOWN {
            assert_eq!(MaintenanceCategory::from_stored(known.as_str()), known);
        }
    }

    #[test]
    fn defrag_result_shapes() {
        let done: DefragResult =
            serde_json::from_str(r#"{"success":true,"defragmented":[1,2],"n0":3,"n1":4,"n2":1}"#)
                .unwrap();
        assert_eq!(done.defragmented, Some(vec![1, 2]));
        assert_eq!((done.n0, done.n1, done.n2), (Some(3), Some(4), Some(1)));

        let nothing: DefragResult =
            serde_json::from_str(r#"{"success":false,"defragmented":null}"#).unwrap();
        assert_eq!(nothing, DefragResult::nothing_valid());
        assert_eq!(
            serde_json::to_value(&nothing).unwrap(),
            serde_json::json!({"success": false, "defragmented": null})
        );
    }

    #[test]
    fn defrag_request_takes_every_body_form() {
        for body in [
            r#"{"machine_ids": 5}"#,
            r#"{"machine_ids": "5,6"}"#,
            r#"{"machine_ids": [5, 6]}"#,
        ] {
            let request: DefragRequest = serde_json::from_str(body).unwrap();
            assert_eq!(request.machine_ids.resolve().unwrap()[0], 5, "{body}");
        }
    }
}
