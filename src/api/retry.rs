//! When a refused request may be sent again: the `Retry-After` of a 429 or 503 answer,
//! and which requests it lets the client repeat. Pure; unit-tested natively.

use gpudeck_wire::calendar::days_from_civil;

/// The longest wait the console accepts from one `Retry-After`: beyond it a person is
/// better served by the error than by a frozen progress bar.
pub const MAX_RETRY_AFTER_SECONDS: f64 = 60.0;

/// How often one request is sent again after being told to wait.
pub const MAX_RATE_LIMIT_RETRIES: u32 = 5;

/// Seconds to wait from `now` (Unix seconds) as a `Retry-After` value says: a number of
/// seconds, or an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`). At most
/// [`MAX_RETRY_AFTER_SECONDS`]; a date already past waits nothing; `None` for a value that
/// is neither.
pub fn retry_after_seconds(value: &str, now: f64) -> Option<f64> {
    let value = value.trim();
    let seconds = match crate::decimal::parse_decimal(value) {
        Some(seconds) if seconds.is_finite() && seconds >= 0.0 => seconds,
        Some(_) => return None,
        None => (http_date(value)? - now).max(0.0),
    };
    Some(seconds.min(MAX_RETRY_AFTER_SECONDS))
}

/// Unix seconds of an IMF-fixdate (RFC 9110 §5.6.7), the form servers send.
fn http_date(text: &str) -> Option<f64> {
    // `Sun, 06 Nov 1994 08:49:37 GMT`
    let (_, rest) = text.split_once(", ")?;
    let mut parts = rest.split_whitespace();
    let day: u32 = parts.next()?.parse().ok()?;
    let month = parts.next()?;
    let year: i64 = parts.next()?.parse().ok()?;
    let time = parts.next()?;
    if parts.next()? != "GMT" || parts.next().is_some() {
        return None;
    }
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| *m == month)? as u32 + 1;
    let mut clock = time.split(':').map(|n| n.parse::<i64>().ok());
    let (hour, minute, second) = (clock.next()??, clock.next()??, clock.next()??);
    let valid = (1..=31).contains(&day) && hour < 24 && minute < 60 && second < 61;
    valid.then(|| {
        (days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) as f64
    })
}

/// Whether a request refused with `status` and a `Retry-After` may be sent again: a 429
/// says nothing was done, so any request may; a 503 does not say so, so only a read.
pub fn may_send_again(status: u16, is_read: bool) -> bool {
    status == 429 || (status == 503 && is_read)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    const NOW: f64 = 784_111_777.0; // Sun, 06 Nov 1994 08:49:37 GMT

    #[test]
    fn seconds_are_read_and_capped() {
        assert_eq!(retry_after_seconds("1", NOW), Some(1.0));
        assert_eq!(retry_after_seconds(" 2 ", NOW), Some(2.0));
        assert_eq!(retry_after_seconds("0", NOW), Some(0.0));
        assert_eq!(retry_after_seconds("3600", NOW), Some(60.0));
        assert_eq!(retry_after_seconds("-1", NOW), None);
        assert_eq!(retry_after_seconds("", NOW), None);
        assert_eq!(retry_after_seconds("soon", NOW), None);
    }

    #[test]
    fn http_dates_wait_until_then() {
        assert_eq!(
            retry_after_seconds("Sun, 06 Nov 1994 08:49:40 GMT", NOW),
            Some(3.0)
        );
        assert_eq!(
            retry_after_seconds("Sun, 06 Nov 1994 08:49:00 GMT", NOW),
            Some(0.0)
        );
        assert_eq!(
            retry_after_seconds("Mon, 07 Nov 1994 08:49:37 GMT", NOW),
            Some(60.0)
        );
        assert_eq!(http_date("Sun, 06 Nov 1994 08:49:37 GMT"), Some(NOW));
        assert_eq!(
            retry_after_seconds("Sun, 06 Foo 1994 08:49:40 GMT", NOW),
            None
        );
        assert_eq!(
            retry_after_seconds("Sun, 06 Nov 1994 08:49:40 CET", NOW),
            None
        );
        assert_eq!(
            retry_after_seconds("Sun, 06 Nov 1994 25:00:00 GMT", NOW),
            None
        );
    }

    #[test]
    fn a_refused_write_is_sent_again_only_when_nothing_was_done() {
        assert!(may_send_again(429, false));
        assert!(may_send_again(429, true));
        assert!(may_send_again(503, true));
        assert!(!may_send_again(503, false));
        assert!(!may_send_again(500, true));
    }
}
