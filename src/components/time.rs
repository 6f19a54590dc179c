//! Times as people read them: absolute in their own time zone (or UTC, a choice kept for
//! the session) and relative to now ("in 3 h", "2 h left").

use super::calendar::{earliest_start_of_year, CalendarTime};
use super::toggle::Toggle;
use crate::storage::Stored;
use leptos::prelude::*;
use leptos_use_interval_fn::use_interval_fn;
use std::cell::Cell;

const UTC_KEY: &str = "gpudeck.utc";

/// Whether times show in UTC; shared by every time on the page.
#[derive(Clone, Copy)]
pub struct UtcPreference(pub RwSignal<bool>);

pub fn provide_time_preference() {
    let stored = Stored::<bool>::in_session(UTC_KEY);
    let utc = RwSignal::new(stored.load().unwrap_or(false));
    // Written only when it changes, so an untouched preference leaves no trace.
    Effect::new(move |previous: Option<bool>| {
        let now = utc.get();
        if previous.is_some_and(|was| was != now) {
            stored.save(&now);
        }
        now
    });
    provide_context(UtcPreference(utc));
}

pub fn use_utc() -> RwSignal<bool> {
    use_context::<UtcPreference>()
        .map(|p| p.0)
        .unwrap_or_else(|| RwSignal::new(false))
}

/// Seconds since the Unix epoch, now.
pub fn now_seconds() -> f64 {
    js_sys::Date::now() / 1000.0
}

/// `2026-11-22 14:05` in the browser's zone, or `2026-11-22 13:05 UTC`.
pub fn format_absolute(unix_seconds: f64, utc: bool) -> String {
    let millis = unix_seconds * 1000.0;
    let offset_millis = if utc {
        0.0
    } else {
        local_offset_millis(millis)
    };
    let Some(at) = CalendarTime::of(millis + offset_millis) else {
        return "—".into();
    };
    let zone = if utc { " UTC" } else { "" };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}{zone}",
        at.year, at.month, at.day, at.hour, at.minute
    )
}

/// The value a `datetime-local` input shows for an instant: `2026-11-22T14:05`, in UTC or
/// in the browser's zone ([`start_seconds`] reads it back).
pub fn datetime_local_value(unix_seconds: f64, utc: bool) -> String {
    let millis = unix_seconds * 1000.0;
    let offset_millis = if utc {
        0.0
    } else {
        local_offset_millis(millis)
    };
    CalendarTime::of(millis + offset_millis).map_or_else(String::new, |at| {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}",
            at.year, at.month, at.day, at.hour, at.minute
        )
    })
}

/// How far the browser's zone is ahead of UTC at that instant (summer time included).
fn local_offset_millis(unix_millis: f64) -> f64 {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_millis));
    -date.get_timezone_offset() * 60_000.0
}

/// This year in the browser's zone. A table row built anew for every keystroke asks for it
/// several times, so it is kept until the first moment the year can have ended anywhere.
fn current_year() -> i32 {
    thread_local! {
        /// The year, and the instant until which it is surely still the year.
        static KNOWN: Cell<Option<(i64, f64)>> = const { Cell::new(None) };
    }
    let now = js_sys::Date::now();
    let year = match KNOWN.get() {
        Some((year, until)) if now < until => year,
        _ => {
            let year = CalendarTime::of(now + local_offset_millis(now)).map_or(1970, |t| t.year);
            KNOWN.set(Some((year, earliest_start_of_year(year + 1))));
            year
        }
    };
    year as i32
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

/// How often relative times ("in 3 h") are brought up to date.
const CLOCK_TICK_MS: u64 = 30_000;

/// Now, in Unix seconds, brought up to date every 30 s while the page is open: one clock
/// for every relative time of a page.
pub fn use_clock() -> RwSignal<f64> {
    let now = RwSignal::new(now_seconds());
    use_interval_fn(move || now.set(now_seconds()), CLOCK_TICK_MS);
    now
}

/// `text` from [`format_absolute`] without its year when that is `current_year`: `11-22
/// 14:05`. Tables of many times stay narrow; the year shows when it differs.
pub fn without_current_year(text: &str, current_year: i32) -> &str {
    text.strip_prefix(&format!("{current_year:04}-"))
        .unwrap_or(text)
}

/// An absolute time, without the current year, with the exact UTC instant in its tooltip,
/// following the UTC choice.
#[component]
pub fn Time(unix_seconds: f64) -> impl IntoView {
    let utc = use_utc();
    let exact = format_absolute(unix_seconds, true);
    let year = current_year();
    view! {
        <time datetime=iso(unix_seconds) title=exact>
            {move || {
                without_current_year(&format_absolute(unix_seconds, utc.get()), year).to_owned()
            }}
        </time>
    }
}

/// The instant as `Date.toISOString` writes it (`2026-11-22T13:05:00.000Z`), for
/// `<time datetime>`; empty for an invalid time.
fn iso(unix_seconds: f64) -> String {
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

/// The switch between local time and UTC.
#[component]
pub fn UtcToggle() -> impl IntoView {
    let utc = use_utc();
    view! { <Toggle checked=utc label=" Show times in UTC" /> }
}

/// The zone times are read and shown in, in words: `UTC`, or the browser's zone.
pub fn zone_words(utc: bool) -> String {
    if utc {
        "UTC".to_owned()
    } else {
        local_zone()
    }
}

/// The browser's time zone as people read it: `Europe/Berlin, UTC+01:00`.
pub fn local_zone() -> String {
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new())
        .resolved_options();
    let name = js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "local time".into());
    let offset = -js_sys::Date::new_0().get_timezone_offset() as i64;
    let sign = if offset < 0 { '-' } else { '+' };
    format!(
        "{name}, UTC{sign}{:02}:{:02}",
        offset.abs() / 60,
        offset.abs() % 60
    )
}

/// Unix seconds of a `datetime-local` value, read in UTC or in the browser's zone.
pub fn start_seconds(text: &str, utc: bool) -> Option<f64> {
    let civil = crate::domain::schedule::parse_datetime_local(text)?;
    if utc {
        return Some(crate::domain::schedule::utc_seconds(civil));
    }
    let (y, mo, d, h, mi) = civil;
    let date = js_sys::Date::new_with_year_month_day_hr_min(
        y as u32,
        mo as i32 - 1,
        d as i32,
        h as i32,
        mi as i32,
    );
    let ms = date.get_time();
    (!ms.is_nan()).then_some(ms / 1000.0)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{
        format_absolute, format_span, iso, relative_window, stage_and_distance,
        without_current_year,
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
            format_absolute(1_795_437_900.0, true),
            "2026-11-23 12:45 UTC"
        );
        assert_eq!(format_absolute(f64::INFINITY, true), "—");
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
