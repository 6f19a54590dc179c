//! When a refused request may be sent again: the `Retry-After` of a 429 or 503 answer,
//! which requests it lets the client repeat, and which 429s are not worth waiting out
//! (spec neighbours §1.5). Pure; unit-tested natively.

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
    asked_wait(value, now).map(|seconds| seconds.min(MAX_RETRY_AFTER_SECONDS))
}

/// Seconds from `now` a `Retry-After` value asks to wait, however long.
fn asked_wait(value: &str, now: f64) -> Option<f64> {
    let value = value.trim();
    match crate::decimal::parse_decimal(value) {
        Some(seconds) if seconds.is_finite() && seconds >= 0.0 => Some(seconds),
        Some(_) => None,
        None => Some((http_date(value)? - now).max(0.0)),
    }
}

/// The `error` of a 429 whose limit is a daily quota (spec neighbours §1.5).
pub const SEARCH_QUOTA_EXCEEDED: &str = "search_quota_exceeded";

/// The largest `X-RateLimit-Reset` read as seconds from now rather than a Unix time.
const RESET_IN_SECONDS_AT_MOST: f64 = 10.0 * 86_400.0;

/// A 429 that waiting a minute will not lift, so the client says so at once instead of
/// trying again behind a progress bar (client 1.9.1 likewise gives up beyond 60 s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LongLimit {
    /// A daily quota (`search_quota_exceeded`), rather than a long `Retry-After`.
    pub quota: bool,
    /// When to try again (Unix seconds, rounded up), when the answer says.
    pub retry_at: Option<i64>,
}

/// Whether a 429 at `now` is a [`LongLimit`]: its `error` is `search_quota_exceeded`
/// (reset time from `X-RateLimit-Reset`, Unix seconds or seconds from now), or its
/// `Retry-After` asks more than [`MAX_RETRY_AFTER_SECONDS`].
pub fn long_limit(
    error: Option<&str>,
    retry_after: Option<&str>,
    reset: Option<&str>,
    now: f64,
) -> Option<LongLimit> {
    let asked = retry_after.and_then(|value| asked_wait(value, now));
    if error == Some(SEARCH_QUOTA_EXCEEDED) {
        let reset_at = reset
            .and_then(|value| crate::decimal::parse_decimal(value.trim()))
            .filter(|at| at.is_finite() && *at > 0.0)
            // Seconds until a daily reset are a day at most; a Unix time is far more.
            .map(|at| {
                if at <= RESET_IN_SECONDS_AT_MOST {
                    now + at
                } else {
                    at
                }
            });
        return Some(LongLimit {
            quota: true,
            retry_at: reset_at.or(asked.map(|seconds| now + seconds)).map(whole),
        });
    }
    asked
        .filter(|seconds| *seconds > MAX_RETRY_AFTER_SECONDS)
        .map(|seconds| LongLimit {
            quota: false,
            retry_at: Some(whole(now + seconds)),
        })
}

/// Whole Unix seconds, rounded up: "try again after" never names a time too early.
fn whole(at: f64) -> i64 {
    at.ceil() as i64
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

#[cfg(test)]
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
    fn a_retry_after_beyond_a_minute_or_a_search_quota_is_not_waited_out() {
        assert_eq!(
            long_limit(None, Some("3600"), None, NOW),
            Some(LongLimit {
                quota: false,
                retry_at: Some(NOW as i64 + 3600)
            })
        );
        assert_eq!(
            long_limit(None, Some("Sun, 06 Nov 1994 10:49:37 GMT"), None, NOW),
            Some(LongLimit {
                quota: false,
                retry_at: Some(NOW as i64 + 7200)
            })
        );
        // A minute or less is waited out, as client 1.9.1 does; so is no Retry-After.
        assert_eq!(long_limit(None, Some("60"), None, NOW), None);
        assert_eq!(long_limit(Some("rate_limited"), None, None, NOW), None);
        assert_eq!(long_limit(None, Some("soon"), None, NOW), None);
        // A daily quota, its reset as a Unix time or as seconds from now, or unknown.
        let quota = |reset| long_limit(Some("search_quota_exceeded"), None, reset, NOW);
        assert_eq!(
            quota(Some("784150000")),
            Some(LongLimit {
                quota: true,
                retry_at: Some(784_150_000)
            })
        );
        assert_eq!(
            quota(Some("600")),
            Some(LongLimit {
                quota: true,
                retry_at: Some(NOW as i64 + 600)
            })
        );
        assert_eq!(
            quota(None),
            Some(LongLimit {
                quota: true,
                retry_at: None
            })
        );
        assert_eq!(quota(Some("later")).unwrap().retry_at, None);
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
