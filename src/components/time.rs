//! Times as people read them: absolute in their own time zone (or UTC, a choice kept for
//! the session) and relative to now ("in 3 h", "2 h left").

use super::calendar::{earliest_start_of_year, CalendarTime};
use super::toggle::Toggle;
use crate::storage::Stored;
use leptos::prelude::*;
use leptos_use_interval_fn::use_interval_fn;
use std::cell::Cell;

pub use gpudeck_logic::components::time::*;

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
    let offset_millis = if utc {
        0.0
    } else {
        local_offset_millis(unix_seconds * 1000.0)
    };
    format_shifted(unix_seconds, offset_millis, utc)
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

/// How often relative times ("in 3 h") are brought up to date.
const CLOCK_TICK_MS: u64 = 30_000;

/// Now, in Unix seconds, brought up to date every 30 s while the page is open: one clock
/// for every relative time of a page.
pub fn use_clock() -> RwSignal<f64> {
    let now = RwSignal::new(now_seconds());
    use_interval_fn(move || now.set(now_seconds()), CLOCK_TICK_MS);
    now
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
