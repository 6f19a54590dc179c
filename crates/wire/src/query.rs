//! The official client's query language (N8, N10): `{field: {op: value, …}, …}`.
//!
//! The console builds conditions with these types; the reference server reads them. Values
//! stay JSON values, because the client sends numbers as strings and the meaning of a value
//! depends on the field it is compared with.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An operator, in the spelling sent on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Operator {
    Eq,
    Neq,
    Lt,
    Lte,
    Gt,
    Gte,
    In,
    Notin,
}

impl Operator {
    pub const ALL: [Operator; 8] = [
        Operator::Eq,
        Operator::Neq,
        Operator::Lt,
        Operator::Lte,
        Operator::Gt,
        Operator::Gte,
        Operator::In,
        Operator::Notin,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::Eq => "eq",
            Operator::Neq => "neq",
            Operator::Lt => "lt",
            Operator::Lte => "lte",
            Operator::Gt => "gt",
            Operator::Gte => "gte",
            Operator::In => "in",
            Operator::Notin => "notin",
        }
    }

    /// From the wire spelling (`eq`, …) or the CLI's (`==`, `=`, `!=`, `<`, `<=`, `>`, `>=`).
    pub fn parse(text: &str) -> Option<Operator> {
        Some(match text {
            "eq" | "==" | "=" => Operator::Eq,
            "neq" | "!=" => Operator::Neq,
            "lt" | "<" => Operator::Lt,
            "lte" | "<=" => Operator::Lte,
            "gt" | ">" => Operator::Gt,
            "gte" | ">=" => Operator::Gte,
            "in" => Operator::In,
            "notin" => Operator::Notin,
            _ => return None,
        })
    }

    /// `in` and `notin` take an array.
    pub fn takes_array(self) -> bool {
        matches!(self, Operator::In | Operator::Notin)
    }
}

/// The conditions on one field: operator (wire spelling) → value.
pub type Condition = BTreeMap<String, serde_json::Value>;

/// Every field's conditions; all are ANDed.
pub type Conditions = BTreeMap<String, Condition>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_parse_in_both_spellings() {
        for op in Operator::ALL {
            assert_eq!(Operator::parse(op.as_str()), Some(op));
            assert_eq!(
                serde_json::to_value(op).unwrap(),
                serde_json::json!(op.as_str())
            );
        }
        assert_eq!(Operator::parse("="), Some(Operator::Eq));
        assert_eq!(Operator::parse(">="), Some(Operator::Gte));
        assert_eq!(Operator::parse("like"), None);
        assert!(Operator::In.takes_array() && !Operator::Eq.takes_array());
    }
}
