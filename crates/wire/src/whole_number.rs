//! The whole-number rule for integer fields of request bodies.
//!
//! JSON has one number type, so a client may write 12 as `12.0` (JavaScript's
//! `JSON.stringify` never does, but other encoders and hand-written bodies do). As in JSON
//! Schema, a number with no fractional part counts as an integer; anything else is refused
//! with a message saying what was sent instead, so the server can name the field and the
//! value's kind: "size must be an integer, not a fraction".

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// What a JSON value was when a whole number was wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotWhole {
    Null,
    Boolean,
    Fraction,
    /// A whole number beyond 64 bits.
    OutOfRange,
    String,
    Array,
    Object,
}

impl fmt::Display for NotWhole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotWhole::Null => "null",
            NotWhole::Boolean => "a boolean",
            NotWhole::Fraction => "a fraction",
            NotWhole::OutOfRange => "a number out of range",
            NotWhole::String => "a string",
            NotWhole::Array => "an array",
            NotWhole::Object => "an object",
        })
    }
}

/// `n` as an `i64`, if it fits.
pub fn from_u64(n: u64) -> Result<i64, NotWhole> {
    i64::try_from(n).map_err(|_| NotWhole::OutOfRange)
}

/// `f` as an `i64`, if it is whole and fits.
pub fn from_f64(f: f64) -> Result<i64, NotWhole> {
    // -2^63 ≤ f < 2^63: exactly the doubles that convert without saturating.
    const RANGE: std::ops::Range<f64> = -9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0;
    if f.fract() != 0.0 {
        Err(NotWhole::Fraction)
    } else if RANGE.contains(&f) {
        Ok(f as i64)
    } else {
        Err(NotWhole::OutOfRange)
    }
}

/// Deserialises an integer field under the whole-number rule:
/// `#[serde(deserialize_with = "crate::whole_number::deserialize")]`.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    Classified::deserialize(deserializer)?
        .0
        .map_err(|kind| de::Error::custom(format_args!("must be an integer, not {kind}")))
}

/// Any JSON value, read as a whole number or as the kind of value it was instead.
/// Reading one never fails on well-formed input, so a caller can decide how to word the
/// refusal (an array of ids refuses as a whole, not element by element).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classified(pub Result<i64, NotWhole>);

impl<'de> Deserialize<'de> for Classified {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ClassifiedVisitor)
    }
}

struct ClassifiedVisitor;

impl<'de> Visitor<'de> for ClassifiedVisitor {
    type Value = Classified;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Classified, E> {
        Ok(Classified(Err(NotWhole::Boolean)))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Classified, E> {
        Ok(Classified(Ok(n)))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Classified, E> {
        Ok(Classified(from_u64(n)))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Classified, E> {
        Ok(Classified(from_f64(f)))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Classified, E> {
        Ok(Classified(Err(NotWhole::String)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Classified, E> {
        Ok(Classified(Err(NotWhole::Null)))
    }

    fn visit_none<E: de::Error>(self) -> Result<Classified, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Classified, D::Error> {
        Classified::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Classified, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Classified(Err(NotWhole::Array)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Classified, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Classified(Err(NotWhole::Object)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Field {
        #[serde(deserialize_with = "deserialize")]
        n: i64,
    }

    fn read(json: &str) -> Result<i64, String> {
        serde_json::from_str::<serde_json::Value>(json)
            .map_err(|e| e.to_string())
            .and_then(|value| {
                serde_json::from_value::<Field>(serde_json::json!({ "n": value }))
                    .map(|field| field.n)
                    .map_err(|e| e.to_string())
            })
    }

    #[test]
    fn whole_numbers_count_however_they_are_written() {
        assert_eq!(read("3"), Ok(3));
        assert_eq!(read("-3"), Ok(-3));
        assert_eq!(read("12.0"), Ok(12));
        assert_eq!(read("-7e3"), Ok(-7000));
        assert_eq!(read("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(read("-9223372036854775808"), Ok(i64::MIN));
    }

    #[test]
    fn anything_else_says_what_it_was() {
        let refused = |json: &str, kind: &str| {
            assert_eq!(
                read(json),
                Err(format!("must be an integer, not {kind}")),
                "{json}"
            );
        };
        refused("1.5", "a fraction");
        refused("\"7\"", "a string");
        refused("null", "null");
        refused("true", "a boolean");
        refused("[1]", "an array");
        refused("{\"a\": 1}", "an object");
        for big in [
            "9223372036854775808",
            "18446744073709551615",
            "99999999999999999999",
            "1e19",
            "-1e300",
        ] {
            refused(big, "a number out of range");
        }
    }

    #[test]
    fn conversions_stop_at_the_edges_of_i64() {
        assert_eq!(from_f64(-9_223_372_036_854_775_808.0), Ok(i64::MIN));
        assert_eq!(
            from_f64(9_223_372_036_854_775_808.0),
            Err(NotWhole::OutOfRange)
        );
        assert_eq!(from_f64(0.5), Err(NotWhole::Fraction));
        assert_eq!(from_u64(i64::MAX as u64), Ok(i64::MAX));
        assert_eq!(from_u64(i64::MAX as u64 + 1), Err(NotWhole::OutOfRange));
    }
}
