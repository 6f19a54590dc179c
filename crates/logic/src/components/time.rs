//! Times as people read them, with no clock and no time zone: spans ("2 h 30 min"), where
//! a window stands ("in 3 h", "2 h left"), an instant at a given offset from UTC, and the
//! instant as JavaScript's `Date.toISOString` writes it. The console's `components::time`
//! adds the clock and the browser's zone.

use crate::components::calendar::CalendarTime;

/// `2026-11-22 14:05` at `offset_millis` ahead of UTC, or `2026-11-22 13:05 UTC` when
/// `utc` (the offset then 0); `—` for an invalid instant.
pub fn format_shifted(unix_seconds: f64, offset_millis: f64, utc: bool) -> String {
    let Some(at) = CalendarTime::of(unix_seconds * 1000.0 + offset_millis) else {
        return "—".into();
    };
    let zone = if utc { " UTC" } else { "" };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}{zone}",
        at.year, at.month, at.day, at.hour, at.minute
    )
}

/// A span of seconds in the largest unit that keeps it short: `45 min`, `3 h`, `2 d 4 h`.
pub fn format_span(seconds: f64) -> String {
    let minutes = (seconds.abs() / 60.0).round() as i64;
    match minutes {
        0 => "under a minute".into(),
        m if m < 60 => format!("{m} min"),
        m if m < 48 * 60 => {
            let (h, rest) = (m / 60, m % 60);
            if rest == 0 || h >= 10 {
                format!("{} h", (m as f64 / 60.0).round() as i64)
            } else {
                format!("{h} h {rest} min")
            }
        }
        m => {
            let (d, h) = (m / (24 * 60), (m % (24 * 60)) / 60);
            if h == 0 {
                format!("{d} d")
            } else {
                format!("{d} d {h} h")
            }
        }
    }
}

/// Where a window stands at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowStage {
    Upcoming,
    Ongoing,
    Ended,
}

impl WindowStage {
    pub fn of(now: f64, start: f64, end: f64) -> WindowStage {
        if now < start {
            WindowStage::Upcoming
        } else if now < end {
            WindowStage::Ongoing
        } else {
            WindowStage::Ended
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            WindowStage::Upcoming => "Upcoming",
            WindowStage::Ongoing => "Ongoing",
            WindowStage::Ended => "Ended",
        }
    }
}

/// How far the window's next edge is: `in 3 h` (its start), `2 h left` (its end), `1 h
/// ago` (since it ended).
fn distance_text(stage: WindowStage, now: f64, start: f64, end: f64) -> String {
    match stage {
        WindowStage::Upcoming => format!("in {}", format_span(start - now)),
        WindowStage::Ongoing => format!("{} left", format_span(end - now)),
        WindowStage::Ended => format!("{} ago", format_span(now - end)),
    }
}

/// Where a window stands relative to `now`: `in 3 h`, `2 h left`, `ended 1 h ago`. Shown
/// beside the window's status ("Ongoing"), so it does not repeat it.
pub fn relative_window(now: f64, start: f64, end: f64) -> String {
    let stage = WindowStage::of(now, start, end);
    let distance = distance_text(stage, now, start, end);
    match stage {
        WindowStage::Ended => format!("ended {distance}"),
        _ => distance,
    }
}

/// The stage and where the window stands, for a cell of its own: `Upcoming · in 3 h`,
/// `Ongoing · 2 h left`, `Ended · 1 h ago`.
pub fn stage_and_distance(now: f64, start: f64, end: f64) -> String {
    let (stage, distance) = stage_and_distance_parts(now, start, end);
    format!("{stage} · {distance}")
}

/// [`stage_and_distance`]'s two parts, for a cell that may put them on two lines.
pub fn stage_and_distance_parts(now: f64, start: f64, end: f64) -> (&'static str, String) {
    let stage = WindowStage::of(now, start, end);
    (stage.label(), distance_text(stage, now, start, end))
}

/// `text` from [`format_absolute`] without its year when that is `current_year`: `11-22
/// 14:05`. Tables of many times stay narrow; the year shows when it differs.
pub fn without_current_year(text: &str, current_year: i32) -> &str {
    text.strip_prefix(&format!("{current_year:04}-"))
        .unwrap_or(text)
}

/// The instant as `Date.toISOString` writes it (`2026-11-22T13:05:00.000Z`), for
/// `<time datetime>`; empty for an invalid time.
pub fn iso(unix_seconds: f64) -> String {
    let Some(at) = CalendarTime::of(unix_seconds * 1000.0) else {
        return String::new();
    };
    let year = if (0..=9999).contains(&at.year) {
        format!("{:04}", at.year)
    } else {
        format!("{:+07}", at.year)
    };
    format!(
        "{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.month, at.day, at.hour, at.minute, at.second, at.millis
    )
}

#[cfg(test)]
mod tests {
    use super::{
        format_shifted, format_span, iso, relative_window, stage_and_distance, without_current_year,
    };

    #[test]
    fn utc_times_are_written_as_javascript_dates_would() {
        // Expected values from JavaScript's `Date` (toISOString) for the same instants.
        assert_eq!(iso(0.0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(1_795_437_900.5), "2026-11-23T12:45:00.500Z");
        assert_eq!(iso(951_782_400.0), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso(4_107_542_400.0), "2100-03-01T00:00:00.000Z");
        assert_eq!(iso(-1.0), "1969-12-31T23:59:59.000Z");
        assert_eq!(iso(-0.0005), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(-62_198_755_200.0), "-000001-01-01T00:00:00.000Z");
        assert_eq!(iso(253_402_300_800.0), "+010000-01-01T00:00:00.000Z");
        assert_eq!(iso(f64::NAN), "");
        assert_eq!(iso(8.64e12 + 1.0), "");
        assert_eq!(
            format_shifted(1_795_437_900.0, 0.0, true),
            "2026-11-23 12:45 UTC"
        );
        assert_eq!(format_shifted(f64::INFINITY, 0.0, true), "—");
    }

    #[test]
    fn the_current_year_is_left_out_and_others_kept() {
        assert_eq!(
            without_current_year("2026-11-22 14:05", 2026),
            "11-22 14:05"
        );
        assert_eq!(
            without_current_year("2026-11-22 13:05 UTC", 2026),
            "11-22 13:05 UTC"
        );
        assert_eq!(
            without_current_year("2027-01-15 08:00", 2026),
            "2027-01-15 08:00"
        );
        assert_eq!(without_current_year("—", 2026), "—");
    }

    #[test]
    fn spans_and_relative_times_read_naturally() {
        assert_eq!(format_span(20.0), "under a minute");
        assert_eq!(format_span(30.0), "1 min");
        assert_eq!(format_span(45.0 * 60.0), "45 min");
        assert_eq!(format_span(3.0 * 3600.0), "3 h");
        assert_eq!(format_span(2.5 * 3600.0), "2 h 30 min");
        assert_eq!(format_span(30.0 * 3600.0), "30 h");
        assert_eq!(format_span(52.0 * 3600.0), "2 d 4 h");
        let now = 1_000_000.0;
        assert_eq!(
            relative_window(now, now + 3.0 * 3600.0, now + 5.0 * 3600.0),
            "in 3 h"
        );
        assert_eq!(
            relative_window(now, now - 3600.0, now + 2.0 * 3600.0),
            "2 h left"
        );
        assert_eq!(
            relative_window(now, now - 7200.0, now - 3600.0),
            "ended 1 h ago"
        );
        assert_eq!(
            stage_and_distance(now, now + 3600.0, now + 7200.0),
            "Upcoming · in 1 h"
        );
        assert_eq!(
            stage_and_distance(now, now - 3600.0, now + 7200.0),
            "Ongoing · 2 h left"
        );
        assert_eq!(
            stage_and_distance(now, now - 7200.0, now - 3600.0),
            "Ended · 1 h ago"
        );
    }
}
