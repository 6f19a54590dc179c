//! Calendar arithmetic the wire format needs (an RFC 3339 `sdate`, the dates in event
//! messages), shared with the console, which reads `Retry-After` dates and the form's local
//! times with it.

/// Days since 1970-01-01 of a proleptic Gregorian date: Howard Hinnant's
/// `days_from_civil`.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let month_from_march = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Year, month (1–12) and day (1–31) of a count of days since 1970-01-01: Howard
/// Hinnant's `civil_from_days`, which counts in 400-year eras of 146,097 days.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let shifted = days + 719_468; // days since 0000-03-01
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `seconds` since the epoch as RFC 3339 in UTC, to the second: `2027-01-15T12:00:00Z`.
pub fn rfc3339_utc(seconds: f64) -> String {
    let whole = seconds.floor() as i64;
    let (days, of_day) = (whole.div_euclid(86_400), whole.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::{days_from_civil, rfc3339_utc};

    #[test]
    fn instants_read_as_rfc3339_in_utc() {
        assert_eq!(rfc3339_utc(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(1_798_675_200.9), "2026-12-31T00:00:00Z");
        assert_eq!(rfc3339_utc(1_800_000_000.0), "2027-01-15T08:00:00Z");
        assert_eq!(rfc3339_utc(951_782_399.0), "2000-02-28T23:59:59Z");
    }

    #[test]
    fn days_are_counted_from_the_epoch_across_leap_years_and_eras() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(2000, 2, 29), 11_016);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(
            days_from_civil(2100, 3, 1) - days_from_civil(2100, 2, 28),
            1
        );
    }
}
