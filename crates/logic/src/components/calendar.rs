//! Calendar arithmetic in UTC on the proleptic Gregorian calendar, as JavaScript's `Date`
//! counts: pure, so it is unit-tested natively. Time zones stay with the browser
//! (`super::time`).

pub use gpudeck_wire::calendar::{civil_from_days, days_from_civil};

/// The calendar fields of an instant, computed here rather than through a JavaScript
/// `Date` per field: a table formats a few hundred times on each keystroke.
#[derive(Debug, PartialEq)]
pub struct CalendarTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millis: u32,
}

impl CalendarTime {
    /// Milliseconds since the epoch (proleptic Gregorian, as JavaScript's `Date`); `None`
    /// where a `Date` would be invalid: not a number, or beyond ±8.64e15 ms.
    pub fn of(unix_millis: f64) -> Option<Self> {
        if !unix_millis.is_finite() || unix_millis.abs() > 8.64e15 {
            return None;
        }
        // Like `Date`, drop the fraction toward zero.
        let total = unix_millis.trunc() as i64;
        let (days, in_day) = (total.div_euclid(86_400_000), total.rem_euclid(86_400_000));
        let (year, month, day) = civil_from_days(days);
        let in_day = in_day as u32;
        Some(Self {
            year,
            month,
            day,
            hour: in_day / 3_600_000,
            minute: in_day / 60_000 % 60,
            second: in_day / 1000 % 60,
            millis: in_day % 1000,
        })
    }
}

/// The first instant, in milliseconds since the epoch, at which some place is in `year`:
/// no zone is more than 14 hours ahead of UTC (Kiribati's Line Islands).
pub fn earliest_start_of_year(year: i64) -> f64 {
    (days_from_civil(year, 1, 1) * 86_400_000 - 14 * 3_600_000) as f64
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_year_begins_first_fourteen_hours_before_utc() {
        // 2027-01-01T00:00Z is 1,798,761,600 s; 14 h earlier it is already 2027 at UTC+14.
        assert_eq!(
            earliest_start_of_year(2027),
            1_798_761_600_000.0 - 50_400_000.0
        );
        assert_eq!(
            CalendarTime::of(earliest_start_of_year(2027) + 14.0 * 3_600_000.0).map(|t| t.year),
            Some(2027)
        );
        assert_eq!(earliest_start_of_year(1970), -50_400_000.0);
    }

    #[test]
    fn days_and_dates_convert_both_ways() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(days_from_civil(2000, 2, 29), 11_016);
        // Every day from 1600 to 2400, leap rules of 100 and 400 years included.
        let mut days = days_from_civil(1600, 1, 1);
        for year in 1600..2400 {
            for month in 1..=12 {
                for day in 1..=days_in_month(year, month) {
                    assert_eq!(civil_from_days(days), (i64::from(year), month, day));
                    assert_eq!(days_from_civil(i64::from(year), month, day), days);
                    days += 1;
                }
            }
        }
    }

    #[test]
    fn an_instant_splits_into_its_fields() {
        let at = CalendarTime::of(1_795_437_900_500.0).unwrap();
        assert_eq!(
            at,
            CalendarTime {
                year: 2026,
                month: 11,
                day: 23,
                hour: 12,
                minute: 45,
                second: 0,
                millis: 500
            }
        );
        assert_eq!(CalendarTime::of(f64::NAN), None);
        assert_eq!(CalendarTime::of(-8.64e15 - 1.0), None);
        assert!(CalendarTime::of(8.64e15).is_some());
    }
}
