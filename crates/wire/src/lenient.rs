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
