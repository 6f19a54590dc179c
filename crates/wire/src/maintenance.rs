//! Scheduling and cancelling maintenance windows (neighbours N3–N7).
//!
//! The request types read every field leniently ([`Lenient`]) and [`validate`] them in the
//! order they are declared, so each operation refuses in the specification's words and
//! status (an `sdate` refusal is 422, the others 400). The console sends the same types,
//! built with their `new` functions, and may run the same validation before sending.
//!
//! [`validate`]: ScheduleMaintenanceRequest::validate

use crate::calendar::days_from_civil;
use crate::lenient::{Lenient, Whole};
use crate::machine_ids::{MachineIdsError, MachineIdsInput};
use crate::machines::MaintenanceCategory;
use serde::{Deserialize, Serialize};

/// An hour, in seconds: windows last whole hours, and times are Unix seconds.
pub const HOUR: f64 = 3600.0;
/// The latest start: one year (365 days) after now.
pub const MAX_LEAD_SECONDS: f64 = 365.0 * 24.0 * HOUR;
/// The longest window, in hours (a project rule): a year.
pub const MAX_DURATION_HOURS: f64 = 8760.0;
/// The longest reason, in characters (a project rule).
pub const MAX_REASON_CHARS: usize = 300;
/// The most machines (N4) or windows (N7) one batch may name.
pub const MAX_BATCH: usize = 100;
/// The category the official client sends when none was chosen; stored as `other`.
pub const CATEGORY_NOT_PROVIDED: &str = "not provided";

/// When a window starts: Unix seconds (what the official client sends), or an RFC 3339
/// string (the docs' type, e.g. `2026-10-30T14:00:00Z`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Sdate {
    Unix(f64),
    Text(String),
}

/// `oneOf`: Unix seconds, or an RFC 3339 date-time string.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Sdate {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            KnownFormat, ObjectBuilder, OneOfBuilder, SchemaFormat, Type,
        };
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Number)
                    .description(Some("Unix seconds, UTC")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
                    .description(Some("RFC 3339, e.g. 2026-10-30T14:00:00Z")),
            )
            .description(Some(
                "When the window starts: after now and at most a year (31 536 000 s) ahead",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Sdate {}

/// Schemas of request fields whose published form is narrower than what is read.
#[cfg(feature = "openapi")]
pub mod schemas {
    use super::{CATEGORY_NOT_PROVIDED, MAX_BATCH};
    use crate::machine_ids::MACHINE_IDS_PATTERN;
    use crate::machines::MaintenanceCategory;
    use utoipa::openapi::schema::{
        ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type,
    };
    use utoipa::openapi::RefOr;

    fn id() -> ObjectBuilder {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(1))
    }

    /// A positive 64-bit id.
    pub fn positive_id() -> RefOr<Schema> {
        id().into()
    }

    /// N4's `machine_ids` and N7's `maintenance_ids`: one id, a string of them (the shared
    /// parser's, a project rule: published, so that a request the server takes is never
    /// one its document calls invalid), or an array of 1–100.
    pub fn batch_ids() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(id())
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(MACHINE_IDS_PATTERN))
                    .description(Some("Ids separated by commas or spaces, at most 100")),
            )
            .item(
                ArrayBuilder::new()
                    .items(id())
                    .min_items(Some(1))
                    .max_items(Some(MAX_BATCH)),
            )
            .description(Some("1–100 distinct ids; duplicates are dropped"))
            .into()
    }

    /// The six categories, or the official client's `"not provided"` (stored as other).
    pub fn category() -> RefOr<Schema> {
        let mut values: Vec<&str> = MaintenanceCategory::KNOWN
            .iter()
            .map(|c| c.as_str())
            .collect();
        values.push(CATEGORY_NOT_PROVIDED);
        ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                Type::String,
                Type::Null,
            ]))
            .enum_values(Some(values.into_iter().map(Some).chain([None])))
            .description(Some("Absent, null or \"not provided\" is stored as other"))
            .examples(["power"])
            .into()
    }
}

impl Sdate {
    /// Unix seconds, if this is a number or a well-formed RFC 3339 date-time. A numeric
    /// string is not a number.
    pub fn unix_seconds(&self) -> Option<f64> {
        match self {
            Sdate::Unix(seconds) => Some(*seconds),
            Sdate::Text(text) => parse_rfc3339(text),
        }
    }
}

/// Parses an RFC 3339 date-time (`2026-10-30T14:00:00Z`, `…T14:00:00.5+02:00`; `t`, `z` and
/// a space for `T` are accepted) into Unix seconds.
pub fn parse_rfc3339(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    if bytes.len() < 20 || !text.is_ascii() {
        return None;
    }
    let digits = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = &text[range];
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let separators_ok = bytes[4] == b'-'
        && bytes[7] == b'-'
        && matches!(bytes[10], b'T' | b't' | b' ')
        && bytes[13] == b':'
        && bytes[16] == b':';
    if !separators_ok {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    let mut rest = &text[19..];
    let mut fraction = 0.0;
    if let Some(after_dot) = rest.strip_prefix('.') {
        let count = after_dot.bytes().take_while(u8::is_ascii_digit).count();
        if count == 0 {
            return None;
        }
        fraction = format!("0.{}", &after_dot[..count]).parse().ok()?;
        rest = &after_dot[count..];
    }
    let offset_seconds = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let (h, m) = (digits_of(&rest[1..3])?, digits_of(&rest[4..6])?);
            if h > 23 || m > 59 {
                return None;
            }
            sign * (h * 3600 + m * 60)
        }
    };
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return None,
    };
    // A leap second (60) is read as the second after 59.
    if day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    // Both checked above: month 1 to 12, day 1 to 31.
    let days = days_from_civil(year, month as u32, day as u32);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_seconds;
    Some(seconds as f64 + fraction)
}

fn digits_of(part: &str) -> Option<i64> {
    part.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| part.parse().ok())?
}

/// A window's validated schedule: what N3 and N4 store.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowPlan {
    pub start_time: f64,
    /// `max(1, floor(duration))`.
    pub duration_hours: i64,
    pub category: MaintenanceCategory,
}

/// Why a schedule (N3, N4) was refused. Its text is N3's sentence; N4 words the category
/// refusal differently ([`ScheduleRefusal::batch_message`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleRefusal {
    #[error("Missing sdate")]
    MissingSdate,
    #[error("sdate must be a numeric timestamp")]
    SdateNotTimestamp,
    #[error("sdate must be in the future")]
    SdatePast,
    #[error("sdate must be within 1 year")]
    SdateTooFar,
    #[error("duration must be a positive number")]
    DurationNotPositive,
    #[error("duration must be at most 8760 hours")]
    DurationTooLong,
    #[error(
        "maintenance_category can only be one of (power, internet, disk, gpu, software, other)"
    )]
    Category,
    #[error("maintenance_reason must be a string of at most 300 characters")]
    Reason,
}

impl ScheduleRefusal {
    /// `sdate` refusals are 422; the others 400.
    pub fn is_about_sdate(self) -> bool {
        matches!(
            self,
            ScheduleRefusal::MissingSdate
                | ScheduleRefusal::SdateNotTimestamp
                | ScheduleRefusal::SdatePast
                | ScheduleRefusal::SdateTooFar
        )
    }

    /// The sentence N4 answers with.
    pub fn batch_message(self) -> String {
        match self {
            ScheduleRefusal::Category => {
                "maintenance_category must be one of: disk, gpu, internet, other, power, software"
                    .to_owned()
            }
            other => other.to_string(),
        }
    }
}

/// The fields N3 and N4 share: when, how long and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WindowFields {
    /// Start, in Unix seconds (or an RFC 3339 string); after now and at most a year ahead.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Sdate, required = true))]
    pub sdate: Option<Lenient<Sdate>>,
    /// Hours, > 0 and ≤ 8760, stored as `max(1, floor(duration))`; absent or null means 1.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 8760, example = 2.0)
    )]
    pub duration: Option<Lenient<f64>>,
    /// One of power, internet, disk, gpu, software, other; absent, null or
    /// `"not provided"` is stored as other.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = schemas::category))]
    pub maintenance_category: Option<Lenient<String>>,
}

impl WindowFields {
    pub fn new(sdate: f64, duration_hours: f64, category: &MaintenanceCategory) -> Self {
        Self {
            sdate: Some(Sdate::Unix(sdate).into()),
            duration: Some(duration_hours.into()),
            maintenance_category: Some(category.as_str().to_owned().into()),
        }
    }

    /// The window under N3's rules at time `now`: `sdate`, `duration`, then
    /// `maintenance_category`.
    pub fn plan(&self, now: f64) -> Result<WindowPlan, ScheduleRefusal> {
        let WindowFields {
            sdate,
            duration,
            maintenance_category: category,
        } = self;
        let start_time = match sdate {
            None => return Err(ScheduleRefusal::MissingSdate),
            Some(sdate) => sdate
                .valid()
                .and_then(Sdate::unix_seconds)
                .filter(|s| s.is_finite())
                .ok_or(ScheduleRefusal::SdateNotTimestamp)?,
        };
        if start_time <= now {
            return Err(ScheduleRefusal::SdatePast);
        }
        if start_time > now + MAX_LEAD_SECONDS {
            return Err(ScheduleRefusal::SdateTooFar);
        }
        let duration_hours = match duration {
            None => 1,
            Some(duration) => {
                let hours = *duration
                    .valid()
                    .filter(|h| **h > 0.0)
                    .ok_or(ScheduleRefusal::DurationNotPositive)?;
                if hours > MAX_DURATION_HOURS {
                    return Err(ScheduleRefusal::DurationTooLong);
                }
                (hours.floor() as i64).max(1)
            }
        };
        let category = match category {
            None => MaintenanceCategory::Other,
            Some(Lenient::Valid(text)) if text == CATEGORY_NOT_PROVIDED => {
                MaintenanceCategory::Other
            }
            Some(Lenient::Valid(text)) => match MaintenanceCategory::from_stored(text) {
                MaintenanceCategory::Unrecognised(_) => return Err(ScheduleRefusal::Category),
                known => known,
            },
            Some(Lenient::Invalid) => return Err(ScheduleRefusal::Category),
        };
        Ok(WindowPlan {
            start_time,
            duration_hours,
            category,
        })
    }
}

/// Body of `PUT /machines/{id}/dnotify/` (N3). The official client also sends
/// `client_id`, which is ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduleMaintenanceRequest {
    #[serde(flatten)]
    pub window: WindowFields,
    /// At most 300 characters; `""` is stored as null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 300))]
    pub maintenance_reason: Option<Lenient<String>>,
}

/// A validated N3 request: the window and its reason.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleMaintenance {
    pub window: WindowPlan,
    pub reason: Option<String>,
}

impl ScheduleMaintenanceRequest {
    pub fn new(
        sdate: f64,
        duration_hours: f64,
        category: &MaintenanceCategory,
        reason: Option<String>,
    ) -> Self {
        Self {
            window: WindowFields::new(sdate, duration_hours, category),
            maintenance_reason: reason.map(Lenient::Valid),
        }
    }

    /// The fields under N3's rules at time `now`, in declared order.
    pub fn validate(&self, now: f64) -> Result<ScheduleMaintenance, ScheduleRefusal> {
        let window = self.window.plan(now)?;
        let reason = match &self.maintenance_reason {
            None => None,
            Some(Lenient::Valid(text)) if text.chars().count() <= MAX_REASON_CHARS => {
                Some(text.clone()).filter(|text| !text.is_empty())
            }
            Some(_) => return Err(ScheduleRefusal::Reason),
        };
        Ok(ScheduleMaintenance { window, reason })
    }
}

/// Answer of N3. The docs show only `{success, you_sent}`, so the others default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduleMaintenanceResponse {
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_id: Option<i64>,
    /// Distinct renters with contracts on the machine (no e-mail is sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notifications_sent: Option<i64>,
    /// `"<n> notifications sent"`.
    #[serde(default)]
    pub you_sent: String,
}

/// Why a list of ids (N4's `machine_ids`, N7's `maintenance_ids`) was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdListRefusal {
    Empty,
    TooMany,
    NoneValid,
}

impl IdListRefusal {
    /// The sentence, for the field `field`.
    pub fn message(self, field: &str) -> String {
        match self {
            IdListRefusal::Empty => format!("{field} must be a non-empty list"),
            IdListRefusal::TooMany => format!("{field} must contain at most {MAX_BATCH} entries"),
            IdListRefusal::NoneValid => format!("No valid {field} provided"),
        }
    }
}

/// 1 to [`MAX_BATCH`] distinct positive ids, duplicates dropped, first-seen order kept.
/// The ids may come in every form of `machine_ids` (an array, a comma string, one id). An
/// array of more than [`MAX_BATCH`] entries is refused even when fewer are distinct: the
/// refusal counts entries, and the published schema allows at most that many.
pub fn batch_ids(input: &Option<Lenient<MachineIdsInput>>) -> Result<Vec<i64>, IdListRefusal> {
    let input = match input {
        None => return Err(IdListRefusal::Empty),
        Some(Lenient::Invalid) => return Err(IdListRefusal::NoneValid),
        Some(Lenient::Valid(MachineIdsInput::List(ids))) if ids.len() > MAX_BATCH => {
            return Err(IdListRefusal::TooMany)
        }
        Some(Lenient::Valid(input)) => input,
    };
    let ids = input.resolve().map_err(|error| match error {
        MachineIdsError::Empty => IdListRefusal::Empty,
        MachineIdsError::TooMany { .. } => IdListRefusal::TooMany,
        MachineIdsError::BadToken(_) | MachineIdsError::ReversedRange(_) => {
            IdListRefusal::NoneValid
        }
    })?;
    if ids.len() > MAX_BATCH {
        return Err(IdListRefusal::TooMany);
    }
    Ok(ids)
}

/// Why a batch schedule (N4) was refused before any machine was looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchScheduleRefusal {
    Ids(IdListRefusal),
    Window(ScheduleRefusal),
}

/// Body of `POST /machines/maintenances/batch` (N4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchScheduleRequest {
    /// 1–100 distinct machine ids (an array; a comma string or one id also works).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = schemas::batch_ids, required = true))]
    pub machine_ids: Option<Lenient<MachineIdsInput>>,
    #[serde(flatten)]
    pub window: WindowFields,
}

impl BatchScheduleRequest {
    pub fn new(
        machine_ids: &[i64],
        sdate: f64,
        duration_hours: f64,
        category: &MaintenanceCategory,
    ) -> Self {
        Self {
            machine_ids: Some(MachineIdsInput::List(machine_ids.to_vec()).into()),
            window: WindowFields::new(sdate, duration_hours, category),
        }
    }

    /// The machines and the window, in declared order.
    pub fn validate(&self, now: f64) -> Result<(Vec<i64>, WindowPlan), BatchScheduleRefusal> {
        let ids = batch_ids(&self.machine_ids).map_err(BatchScheduleRefusal::Ids)?;
        let window = self
            .window
            .plan(now)
            .map_err(BatchScheduleRefusal::Window)?;
        Ok((ids, window))
    }
}

/// The `error` code and `msg` sentence of a refusal inside a batch answer: on a refused
/// item of N4, and beside the results of N4 and N7 when nothing was done. Absent otherwise.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchRefusal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msg: Option<String>,
}

impl BatchRefusal {
    pub fn new(error: &str, msg: &str) -> Self {
        Self {
            error: Some(error.to_owned()),
            msg: Some(msg.to_owned()),
        }
    }

    /// The sentence to show: `msg`, else the code.
    pub fn sentence(&self) -> Option<String> {
        self.msg.clone().or_else(|| self.error.clone())
    }
}

/// One machine's outcome in N4.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchScheduleItem {
    pub success: bool,
    pub machine_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notifications_sent: Option<i64>,
    /// `not_found` when the machine is absent or not the caller's.
    #[serde(flatten)]
    pub refusal: BatchRefusal,
}

/// Answer of N4, 200 when at least one window was scheduled; otherwise 400 with `error`
/// `nothing_scheduled` and `msg` beside the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchScheduleResponse {
    pub success: bool,
    /// In the order of `machine_ids`.
    pub results: Vec<BatchScheduleItem>,
    #[serde(flatten)]
    pub refusal: BatchRefusal,
}

/// Answer of `PUT /machines/{id}/cancel_maint/` (N5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CancelMachineMaintenanceResponse {
    pub success: bool,
    /// Unix seconds of the cancellation.
    #[serde(default)]
    pub ctime: f64,
    #[serde(default)]
    pub machine_id: i64,
    /// `deleted <n> scheduled maintenance window(s) on machine <id>`, plus a note of
    /// marketplace windows kept.
    #[serde(default)]
    pub msg: String,
}

impl CancelMachineMaintenanceResponse {
    /// N5's `msg`: `deleted <n> scheduled maintenance window(s) on machine <id>`, and when
    /// marketplace windows were skipped `; <k> window(s) scheduled by the marketplace were
    /// kept`.
    pub fn message(machine_id: i64, cancelled: i64, kept: i64) -> String {
        let mut msg =
            format!("deleted {cancelled} scheduled maintenance window(s) on machine {machine_id}");
        if kept > 0 {
            msg.push_str(&format!(
                "; {kept} window(s) scheduled by the marketplace were kept"
            ));
        }
        msg
    }

    /// The windows cancelled and the marketplace windows kept, read back from a `msg` in
    /// the form [`Self::message`] writes (the machine may be left out); `None` for any
    /// other wording.
    pub fn counts(&self) -> Option<(i64, i64)> {
        let rest = self.msg.trim().strip_prefix("deleted ")?;
        let (cancelled, rest) = rest.split_once(' ')?;
        let cancelled = cancelled.parse().ok()?;
        let rest = rest.strip_prefix("scheduled maintenance window(s)")?;
        let (on_machine, kept_note) = match rest.split_once(';') {
            Some((on_machine, note)) => (on_machine, Some(note.trim())),
            None => (rest, None),
        };
        let on_machine = on_machine.trim();
        if !on_machine.is_empty() {
            on_machine
                .strip_prefix("on machine ")?
                .parse::<i64>()
                .ok()?;
        }
        let kept = match kept_note {
            None => 0,
            Some(note) => note
                .strip_suffix(" window(s) scheduled by the marketplace were kept")?
                .parse()
                .ok()?,
        };
        Some((cancelled, kept))
    }
}

/// Body of `DELETE /machines/maintenances` (N6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CancelMaintenanceRequest {
    /// The window's `id` from the maintenance list.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = schemas::positive_id, required = true))]
    pub maintenance_id: Option<Lenient<Whole>>,
}

impl CancelMaintenanceRequest {
    pub fn new(maintenance_id: i64) -> Self {
        Self {
            maintenance_id: Some(Whole(maintenance_id).into()),
        }
    }

    /// The id, if it is a positive integer.
    pub fn id(&self) -> Option<i64> {
        match &self.maintenance_id {
            Some(Lenient::Valid(Whole(id))) if *id >= 1 => Some(*id),
            _ => None,
        }
    }
}

/// Answer of N6: `{success: true, msg: "Maintenance cancelled"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CancelMaintenanceResponse {
    pub success: bool,
    #[serde(default)]
    pub msg: String,
}

/// Body of `DELETE /machines/maintenances/batch` (N7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchCancelRequest {
    /// 1–100 distinct window ids.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = schemas::batch_ids, required = true))]
    pub maintenance_ids: Option<Lenient<MachineIdsInput>>,
}

impl BatchCancelRequest {
    pub fn new(maintenance_ids: &[i64]) -> Self {
        Self {
            maintenance_ids: Some(MachineIdsInput::List(maintenance_ids.to_vec()).into()),
        }
    }

    pub fn validate(&self) -> Result<Vec<i64>, IdListRefusal> {
        batch_ids(&self.maintenance_ids)
    }
}

/// One window's outcome in N7.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchCancelItem {
    pub success: bool,
    pub maintenance_id: i64,
    #[serde(default)]
    pub msg: String,
}

/// Answer of N7, 200 when at least one window was cancelled; otherwise 400 with `error`
/// `nothing_cancelled` and `msg` beside the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchCancelResponse {
    pub success: bool,
    /// In input order.
    pub results: Vec<BatchCancelItem>,
    #[serde(flatten)]
    pub refusal: BatchRefusal,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: f64 = 1_800_000_000.0;

    fn schedule(body: serde_json::Value) -> Result<ScheduleMaintenance, ScheduleRefusal> {
        serde_json::from_value::<ScheduleMaintenanceRequest>(body)
            .unwrap()
            .validate(NOW)
    }

    #[test]
    fn the_cancel_message_is_read_back_as_counts() {
        let answer = |msg: String| CancelMachineMaintenanceResponse {
            success: true,
            ctime: 0.0,
            machine_id: 1035,
            msg,
        };
        let plain = CancelMachineMaintenanceResponse::message(1035, 2, 0);
        assert_eq!(
            plain,
            "deleted 2 scheduled maintenance window(s) on machine 1035"
        );
        assert_eq!(answer(plain).counts(), Some((2, 0)));
        let kept = CancelMachineMaintenanceResponse::message(1101, 1, 1);
        assert_eq!(
            kept,
            "deleted 1 scheduled maintenance window(s) on machine 1101; \
             1 window(s) scheduled by the marketplace were kept"
        );
        assert_eq!(answer(kept).counts(), Some((1, 1)));
        let without_machine = "deleted 0 scheduled maintenance window(s)".to_owned();
        assert_eq!(answer(without_machine).counts(), Some((0, 0)));
        for other in [
            "",
            "Maintenance cancelled",
            "deleted some scheduled maintenance window(s)",
            "deleted 1 scheduled maintenance window(s) on machine x",
            "deleted 1 scheduled maintenance window(s); many were kept",
        ] {
            assert_eq!(answer(other.to_owned()).counts(), None, "{other:?}");
        }
    }

    #[test]
    fn rfc3339_dates_read_as_unix_seconds() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(parse_rfc3339("2026-10-30T14:00:00Z"), Some(1_793_368_800.0));
        assert_eq!(
            parse_rfc3339("2026-10-30T16:00:00.5+02:00"),
            Some(1_793_368_800.5)
        );
        assert_eq!(parse_rfc3339("2024-02-29t00:00:00z"), Some(1_709_164_800.0));
        assert_eq!(
            parse_rfc3339("2000-03-01 00:00:00-01:30"),
            Some(951_874_200.0)
        );
        for bad in [
            "",
            "1782950400",
            "2026-10-30",
            "2026-10-30T14:00:00",
            "2026-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-10-30T24:00:00Z",
            "2026-10-30T14:00:00+0200",
            "2026-10-30T14:00:00.Z",
            "2026-1-30T14:00:00Z",
            "２０２６-10-30T14:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_official_clients_body_is_read() {
        let done = schedule(
            json!({"client_id": "me", "sdate": NOW + 3600.0, "duration": 2.0,
            "maintenance_category": "power"}),
        )
        .unwrap();
        assert_eq!(
            done.window,
            WindowPlan {
                start_time: NOW + 3600.0,
                duration_hours: 2,
                category: MaintenanceCategory::Power
            }
        );
        assert_eq!(done.reason, None);
    }

    #[test]
    fn defaults_and_rounding() {
        let base = || json!({"sdate": NOW + 60.0});
        let plan = |extra: serde_json::Value| {
            let mut body = base();
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            schedule(body).unwrap()
        };
        let d = |v: serde_json::Value| plan(json!({ "duration": v })).window.duration_hours;
        assert_eq!(plan(json!({})).window.duration_hours, 1);
        assert_eq!(d(json!(null)), 1);
        assert_eq!(d(json!(0.5)), 1);
        assert_eq!(d(json!(2.7)), 2);
        assert_eq!(d(json!(8760)), 8760);
        let c = |v: serde_json::Value| plan(json!({ "maintenance_category": v })).window.category;
        assert_eq!(c(json!(null)), MaintenanceCategory::Other);
        assert_eq!(c(json!("not provided")), MaintenanceCategory::Other);
        assert_eq!(c(json!("software")), MaintenanceCategory::Software);
        let r = |v: serde_json::Value| plan(json!({ "maintenance_reason": v })).reason;
        assert_eq!(r(json!("")), None);
        assert_eq!(r(json!(null)), None);
        assert_eq!(r(json!("ü".repeat(300))), Some("ü".repeat(300)));
        let text = plan(json!({"sdate": "2027-03-01T00:00:00Z"}));
        assert_eq!(text.window.start_time, 1_803_859_200.0);
    }

    #[test]
    fn refusals_in_declared_order() {
        use ScheduleRefusal::*;
        let cases = [
            (json!({}), MissingSdate),
            (json!({"sdate": null, "duration": -1}), MissingSdate),
            (json!({"sdate": "1900000000"}), SdateNotTimestamp),
            (json!({"sdate": true}), SdateNotTimestamp),
            (json!({"sdate": [1]}), SdateNotTimestamp),
            (json!({"sdate": NOW}), SdatePast),
            (json!({"sdate": "2020-01-01T00:00:00Z"}), SdatePast),
            (json!({"sdate": NOW + MAX_LEAD_SECONDS + 1.0}), SdateTooFar),
            (
                json!({"sdate": NOW + 1.0, "duration": 0}),
                DurationNotPositive,
            ),
            (
                json!({"sdate": NOW + 1.0, "duration": "2"}),
                DurationNotPositive,
            ),
            (
                json!({"sdate": NOW + 1.0, "duration": 8760.5}),
                DurationTooLong,
            ),
            (
                json!({"sdate": NOW + 1.0, "maintenance_category": "Power"}),
                Category,
            ),
            (
                json!({"sdate": NOW + 1.0, "maintenance_category": 3}),
                Category,
            ),
            (
                json!({"sdate": NOW + 1.0, "maintenance_reason": "x".repeat(301)}),
                Reason,
            ),
            (json!({"sdate": NOW + 1.0, "maintenance_reason": 5}), Reason),
            (
                json!({"sdate": NOW + 1.0, "duration": 0, "maintenance_category": "x"}),
                DurationNotPositive,
            ),
        ];
        for (body, refusal) in cases {
            assert_eq!(schedule(body.clone()), Err(refusal), "{body}");
        }
        assert!(SdatePast.is_about_sdate());
        assert!(!Category.is_about_sdate());
        assert_eq!(
            Category.batch_message(),
            "maintenance_category must be one of: disk, gpu, internet, other, power, software"
        );
    }

    #[test]
    fn batch_ids_take_one_to_a_hundred_distinct_ids() {
        let ids = |v: serde_json::Value| {
            serde_json::from_value::<BatchCancelRequest>(json!({ "maintenance_ids": v }))
                .unwrap()
                .validate()
        };
        assert_eq!(ids(json!([3, 1, 3, 2.0])), Ok(vec![3, 1, 2]));
        assert_eq!(ids(json!("4,5")), Ok(vec![4, 5]));
        assert_eq!(ids(json!(7)), Ok(vec![7]));
        assert_eq!(ids(json!(vec![7; 100])), Ok(vec![7]));
        assert_eq!(ids(json!(vec![7; 101])), Err(IdListRefusal::TooMany));
        assert_eq!(ids(json!(null)), Err(IdListRefusal::Empty));
        assert_eq!(ids(json!([])), Err(IdListRefusal::Empty));
        assert_eq!(
            ids(json!((1..=101).collect::<Vec<_>>())),
            Err(IdListRefusal::TooMany)
        );
        assert_eq!(
            ids(json!((1..=1001).collect::<Vec<_>>())),
            Err(IdListRefusal::TooMany)
        );
        assert_eq!(ids(json!([1, 0])), Err(IdListRefusal::NoneValid));
        assert_eq!(ids(json!([1, "x"])), Err(IdListRefusal::NoneValid));
        assert_eq!(ids(json!({"a": 1})), Err(IdListRefusal::NoneValid));
        assert_eq!(
            IdListRefusal::TooMany.message("machine_ids"),
            "machine_ids must contain at most 100 entries"
        );
    }

    #[test]
    fn senders_build_what_the_server_reads() {
        let request =
            ScheduleMaintenanceRequest::new(NOW + 60.0, 2.5, &MaintenanceCategory::Gpu, None);
        assert_eq!(
            serde_json::to_value(&request).unwrap(),
            json!({"sdate": NOW + 60.0, "duration": 2.5, "maintenance_category": "gpu"})
        );
        assert_eq!(request.validate(NOW).unwrap().window.duration_hours, 2);
        let batch = BatchScheduleRequest::new(&[1, 2], NOW + 60.0, 1.0, &MaintenanceCategory::Disk);
        assert_eq!(batch.validate(NOW).unwrap().0, vec![1, 2]);
        assert_eq!(
            serde_json::to_value(CancelMaintenanceRequest::new(9)).unwrap(),
            json!({"maintenance_id": 9})
        );
        let read = |v: serde_json::Value| {
            serde_json::from_value::<CancelMaintenanceRequest>(v)
                .unwrap()
                .id()
        };
        assert_eq!(read(json!({"maintenance_id": 9.0})), Some(9));
        for bad in [
            json!({}),
            json!({"maintenance_id": 0}),
            json!({"maintenance_id": "9"}),
        ] {
            assert_eq!(read(bad), None);
        }
    }
}
