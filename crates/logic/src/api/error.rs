//! One error for every way a request can fail, shown the same way on every page.

use super::retry::{long_limit, LongLimit};
use crate::components::calendar::CalendarTime;
use serde::Deserialize;
use serde_json::Value;

/// The longest server text kept in an error; some answers are whole HTML pages.
const MAX_MESSAGE_CHARS: usize = 300;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The server answered with a failure status.
    #[error("{status}{}: {msg}", code_suffix(.error))]
    Http {
        status: u16,
        /// The `error` field of a JSON body, when there was one.
        error: Option<String>,
        /// The `msg` of a JSON body, else the plain-text body, else the status text.
        msg: String,
    },
    /// The server answered 2xx, but not with the shape the interface specifies.
    #[error("unexpected answer from the server: {0}")]
    Decode(String),
    /// The server answered 2xx but said it did not do it: `success: false` or
    /// `status: "failure"` (spec neighbours §1.3 rule 2).
    #[error("{msg}")]
    Declined {
        /// The `error` field, when it was a string.
        error: Option<String>,
        msg: String,
    },
    /// A read did not reach the server, or no answer came back. (A write with no answer
    /// is [`ApiError::NoAnswer`].)
    #[error("could not reach the server: {0}")]
    Network(String),
    /// A write was sent and no answer came back (the connection broke, the server
    /// restarted, a gateway timed out): it may or may not have been done. Never sent again
    /// by itself; the page re-reads what is true instead.
    #[error("no answer from the server; it may have been done ({0})")]
    NoAnswer(String),
    /// The page that asked was left; nobody is waiting for the answer.
    #[error("request cancelled")]
    Aborted,
    /// A 429 that waiting a minute would not lift (a daily quota, a `Retry-After` beyond
    /// a minute; spec neighbours §1.5): said at once with when to try again, never sent
    /// again by itself.
    #[error("{}", long_limit_sentence(.limit, .msg))]
    TooLongToWait { limit: LongLimit, msg: String },
    /// A 401 to this request while `users/current` still accepts the key: the public
    /// service answers so for a target the caller does not own (N12, seed op 3). A refusal
    /// to show, not a reason to sign out (spec neighbours §1.3.3).
    #[error("{0}")]
    NotYours(String),
}

/// What a page does with a failed request. Every page sorts errors this way and no other,
/// so none of them looks at status codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The server refused the request as asked, and the person can act on its message:
    /// shown next to the field it concerns, which keeps its input.
    Refused(Refusal),
    /// The key was refused: the shell signs out and detours through sign-in.
    Unauthorised,
    /// The server failed, could not be reached, or answered in the wrong shape: the
    /// error panel, with Try again.
    Failed,
    /// A write was sent and no answer came: it may have been done. Said as unknown, then
    /// what is true is read again before anything is offered to be sent again.
    Unknown,
    /// Nobody waits for the answer any more: nothing is shown.
    Aborted,
}

/// Which kind of refusal, so a page can tell which field it concerns without naming
/// statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// 400: the request could not be read as asked (a malformed or missing value).
    Malformed,
    /// 403: the key may not do this, or the thing is not the caller's.
    Forbidden,
    /// 404: what was named does not exist (or no longer).
    NotFound,
    /// 409: it exists, but its state forbids this (in use, not enough capacity left).
    Conflict,
    /// 413: the request is too large.
    TooLarge,
    /// 422: a value was understood but is out of range (a size below 1).
    Invalid,
    /// A 2xx that said it did not do it: no status tells what it concerns.
    Declined,
    /// 429, still, after the client waited and sent it again as often as it may: the
    /// server's rate limit, so not done.
    TooFrequent,
}

impl Refusal {
    fn of_status(status: u16) -> Option<Refusal> {
        match status {
            400 => Some(Refusal::Malformed),
            403 => Some(Refusal::Forbidden),
            404 => Some(Refusal::NotFound),
            409 => Some(Refusal::Conflict),
            413 => Some(Refusal::TooLarge),
            422 => Some(Refusal::Invalid),
            429 => Some(Refusal::TooFrequent),
            _ => None,
        }
    }
}

/// `not done: the daily search quota is used up; try again after 2026-11-28 14:05 UTC
/// (the server said: …)`.
fn long_limit_sentence(limit: &LongLimit, msg: &str) -> String {
    let what = if limit.quota {
        "the daily search quota is used up"
    } else {
        "the server asks to wait more than a minute before the next request, longer than \
         the console waits"
    };
    // "After" the minute that holds the reset, so never too early.
    let minute_after = |at: i64| CalendarTime::of(((at + 59).div_euclid(60) * 60) as f64 * 1000.0);
    let when = match limit.retry_at.and_then(minute_after) {
        Some(at) => format!(
            "try again after {:04}-{:02}-{:02} {:02}:{:02} UTC",
            at.year, at.month, at.day, at.hour, at.minute
        ),
        None if limit.quota => "try again once it resets (daily)".to_owned(),
        None => "try again later".to_owned(),
    };
    format!("not done: {what}; {when} (the server said: {msg})")
}

fn code_suffix(error: &Option<String>) -> String {
    match error {
        Some(code) if !code.is_empty() => format!(" {code}"),
        _ => String::new(),
    }
}

/// What a refusal's JSON body may carry (spec neighbours §1.3 rules 1 and 2). Every field
/// may be missing or of another type; only strings and the two failure markers count.
#[derive(Debug, Default, Deserialize)]
struct RefusalBody {
    #[serde(default)]
    msg: Option<Value>,
    #[serde(default)]
    message: Option<Value>,
    #[serde(default)]
    detail: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    success: Option<Value>,
    #[serde(default)]
    status: Option<Value>,
}

impl RefusalBody {
    /// Only a JSON object: serde would read an array's items as the fields in order. Read
    /// straight into the six fields, skipping the rest: every 2xx answer passes through here,
    /// a list of thousands of machines included.
    fn of(body: &str) -> Option<Self> {
        if !body.trim_start().starts_with('{') {
            return None;
        }
        serde_json::from_str(body).ok()
    }

    /// Rule 1: the first present of `msg`, `message`, `detail` and a string `error`.
    fn sentence(&self) -> Option<String> {
        [&self.msg, &self.message, &self.detail, &self.error]
            .into_iter()
            .find_map(|field| match field {
                Some(Value::String(text)) if !text.trim().is_empty() => Some(text.clone()),
                _ => None,
            })
    }

    fn code(&self) -> Option<String> {
        match &self.error {
            Some(Value::String(code)) if !code.is_empty() => Some(code.clone()),
            _ => None,
        }
    }

    /// Rule 2: `success: false` or `status: "failure"`.
    fn says_it_failed(&self) -> bool {
        self.success == Some(Value::Bool(false))
            || self.status == Some(Value::String("failure".into()))
    }
}

impl ApiError {
    /// Builds the error for a failure status from whatever body came with it: JSON with a
    /// sentence (rule 1 picks it) or plain text, else the status text.
    pub fn from_response(status: u16, status_text: &str, body: &str) -> Self {
        let parsed = RefusalBody::of(body).unwrap_or_default();
        let msg = match parsed.sentence() {
            Some(sentence) => sentence,
            None if !body.trim().is_empty() => body.trim().to_owned(),
            None if !status_text.is_empty() => status_text.to_owned(),
            None => format!("the server answered {status}"),
        };
        ApiError::Http {
            status,
            error: parsed.code(),
            msg: truncate(&msg),
        }
    }

    /// The refusal in a 2xx `body` that says it did not do it, if it does (spec §1.3
    /// rule 2; the client's decoding step asks, see `ApiClient::decode`).
    pub fn declined_in(body: &str) -> Option<Self> {
        // Such a body names `success` or `status`, as such or through a `\u` escape; one that
        // does neither is no refusal, without reading it through (a 2 MB list of machines:
        // 0.5 ms to search against 4-8 ms to read, natively).
        let may_say_so = ["\"success\"", "\"status\"", "\\u"]
            .iter()
            .any(|name| body.contains(name));
        if !may_say_so {
            return None;
        }
        let parsed = RefusalBody::of(body).filter(RefusalBody::says_it_failed)?;
        let msg = parsed
            .sentence()
            .unwrap_or_else(|| "the server answered that it did not do it".to_owned());
        Some(ApiError::Declined {
            error: parsed.code(),
            msg: truncate(&msg),
        })
    }

    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// This error, or for a 429 that waiting a minute would not lift
    /// ([`super::retry::long_limit`]: a search quota, a `Retry-After` beyond a minute) one
    /// that says so at once: `retry_after` and `reset` are the answer's `Retry-After` and
    /// `X-RateLimit-Reset` headers, `now` Unix seconds.
    pub fn unless_too_long_to_wait(
        self,
        retry_after: Option<&str>,
        reset: Option<&str>,
        now: f64,
    ) -> Self {
        match self {
            ApiError::Http {
                status: 429,
                error,
                msg,
            } => match long_limit(error.as_deref(), retry_after, reset, now) {
                Some(limit) => ApiError::TooLongToWait { limit, msg },
                None => ApiError::Http {
                    status: 429,
                    error,
                    msg,
                },
            },
            other => other,
        }
    }

    /// This error as the outcome of a write that was sent: no answer (the network, or a
    /// gateway that gave up waiting for the server) means it may have been done.
    pub fn for_a_write_sent(self) -> Self {
        match self {
            ApiError::Network(text) => ApiError::NoAnswer(text),
            ApiError::Http {
                status: 502 | 504,
                msg,
                ..
            } => ApiError::NoAnswer(msg),
            other => other,
        }
    }

    /// The sentence to show people.
    pub fn message(&self) -> String {
        match self {
            ApiError::Http {
                status: 429, msg, ..
            } => format!(
                "not done: the server refused it as too frequent, after the console waited \
                 and tried again; try again in a minute (the server said: {msg})"
            ),
            ApiError::Http { msg, .. }
            | ApiError::Declined { msg, .. }
            | ApiError::NotYours(msg) => msg.clone(),
            ApiError::TooLongToWait { limit, msg } => long_limit_sentence(limit, msg),
            other => other.to_string(),
        }
    }

    pub fn is_unauthorised(&self) -> bool {
        self.status() == Some(401)
    }

    /// How a page treats this error; see [`Outcome`].
    pub fn outcome(&self) -> Outcome {
        match self {
            ApiError::Aborted => Outcome::Aborted,
            ApiError::NotYours(_) => Outcome::Refused(Refusal::Forbidden),
            ApiError::Declined { .. } => Outcome::Refused(Refusal::Declined),
            ApiError::TooLongToWait { .. } => Outcome::Refused(Refusal::TooFrequent),
            _ if self.is_unauthorised() => Outcome::Unauthorised,
            ApiError::Http { status, .. } => {
                Refusal::of_status(*status).map_or(Outcome::Failed, Outcome::Refused)
            }
            ApiError::Decode(_) | ApiError::Network(_) => Outcome::Failed,
            ApiError::NoAnswer(_) => Outcome::Unknown,
        }
    }

    /// The kind of refusal, when the server refused the request as asked.
    pub fn refusal(&self) -> Option<Refusal> {
        match self.outcome() {
            Outcome::Refused(kind) => Some(kind),
            _ => None,
        }
    }

    /// Whether a write that ended so may have been applied though it is no refusal: the
    /// server failed (5xx) or answered 2xx in a shape the console cannot read. (A write
    /// with no answer is [`Outcome::Unknown`] already.)
    pub fn may_have_been_done(&self) -> bool {
        match self {
            ApiError::Http { status, .. } => (500..600).contains(status),
            ApiError::Decode(_) | ApiError::NoAnswer(_) => true,
            _ => false,
        }
    }

    /// The message with the status for context, `Invalid user key (401)`, where one came.
    pub fn message_with_status(&self) -> String {
        match self {
            ApiError::Http { status, msg, .. } => format!("{msg} ({status})"),
            other => other.to_string(),
        }
    }

    /// Whether trying a read again may help: rate limits, gateway trouble, the network.
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Http { status, .. } => matches!(status, 429 | 502 | 503 | 504),
            ApiError::Network(_) => true,
            ApiError::Decode(_)
            | ApiError::TooLongToWait { .. }
            | ApiError::Declined { .. }
            | ApiError::Aborted
            | ApiError::NoAnswer(_)
            | ApiError::NotYours(_) => false,
        }
    }

    /// Replaces any occurrence of `secret` in the texts, so a server that echoes the key
    /// can not put it on screen.
    pub fn redact(self, secret: &str) -> Self {
        if secret.len() < 4 {
            return self;
        }
        let clean = |text: String| text.replace(secret, "[redacted]");
        match self {
            ApiError::Http { status, error, msg } => ApiError::Http {
                status,
                error: error.map(clean),
                msg: clean(msg),
            },
            ApiError::Declined { error, msg } => ApiError::Declined {
                error: error.map(clean),
                msg: clean(msg),
            },
            ApiError::TooLongToWait { limit, msg } => ApiError::TooLongToWait {
                limit,
                msg: clean(msg),
            },
            ApiError::Decode(text) => ApiError::Decode(clean(text)),
            ApiError::Network(text) => ApiError::Network(clean(text)),
            ApiError::NoAnswer(text) => ApiError::NoAnswer(clean(text)),
            ApiError::NotYours(text) => ApiError::NotYours(clean(text)),
            ApiError::Aborted => ApiError::Aborted,
        }
    }
}

fn truncate(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(status: u16) -> ApiError {
        ApiError::from_response(status, "", r#"{"error": "x", "msg": "said"}"#)
    }

    #[test]
    fn error_bodies_of_every_observed_shape() {
        let only_msg = ApiError::from_response(400, "Bad Request", r#"{"msg": "bad"}"#);
        assert_eq!(
            only_msg,
            ApiError::Http {
                status: 400,
                error: None,
                msg: "bad".into()
            }
        );
        let only_error = ApiError::from_response(400, "", r#"{"error": "invalid_args"}"#);
        assert_eq!(only_error.message(), "invalid_args");
        let plain = ApiError::from_response(503, "Service Unavailable", "Overloaded, slow down\n");
        assert_eq!(plain.message(), "Overloaded, slow down");
        let empty = ApiError::from_response(502, "Bad Gateway", "");
        assert_eq!(empty.message(), "Bad Gateway");
        let huge = ApiError::from_response(500, "", &"<html>".repeat(1000));
        assert!(huge.message().chars().count() <= 301);
        let other_json = ApiError::from_response(500, "Oops", r#"["not", "an", "error"]"#);
        assert_eq!(other_json.message(), r#"["not", "an", "error"]"#);
    }

    #[test]
    fn the_sentence_is_the_first_of_msg_message_detail_and_a_string_error() {
        let message = ApiError::from_response(400, "", r#"{"status": "failure", "message": "no"}"#);
        assert_eq!(message.message(), "no");
        let detail = ApiError::from_response(422, "", r#"{"detail": "size must be ≥ 1"}"#);
        assert_eq!(detail.message(), "size must be ≥ 1");
        let first = ApiError::from_response(
            400,
            "",
            r#"{"error": "invalid_args", "detail": "d", "message": "m", "msg": "first"}"#,
        );
        assert_eq!(first.message(), "first");
        assert_eq!(first, http_with(400, Some("invalid_args"), "first"));
        // An `error` that is no string is no sentence and no code.
        let object = ApiError::from_response(500, "", r#"{"error": {"code": 7}}"#);
        assert_eq!(object, http_with(500, None, r#"{"error": {"code": 7}}"#));
    }

    fn http_with(status: u16, error: Option<&str>, msg: &str) -> ApiError {
        ApiError::Http {
            status,
            error: error.map(str::to_owned),
            msg: msg.to_owned(),
        }
    }

    #[test]
    fn a_2xx_saying_it_failed_is_a_refusal_with_its_sentence() {
        let declined =
            ApiError::declined_in(r#"{"success": false, "msg": "No such ask", "error": "x"}"#)
                .unwrap();
        assert_eq!(declined.outcome(), Outcome::Refused(Refusal::Declined));
        assert_eq!(declined.message(), "No such ask");
        assert!(!declined.is_transient());
        let failure = ApiError::declined_in(r#"{"status": "failure", "message": "nope"}"#);
        assert_eq!(failure.unwrap().message(), "nope");
        // Other fields are skipped, however large; white space may come first.
        let among =
            ApiError::declined_in(" \n{\"machines\": [1, 2, {\"a\": []}], \"success\": false}");
        assert_eq!(
            among.unwrap().outcome(),
            Outcome::Refused(Refusal::Declined)
        );
        let silent = ApiError::declined_in(r#"{"success": false}"#).unwrap();
        assert_eq!(
            silent.message(),
            "the server answered that it did not do it"
        );
        for fine in [
            r#"{"success": true, "offers": []}"#,
            r#"{"volumes": []}"#,
            r#"{"status": "success"}"#,
            r#"[{"success": false}]"#,
            // An array is no object, though serde would read its items as the fields.
            "[null, null, null, null, false]",
            "not json",
        ] {
            assert_eq!(ApiError::declined_in(fine), None, "{fine}");
        }
    }

    #[test]
    fn refusals_are_the_4xx_a_person_can_act_on() {
        let kinds = [
            (400, Refusal::Malformed),
            (403, Refusal::Forbidden),
            (404, Refusal::NotFound),
            (409, Refusal::Conflict),
            (413, Refusal::TooLarge),
            (422, Refusal::Invalid),
            (429, Refusal::TooFrequent),
        ];
        for (status, kind) in kinds {
            assert_eq!(http(status).outcome(), Outcome::Refused(kind), "{status}");
            assert_eq!(http(status).refusal(), Some(kind), "{status}");
        }
    }

    #[test]
    fn a_401_is_unauthorised_not_a_refusal() {
        assert_eq!(http(401).outcome(), Outcome::Unauthorised);
        assert_eq!(http(401).refusal(), None);
        // Unless the key still works: then the 401 was about the target.
        let not_yours = ApiError::NotYours("You are not authorized".into());
        assert_eq!(not_yours.outcome(), Outcome::Refused(Refusal::Forbidden));
        assert!(!not_yours.is_unauthorised());
        assert_eq!(not_yours.message(), "You are not authorized");
    }

    #[test]
    fn server_trouble_network_and_wrong_shapes_are_failures() {
        for status in [405, 414, 431, 500, 502, 503, 504] {
            assert_eq!(http(status).outcome(), Outcome::Failed, "{status}");
        }
        assert_eq!(ApiError::Network("down".into()).outcome(), Outcome::Failed);
        assert_eq!(
            ApiError::Decode("not JSON".into()).outcome(),
            Outcome::Failed
        );
    }

    #[test]
    fn a_write_sent_with_no_answer_is_unknown_and_a_read_with_none_failed() {
        let lost = ApiError::Network("no answer from http://h".into());
        assert_eq!(lost.clone().outcome(), Outcome::Failed);
        let unknown = lost.for_a_write_sent();
        assert_eq!(unknown.outcome(), Outcome::Unknown);
        assert!(
            !unknown.is_transient(),
            "a write with no answer is never sent again by itself"
        );
        assert!(
            !unknown.message().contains("could not reach"),
            "{}",
            unknown.message()
        );
        for gateway in [502, 504] {
            assert_eq!(http(gateway).for_a_write_sent().outcome(), Outcome::Unknown);
        }
        for answered in [400, 429, 500, 503] {
            assert_eq!(
                http(answered).for_a_write_sent(),
                http(answered),
                "{answered}"
            );
        }
        assert_eq!(
            ApiError::NoAnswer("key-12345 lost".into()).redact("key-12345"),
            ApiError::NoAnswer("[redacted] lost".into())
        );
    }

    #[test]
    fn a_429_left_after_the_waits_is_refused_in_plain_words() {
        let plain = ApiError::from_response(
            429,
            "Too Many Requests",
            "API requests too frequent: endpoint threshold=2.5",
        );
        assert_eq!(plain.outcome(), Outcome::Refused(Refusal::TooFrequent));
        assert!(plain
            .message()
            .starts_with("not done: the server refused it as too frequent"));
        assert!(plain
            .message()
            .ends_with("(the server said: API requests too frequent: endpoint threshold=2.5)"));
    }

    #[test]
    fn a_429_not_worth_waiting_out_says_when_to_try_again() {
        // 2026-11-28 00:00:00 UTC.
        const NOW: f64 = 1_795_824_000.0;
        let quota = ApiError::from_response(
            429,
            "",
            r#"{"success": false, "error": "search_quota_exceeded", "msg": "Daily quota reached"}"#,
        )
        .unless_too_long_to_wait(None, Some("1795870830"), NOW);
        assert_eq!(quota.outcome(), Outcome::Refused(Refusal::TooFrequent));
        assert!(!quota.is_transient());
        assert_eq!(quota.status(), None, "no 429 the client waits for");
        assert_eq!(
            quota.message(),
            "not done: the daily search quota is used up; try again after 2026-11-28 13:01 \
             UTC (the server said: Daily quota reached)"
        );
        let long = ApiError::from_response(429, "", "API requests too frequent")
            .unless_too_long_to_wait(Some("7200"), None, NOW);
        assert_eq!(
            long.message(),
            "not done: the server asks to wait more than a minute before the next request, \
             longer than the console waits; try again after 2026-11-28 02:00 UTC (the server \
             said: API requests too frequent)"
        );
        let unknown_reset = ApiError::from_response(
            429,
            "",
            r#"{"error": "search_quota_exceeded", "msg": "quota"}"#,
        )
        .unless_too_long_to_wait(None, None, NOW);
        assert!(unknown_reset
            .message()
            .contains("try again once it resets (daily)"));
        // A short wait, a plain 429, and other statuses stay as they were.
        for (error, retry_after) in [
            (
                ApiError::from_response(429, "", "API requests too frequent"),
                Some("2"),
            ),
            (
                ApiError::from_response(429, "", "API requests too frequent"),
                None,
            ),
            (http(503), Some("3600")),
        ] {
            assert_eq!(
                error
                    .clone()
                    .unless_too_long_to_wait(retry_after, None, NOW),
                error
            );
        }
        let secret = ApiError::from_response(
            429,
            "",
            r#"{"error": "search_quota_exceeded", "msg": "key-12345 quota"}"#,
        )
        .unless_too_long_to_wait(None, None, NOW)
        .redact("key-12345");
        assert!(secret.message().contains("[redacted] quota"));
    }

    #[test]
    fn an_aborted_request_shows_nothing() {
        assert_eq!(ApiError::Aborted.outcome(), Outcome::Aborted);
        assert_eq!(ApiError::Aborted.refusal(), None);
    }

    #[test]
    fn the_message_with_status_names_the_status_only_for_answers() {
        let refused = ApiError::from_response(
            401,
            "",
            r#"{"error": "auth_error", "msg": "Invalid user key"}"#,
        );
        assert_eq!(refused.message_with_status(), "Invalid user key (401)");
        assert_eq!(
            ApiError::Network("no answer".into()).message_with_status(),
            "could not reach the server: no answer"
        );
    }
}
