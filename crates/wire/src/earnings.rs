//! Machine earnings (fleet-health N34): what the caller's machines earned per machine and
//! per day, and the reference server's reading of the query that asks for it.

use crate::whole_number::Classified;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The longest window N34 answers, in days (project rule).
pub const MAX_WINDOW_DAYS: i64 = 366;
/// The last day index a window may name: 9999-12-31, so every day is a calendar date.
pub const LAST_DAY: i64 = 2_932_896;
/// Seconds in a day: day indexes are `floor(unix seconds / DAY)`.
pub const DAY_SECONDS: f64 = 86_400.0;

/// Answer of `GET /users/{user_id}/machine-earnings/` (N34). Amounts are US dollars. The
/// console relies only on `summary`, `per_machine` and `per_day`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MachineEarnings {
    /// The window's first day index (days since 1970-01-01), the floor used.
    #[serde(default)]
    pub sday: Option<i64>,
    /// The window's last day index, inclusive.
    #[serde(default)]
    pub eday: Option<i64>,
    pub summary: EarningsSummary,
    /// One row per machine in scope, by `machine_id`, zeros included.
    pub per_machine: Vec<MachineEarningsRow>,
    /// One row per day of the window, ascending, zeros included. On the public service it
    /// may be fleet-wide even when one machine was asked for.
    pub per_day: Vec<DayEarningsRow>,
    #[serde(default)]
    pub current: Option<AccountBalance>,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub fullname: Option<String>,
    #[serde(default)]
    pub address1: Option<String>,
    #[serde(default)]
    pub address2: Option<String>,
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub zip: Option<String>,
    #[serde(default)]
    pub country: Option<String>,
    #[serde(default)]
    pub taxinfo: Option<String>,
}

/// The window's totals over every machine in scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EarningsSummary {
    pub total_gpu: f64,
    pub total_stor: f64,
    /// Upload bandwidth.
    pub total_bwu: f64,
    /// Download bandwidth.
    pub total_bwd: f64,
    #[serde(default)]
    pub total_sla: Option<f64>,
    /// The mean of `per_machine`'s `reliability`; null when there is none.
    #[serde(default)]
    pub avg_reliability: Option<f64>,
}

/// What one machine earned over the window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MachineEarningsRow {
    pub machine_id: i64,
    pub gpu_earn: f64,
    pub sto_earn: f64,
    pub bwu_earn: f64,
    pub bwd_earn: f64,
    #[serde(default)]
    pub sla_earn: Option<f64>,
    /// 0–1; the reference server sends the machine's current `reliability2`.
    #[serde(default)]
    pub reliability: Option<f64>,
}

/// What the machines in scope earned on one day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DayEarningsRow {
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
    pub gpu_earn: f64,
    pub sto_earn: f64,
    pub bwu_earn: f64,
    pub bwd_earn: f64,
    #[serde(default)]
    pub sla_earn: Option<f64>,
    #[serde(default)]
    pub reliability: Option<f64>,
}

/// The account's money now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountBalance {
    #[serde(default)]
    pub balance: Option<f64>,
    #[serde(default)]
    pub service_fee: Option<f64>,
    /// Balance plus service fee.
    #[serde(default)]
    pub total: Option<f64>,
    #[serde(default)]
    pub credit: Option<f64>,
}

/// N34's query values as received, each form-decoded (absent is `None`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EarningsQuery<'a> {
    pub sday: Option<&'a str>,
    pub eday: Option<&'a str>,
    pub last_days: Option<&'a str>,
    pub machid: Option<&'a str>,
}

/// What N34 answers for: the days `sday..=eday` and one machine or all of the caller's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EarningsScope {
    pub sday: i64,
    pub eday: i64,
    pub machine: Option<i64>,
}

/// Why N34's query was refused: 400 `invalid_args`, in the generated ref's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EarningsRefusal {
    #[error("Invalid input syntax: {0} must be a number of days since 1970-01-01")]
    Day(&'static str),
    #[error("Invalid input syntax: sday is after eday")]
    Reversed,
    #[error("Invalid input syntax: window longer than 366 days")]
    TooLong,
    #[error("Invalid input syntax: last_days must be an integer from 1 to 366")]
    LastDays,
    #[error("Invalid input syntax: machid must be a machine id or null")]
    Machid,
}

/// A query value as JSON (the official client JSON-encodes every non-string value);
/// absent, empty and `null` are `None`, text that is not JSON is `Some(Err(()))`.
fn json_value(raw: Option<&str>) -> Option<Result<Value, ()>> {
    let raw = raw?.trim();
    if raw.is_empty() {
        return None;
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Null) => None,
        Ok(value) => Some(Ok(value)),
        Err(_) => Some(Err(())),
    }
}

/// A day index from a JSON number of days, integer or float, floored.
fn day(name: &'static str, raw: Option<&str>) -> Result<Option<i64>, EarningsRefusal> {
    let Some(value) = json_value(raw) else {
        return Ok(None);
    };
    let days = value
        .ok()
        .and_then(|value| value.as_f64())
        .map(f64::floor)
        .filter(|days| (0.0..=LAST_DAY as f64).contains(days))
        .ok_or(EarningsRefusal::Day(name))?;
    Ok(Some(days as i64))
}

/// A whole number from a JSON value under the whole-number rule (`1001.0` counts).
fn whole(raw: Option<&str>) -> Option<Result<i64, ()>> {
    Some(match json_value(raw)? {
        Ok(value) => serde_json::from_value::<Classified>(value)
            .map_err(|_| ())
            .and_then(|Classified(read)| read.map_err(|_| ())),
        Err(()) => Err(()),
    })
}

impl EarningsQuery<'_> {
    /// The window and machine asked for, given today's day index.
    ///
    /// Both days absent (or null): with `last_days=N` the N days before today, else
    /// yesterday (the floor of the official client's default). One day absent takes that
    /// same default. Unknown parameters (`owner=me`) are never read.
    pub fn scope(&self, today: i64) -> Result<EarningsScope, EarningsRefusal> {
        let sday = day("sday", self.sday)?;
        let eday = day("eday", self.eday)?;
        let last_days = match whole(self.last_days) {
            None => None,
            Some(Ok(days)) if (1..=MAX_WINDOW_DAYS).contains(&days) => Some(days),
            Some(_) => return Err(EarningsRefusal::LastDays),
        };
        let machine = match whole(self.machid) {
            None => None,
            Some(Ok(id)) if id >= 1 => Some(id),
            Some(_) => return Err(EarningsRefusal::Machid),
        };
        let sday = sday.unwrap_or(today - last_days.unwrap_or(1));
        let eday = eday.unwrap_or(today - 1);
        if sday > eday {
            return Err(EarningsRefusal::Reversed);
        }
        if eday - sday + 1 > MAX_WINDOW_DAYS {
            return Err(EarningsRefusal::TooLong);
        }
        Ok(EarningsScope {
            sday,
            eday,
            machine,
        })
    }
}

impl EarningsScope {
    /// The days of the window, ascending.
    pub fn days(&self) -> std::ops::RangeInclusive<i64> {
        self.sday..=self.eday
    }
}

/// The day index of Unix time `seconds`.
pub fn day_of(seconds: f64) -> i64 {
    (seconds / DAY_SECONDS).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TODAY: i64 = 20_784;

    fn query<'a>(pairs: &[(&str, &'a str)]) -> EarningsQuery<'a> {
        let get = |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        EarningsQuery {
            sday: get("sday"),
            eday: get("eday"),
            last_days: get("last_days"),
            machid: get("machid"),
        }
    }

    fn scope(pairs: &[(&str, &str)]) -> Result<EarningsScope, EarningsRefusal> {
        query(pairs).scope(TODAY)
    }

    fn window(
        sday: i64,
        eday: i64,
        machine: Option<i64>,
    ) -> Result<EarningsScope, EarningsRefusal> {
        Ok(EarningsScope {
            sday,
            eday,
            machine,
        })
    }

    #[test]
    fn the_official_clients_queries_read_as_whole_days() {
        // `vastai show earnings`: both days are now/86400 − 1, machid null.
        assert_eq!(
            scope(&[
                ("owner", "me"),
                ("sday", "20783.930159526655"),
                ("eday", "20783.930159526655"),
                ("machid", "null"),
            ]),
            window(20_783, 20_783, None)
        );
        // `-s 2026-01-01 -e 2026-01-31 -m 1001`.
        assert_eq!(
            scope(&[("sday", "20454.0"), ("eday", "20484.0"), ("machid", "1001")]),
            window(20_454, 20_484, Some(1001))
        );
        // The console's whole days.
        assert_eq!(
            scope(&[("sday", "20454"), ("eday", "20484"), ("machid", "1001.0")]),
            window(20_454, 20_484, Some(1001))
        );
    }

    #[test]
    fn absent_days_are_yesterday_or_the_last_days_before_today() {
        assert_eq!(scope(&[]), window(TODAY - 1, TODAY - 1, None));
        assert_eq!(
            scope(&[("sday", "null"), ("eday", ""), ("machid", "")]),
            window(TODAY - 1, TODAY - 1, None)
        );
        assert_eq!(
            scope(&[("last_days", "30")]),
            window(TODAY - 30, TODAY - 1, None)
        );
        assert_eq!(
            scope(&[("last_days", "366")]),
            window(TODAY - 366, TODAY - 1, None)
        );
        // One day given: the other takes its default.
        assert_eq!(scope(&[("sday", "20700")]), window(20_700, TODAY - 1, None));
        assert_eq!(
            scope(&[("eday", "20800"), ("last_days", "7")]),
            window(TODAY - 7, 20_800, None)
        );
    }

    #[test]
    fn a_day_is_a_number_of_days_from_1970_to_9999() {
        assert_eq!(scope(&[("sday", "0"), ("eday", "0")]), window(0, 0, None));
        assert_eq!(
            scope(&[("sday", "2932896.9"), ("eday", "2932896")]),
            window(LAST_DAY, LAST_DAY, None)
        );
        for bad in [
            "-1",
            "-0.5",
            "2932897",
            "1e300",
            "1e400",
            "\"20454\"",
            "abc",
            "true",
            "[1]",
            "{}",
            "NaN",
            "20454 x",
            "２０４５４",
        ] {
            assert_eq!(
                scope(&[("sday", bad), ("eday", "20454")]),
                Err(EarningsRefusal::Day("sday")),
                "{bad}"
            );
            assert_eq!(
                scope(&[("sday", "20454"), ("eday", bad)]),
                Err(EarningsRefusal::Day("eday")),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_window_runs_forward_and_at_most_366_days() {
        assert_eq!(
            scope(&[("sday", "20455"), ("eday", "20454.9")]),
            Err(EarningsRefusal::Reversed)
        );
        assert_eq!(
            scope(&[("sday", "20000"), ("eday", "20365")]),
            window(20_000, 20_365, None)
        );
        assert_eq!(
            scope(&[("sday", "20000"), ("eday", "20366")]),
            Err(EarningsRefusal::TooLong)
        );
        assert_eq!(
            scope(&[("sday", "0"), ("eday", "2932896")]),
            Err(EarningsRefusal::TooLong)
        );
    }

    #[test]
    fn last_days_and_machid_are_whole_numbers_in_range() {
        for bad in ["0", "367", "-3", "1.5", "\"7\"", "x", "[7]"] {
            assert_eq!(
                scope(&[("last_days", bad)]),
                Err(EarningsRefusal::LastDays),
                "{bad}"
            );
        }
        for bad in [
            "0", "-1001", "1001.5", "\"1001\"", "[1001]", "1e30", "me", "true",
        ] {
            assert_eq!(
                scope(&[("machid", bad)]),
                Err(EarningsRefusal::Machid),
                "{bad}"
            );
        }
    }

    #[test]
    fn refusals_say_the_generated_refs_words() {
        assert_eq!(
            EarningsRefusal::Day("eday").to_string(),
            "Invalid input syntax: eday must be a number of days since 1970-01-01"
        );
        assert_eq!(
            EarningsRefusal::TooLong.to_string(),
            "Invalid input syntax: window longer than 366 days"
        );
    }

    #[test]
    fn an_answer_needs_only_its_three_required_parts() {
        let answer: MachineEarnings = serde_json::from_value(json!({
            "summary": {"total_gpu": 1.5, "total_stor": 0, "total_bwu": 0, "total_bwd": 0},
            "per_machine": [{"machine_id": 1001, "gpu_earn": 1.5, "sto_earn": 0,
                "bwu_earn": 0, "bwd_earn": 0}],
            "per_day": [{"day": 20454, "gpu_earn": 1.5, "sto_earn": 0, "bwu_earn": 0,
                "bwd_earn": 0, "sla_earn": 0, "reliability": null}],
            "taxinfo": null, "extra": true
        }))
        .unwrap();
        assert_eq!(answer.sday, None);
        assert_eq!(answer.per_machine[0].machine_id, 1001);
        assert_eq!(answer.per_day[0].day, 20_454);
        assert!(serde_json::from_value::<MachineEarnings>(json!({"summary": {}})).is_err());
    }

    #[test]
    fn day_indexes_floor_unix_seconds() {
        assert_eq!(day_of(0.0), 0);
        assert_eq!(day_of(86_399.9), 0);
        assert_eq!(day_of(86_400.0), 1);
        assert_eq!(day_of(1_798_675_200.0), 20_818);
    }
}
