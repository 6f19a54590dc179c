//! Body fields read without refusing, so an operation can judge them in its own words.
//!
//! Some operations answer a malformed field with a sentence of their own and, for some
//! fields, a status of their own (`sdate` refusals are 422, the others 400), and judge
//! the fields in the order the request type declares them. A field typed [`Lenient<T>`]
//! never fails to deserialise: it is `Valid` when the JSON value reads as `T` and `Invalid`
//! otherwise, and the operation's validation says what that means.

use serde::de::{Deserialize, DeserializeOwned, Deserializer};
use serde::{Serialize, Serializer};

/// A value that reads as `T`, or `Invalid` when what was sent does not.
/// In a request type, `Option<Lenient<T>>` with `#[serde(default)]` also tells an absent
/// or `null` field (`None`) from a malformed one.
#[derive(Debug, Clone, PartialEq)]
pub enum Lenient<T> {
    Valid(T),
    Invalid,
}

impl<T> Lenient<T> {
    /// The value, if it was of the right type.
    pub fn valid(&self) -> Option<&T> {
        match self {
            Lenient::Valid(value) => Some(value),
            Lenient::Invalid => None,
        }
    }
}

impl<T> From<T> for Lenient<T> {
    fn from(value: T) -> Self {
        Lenient::Valid(value)
    }
}

/// `Valid` as the value itself; `Invalid` (never built by a sender) as `null`.
impl<T: Serialize> Serialize for Lenient<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Lenient::Valid(value) => value.serialize(serializer),
            Lenient::Invalid => serializer.serialize_unit(),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Ok(T::deserialize(value).map_or(Lenient::Invalid, Lenient::Valid))
    }
}

/// A field whose `null` means something else than its absence (N22's `min_chunk`: absent
/// is 1, `null` is refused). Declare it `Option<Nullable<T>>` with
/// `#[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]`:
/// it reads `None` when absent and `Some(Null)` for `null`, and a sender's `None` leaves the
/// key out rather than write `null`.
#[derive(Debug, Clone, PartialEq)]
pub enum Nullable<T> {
    Null,
    Value(T),
}

/// A sender's value: `Whole(2).into()` is `Value(Valid(Whole(2)))`.
impl<T> From<T> for Nullable<Lenient<T>> {
    fn from(value: T) -> Self {
        Nullable::Value(Lenient::Valid(value))
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Null => serializer.serialize_unit(),
            Nullable::Value(value) => value.serialize(serializer),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(deserializer)?.map_or(Nullable::Null, Nullable::Value))
    }
}

/// For `deserialize_with` on an `Option<Nullable<T>>` field: a present key, `null` included,
/// is `Some` (serde's own `Option` would read `null` as absent).
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// An integer under the whole-number rule (`12.0` is 12), as a type, for
/// `Lenient<Whole>` fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Whole(pub i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::whole_number::deserialize(deserializer).map(Whole)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, Serialize)]
    struct Body {
        #[serde(default)]
        n: Option<Lenient<Whole>>,
    }

    fn read(json: &str) -> Option<Lenient<Whole>> {
        serde_json::from_str::<Body>(json).unwrap().n
    }

    #[derive(Debug, serde::Deserialize, Serialize)]
    struct NullableBody {
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        n: Option<Nullable<Lenient<Whole>>>,
    }

    #[test]
    fn a_nullable_field_tells_absent_from_null_and_never_writes_null_for_absent() {
        let read = |json: &str| serde_json::from_str::<NullableBody>(json).unwrap().n;
        assert_eq!(read("{}"), None);
        assert_eq!(read(r#"{"n": null}"#), Some(Nullable::Null));
        assert_eq!(
            read(r#"{"n": "7"}"#),
            Some(Nullable::Value(Lenient::Invalid))
        );
        assert_eq!(read(r#"{"n": 7.0}"#), Some(Whole(7).into()));
        let write = |n| serde_json::to_string(&NullableBody { n }).unwrap();
        assert_eq!(write(None), "{}");
        assert_eq!(write(Some(Whole(2).into())), r#"{"n":2}"#);
        assert_eq!(write(Some(Nullable::Null)), r#"{"n":null}"#);
    }

    #[test]
    fn absent_null_malformed_and_valid_are_told_apart() {
        assert_eq!(read("{}"), None);
        assert_eq!(read(r#"{"n": null}"#), None);
        assert_eq!(read(r#"{"n": "7"}"#), Some(Lenient::Invalid));
        assert_eq!(read(r#"{"n": 1.5}"#), Some(Lenient::Invalid));
        assert_eq!(read(r#"{"n": [1]}"#), Some(Lenient::Invalid));
        assert_eq!(read(r#"{"n": 7.0}"#), Some(Lenient::Valid(Whole(7))));
        assert_eq!(
            serde_json::to_string(&Body {
                n: Some(Whole(7).into())
            })
            .unwrap(),
            r#"{"n":7}"#
        );
    }
}
