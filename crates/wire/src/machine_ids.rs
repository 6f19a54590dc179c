//! `machine_ids`: the one parser for every form in which machine identifiers arrive.
//!
//! The server reads them from query strings (`[1, 2]`, `1,2`, `7`, repeated parameters
//! joined with commas) and from JSON bodies (an integer, a comma string or an array); the
//! console reads them from a text field where people also type spaces, new lines and
//! ranges like `100-110`. All of these go through [`parse_machine_ids`].

use crate::whole_number::{self, Classified, NotWhole};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;

/// The most identifiers one request may name. Hosts schedule maintenance for up to 100
/// machines at a time; ten times that leaves room for large fleets while bounding the
/// work one request can cause.
pub const MAX_MACHINE_IDS: usize = 1000;

/// Longest piece of a bad token quoted back in an error, so huge inputs give short errors.
const QUOTE_LIMIT: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MachineIdsError {
    #[error("machine_ids cannot be empty")]
    Empty,
    #[error("\"{0}\" is not a machine id (a whole number from 1) or a range like 100-110")]
    BadToken(String),
    #[error("the range \"{0}\" runs backwards; write the smaller id first")]
    ReversedRange(String),
    #[error("at most {max} machine ids per request; {count} were given")]
    TooMany { count: usize, max: usize },
}

/// Parses machine identifiers from text.
///
/// Accepts a JSON array (`[1, 2]`), or ids separated by commas, spaces or new lines, with
/// inclusive ranges (`100-110`). Ids are whole numbers from 1. Duplicates are dropped and
/// the first-seen order is kept. Returns an error naming the first bad token.
pub fn parse_machine_ids(text: &str) -> Result<Vec<i64>, MachineIdsError> {
    let trimmed = text.trim();
    let body = match trimmed.strip_prefix('[') {
        Some(rest) => rest
            .strip_suffix(']')
            .ok_or_else(|| MachineIdsError::BadToken(quote(trimmed)))?,
        None => trimmed,
    };
    let mut ids = Vec::new();
    let mut seen = HashSet::new();
    let mut named = 0usize;
    for token in body
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
    {
        let (first, last) = parse_token(token)?;
        named += (last - first + 1) as usize;
        if named > MAX_MACHINE_IDS {
            return Err(MachineIdsError::TooMany {
                count: named,
                max: MAX_MACHINE_IDS,
            });
        }
        for id in first..=last {
            if seen.insert(id) {
                ids.push(id);
            }
        }
    }
    if ids.is_empty() {
        return Err(MachineIdsError::Empty);
    }
    Ok(ids)
}

/// One token: an id, or an inclusive range `a-b`.
fn parse_token(token: &str) -> Result<(i64, i64), MachineIdsError> {
    match token.split_once('-') {
        Some((a, b)) => {
            let (first, last) = (parse_id(a, token)?, parse_id(b, token)?);
            if first > last {
                return Err(MachineIdsError::ReversedRange(quote(token)));
            }
            // Checked before expanding, so `1-999999999` costs nothing.
            if (last - first) as u64 >= MAX_MACHINE_IDS as u64 {
                return Err(MachineIdsError::TooMany {
                    count: (last - first + 1) as usize,
                    max: MAX_MACHINE_IDS,
                });
            }
            Ok((first, last))
        }
        None => parse_id(token, token).map(|id| (id, id)),
    }
}

fn parse_id(digits: &str, token: &str) -> Result<i64, MachineIdsError> {
    let bad = || MachineIdsError::BadToken(quote(token));
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match digits.parse::<i64>() {
        Ok(id) if id >= 1 => Ok(id),
        _ => Err(bad()),
    }
}

fn quote(token: &str) -> String {
    match token.char_indices().nth(QUOTE_LIMIT) {
        Some((cut, _)) => format!("{}…", &token[..cut]),
        None => token.to_owned(),
    }
}

/// Writes ids compactly, runs of consecutive ids as ranges: `1,2,3,7` → `1-3,7`.
/// The output parses back to the same ids with [`parse_machine_ids`].
pub fn format_machine_ids(ids: &[i64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j].checked_add(1) == Some(ids[j + 1]) {
            j += 1;
        }
        parts.push(match j - i {
            0 => ids[i].to_string(),
            1 => format!("{},{}", ids[i], ids[j]),
            _ => format!("{}-{}", ids[i], ids[j]),
        });
        i = j + 1;
    }
    parts.join(",")
}

/// A regular expression for the text form of `machine_ids` that is always accepted: 1 to
/// 1000 ids (whole numbers from 1, at most 18 digits) separated by commas or spaces,
/// optionally inside `[` `]`. The parser also takes ranges (`100-110`), tabs and new lines,
/// but those can be malformed (a range backwards or too long), so the published schema
/// keeps to what never is.
pub const MACHINE_IDS_PATTERN: &str = r"^ *(\[ *[1-9][0-9]{0,17}([ ,]+[1-9][0-9]{0,17}){0,999} *\]|[1-9][0-9]{0,17}([ ,]+[1-9][0-9]{0,17}){0,999}) *$";

/// `machine_ids` as it may appear in a JSON body: an integer, a comma-separated string
/// or an array of integers. Integers follow the whole-number rule ([`whole_number`]):
/// `5.0` is 5. Anything else is refused as a whole, naming what was sent: "must be an
/// integer, a comma-separated string or an array of integers, not an array".
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum MachineIdsInput {
    One(i64),
    Text(String),
    List(Vec<i64>),
}

impl<'de> Deserialize<'de> for MachineIdsInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MachineIdsVisitor)
    }
}

struct MachineIdsVisitor;

impl MachineIdsVisitor {
    fn refuse<E: de::Error>(kind: NotWhole) -> E {
        E::custom(format_args!(
            "must be an integer, a comma-separated string or an array of integers, not {kind}"
        ))
    }

    fn one<E: de::Error>(id: Result<i64, NotWhole>) -> Result<MachineIdsInput, E> {
        id.map(MachineIdsInput::One).map_err(Self::refuse)
    }
}

impl<'de> Visitor<'de> for MachineIdsVisitor {
    type Value = MachineIdsInput;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer, a comma-separated string or an array of integers")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<MachineIdsInput, E> {
        Err(Self::refuse(NotWhole::Boolean))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<MachineIdsInput, E> {
        Self::one(Ok(n))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<MachineIdsInput, E> {
        Self::one(whole_number::from_u64(n))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<MachineIdsInput, E> {
        Self::one(whole_number::from_f64(f))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<MachineIdsInput, E> {
        Ok(MachineIdsInput::Text(text.to_owned()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<MachineIdsInput, E> {
        Err(Self::refuse(NotWhole::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<MachineIdsInput, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MachineIdsInput, A::Error> {
        let mut ids = Vec::new();
        let mut all_whole = true;
        // Read to the end even after a bad element, so the refusal is about the array.
        while let Some(Classified(id)) = seq.next_element()? {
            match id {
                Ok(id) => ids.push(id),
                Err(_) => all_whole = false,
            }
        }
        if all_whole {
            Ok(MachineIdsInput::List(ids))
        } else {
            Err(Self::refuse(NotWhole::Array))
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MachineIdsInput, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Err(Self::refuse(NotWhole::Object))
    }
}

impl MachineIdsInput {
    /// The ids this input names, under the same rules as [`parse_machine_ids`].
    pub fn resolve(&self) -> Result<Vec<i64>, MachineIdsError> {
        match self {
            MachineIdsInput::One(id) => parse_machine_ids(&id.to_string()),
            MachineIdsInput::Text(text) => parse_machine_ids(text),
            MachineIdsInput::List(ids) => {
                if ids.len() > MAX_MACHINE_IDS {
                    return Err(MachineIdsError::TooMany {
                        count: ids.len(),
                        max: MAX_MACHINE_IDS,
                    });
                }
                parse_machine_ids(&format_machine_ids(ids))
            }
        }
    }
}

/// `oneOf`: an integer from 1, a string matching [`MACHINE_IDS_PATTERN`], or an array of 1
/// to [`MAX_MACHINE_IDS`] integers from 1.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for MachineIdsInput {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, SchemaFormat, Type,
        };
        let id = || {
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                .minimum(Some(1))
                .maximum(Some(i64::MAX))
        };
        OneOfBuilder::new()
            .item(id().description(Some("One machine id")))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(MACHINE_IDS_PATTERN))
                    .description(Some(
                        "Ids separated by commas or spaces, optionally in brackets; \
                         ranges like `100-110` are also accepted",
                    )),
            )
            .item(
                ArrayBuilder::new()
                    .items(id())
                    .min_items(Some(1))
                    .max_items(Some(MAX_MACHINE_IDS)),
            )
            .description(Some(
                "Machine ids: an integer, a comma-separated string or an array of integers; \
                 at most 1000",
            ))
            .examples([serde_json::json!([1001, 1002, 1003])])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for MachineIdsInput {}

impl fmt::Display for MachineIdsInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineIdsInput::One(id) => write!(f, "{id}"),
            MachineIdsInput::Text(text) => f.write_str(text),
            MachineIdsInput::List(ids) => f.write_str(&format_machine_ids(ids)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Arbitrary JSON, weighted towards what `machine_ids` might plausibly be.
    fn json_values() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (1i64..3000).prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "\\PC{0,40}".prop_map(Value::String),
            "[0-9, \\[\\]-]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 64, 16, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..16).prop_map(Value::Array),
                proptest::collection::hash_map("[a-z]{0,4}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn ok(text: &str) -> Vec<i64> {
        parse_machine_ids(text).unwrap()
    }

    #[test]
    fn every_wire_form_parses() {
        assert_eq!(ok("[1, 2]"), vec![1, 2]);
        assert_eq!(ok("[1,2]"), vec![1, 2]);
        assert_eq!(ok("1,2"), vec![1, 2]);
        assert_eq!(ok("7"), vec![7]);
        assert_eq!(ok(" 1 2\n3\t4 "), vec![1, 2, 3, 4]);
        assert_eq!(ok("100-103, 7"), vec![100, 101, 102, 103, 7]);
    }

    #[test]
    fn duplicates_are_dropped_in_first_seen_order() {
        assert_eq!(ok("3,1,3,2-4"), vec![3, 1, 2, 4]);
    }

    #[test]
    fn empty_forms_are_refused() {
        for text in ["", "   ", "[]", "[ ]", ",,", "\n"] {
            assert_eq!(
                parse_machine_ids(text),
                Err(MachineIdsError::Empty),
                "{text:?}"
            );
        }
        assert_eq!(
            MachineIdsError::Empty.to_string(),
            "machine_ids cannot be empty"
        );
    }

    #[test]
    fn bad_tokens_are_named() {
        let cases = [
            ("1,x,3", "x"),
            ("1.5", "1.5"),
            ("-4", "-4"),
            ("0", "0"),
            ("5-", "5-"),
            ("1-2-3", "1-2-3"),
            ("[1, 2", "[1, 2"),
            ("<b>1</b>", "<b>1</b>"),
            ("٣", "٣"),
            ("99999999999999999999", "99999999999999999999"),
        ];
        for (text, token) in cases {
            assert_eq!(
                parse_machine_ids(text),
                Err(MachineIdsError::BadToken(token.into())),
                "{text:?}"
            );
        }
    }

    #[test]
    fn reversed_ranges_are_refused() {
        assert_eq!(
            parse_machine_ids("10-2"),
            Err(MachineIdsError::ReversedRange("10-2".into()))
        );
    }

    #[test]
    fn huge_inputs_are_bounded_without_expanding() {
        assert_eq!(
            parse_machine_ids("1-1000000000000"),
            Err(MachineIdsError::TooMany {
                count: 1_000_000_000_000,
                max: MAX_MACHINE_IDS
            })
        );
        assert_eq!(ok("1-1000").len(), 1000);
        assert!(matches!(
            parse_machine_ids("1-1000,1001"),
            Err(MachineIdsError::TooMany { count: 1001, .. })
        ));
        let long_token = "x".repeat(100_000);
        let Err(MachineIdsError::BadToken(quoted)) = parse_machine_ids(&long_token) else {
            panic!("expected a bad token");
        };
        assert_eq!(quoted.chars().count(), QUOTE_LIMIT + 1);
    }

    #[test]
    fn the_largest_id_does_not_overflow() {
        let ids = [i64::MAX - 1, i64::MAX, 1];
        assert_eq!(
            format_machine_ids(&ids),
            format!("{},{},1", i64::MAX - 1, i64::MAX)
        );
        assert_eq!(
            MachineIdsInput::List(vec![i64::MAX, 5]).resolve().unwrap(),
            vec![i64::MAX, 5]
        );
    }

    #[test]
    fn body_forms_resolve_through_the_same_rules() {
        let one: MachineIdsInput = serde_json::from_str("5").unwrap();
        let text: MachineIdsInput = serde_json::from_str("\"1,2\"").unwrap();
        let list: MachineIdsInput = serde_json::from_str("[3, 4]").unwrap();
        assert_eq!(one.resolve().unwrap(), vec![5]);
        assert_eq!(text.resolve().unwrap(), vec![1, 2]);
        assert_eq!(list.resolve().unwrap(), vec![3, 4]);
        let negative: MachineIdsInput = serde_json::from_str("[-3]").unwrap();
        assert!(negative.resolve().is_err());
        assert!(serde_json::from_str::<MachineIdsInput>("[1.5]").is_err());
        assert!(serde_json::from_str::<MachineIdsInput>("{\"a\":1}").is_err());
    }

    #[test]
    fn body_forms_follow_the_whole_number_rule() {
        let read = |json: &str| {
            serde_json::from_value::<MachineIdsInput>(serde_json::from_str(json).unwrap())
        };
        assert_eq!(read("5.0").unwrap(), MachineIdsInput::One(5));
        assert_eq!(
            read("[1001.0, 1002]").unwrap(),
            MachineIdsInput::List(vec![1001, 1002])
        );
        let refusal = |json: &str| read(json).unwrap_err().to_string();
        let prefix = "must be an integer, a comma-separated string or an array of integers, not";
        for (json, kind) in [
            ("null", "null"),
            ("true", "a boolean"),
            ("1.5", "a fraction"),
            ("1e19", "a number out of range"),
            ("18446744073709551615", "a number out of range"),
            ("[1.5]", "an array"),
            ("[1, [2]]", "an array"),
            ("{\"a\": 1}", "an object"),
        ] {
            assert_eq!(refusal(json), format!("{prefix} {kind}"), "{json}");
        }
        // Serialising is unchanged: the console sends each form as itself.
        assert_eq!(
            serde_json::to_string(&MachineIdsInput::List(vec![1, 2])).unwrap(),
            "[1,2]"
        );
        assert_eq!(
            serde_json::to_string(&MachineIdsInput::One(7)).unwrap(),
            "7"
        );
    }

    #[test]
    fn format_compacts_runs() {
        assert_eq!(format_machine_ids(&[1, 2, 3, 7, 9, 10]), "1-3,7,9,10");
        assert_eq!(format_machine_ids(&[]), "");
    }

    /// Texts the published pattern allows (built the way the pattern is) always parse.
    fn pattern_texts() -> impl Strategy<Value = String> {
        (
            proptest::collection::vec((1i64..=999_999_999_999_999_999, "[ ,]{1,3}"), 1..40),
            any::<bool>(),
            " {0,2}",
        )
            .prop_map(|(ids, bracketed, pad)| {
                let mut text = String::new();
                for (i, (id, sep)) in ids.iter().enumerate() {
                    if i > 0 {
                        text.push_str(sep);
                    }
                    text.push_str(&id.to_string());
                }
                if bracketed {
                    text = format!("[{pad}{text}{pad}]");
                }
                format!("{pad}{text}{pad}")
            })
    }

    #[test]
    fn the_pattern_names_what_parses() {
        // The pattern as the schema states it, checked on hand-picked texts.
        assert!(MACHINE_IDS_PATTERN.starts_with('^') && MACHINE_IDS_PATTERN.ends_with('$'));
        for accepted in ["1", "[1, 2]", " [ 3 ] ", "1,,2 3", "999999999999999999"] {
            assert!(parse_machine_ids(accepted).is_ok(), "{accepted:?}");
        }
    }

    proptest! {
        #[test]
        fn texts_of_the_published_pattern_always_parse(text in pattern_texts()) {
            let ids = parse_machine_ids(&text);
            prop_assert!(ids.is_ok(), "{:?}: {:?}", text, ids);
        }

        /// Whatever JSON arrives as `machine_ids`, deserialising and resolving it never
        /// panics, and either names 1..=1000 ids from 1 or gives a message.
        #[test]
        fn any_json_resolves_or_says_why(value in json_values()) {
            if let Ok(input) = serde_json::from_value::<MachineIdsInput>(value) {
                match input.resolve() {
                    Ok(ids) => {
                        prop_assert!(!ids.is_empty() && ids.len() <= MAX_MACHINE_IDS);
                        prop_assert!(ids.iter().all(|id| *id >= 1));
                        let mut unique = ids.clone();
                        unique.sort_unstable();
                        unique.dedup();
                        prop_assert_eq!(unique.len(), ids.len());
                    }
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
            }
        }

        #[test]
        fn any_list_resolves_or_says_why(ids in proptest::collection::vec(any::<i64>(), 0..1100)) {
            match MachineIdsInput::List(ids.clone()).resolve() {
                Ok(resolved) => {
                    prop_assert!(ids.len() <= MAX_MACHINE_IDS);
                    prop_assert!(ids.iter().all(|id| *id >= 1));
                    let mut expected = ids.clone();
                    expected.sort_unstable();
                    expected.dedup();
                    let mut got = resolved.clone();
                    got.sort_unstable();
                    prop_assert_eq!(got, expected);
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }

        #[test]
        fn format_round_trips(ids in proptest::collection::btree_set(1i64..5000, 1..200)) {
            let ids: Vec<i64> = ids.into_iter().collect();
            prop_assert_eq!(parse_machine_ids(&format_machine_ids(&ids)).unwrap(), ids);
        }

        #[test]
        fn any_text_either_parses_or_names_a_reason(text in "\\PC{0,64}") {
            match parse_machine_ids(&text) {
                Ok(ids) => {
                    prop_assert!(!ids.is_empty() && ids.len() <= MAX_MACHINE_IDS);
                    prop_assert!(ids.iter().all(|id| *id >= 1));
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }
}
