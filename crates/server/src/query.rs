//! The official client's query language (N8 template search, N10 volume-offer search):
//! `{field: {op: value, …}, …}`, every condition ANDed.
//!
//! Each operation names its fields and their kinds; [`parse`] reads the conditions by the
//! spec's value rules (numbers may come as numeric strings, booleans as `true`/`"True"`/`1`,
//! `null` only with `eq` and `neq`), and [`Term::matches`] judges one record's value. The
//! searches are small, so they filter in memory; routes say in HTTP what a refusal means.

use gpudeck_wire::Operator;
use serde_json::{Map, Value};
use std::cmp::Ordering;

/// What a field holds, which decides how its values are read and compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer or a number: read from a number or a numeric string.
    Number,
    /// A string, compared exactly (order operators by code point).
    Text,
    /// A boolean: `true`/`false`, the same as strings in any case, or `1`/`0`.
    Bool,
    /// Text matched whole or after its last `, ` by `eq`, `neq`, `in`, `notin`
    /// (`SE` matches `Sweden, SE`).
    Location,
}

/// A value of a record or of a condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Null,
    Number(f64),
    Text(String),
    Bool(bool),
}

/// Why the conditions were refused; each operation words it its own way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryRefusal {
    /// The conditions, or one field's conditions, are not a JSON object.
    NotAnObject,
    UnknownField(String),
    UnknownOperator {
        field: String,
        op: String,
    },
    /// A value of the wrong kind for its field.
    BadValue {
        field: String,
        kind: Kind,
    },
    /// `null` with an operator other than `eq` and `neq`.
    NullNotAllowed {
        field: String,
        op: String,
    },
    /// `in`/`notin` without an array.
    NotAnArray {
        field: String,
        op: String,
    },
}

impl std::fmt::Display for QueryRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryRefusal::NotAnObject => write!(f, "the query must be a JSON object of conditions"),
            QueryRefusal::UnknownField(field) => write!(f, "cannot filter on field {field}"),
            QueryRefusal::UnknownOperator { field, op } => {
                write!(f, "unknown operator {op} on {field}")
            }
            QueryRefusal::BadValue { field, kind } => write!(
                f,
                "value for {field} must be {}",
                match kind {
                    Kind::Number => "a number",
                    Kind::Bool => "true or false",
                    Kind::Text | Kind::Location => "a string",
                }
            ),
            QueryRefusal::NullNotAllowed { field, op } => {
                write!(
                    f,
                    "null is allowed only with eq and neq, not {op} on {field}"
                )
            }
            QueryRefusal::NotAnArray { field, op } => {
                write!(f, "{op} on {field} takes an array of values")
            }
        }
    }
}

/// One condition: `field op values` (one value, or several for `in` and `notin`).
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub field: &'static str,
    pub kind: Kind,
    pub op: Operator,
    pub values: Vec<Scalar>,
}

/// Reads `conditions` against the fields `field_kind` knows (it returns the field's
/// canonical name, so aliases resolve). Quoted input in refusals is cut short.
pub fn parse(
    conditions: &Map<String, Value>,
    field_kind: impl Fn(&str) -> Option<(&'static str, Kind)>,
) -> Result<Vec<Term>, QueryRefusal> {
    let mut terms = Vec::new();
    for (name, condition) in conditions {
        let shown = crate::quote::quote(name, 64);
        let (field, kind) = field_kind(name).ok_or(QueryRefusal::UnknownField(shown.clone()))?;
        let Value::Object(condition) = condition else {
            return Err(QueryRefusal::NotAnObject);
        };
        for (op_text, value) in condition {
            let op = Operator::parse(op_text).ok_or_else(|| QueryRefusal::UnknownOperator {
                field: shown.clone(),
                op: crate::quote::quote(op_text, 16),
            })?;
            let values = if op.takes_array() {
                let Value::Array(items) = value else {
                    return Err(QueryRefusal::NotAnArray {
                        field: shown.clone(),
                        op: op.as_str().to_owned(),
                    });
                };
                items
                    .iter()
                    .map(|item| read_value(item, kind, &shown, op))
                    .collect::<Result<_, _>>()?
            } else {
                vec![read_value(value, kind, &shown, op)?]
            };
            terms.push(Term {
                field,
                kind,
                op,
                values,
            });
        }
    }
    Ok(terms)
}

fn read_value(
    value: &Value,
    kind: Kind,
    field: &str,
    op: Operator,
) -> Result<Scalar, QueryRefusal> {
    let bad = || QueryRefusal::BadValue {
        field: field.to_owned(),
        kind,
    };
    if value.is_null() {
        return if matches!(op, Operator::Eq | Operator::Neq) {
            Ok(Scalar::Null)
        } else {
            Err(QueryRefusal::NullNotAllowed {
                field: field.to_owned(),
                op: op.as_str().to_owned(),
            })
        };
    }
    match kind {
        Kind::Number => match value {
            Value::Number(n) => n.as_f64().map(Scalar::Number).ok_or_else(bad),
            Value::String(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .map(Scalar::Number)
                .ok_or_else(bad),
            _ => Err(bad()),
        },
        Kind::Bool => match value {
            Value::Bool(b) => Ok(Scalar::Bool(*b)),
            Value::Number(n) if n.as_f64() == Some(1.0) => Ok(Scalar::Bool(true)),
            Value::Number(n) if n.as_f64() == Some(0.0) => Ok(Scalar::Bool(false)),
            Value::String(text) => match text.to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(Scalar::Bool(true)),
                "false" | "0" => Ok(Scalar::Bool(false)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        },
        Kind::Text | Kind::Location => match value {
            Value::String(text) => Ok(Scalar::Text(text.clone())),
            _ => Err(bad()),
        },
    }
}

/// Orders two values of one field: numbers numerically, text by code point, false before
/// true, null first. Values of different kinds do not compare.
pub fn compare(a: &Scalar, b: &Scalar) -> Option<Ordering> {
    match (a, b) {
        (Scalar::Null, Scalar::Null) => Some(Ordering::Equal),
        (Scalar::Null, _) => Some(Ordering::Less),
        (_, Scalar::Null) => Some(Ordering::Greater),
        (Scalar::Number(x), Scalar::Number(y)) => x.partial_cmp(y),
        (Scalar::Text(x), Scalar::Text(y)) => Some(x.cmp(y)),
        (Scalar::Bool(x), Scalar::Bool(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

impl Term {
    /// Whether a record whose field holds `actual` meets this condition. A null field meets
    /// only `eq null`, `neq <value>` and `notin`.
    pub fn matches(&self, actual: &Scalar) -> bool {
        let equal = |wanted: &Scalar| match (self.kind, actual, wanted) {
            (Kind::Location, Scalar::Text(have), Scalar::Text(want)) => {
                have == want || have.rsplit_once(", ").is_some_and(|(_, code)| code == want)
            }
            _ => compare(actual, wanted) == Some(Ordering::Equal),
        };
        let order = |wanted: &Scalar| match (actual, wanted) {
            (Scalar::Null, _) | (_, Scalar::Null) => None,
            _ => compare(actual, wanted),
        };
        let first = &self.values[0];
        match self.op {
            Operator::Eq => equal(first),
            Operator::Neq => !equal(first),
            Operator::Lt => order(first) == Some(Ordering::Less),
            Operator::Lte => matches!(order(first), Some(Ordering::Less | Ordering::Equal)),
            Operator::Gt => order(first) == Some(Ordering::Greater),
            Operator::Gte => matches!(order(first), Some(Ordering::Greater | Ordering::Equal)),
            Operator::In => self.values.iter().any(equal),
            Operator::Notin => !self.values.iter().any(equal),
        }
    }
}

/// Whether a record meets every term; `value` gives the record's value of a field.
pub fn all_match(terms: &[Term], value: impl Fn(&str) -> Scalar) -> bool {
    terms.iter().all(|term| term.matches(&value(term.field)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(name: &str) -> Option<(&'static str, Kind)> {
        match name {
            "n" => Some(("n", Kind::Number)),
            "b" => Some(("b", Kind::Bool)),
            "s" => Some(("s", Kind::Text)),
            "geo" => Some(("geo", Kind::Location)),
            _ => None,
        }
    }

    fn terms(query: Value) -> Result<Vec<Term>, QueryRefusal> {
        parse(query.as_object().unwrap(), kinds)
    }

    fn hits(query: Value, value: Scalar) -> bool {
        all_match(&terms(query).unwrap(), |_| value.clone())
    }

    #[test]
    fn values_follow_the_clients_rules() {
        assert!(hits(json!({"n": {"gt": "100"}}), Scalar::Number(101.0)));
        assert!(!hits(json!({"n": {"gt": 100}}), Scalar::Number(100.0)));
        assert!(hits(
            json!({"n": {"gte": 100, "lte": "100.0"}}),
            Scalar::Number(100.0)
        ));
        assert!(hits(json!({"b": {"eq": "True"}}), Scalar::Bool(true)));
        assert!(hits(json!({"b": {"eq": 0}}), Scalar::Bool(false)));
        assert!(hits(
            json!({"s": {"in": ["a", "b"]}}),
            Scalar::Text("b".into())
        ));
        assert!(hits(
            json!({"s": {"notin": ["a"]}}),
            Scalar::Text("b".into())
        ));
        assert!(hits(json!({"s": {"lt": "b"}}), Scalar::Text("B".into())));
        assert!(hits(json!({"s": {"eq": null}}), Scalar::Null));
        assert!(!hits(json!({"s": {"eq": "x"}}), Scalar::Null));
        assert!(hits(
            json!({"geo": {"eq": "SE"}}),
            Scalar::Text("Sweden, SE".into())
        ));
        assert!(hits(
            json!({"geo": {"notin": ["DE", "US"]}}),
            Scalar::Text("Sweden, SE".into())
        ));
        assert!(!hits(
            json!({"geo": {"eq": "Sweden"}}),
            Scalar::Text("Sweden, SE".into())
        ));
    }

    #[test]
    fn bad_conditions_are_named() {
        let refused = |query: Value| terms(query).unwrap_err().to_string();
        assert_eq!(refused(json!({"x": {"eq": 1}})), "cannot filter on field x");
        assert_eq!(
            refused(json!({"n": {"like": 1}})),
            "unknown operator like on n"
        );
        assert_eq!(
            refused(json!({"n": {"eq": "abc"}})),
            "value for n must be a number"
        );
        assert_eq!(
            refused(json!({"b": {"eq": "yes"}})),
            "value for b must be true or false"
        );
        assert_eq!(
            refused(json!({"n": {"lt": null}})),
            "null is allowed only with eq and neq, not lt on n"
        );
        assert_eq!(
            refused(json!({"n": {"in": 1}})),
            "in on n takes an array of values"
        );
        assert_eq!(
            terms(json!({"n": 1})).unwrap_err(),
            QueryRefusal::NotAnObject
        );
    }
}
