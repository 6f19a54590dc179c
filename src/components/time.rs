//! Times as people read them: absolute in their own time zone (or UTC, a choice kept for
//! the session) and relative to now ("in 3 h", "2 h left").

use super::toggle::Toggle;
use crate::storage::Stored;
use leptos::prelude::*;

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
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_seconds * 1000.0));
    if date.get_time().is_nan() {
        return "—".into();
    }
    let (y, mo, d, h, mi) = if utc {
        (
            date.get_utc_full_year(),
            date.get_utc_month() + 1,
            date.get_utc_date(),
            date.get_utc_hours(),
            date.get_utc_minutes(),
        )
    } else {
        (
            date.get_full_year(),
            date.get_month() + 1,
            date.get_date(),
            date.get_hours(),
            date.get_minutes(),
        )
    };
    let zone = if utc { " UTC" } else { "" };
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}{zone}")
}

/// A span of seconds in the largest unit that keeps it short: `45 min`, `3 h`, `2 d 4 h`.
pub fn format_span(seconds: f64) -> String {
    let minutes = (seconds.abs() / 60.0).round() as i64;
    match minutes {
        0 => "less than a minute".into(),
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

/// Where a window stands relative to `now`: `in 3 h`, `2 h left`, `ended 1 h ago`. Shown
/// beside the window's status ("Ongoing"), so it does not repeat it.
pub fn relative_window(now: f64, start: f64, end: f64) -> String {
    if now < start {
        format!("in {}", format_span(start - now))
    } else if now < end {
        format!("{} left", format_span(end - now))
    } else {
        format!("ended {} ago", format_span(now - end))
    }
}

/// An absolute time with the exact UTC instant in its tooltip, following the UTC choice.
#[component]
pub fn Time(unix_seconds: f64) -> impl IntoView {
    let utc = use_utc();
    let exact = format_absolute(unix_seconds, true);
    view! {
        <time datetime=iso(unix_seconds) title=exact>
            {move || format_absolute(unix_seconds, utc.get())}
        </time>
    }
}

fn iso(unix_seconds: f64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_seconds * 1000.0));
    if date.get_time().is_nan() {
        return String::new();
    }
    date.to_iso_string().into()
}

/// The switch between local time and UTC.
#[component]
pub fn UtcToggle() -> impl IntoView {
    let utc = use_utc();
    view! { <Toggle checked=utc label=" Show times in UTC"/> }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{format_span, relative_window};

    #[test]
    fn spans_and_relative_times_read_naturally() {
        assert_eq!(format_span(20.0), "less than a minute");
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
    }
}
