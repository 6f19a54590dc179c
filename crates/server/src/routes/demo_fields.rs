//! The bodies of the demo triggers D1–D3 (spec fleet-health), read field by field: each
//! refusal is 400 `invalid_args` naming the field, and a field a trigger does not take is
//! refused rather than ignored, so that a misspelt signal is not silently left unchanged.

use crate::db::machine_health::{HealthChange, VERIFICATIONS};
use crate::error::ApiError;
use crate::notifications::catalog::{self, Kind};
use crate::quote::quote;
use gpudeck_wire::reports::REPORT_PROBLEMS;
use serde_json::{Map, Value};

/// The longest error text D1 stores, in characters.
pub const MAX_ERROR_CHARS: usize = 1000;
/// The longest `driver_version` D1 stores, in characters.
pub const MAX_DRIVER_VERSION_CHARS: usize = 64;

const HEALTH_FIELDS: [&str; 9] = [
    "offline",
    "error_description",
    "vm_error_msg",
    "verification",
    "reliability2",
    "avail_disk_space",
    "gpu_max_cur_temp",
    "driver_version",
    "cuda_max_good",
];
const REPORT_FIELDS: [&str; 3] = ["problem", "message", "created_at"];
const EVENT_FIELDS: [&str; 1] = ["event_type"];

/// Refuses the first field (by name) that is not one of `known`.
fn only(body: &Map<String, Value>, known: &[&str]) -> Result<(), ApiError> {
    let mut unknown: Vec<&String> = body
        .keys()
        .filter(|name| !known.contains(&name.as_str()))
        .collect();
    unknown.sort();
    match unknown.first() {
        None => Ok(()),
        Some(name) => Err(ApiError::invalid_args(format!(
            "'{}' is not a field of this trigger, which takes: {}",
            quote(name, 40),
            known.join(", ")
        ))),
    }
}

/// A number field's value when present, checked by `fits`; refused with `wanted`.
fn number_field(
    body: &Map<String, Value>,
    name: &str,
    fits: impl Fn(f64) -> bool,
    wanted: &str,
) -> Result<Option<f64>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(value) => match value.as_f64() {
            Some(n) if fits(n) => Ok(Some(n)),
            _ => Err(ApiError::invalid_args(format!("{name} must be {wanted}"))),
        },
    }
}

/// An error text when present: a string of at most [`MAX_ERROR_CHARS`], or null to clear.
fn error_field(body: &Map<String, Value>, name: &str) -> Result<Option<Option<String>>, ApiError> {
    match body.get(name) {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(Value::String(text)) if text.chars().count() <= MAX_ERROR_CHARS => {
            Ok(Some(Some(text.clone())))
        }
        Some(Value::String(_)) => Err(ApiError::invalid_args(format!(
            "{name} must be at most {MAX_ERROR_CHARS} characters"
        ))),
        Some(_) => Err(ApiError::invalid_args(format!(
            "{name} must be a string or null"
        ))),
    }
}

/// D1's body: any subset of the health signals. `avail_disk_space`'s upper bound is the
/// machine's `max_disk_space`, checked once the machine is known.
pub fn health_change(body: &Map<String, Value>) -> Result<HealthChange, ApiError> {
    only(body, &HEALTH_FIELDS)?;
    let offline = match body.get("offline") {
        None => None,
        Some(Value::Bool(offline)) => Some(*offline),
        Some(_) => return Err(ApiError::invalid_args("offline must be true or false")),
    };
    let verification = match body.get("verification") {
        None => None,
        Some(value) => Some(
            VERIFICATIONS
                .into_iter()
                .find(|known| value.as_str() == Some(known))
                .ok_or_else(|| {
                    ApiError::invalid_args(format!(
                        "verification must be one of: {}",
                        VERIFICATIONS.join(", ")
                    ))
                })?,
        ),
    };
    let driver_version = match body.get("driver_version") {
        None => None,
        Some(Value::String(version))
            if (1..=MAX_DRIVER_VERSION_CHARS).contains(&version.chars().count()) =>
        {
            Some(version.clone())
        }
        Some(_) => {
            return Err(ApiError::invalid_args(format!(
                "driver_version must be a string of 1 to {MAX_DRIVER_VERSION_CHARS} characters"
            )))
        }
    };
    Ok(HealthChange {
        offline,
        error_description: error_field(body, "error_description")?,
        vm_error_msg: error_field(body, "vm_error_msg")?,
        verification,
        reliability2: number_field(
            body,
            "reliability2",
            |r| (0.0..=1.0).contains(&r),
            "a number from 0 to 1",
        )?,
        avail_disk_space: number_field(
            body,
            "avail_disk_space",
            |gb| gb >= 0.0,
            "a number of GB, 0 or more",
        )?,
        gpu_max_cur_temp: number_field(body, "gpu_max_cur_temp", |_| true, "a number")?,
        driver_version,
        cuda_max_good: number_field(body, "cuda_max_good", |v| v >= 0.0, "a number, 0 or more")?,
    })
}

/// D2's body, read: the problem, the message (empty when absent or null) and when it was
/// filed (`None`: now).
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFields {
    pub problem: &'static str,
    pub message: String,
    pub created_at: Option<f64>,
}

/// D2's body: `problem` one of the renter form's six, `message` a string, `created_at`
/// Unix seconds from 0 to `now`.
pub fn report(body: &Map<String, Value>, now: f64) -> Result<ReportFields, ApiError> {
    only(body, &REPORT_FIELDS)?;
    let problem = REPORT_PROBLEMS
        .into_iter()
        .find(|known| body.get("problem").and_then(Value::as_str) == Some(known))
        .ok_or_else(|| {
            // The renter operation's wording (generated ref).
            ApiError::invalid_args(format!(
                "Problem must be one of: {}",
                REPORT_PROBLEMS.join(", ")
            ))
        })?;
    let message = match body.get("message") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(message)) => message.clone(),
        Some(_) => return Err(ApiError::invalid_args("message must be a string")),
    };
    let created_at = match body.get("created_at") {
        None | Some(Value::Null) => None,
        Some(value) => match value.as_f64() {
            Some(at) if (0.0..=now).contains(&at) => Some(at),
            _ => {
                return Err(ApiError::invalid_args(
                    "created_at must be a number of Unix seconds, from 0 to now",
                ))
            }
        },
    };
    Ok(ReportFields {
        problem,
        message,
        created_at,
    })
}

/// D3's body: `event_type`, a `host:` key of the catalog (the reference server emits only
/// host events, §3.5).
pub fn event_type(body: &Map<String, Value>) -> Result<&'static Kind, ApiError> {
    only(body, &EVENT_FIELDS)?;
    let sent = body
        .get("event_type")
        .ok_or_else(|| ApiError::invalid_args("event_type is required"))?;
    let text = match sent {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    catalog::CATALOG
        .iter()
        .find(|kind| kind.is_host() && sent.as_str() == Some(kind.key))
        .ok_or_else(|| ApiError::invalid_args(format!("Unknown event type: {}", quote(&text, 80))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn an_empty_health_body_changes_nothing() {
        assert_eq!(
            health_change(&map(json!({}))).unwrap(),
            HealthChange::default()
        );
    }

    #[test]
    fn error_texts_are_counted_in_characters() {
        let at_most = "é".repeat(MAX_ERROR_CHARS);
        let change = health_change(&map(json!({"error_description": at_most}))).unwrap();
        assert_eq!(change.error_description, Some(Some(at_most)));
        let over = "é".repeat(MAX_ERROR_CHARS + 1);
        let refused = health_change(&map(json!({"vm_error_msg": over}))).unwrap_err();
        assert_eq!(refused.msg, "vm_error_msg must be at most 1000 characters");
    }

    #[test]
    fn the_first_unknown_field_by_name_is_named() {
        let refused =
            health_change(&map(json!({"zeta": 1, "alpha": 2, "offline": true}))).unwrap_err();
        assert!(
            refused.msg.starts_with("'alpha' is not a field"),
            "{}",
            refused.msg
        );
    }

    #[test]
    fn only_host_types_can_be_raised() {
        let kind = event_type(&map(json!({"event_type": "host:near_end_date"}))).unwrap();
        assert_eq!(kind.key, "host:near_end_date");
        for (sent, msg) in [
            (json!("client:outbid"), "Unknown event type: client:outbid"),
            (json!("near_end_date"), "Unknown event type: near_end_date"),
            (json!(7), "Unknown event type: 7"),
        ] {
            let refused = event_type(&map(json!({ "event_type": sent }))).unwrap_err();
            assert_eq!(refused.msg, msg);
        }
    }
}
