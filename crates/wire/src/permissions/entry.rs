//! The body of a group or route entry: `{}`, or
//! `{"constraints": {<field>: {<operator>: <value>}}, …}` with the documented operators,
//! plus any other fields, kept as they came.

use serde_json::{Map, Value};
use std::fmt;

/// The constraint operators the public service documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConstraintOperator {
    Eq,
    Lte,
    Gte,
}

impl ConstraintOperator {
    /// In the order a person picks them.
    pub const ALL: [ConstraintOperator; 3] = [
        ConstraintOperator::Eq,
        ConstraintOperator::Lte,
        ConstraintOperator::Gte,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ConstraintOperator::Eq => "eq",
            ConstraintOperator::Lte => "lte",
            ConstraintOperator::Gte => "gte",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|operator| operator.as_str() == name)
    }

    /// How people write it: `=`, `≤`, `≥`.
    pub fn symbol(self) -> &'static str {
        match self {
            ConstraintOperator::Eq => "=",
            ConstraintOperator::Lte => "≤",
            ConstraintOperator::Gte => "≥",
        }
    }
}

/// One condition on an entry, e.g. `id = 1227`.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    pub field: String,
    pub operator: ConstraintOperator,
    /// A number, text, boolean or null, as it came.
    pub value: Value,
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (field, symbol) = (&self.field, self.operator.symbol());
        write!(f, "{field} {symbol} {}", value_text(&self.value))
    }
}

/// A constraint value as people type it: text without quotes, anything else as JSON.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// An entry read into its constraints and its other fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    /// Sorted by field, then operator, whatever order the object came in.
    pub constraints: Vec<Constraint>,
    /// Every other field as it came. An empty `constraints` object stays here, so it is
    /// written back.
    pub rest: Map<String, Value>,
}

impl Entry {
    /// `None` when `value` is not an object or its `constraints` has another shape (an
    /// unknown operator, a list as operand, …): such an entry is kept whole instead.
    pub fn read(value: &Value) -> Option<Entry> {
        let mut rest = value.as_object()?.clone();
        let fields = match rest.get("constraints") {
            Some(Value::Object(fields)) if fields.is_empty() => Map::new(),
            Some(_) => match rest.remove("constraints") {
                Some(Value::Object(fields)) => fields,
                _ => return None,
            },
            None => Map::new(),
        };
        let mut constraints = Vec::new();
        for (field, operators) in fields {
            let operators = operators.as_object().filter(|o| !o.is_empty())?;
            for (operator, operand) in operators {
                if operand.is_object() || operand.is_array() {
                    return None;
                }
                constraints.push(Constraint {
                    field: field.clone(),
                    operator: ConstraintOperator::parse(operator)?,
                    value: operand.clone(),
                });
            }
        }
        constraints
            .sort_by(|a, b| (&a.field, a.operator.as_str()).cmp(&(&b.field, b.operator.as_str())));
        Some(Entry { constraints, rest })
    }

    pub fn to_value(&self) -> Value {
        let mut entry = self.rest.clone();
        if !self.constraints.is_empty() {
            let mut fields = Map::new();
            for constraint in &self.constraints {
                if let Value::Object(operators) = fields
                    .entry(constraint.field.clone())
                    .or_insert_with(|| Value::Object(Map::new()))
                {
                    operators.insert(
                        constraint.operator.as_str().to_owned(),
                        constraint.value.clone(),
                    );
                }
            }
            entry.insert("constraints".to_owned(), Value::Object(fields));
        }
        Value::Object(entry)
    }

    /// The fields besides the constraints, if any (an empty `constraints` object
    /// constrains nothing, so it is not among them).
    pub fn extra(&self) -> Option<Value> {
        let extra: Map<String, Value> = self
            .rest
            .iter()
            .filter(|(key, value)| {
                !(*key == "constraints" && value.as_object().is_some_and(Map::is_empty))
            })
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        (!extra.is_empty()).then_some(Value::Object(extra))
    }

    /// The constraints written out for people: `id = 1227`.
    pub fn written_constraints(&self) -> Vec<String> {
        self.constraints.iter().map(ToString::to_string).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn operators_read_their_wire_spelling_and_show_their_symbol() {
        for operator in ConstraintOperator::ALL {
            assert_eq!(ConstraintOperator::parse(operator.as_str()), Some(operator));
        }
        assert_eq!(ConstraintOperator::parse("between"), None);
        let symbols: Vec<&str> = ConstraintOperator::ALL.map(|o| o.symbol()).to_vec();
        assert_eq!(symbols, ["=", "≤", "≥"]);
    }

    #[test]
    fn an_entry_reads_the_documented_constraints_and_keeps_the_rest() {
        let entry = Entry::read(&json!({
            "constraints": {"size": {"lte": 5, "gte": 1}, "id": {"eq": "12"}},
            "keep": true
        }))
        .unwrap();
        assert_eq!(
            entry.written_constraints(),
            ["id = 12", "size ≥ 1", "size ≤ 5"]
        );
        assert_eq!(entry.extra(), Some(json!({"keep": true})));
    }

    #[test]
    fn an_entry_of_another_shape_is_not_read() {
        for odd in [
            json!(7),
            json!({"constraints": "odd"}),
            json!({"constraints": {"id": {"between": 1}}}),
            json!({"constraints": {"id": {"eq": [1, 2]}}}),
            json!({"constraints": {"id": {}}}),
            json!({"constraints": {"id": 1}}),
        ] {
            assert_eq!(Entry::read(&odd), None, "{odd}");
        }
    }

    #[test]
    fn an_empty_constraints_object_is_written_back_but_is_no_extra() {
        let value = json!({"constraints": {}});
        let entry = Entry::read(&value).unwrap();
        assert!(entry.constraints.is_empty());
        assert_eq!(entry.extra(), None);
        assert_eq!(entry.to_value(), value);
    }
}
