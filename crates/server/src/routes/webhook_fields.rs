//! The fields N29 and N30 take, judged in the spec's words (fleet-health §3.4, N29's
//! table): a name, a URL, and the event types.

use crate::error::ApiError;
use crate::notifications::catalog::Kind;
use crate::notifications::targets;
use crate::quote::quote;
use gpudeck_wire::Lenient;
use reqwest::Url;
use serde_json::Value;

pub const MAX_NAME_CHARS: usize = 120;
pub const MAX_URL_CHARS: usize = 2048;

/// A webhook's name: `None` for no name (`""` is stored as none).
pub fn name(name: &Lenient<String>) -> Result<Option<String>, ApiError> {
    let Lenient::Valid(name) = name else {
        return Err(ApiError::invalid_args("name must be a string"));
    };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::invalid_args(
            "name exceeds maximum length of 120 characters",
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::invalid_args(
            "name must not contain control characters",
        ));
    }
    Ok((!name.is_empty()).then(|| name.clone()))
}

const URL_REQUIRED: &str = "webhook_url is required and must be a string";
const NEEDS_HTTPS: &str = "webhook_url must use HTTPS";
const NEEDS_HOST: &str = "webhook_url must include a hostname";
const BAD_PORT: &str = "webhook_url has an invalid port";

/// A webhook's URL, as given: an absolute `https://` URL with a hostname and a valid port,
/// or in demo or test mode (`local_allowed`) also `http://` to `127.0.0.1` or
/// `localhost`. Where it resolves is judged at delivery, as the public service does.
pub fn url(url: Option<&Lenient<String>>, local_allowed: bool) -> Result<String, ApiError> {
    let Some(Lenient::Valid(text)) = url else {
        return Err(ApiError::invalid_args(URL_REQUIRED));
    };
    if text.chars().count() > MAX_URL_CHARS {
        return Err(ApiError::invalid_args(
            "webhook_url exceeds maximum length of 2048 characters",
        ));
    }
    let lower = text.trim_start().to_ascii_lowercase();
    let http_allowed = local_allowed && lower.starts_with("http://");
    if !(lower.starts_with("https://") || http_allowed) {
        return Err(ApiError::invalid_args(NEEDS_HTTPS));
    }
    // `https:///path` names no host, though WHATWG parsing would take `path` for one.
    let authority = lower.split_once("://").map_or("", |(_, rest)| rest);
    if authority.is_empty() || authority.starts_with(['/', '?', '#']) {
        return Err(ApiError::invalid_args(NEEDS_HOST));
    }
    let parsed = Url::parse(text).map_err(|error| match error {
        url::ParseError::InvalidPort => ApiError::invalid_args(BAD_PORT),
        _ => ApiError::invalid_args(NEEDS_HOST),
    })?;
    if parsed.scheme() == "http" && !targets::is_local(&parsed) {
        return Err(ApiError::invalid_args(NEEDS_HTTPS));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(ApiError::invalid_args(NEEDS_HOST));
    }
    if parsed.port() == Some(0) {
        return Err(ApiError::invalid_args(BAD_PORT));
    }
    Ok(text.clone())
}

/// The event types: at least one, each a full key or a bare slug naming exactly one type
/// offered to the caller, none twice (counted after a slug is resolved to its key).
pub fn event_types(
    given: Option<&Lenient<Vec<Value>>>,
    offered: &[&'static Kind],
) -> Result<Vec<&'static Kind>, ApiError> {
    let Some(Lenient::Valid(given)) = given else {
        return Err(ApiError::invalid_args("event_types must be a list"));
    };
    if given.is_empty() {
        return Err(ApiError::invalid_args(
            "event_types must contain at least one event type",
        ));
    }
    let mut kinds: Vec<&'static Kind> = Vec::with_capacity(given.len());
    for value in given {
        let kind = event_type(value, offered)?;
        if kinds.contains(&kind) {
            return Err(ApiError::invalid_args(format!(
                "Duplicate event type: {}",
                kind.slug()
            )));
        }
        kinds.push(kind);
    }
    Ok(kinds)
}

fn event_type(value: &Value, offered: &[&'static Kind]) -> Result<&'static Kind, ApiError> {
    let unknown =
        |shown: &str| ApiError::invalid_args(format!("Unknown event type: {}", quote(shown, 64)));
    let Value::String(text) = value else {
        return Err(unknown(&value.to_string()));
    };
    if text.contains(':') {
        return offered
            .iter()
            .copied()
            .find(|kind| kind.key == text)
            .ok_or_else(|| unknown(text));
    }
    let mut matching = offered.iter().copied().filter(|kind| kind.slug() == text);
    match (matching.next(), matching.next()) {
        (Some(kind), None) => Ok(kind),
        (Some(_), Some(_)) => Err(ApiError::invalid_args(format!(
            "Ambiguous event type: {}; use the full key",
            quote(text, 64)
        ))),
        (None, _) => Err(unknown(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notifications::catalog;
    use serde_json::json;

    fn url_refusal(text: &str, local_allowed: bool) -> String {
        url(Some(&Lenient::Valid(text.to_owned())), local_allowed)
            .unwrap_err()
            .msg
    }

    #[test]
    fn urls_need_https_a_host_and_a_valid_port() {
        let fine = |text: &str, local| url(Some(&Lenient::Valid(text.into())), local).unwrap();
        assert_eq!(
            fine("https://hooks.example.com/vast", false),
            "https://hooks.example.com/vast"
        );
        assert_eq!(
            fine("HTTPS://Hooks.Example.com:8443/v?a=1", false),
            "HTTPS://Hooks.Example.com:8443/v?a=1"
        );
        assert_eq!(
            fine("https://bücher.example/ü", false),
            "https://bücher.example/ü"
        );
        assert_eq!(
            fine("http://127.0.0.1:9000/hook", true),
            "http://127.0.0.1:9000/hook"
        );
        assert_eq!(fine("http://localhost/hook", true), "http://localhost/hook");
        for (text, local, msg) in [
            ("http://hooks.example.com/", false, NEEDS_HTTPS),
            ("http://127.0.0.1:9000/hook", false, NEEDS_HTTPS),
            ("http://10.0.0.1/hook", true, NEEDS_HTTPS),
            ("ftp://hooks.example.com/", true, NEEDS_HTTPS),
            ("hooks.example.com", false, NEEDS_HTTPS),
            ("", false, NEEDS_HTTPS),
            ("https://", false, NEEDS_HOST),
            ("https:///path", false, NEEDS_HOST),
            ("https://hooks.example.com:99999/", false, BAD_PORT),
            ("https://hooks.example.com:x/", false, BAD_PORT),
            ("https://hooks.example.com:0/", false, BAD_PORT),
        ] {
            assert_eq!(url_refusal(text, local), msg, "{text}");
        }
        assert_eq!(
            url_refusal(&format!("https://a.example/{}", "x".repeat(2048)), false),
            "webhook_url exceeds maximum length of 2048 characters"
        );
        assert_eq!(url(None, false).unwrap_err().msg, URL_REQUIRED);
        assert_eq!(
            url(Some(&Lenient::Invalid), false).unwrap_err().msg,
            URL_REQUIRED
        );
    }

    #[test]
    fn names_are_short_plain_text_and_empty_means_none() {
        let valid = |text: &str| name(&Lenient::Valid(text.into()));
        assert_eq!(valid("").unwrap(), None);
        assert_eq!(
            valid("Ops – 🌙 <b>").unwrap().as_deref(),
            Some("Ops – 🌙 <b>")
        );
        assert_eq!(
            valid(&"é".repeat(120)).unwrap().map(|n| n.chars().count()),
            Some(120)
        );
        assert_eq!(
            valid(&"é".repeat(121)).unwrap_err().msg,
            "name exceeds maximum length of 120 characters"
        );
        assert_eq!(
            valid("a\nb").unwrap_err().msg,
            "name must not contain control characters"
        );
        assert_eq!(
            name(&Lenient::Invalid).unwrap_err().msg,
            "name must be a string"
        );
    }

    #[test]
    fn event_types_are_keys_or_unique_slugs_offered_once() {
        let offered: Vec<_> = catalog::offered(true).collect();
        let client_only: Vec<_> = catalog::offered(false).collect();
        let read = |given: Value, offered: &[&'static Kind]| {
            let given: Vec<Value> = serde_json::from_value(given).unwrap();
            event_types(Some(&Lenient::Valid(given)), offered)
        };
        let keys = read(json!(["host:machine_offline", "low_disk_space"]), &offered).unwrap();
        assert_eq!(
            keys.iter().map(|k| k.key).collect::<Vec<_>>(),
            ["host:machine_offline", "host:low_disk_space"]
        );
        for (given, msg) in [
            (
                json!([]),
                "event_types must contain at least one event type",
            ),
            (json!(["host:nope"]), "Unknown event type: host:nope"),
            (json!([5]), "Unknown event type: 5"),
            (json!(["webhook_test"]), "Unknown event type: webhook_test"),
            (
                json!(["machine_offline", "host:machine_offline"]),
                "Duplicate event type: machine_offline",
            ),
        ] {
            assert_eq!(
                read(given.clone(), &offered).unwrap_err().msg,
                msg,
                "{given}"
            );
        }
        // Host types are not offered to a user without machines.
        assert_eq!(
            read(json!(["host:machine_offline"]), &client_only)
                .unwrap_err()
                .msg,
            "Unknown event type: host:machine_offline"
        );
        assert_eq!(
            event_types(Some(&Lenient::Invalid), &offered)
                .unwrap_err()
                .msg,
            "event_types must be a list"
        );
        assert_eq!(
            event_types(None, &offered).unwrap_err().msg,
            "event_types must be a list"
        );
    }
}
