//! Reading JSON bodies ourselves, so every refusal is a JSON `{error, msg}` that names the
//! field at fault, rather than axum's plain-text rejections.

use crate::error::ApiError;
use crate::AppState;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use bytes::Bytes;
use serde_json::{Map, Value};

/// A request body that is a JSON object.
#[derive(Debug, Clone)]
pub struct JsonObject(pub Map<String, Value>);

impl FromRequest<AppState> for JsonObject {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        if let Some(content_type) = request.headers().get(CONTENT_TYPE) {
            let essence = content_type
                .to_str()
                .unwrap_or("")
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if essence != "application/json" && !essence.ends_with("+json") {
                return Err(ApiError::invalid_json(
                    "the body must be JSON, sent with Content-Type: application/json",
                ));
            }
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::too_large(state.config.body_limit)
                } else {
                    ApiError::invalid_json("the request body could not be read")
                }
            })?;
        parse_object(&bytes).map(JsonObject)
    }
}

/// Parses `bytes` as a JSON object.
pub fn parse_object(bytes: &[u8]) -> Result<Map<String, Value>, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid_json("a JSON object body is required"));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(ApiError::invalid_args("the body must be a JSON object")),
        Err(error) => Err(ApiError::invalid_json(format!(
            "the body is not valid JSON: {error}"
        ))),
    }
}

/// The field `name`, which must be present.
pub fn required<'a>(object: &'a Map<String, Value>, name: &str) -> Result<&'a Value, ApiError> {
    match object.get(name) {
        None => Err(ApiError::invalid_args(format!("{name} is required"))),
        Some(value) => Ok(value),
    }
}

/// The field `name` as an integer: present, and a JSON whole number (not a string,
/// fraction or null) that fits in 64 bits. A whole number written with a fraction part
/// (`12.0`) counts, as it does in JSON Schema.
pub fn required_int(object: &Map<String, Value>, name: &str) -> Result<i64, ApiError> {
    let value = required(object, name)?;
    as_whole_number(value).ok_or_else(|| {
        ApiError::invalid_args(format!(
            "{name} must be an integer, not {}",
            describe(value)
        ))
    })
}

/// `value` as an `i64` if it is a whole number in range.
fn as_whole_number(value: &Value) -> Option<i64> {
    if let Some(n) = value.as_i64() {
        return Some(n);
    }
    let f = value.as_f64().filter(|_| value.is_f64())?;
    // -2^63 ≤ f < 2^63: exactly the doubles that convert without saturating.
    (f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f))
        .then_some(f as i64)
}

/// A short description of a JSON value's type, for messages.
pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() != 0.0) => "a fraction",
        Value::Number(_) => "a number out of range",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bodies_must_be_json_objects() {
        assert_eq!(parse_object(b"").unwrap_err().error, "invalid_json");
        assert_eq!(parse_object(b"{").unwrap_err().error, "invalid_json");
        assert_eq!(
            parse_object(b"[1]").unwrap_err().msg,
            "the body must be a JSON object"
        );
        assert_eq!(parse_object(br#"{"a":1}"#).unwrap()["a"], 1);
    }

    #[test]
    fn integer_fields_name_themselves() {
        let object = parse_object(br#"{"id":"7","size":1.5,"n":null,"big":1e300,"ok":3}"#).unwrap();
        assert_eq!(required_int(&object, "ok").unwrap(), 3);
        assert_eq!(
            required_int(&object, "missing").unwrap_err().msg,
            "missing is required"
        );
        assert_eq!(
            required_int(&object, "id").unwrap_err().msg,
            "id must be an integer, not a string"
        );
        assert_eq!(
            required_int(&object, "size").unwrap_err().msg,
            "size must be an integer, not a fraction"
        );
        assert_eq!(
            required_int(&object, "n").unwrap_err().msg,
            "n must be an integer, not null"
        );
        let whole =
            parse_object(br#"{"a":12.0,"b":-7e3,"c":1e19,"d":-1e300,"e":99999999999999999999}"#)
                .unwrap();
        assert_eq!(required_int(&whole, "a").unwrap(), 12);
        assert_eq!(required_int(&whole, "b").unwrap(), -7000);
        for field in ["c", "d", "e"] {
            assert_eq!(
                required_int(&whole, field).unwrap_err().msg,
                format!("{field} must be an integer, not a number out of range")
            );
        }
        let huge = json!({"x": u64::MAX});
        assert_eq!(
            required_int(huge.as_object().unwrap(), "x")
                .unwrap_err()
                .msg,
            "x must be an integer, not a number out of range"
        );
    }
}
