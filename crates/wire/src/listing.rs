//! Listing a machine (neighbours N22, N23) and the offer terms of §1.7.
//!
//! [`ListMachineRequest`] reads every field leniently and [`validate`] judges them in the
//! order of N22's table, so the server refuses in the specification's words. What needs
//! the machine (its GPU count for `min_chunk`, the stored offer for `price_gpu` and
//! `vol_size`) is judged by [`ListingChange`]'s users once the machine is known.
//!
//! [`validate`]: ListMachineRequest::validate

use crate::lenient::{present, Lenient, Nullable, Whole};
use serde::{Deserialize, Serialize};

/// Defaults of a machine listed for the first time (N22).
pub const DEFAULT_PRICE_DISK: f64 = 0.10;
pub const DEFAULT_MIN_CHUNK: i64 = 1;
pub const DEFAULT_CREDIT_DISCOUNT_MAX: f64 = 0.4;

const DAY: f64 = 86_400.0;

/// A rolling offer's length: `"N days|weeks|months|years"` or a number of seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OfferDuration {
    Seconds(f64),
    Text(String),
}

impl OfferDuration {
    /// The length in seconds, if well formed: a positive finite number, or a positive whole
    /// `N` and a unit (a month is 30 days, a year 365). A numeric string is not a number.
    pub fn seconds(&self) -> Option<f64> {
        match self {
            OfferDuration::Seconds(seconds) => Some(*seconds).filter(|s| s.is_finite() && *s > 0.0),
            OfferDuration::Text(text) => {
                let mut words = text.split_whitespace();
                let (count, unit) = (words.next()?, words.next()?);
                if words.next().is_some() || !count.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let count: u32 = count.parse().ok().filter(|n| *n > 0)?;
                let unit = unit.to_ascii_lowercase();
                let days = match unit.strip_suffix('s').unwrap_or(&unit) {
                    "day" => 1.0,
                    "week" => 7.0,
                    "month" => 30.0,
                    "year" => 365.0,
                    _ => return None,
                };
                Some(f64::from(count) * days * DAY)
            }
        }
    }
}

/// `oneOf`: seconds, or `N days|weeks|months|years`.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for OfferDuration {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Number)
                    .exclusive_minimum(Some(0))
                    .description(Some("Seconds")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some("^[1-9][0-9]{0,8} (day|week|month|year)s?$"))
                    .description(Some("N days, weeks, months (30 days) or years (365 days)")),
            )
            .description(Some(
                "A rolling offer: its end date stays this far ahead of now. Not with end_date.",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for OfferDuration {}

/// Body of `PUT /machines/create_asks/` (N22). A term the sender has no value for is left
/// out, never written as `null` (spec §1.3 rule 8). Client 1.9.1 sends all twelve keys, `null`
/// for every option not given except `min_chunk` (its `-m` defaults to 1). A missing or
/// `null` term keeps the offer's current value, except `min_chunk`, read as the public
/// backend reads it: absent is 1 (it resets the minimum), `null` is refused.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListMachineRequest {
    /// The caller's machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = i64, minimum = 1, required = true, example = 1007))]
    pub machine: Option<Lenient<Whole>>,
    /// On-demand price, $/GPU-hour, ≥ 0. Needed when the machine was never listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0, example = 0.45))]
    pub price_gpu: Option<Lenient<f64>>,
    /// $/GB-month, ≥ 0 (first listing: 0.10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0))]
    pub price_disk: Option<Lenient<f64>>,
    /// $/GB uploaded, ≥ 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0))]
    pub price_inetu: Option<Lenient<f64>>,
    /// $/GB downloaded, ≥ 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0))]
    pub price_inetd: Option<Lenient<f64>>,
    /// Interruptible floor, $/GPU-hour, ≥ 0 (first listing: `price_gpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0))]
    pub price_min_bid: Option<Lenient<f64>>,
    /// The fewest GPUs a renter may take: 1 or a power of two up to the machine's GPUs.
    /// Absent: 1, so a request without it resets the offer's minimum (send the current
    /// value to keep it); `null` is refused (`Invalid machine id or min_chunk`).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = i64, minimum = 1, example = 1))]
    pub min_chunk: Option<Nullable<Lenient<Whole>>>,
    /// The offer end date, Unix seconds, later than now. Clears a rolling `duration`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, example = 1_900_000_000.0))]
    pub end_date: Option<Lenient<f64>>,
    /// 0–1 (first listing: 0.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0, maximum = 1))]
    pub credit_discount_max: Option<Lenient<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<OfferDuration>))]
    pub duration: Option<Lenient<OfferDuration>>,
    /// GB offered for volumes, a whole number ≥ 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>, minimum = 0))]
    pub vol_size: Option<Lenient<Whole>>,
    /// $/GB-month for volumes, ≥ 0; needs a `vol_size` above 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, minimum = 0))]
    pub vol_price: Option<Lenient<f64>>,
}

/// How N22 changes the offer end date.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EndChange {
    /// Neither `end_date` nor `duration` was given.
    Keep,
    /// A fixed offer end date (clears a stored duration).
    Date(f64),
    /// A rolling offer: the end date is always this many seconds after now.
    Rolling(f64),
}

/// The terms N22 was given; `None` keeps the stored value (or takes the default).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TermChanges {
    pub price_gpu: Option<f64>,
    pub price_disk: Option<f64>,
    pub price_inetu: Option<f64>,
    pub price_inetd: Option<f64>,
    pub price_min_bid: Option<f64>,
    /// As sent, or 1 when absent (it is never kept); judged against the machine's GPU
    /// count by [`min_chunk_fits`]. A value that was not a whole number reads as 0, which
    /// never fits.
    pub min_chunk: i64,
    pub credit_discount_max: Option<f64>,
    pub vol_size: Option<i64>,
    pub vol_price: Option<f64>,
}

/// The terms of a request that gives none: every one kept, the minimum reset to 1.
impl Default for TermChanges {
    fn default() -> Self {
        Self {
            price_gpu: None,
            price_disk: None,
            price_inetu: None,
            price_inetd: None,
            price_min_bid: None,
            min_chunk: DEFAULT_MIN_CHUNK,
            credit_discount_max: None,
            vol_size: None,
            vol_price: None,
        }
    }
}

/// A validated N22 request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListingChange {
    pub machine_id: i64,
    pub terms: TermChanges,
    pub end: EndChange,
}

/// Whether `min_chunk` is 1 or a power of two up to `num_gpus`.
pub fn min_chunk_fits(min_chunk: i64, num_gpus: i64) -> bool {
    min_chunk >= 1 && min_chunk <= num_gpus && (min_chunk as u64).is_power_of_two()
}

/// Why N22 was refused. All are 400; [`ListingRefusal::code`] gives the `error`.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum ListingRefusal {
    #[error("machine must be a positive integer")]
    Machine,
    #[error("end_date must be a Unix timestamp")]
    EndDateNotTimestamp,
    #[error("end_date must be in the future")]
    EndDatePast,
    #[error("end_date and duration cannot both be given")]
    EndDateAndDuration,
    #[error("duration must be N days, weeks, months or years, or seconds")]
    Duration,
    #[error("price_gpu is needed to list this machine")]
    PriceGpuNeeded,
    #[error("{0} must be a number >= 0")]
    Negative(&'static str),
    #[error("credit_discount_max must be between 0 and 1")]
    CreditDiscount,
    #[error("vol_size must be a whole number >= 0")]
    VolSize,
    #[error("vol_price needs a vol_size above 0")]
    VolPriceWithoutSize,
    /// The public backend's words for a `min_chunk` its `int()` cannot read.
    #[error("Invalid machine id or min_chunk")]
    NullMinChunk,
    #[error("min_chunk must be 1 or a power of two up to {num_gpus}")]
    MinChunk { num_gpus: i64 },
}

impl ListingRefusal {
    /// `invalid_min_chunk` for `min_chunk`, `invalid_args` otherwise.
    pub fn code(&self) -> &'static str {
        match self {
            ListingRefusal::MinChunk { .. } => "invalid_min_chunk",
            _ => "invalid_args",
        }
    }
}

/// A price-like field: absent keeps, else a finite number ≥ 0.
fn non_negative(
    field: &'static str,
    value: &Option<Lenient<f64>>,
) -> Result<Option<f64>, ListingRefusal> {
    match value {
        None => Ok(None),
        Some(Lenient::Valid(n)) if n.is_finite() && *n >= 0.0 => Ok(Some(*n)),
        Some(_) => Err(ListingRefusal::Negative(field)),
    }
}

impl ListMachineRequest {
    /// A request naming `machine_id` and nothing else: every term kept except the minimum
    /// GPUs, which an absent `min_chunk` resets to 1 (set it to keep the current one).
    pub fn new(machine_id: i64) -> Self {
        Self {
            machine: Some(Whole(machine_id).into()),
            ..Self::default()
        }
    }

    /// The fields under N22's rules at time `now`, in the order of its table; what needs
    /// the machine is left to the caller.
    pub fn validate(&self, now: f64) -> Result<ListingChange, ListingRefusal> {
        let machine_id = match &self.machine {
            Some(Lenient::Valid(Whole(id))) if *id >= 1 => *id,
            _ => return Err(ListingRefusal::Machine),
        };
        let end_date = match &self.end_date {
            None => None,
            Some(Lenient::Valid(seconds)) if seconds.is_finite() => Some(*seconds),
            Some(_) => return Err(ListingRefusal::EndDateNotTimestamp),
        };
        if end_date.is_some_and(|end| end <= now) {
            return Err(ListingRefusal::EndDatePast);
        }
        if end_date.is_some() && self.duration.is_some() {
            return Err(ListingRefusal::EndDateAndDuration);
        }
        let end = match (&self.duration, end_date) {
            (Some(duration), _) => EndChange::Rolling(
                duration
                    .valid()
                    .and_then(OfferDuration::seconds)
                    .ok_or(ListingRefusal::Duration)?,
            ),
            (None, Some(end)) => EndChange::Date(end),
            (None, None) => EndChange::Keep,
        };
        let mut terms = TermChanges {
            price_gpu: non_negative("price_gpu", &self.price_gpu)?,
            price_disk: non_negative("price_disk", &self.price_disk)?,
            price_inetu: non_negative("price_inetu", &self.price_inetu)?,
            price_inetd: non_negative("price_inetd", &self.price_inetd)?,
            price_min_bid: non_negative("price_min_bid", &self.price_min_bid)?,
            min_chunk: DEFAULT_MIN_CHUNK,
            credit_discount_max: match &self.credit_discount_max {
                None => None,
                Some(Lenient::Valid(f)) if (0.0..=1.0).contains(f) => Some(*f),
                Some(_) => return Err(ListingRefusal::CreditDiscount),
            },
            vol_size: match &self.vol_size {
                None => None,
                Some(Lenient::Valid(Whole(n))) if *n >= 0 => Some(*n),
                Some(_) => return Err(ListingRefusal::VolSize),
            },
            vol_price: non_negative("vol_price", &self.vol_price)?,
        };
        if terms.vol_size == Some(0) && terms.vol_price.is_some() {
            return Err(ListingRefusal::VolPriceWithoutSize);
        }
        // After the first row of N22's table; what needs the machine comes later.
        terms.min_chunk = match &self.min_chunk {
            None => DEFAULT_MIN_CHUNK,
            Some(Nullable::Null) => return Err(ListingRefusal::NullMinChunk),
            Some(Nullable::Value(Lenient::Valid(Whole(n)))) => *n,
            Some(Nullable::Value(Lenient::Invalid)) => 0,
        };
        Ok(ListingChange {
            machine_id,
            terms,
            end,
        })
    }
}

/// Answer of N22. `extended` counts the running contracts whose rental end date moved to
/// the new offer end date; `msg` is `offer created` or `offer updated`. The public answer
/// may not carry `extended` (the generated reference gives `{success, you_sent,
/// results}`): absent or `null` is "not said", never zero (§1.3 rule 9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ListMachineResponse {
    pub success: bool,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = i64, required = true))]
    pub extended: Option<i64>,
    #[serde(default)]
    pub msg: String,
}

/// Answer of N23.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnlistMachineResponse {
    pub success: bool,
    #[serde(default)]
    pub machine_id: Option<i64>,
    #[serde(default)]
    pub user_id: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NOW: f64 = 1_800_000_000.0;

    fn validate(body: serde_json::Value) -> Result<ListingChange, ListingRefusal> {
        serde_json::from_value::<ListMachineRequest>(body)
            .unwrap()
            .validate(NOW)
    }

    /// What client 1.9.1 sends for `vastai list machine 1001 -g 0.45 -m 2 -e 01/01/2027`.
    fn official(end_date: serde_json::Value) -> serde_json::Value {
        json!({"machine": 1001, "price_gpu": 0.45, "price_disk": null, "price_inetu": null,
               "price_inetd": null, "price_min_bid": null, "min_chunk": 2,
               "end_date": end_date, "credit_discount_max": null, "duration": null,
               "vol_size": null, "vol_price": null})
    }

    #[test]
    fn the_official_clients_body_reads_with_nulls_kept() {
        let change = validate(official(json!(1_900_000_000.0))).unwrap();
        assert_eq!(change.machine_id, 1001);
        assert_eq!(change.end, EndChange::Date(1_900_000_000.0));
        assert_eq!(
            change.terms,
            TermChanges {
                price_gpu: Some(0.45),
                min_chunk: 2,
                ..TermChanges::default()
            }
        );
        let keep = validate(json!({"machine": 1001.0})).unwrap();
        assert_eq!(keep.end, EndChange::Keep);
        assert_eq!(keep.terms, TermChanges::default());
    }

    #[test]
    fn an_absent_min_chunk_is_one_and_a_null_one_is_refused() {
        assert_eq!(validate(json!({"machine": 1})).unwrap().terms.min_chunk, 1);
        assert_eq!(
            validate(json!({"machine": 1, "min_chunk": 4}))
                .unwrap()
                .terms
                .min_chunk,
            4
        );
        let null = validate(json!({"machine": 1, "min_chunk": null})).unwrap_err();
        assert_eq!(null, ListingRefusal::NullMinChunk);
        assert_eq!(
            (null.code(), null.to_string().as_str()),
            ("invalid_args", "Invalid machine id or min_chunk")
        );
        // The rest of the first row of N22's table answers first.
        assert_eq!(
            validate(json!({"machine": 1, "min_chunk": null, "price_disk": -1})).unwrap_err(),
            ListingRefusal::Negative("price_disk")
        );
    }

    #[test]
    fn durations_read_in_words_or_seconds() {
        let seconds = |v: serde_json::Value| serde_json::from_value::<OfferDuration>(v).unwrap();
        assert_eq!(seconds(json!("3 days")).seconds(), Some(3.0 * DAY));
        assert_eq!(seconds(json!("1 week")).seconds(), Some(7.0 * DAY));
        assert_eq!(seconds(json!("2 Months")).seconds(), Some(60.0 * DAY));
        assert_eq!(seconds(json!(" 1  years ")).seconds(), Some(365.0 * DAY));
        assert_eq!(seconds(json!(3600)).seconds(), Some(3600.0));
        for bad in [
            json!("3600"),
            json!("0 days"),
            json!("-1 days"),
            json!("1.5 days"),
            json!("3 fortnights"),
            json!("3 days later"),
            json!(""),
            json!(0),
            json!(-5),
            json!("99999999999 days"),
        ] {
            assert_eq!(seconds(bad.clone()).seconds(), None, "{bad}");
        }
        let rolling = validate(json!({"machine": 1, "duration": "2 weeks"})).unwrap();
        assert_eq!(rolling.end, EndChange::Rolling(14.0 * DAY));
    }

    #[test]
    fn refusals_follow_the_table_in_order() {
        let refused = |body: serde_json::Value| validate(body).unwrap_err().to_string();
        for machine in [json!(null), json!(0), json!(-3), json!("1001"), json!(1.5)] {
            assert_eq!(
                refused(json!({ "machine": machine })),
                "machine must be a positive integer"
            );
        }
        assert_eq!(
            refused(official(json!(NOW))),
            "end_date must be in the future"
        );
        assert_eq!(
            refused(official(json!("01/01/2027"))),
            "end_date must be a Unix timestamp"
        );
        assert_eq!(
            refused(json!({"machine": 1, "end_date": NOW + 10.0, "duration": "1 day"})),
            "end_date and duration cannot both be given"
        );
        assert_eq!(
            refused(json!({"machine": 1, "duration": "soon"})),
            "duration must be N days, weeks, months or years, or seconds"
        );
        for field in [
            "price_gpu",
            "price_disk",
            "price_inetu",
            "price_inetd",
            "price_min_bid",
            "vol_price",
        ] {
            for bad in [json!(-0.01), json!("0.5"), json!(true)] {
                assert_eq!(
                    refused(json!({"machine": 1, field: bad})),
                    format!("{field} must be a number >= 0")
                );
            }
        }
        for bad in [json!(1.01), json!(-0.1), json!("0.2")] {
            assert_eq!(
                refused(json!({"machine": 1, "credit_discount_max": bad})),
                "credit_discount_max must be between 0 and 1"
            );
        }
        assert_eq!(
            refused(json!({"machine": 1, "vol_size": 2.5})),
            "vol_size must be a whole number >= 0"
        );
        assert_eq!(
            refused(json!({"machine": 1, "vol_size": 0, "vol_price": 0.1})),
            "vol_price needs a vol_size above 0"
        );
        let code = ListingRefusal::MinChunk { num_gpus: 8 };
        assert_eq!(code.code(), "invalid_min_chunk");
        assert_eq!(
            code.to_string(),
            "min_chunk must be 1 or a power of two up to 8"
        );
        assert_eq!(ListingRefusal::Machine.code(), "invalid_args");
    }

    #[test]
    fn min_chunk_is_one_or_a_power_of_two_within_the_machine() {
        for (chunk, gpus, fits) in [
            (1, 1, true),
            (2, 8, true),
            (8, 8, true),
            (4, 6, true),
            (8, 6, false),
            (3, 8, false),
            (0, 8, false),
            (-2, 8, false),
            (16, 8, false),
        ] {
            assert_eq!(min_chunk_fits(chunk, gpus), fits, "{chunk} of {gpus}");
        }
        let invalid = validate(json!({"machine": 1, "min_chunk": "two"})).unwrap();
        assert_eq!(invalid.terms.min_chunk, 0);
    }

    #[test]
    fn a_request_built_for_one_machine_never_sends_a_null_min_chunk() {
        let body = serde_json::to_value(ListMachineRequest::new(7)).unwrap();
        // Only the machine: a term with no value is left out, never written as null.
        assert_eq!(body, json!({"machine": 7}));
        let kept = ListMachineRequest {
            min_chunk: Some(Whole(2).into()),
            ..ListMachineRequest::new(7)
        };
        let body = serde_json::to_value(&kept).unwrap();
        assert_eq!(body, json!({"machine": 7, "min_chunk": 2}));
        let read: ListMachineRequest = serde_json::from_value(body).unwrap();
        assert_eq!(read, kept);
    }
}
