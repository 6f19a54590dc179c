//! Request bodies: JSON read into the request types of `gpudeck_wire`, with every refusal a
//! JSON `{error, msg}` that names the field at fault, rather than axum's plain-text
//! rejections.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use bytes::Bytes;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// A request body that is a JSON object. Handlers [`read`](JsonObject::read) their
/// `gpudeck_wire` request type from it once the caller may act, so a key without the
/// permission is refused as such whatever it sent.
#[derive(Debug, Clone)]
pub struct JsonObject(Map<String, Value>);

impl JsonObject {
    /// Reads `T` from the object. A refusal names the field and what was sent: "size must
    /// be an integer, not a fraction", "id is required".
    pub fn read<T: DeserializeOwned>(self) -> Result<T, ApiError> {
        read_fields(self.0)
    }
}

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
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
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

/// Reads `T` from the fields of `object`. Read from a parsed value rather than from the
/// bytes, so serde's messages carry no line and column, only the field.
fn read_fields<T: DeserializeOwned>(object: Map<String, Value>) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(Value::Object(object))
        .map_err(|error| ApiError::invalid_args(field_refusal(&error)))
}

/// The sentence for a field that could not be read: "`field` is required" or "`field`
/// `what serde said`" (the wire types word their own messages to follow a field name).
fn field_refusal(error: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let said = error.inner().to_string();
    if let Some(field) = missing_field(&said) {
        return format!("{field} is required");
    }
    match error.path().iter().next() {
        None => said,
        Some(_) => format!("{} {said}", error.path()),
    }
}

/// The field named by serde's "missing field `name`" (its wording for a required field
/// that is absent; `de::Error::missing_field`'s default, which serde_json keeps).
fn missing_field(said: &str) -> Option<&str> {
    said.strip_prefix("missing field `")?.strip_suffix('`')
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpudeck_wire::{AcceptVolumeRequest, DefragRequest, DeleteTemplateRequest};

    fn read<T: DeserializeOwned>(json: &str) -> Result<T, ApiError> {
        JsonObject(parse_object(json.as_bytes())?).read()
    }

    fn refusal<T: DeserializeOwned + std::fmt::Debug>(json: &str) -> String {
        let error = read::<T>(json).unwrap_err();
        assert_eq!(error.status, 400);
        assert_eq!(error.error, "invalid_args");
        error.msg
    }

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
        type Volume = AcceptVolumeRequest;
        assert_eq!(
            read::<Volume>(r#"{"size": 20, "id": 7, "extra": "ignored"}"#).unwrap(),
            AcceptVolumeRequest { id: 7, size: 20 }
        );
        assert_eq!(refusal::<Volume>(r#"{"size": 20}"#), "id is required");
        assert_eq!(refusal::<Volume>(r#"{"id": 8}"#), "size is required");
        assert_eq!(
            refusal::<Volume>(r#"{"id": "7", "size": 20}"#),
            "id must be an integer, not a string"
        );
        assert_eq!(
            refusal::<Volume>(r#"{"id": 8, "size": 1.5}"#),
            "size must be an integer, not a fraction"
        );
        assert_eq!(
            refusal::<Volume>(r#"{"id": 8, "size": null}"#),
            "size must be an integer, not null"
        );
        type Template = DeleteTemplateRequest;
        assert_eq!(
            read::<Template>(r#"{"template_id": 12.0}"#)
                .unwrap()
                .template_id,
            12
        );
        for big in [
            "1e19",
            "-1e300",
            "99999999999999999999",
            "18446744073709551615",
        ] {
            assert_eq!(
                refusal::<Template>(&format!(r#"{{"template_id": {big}}}"#)),
                "template_id must be an integer, not a number out of range"
            );
        }
        assert_eq!(refusal::<Template>("{}"), "template_id is required");
    }

    #[test]
    fn machine_ids_refuse_as_a_whole() {
        assert_eq!(refusal::<DefragRequest>("{}"), "machine_ids is required");
        assert_eq!(
            refusal::<DefragRequest>(r#"{"machine_ids": [1, 2.5]}"#),
            "machine_ids must be an integer, a comma-separated string or an array of \
             integers, not an array"
        );
    }

    #[test]
    fn only_serdes_missing_field_wording_reads_as_missing() {
        assert_eq!(missing_field("missing field `size`"), Some("size"));
        assert_eq!(missing_field("must be an integer, not null"), None);
    }
}
