//! Request bodies: JSON read into the request types of `gpudeck_wire`, with every refusal a
//! JSON `{error, msg}` that names the field at fault, rather than axum's plain-text
//! rejections.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use bytes::Bytes;
use serde::de::value::MapDeserializer;
use serde::de::{DeserializeOwned, Deserializer, Visitor};
use serde_json::{Map, Value};
use serde_path_to_error::Segment;
use std::cell::Cell;

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

    /// The object as sent, for an operation that reads it field by field and echoes it
    /// (N35's `you_sent`).
    pub fn into_map(self) -> Map<String, Value> {
        self.0
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
        parse_object(&read_bytes(request, state).await?).map(JsonObject)
    }
}

/// The body of an operation that takes its inputs from the path (N5, cancel every window of
/// a machine): none, an empty one, `null` or any JSON object, with or without
/// `Content-Type`. It is read only to hold it to the body limit and to refuse anything
/// else.
#[derive(Debug, Clone, Copy)]
pub struct UnusedBody;

impl FromRequest<AppState> for UnusedBody {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        OptionalObject::from_request(request, state)
            .await
            .map(|_| UnusedBody)
    }
}

/// The body of an operation whose inputs may also come in the body (N12, delete a volume):
/// none, an empty one or `null` (read as `{}`), or any JSON object, with or without
/// `Content-Type`.
#[derive(Debug, Clone, Default)]
pub struct OptionalObject(Map<String, Value>);

impl OptionalObject {
    /// Reads `T` from the fields, as [`JsonObject::read`] does.
    pub fn read<T: DeserializeOwned>(self) -> Result<T, ApiError> {
        read_fields(self.0)
    }
}

impl FromRequest<AppState> for OptionalObject {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        let bytes = read_bytes(request, state).await?;
        let absent = bytes.iter().all(u8::is_ascii_whitespace)
            || serde_json::from_slice::<Value>(&bytes).is_ok_and(|value| value.is_null());
        if absent {
            return Ok(OptionalObject::default());
        }
        parse_object(&bytes).map(OptionalObject)
    }
}

/// The body's bytes, at most the configured limit (beyond it 413).
async fn read_bytes(request: Request, state: &AppState) -> Result<Bytes, ApiError> {
    Bytes::from_request(request, state)
        .await
        .map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::too_large(state.config.body_limit)
            } else {
                ApiError::invalid_json("the request body could not be read")
            }
        })
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

/// Reads `T` from the fields of `object`, judging them in the order `T` declares them: the
/// first field that is missing or malformed is the one named, whatever order the client
/// wrote them in (and whether or not serde_json keeps that order, which depends on the
/// features other crates of the build turn on). Read from a parsed value rather than from
/// the bytes, so serde's messages carry no line and column, only the field.
fn read_fields<T: DeserializeOwned>(object: Map<String, Value>) -> Result<T, ApiError> {
    let declared = Cell::new(&[][..]);
    let error = match read_in_declared_order::<T>(object.clone(), &declared) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    // A malformed field is only the first problem if no required field declared before it
    // is missing. Which fields are required only `T` knows: ask it, with the fields
    // before the malformed one (all well-formed, or it would have been named).
    if let Some(Segment::Map { key: malformed }) = error.path().iter().next() {
        let before: Vec<&str> = declared
            .get()
            .iter()
            .copied()
            .take_while(|name| name != malformed)
            .collect();
        if before.iter().any(|name| !object.contains_key(*name)) {
            let earlier: Map<String, Value> = object
                .into_iter()
                .filter(|(name, _)| before.contains(&name.as_str()))
                .collect();
            if let Err(missing) = read_in_declared_order::<T>(earlier, &declared) {
                if missing_field(&missing.inner().to_string())
                    .is_some_and(|name| before.contains(&name))
                {
                    return Err(ApiError::invalid_args(field_refusal(&missing)));
                }
            }
        }
    }
    Err(ApiError::invalid_args(field_refusal(&error)))
}

type FieldError = serde_path_to_error::Error<serde_json::Error>;

fn read_in_declared_order<T: DeserializeOwned>(
    object: Map<String, Value>,
    declared: &Cell<&'static [&'static str]>,
) -> Result<T, FieldError> {
    serde_path_to_error::deserialize(DeclaredOrder { object, declared })
}

/// A JSON object that hands a struct its fields in the order the struct declares them
/// (then any others), and notes that order in `declared`.
struct DeclaredOrder<'a> {
    object: Map<String, Value>,
    declared: &'a Cell<&'static [&'static str]>,
}

impl<'de> Deserializer<'de> for DeclaredOrder<'_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        Value::Object(self.object).deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.declared.set(fields);
        let mut rest = self.object;
        let mut entries: Vec<(String, Value)> = fields
            .iter()
            .filter_map(|name| rest.remove(*name).map(|value| ((*name).to_owned(), value)))
            .collect();
        entries.extend(rest);
        let mut map = MapDeserializer::new(entries.into_iter());
        let value = visitor.visit_map(&mut map)?;
        map.end()?;
        Ok(value)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The sentence for a field that could not be read: "`field` is required" or "`field`
/// `what serde said`" (the wire types word their own messages to follow a field name).
fn field_refusal(error: &FieldError) -> String {
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

    /// Each body is refused with 400 `invalid_args` and exactly its message.
    fn refused<T: DeserializeOwned + std::fmt::Debug>(cases: &[(&str, &str)]) {
        for (body, msg) in cases {
            let error = read::<T>(body).unwrap_err();
            assert_eq!(error.status, 400, "{body}");
            assert_eq!(error.error, "invalid_args", "{body}");
            assert_eq!(error.msg, *msg, "{body}");
        }
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
        assert_eq!(
            read::<AcceptVolumeRequest>(r#"{"size": 20, "id": 7, "extra": "ignored"}"#).unwrap(),
            AcceptVolumeRequest {
                id: 7,
                size: 20,
                name: None
            }
        );
        refused::<AcceptVolumeRequest>(&[
            (r#"{"size": 20}"#, "id is required"),
            (r#"{"id": 8}"#, "size is required"),
            (
                r#"{"id": "7", "size": 20}"#,
                "id must be an integer, not a string",
            ),
            (
                r#"{"id": 8, "size": 1.5}"#,
                "size must be an integer, not a fraction",
            ),
            (
                r#"{"id": 8, "size": null}"#,
                "size must be an integer, not null",
            ),
        ]);
        let template = read::<DeleteTemplateRequest>(r#"{"template_id": 12.0}"#).unwrap();
        assert_eq!(template.template_id, 12);
        let out_of_range = "template_id must be an integer, not a number out of range";
        refused::<DeleteTemplateRequest>(&[
            ("{}", "template_id is required"),
            (r#"{"template_id": 1e19}"#, out_of_range),
            (r#"{"template_id": -1e300}"#, out_of_range),
            (r#"{"template_id": 99999999999999999999}"#, out_of_range),
            (r#"{"template_id": 18446744073709551615}"#, out_of_range),
        ]);
    }

    #[test]
    fn fields_are_judged_in_the_order_the_type_declares_them() {
        let id_malformed = "id must be an integer, not a string";
        refused::<AcceptVolumeRequest>(&[
            // `id` is declared first: its problem is named, however the body is ordered.
            (r#"{"id": "x", "size": 1.5}"#, id_malformed),
            (r#"{"size": 1.5, "id": "x"}"#, id_malformed),
            (r#"{"id": "x"}"#, id_malformed),
            // A missing field declared first comes before a malformed one declared later.
            (r#"{"size": "x"}"#, "id is required"),
            (r#"{"size": 1.5, "x": 1}"#, "id is required"),
            (
                r#"{"size": null, "id": 8}"#,
                "size must be an integer, not null",
            ),
        ]);
    }

    #[test]
    fn an_absent_optional_field_does_not_hide_a_malformed_one() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Optional {
            #[serde(default)]
            first: Option<i64>,
            #[serde(deserialize_with = "gpudeck_wire::whole_number::deserialize")]
            second: i64,
            third: i64,
        }
        refused::<Optional>(&[
            (
                r#"{"second": "x"}"#,
                "second must be an integer, not a string",
            ),
            (r#"{"third": "x"}"#, "second is required"),
        ]);
    }

    #[test]
    fn machine_ids_refuse_as_a_whole() {
        refused::<DefragRequest>(&[
            ("{}", "machine_ids is required"),
            (
                r#"{"machine_ids": [1, 2.5]}"#,
                "machine_ids must be an integer, a comma-separated string or an array of \
                 integers, not an array",
            ),
        ]);
    }

    #[test]
    fn only_serdes_missing_field_wording_reads_as_missing() {
        assert_eq!(missing_field("missing field `size`"), Some("size"));
        assert_eq!(missing_field("must be an integer, not null"), None);
    }
}
