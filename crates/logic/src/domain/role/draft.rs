//! The role being edited: its name and its permissions as the wire model reads them,
//! with the route entries in a form that can be typed into. Reading then writing gives
//! back an equal object; whatever the editor does not understand is kept as it came.

use gpudeck_wire::permissions::{
    value_text, Constraint, ConstraintOperator, Entry, RouteGrant, UnrecognisedPart,
};
use gpudeck_wire::{PermissionGroup, Permissions};
use serde_json::{Map, Value};

pub use gpudeck_wire::permissions::Place;

/// One constraint as typed: `field operator value`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConstraintDraft {
    pub field: String,
    /// The wire spelling, as the operator list gives it.
    pub operator: String,
    pub value: String,
    /// The value as it came, so an untouched `"12"` stays a string and `12` a number.
    pub was: Option<Value>,
}

/// A route-level entry being edited: its name, its constraints as typed, and its other
/// fields kept verbatim.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteDraft {
    pub place: Place,
    pub name: String,
    pub constraints: Vec<ConstraintDraft>,
    pub rest: Map<String, Value>,
}

/// The editor's whole state: the role's name and its permissions, with the route entries
/// in the editable form of [`RouteDraft`].
#[derive(Debug, Clone, PartialEq)]
pub struct RoleDraft {
    pub name: String,
    /// The permissions as read, less the route entries, which `routes` holds.
    pub base: Permissions,
    pub routes: Vec<RouteDraft>,
}

impl RoleDraft {
    /// A new role with nothing granted.
    pub fn empty() -> Self {
        RoleDraft {
            name: String::new(),
            base: Permissions::default(),
            routes: Vec::new(),
        }
    }

    /// Reads `permissions`; refuses anything but an object (or null, read as empty).
    pub fn read(name: &str, permissions: &Value) -> Result<Self, String> {
        if !(permissions.is_object() || permissions.is_null()) {
            return Err("The permissions must be a JSON object, like {\"api\": {}}.".into());
        }
        let mut base = Permissions::read(permissions);
        let routes = std::mem::take(&mut base.routes)
            .into_iter()
            .map(RouteDraft::from)
            .collect();
        Ok(RoleDraft {
            name: name.to_owned(),
            base,
            routes,
        })
    }

    /// The parts the editor does not edit, kept as they came.
    pub fn kept(&self) -> &[UnrecognisedPart] {
        &self.base.unrecognised
    }

    pub fn grants(&self, group: PermissionGroup) -> bool {
        self.base.grants(group)
    }

    /// Grants or withdraws a whole group.
    pub fn set_group(&mut self, group: PermissionGroup, granted: bool) {
        self.base.set_group(group, granted);
    }

    /// The permissions object to send. Assumes [`RoleDraft::problems`] found nothing.
    pub fn permissions(&self) -> Value {
        let mut permissions = self.base.clone();
        permissions.routes = self.routes.iter().map(RouteDraft::grant).collect();
        permissions.to_value()
    }
}

impl RouteDraft {
    /// A new, empty top-level route entry.
    pub fn new() -> Self {
        RouteDraft {
            place: Place::Top,
            name: String::new(),
            constraints: Vec::new(),
            rest: Map::new(),
        }
    }

    /// The entry to send. A constraint whose operator is not one of the documented
    /// ones is left out; [`super::constraint_problem`] names it before anything is sent.
    fn grant(&self) -> RouteGrant {
        RouteGrant {
            place: self.place,
            name: self.name.clone(),
            entry: Entry {
                constraints: self
                    .constraints
                    .iter()
                    .filter_map(ConstraintDraft::constraint)
                    .collect(),
                rest: self.rest.clone(),
            },
        }
    }
}

impl From<RouteGrant> for RouteDraft {
    fn from(route: RouteGrant) -> Self {
        RouteDraft {
            place: route.place,
            name: route.name,
            constraints: route
                .entry
                .constraints
                .iter()
                .map(ConstraintDraft::from)
                .collect(),
            rest: route.entry.rest,
        }
    }
}

impl Default for RouteDraft {
    fn default() -> Self {
        Self::new()
    }
}

impl ConstraintDraft {
    /// A new constraint: `id eq …`.
    pub fn new() -> Self {
        ConstraintDraft {
            field: "id".to_owned(),
            operator: ConstraintOperator::Eq.as_str().to_owned(),
            value: String::new(),
            was: None,
        }
    }

    /// The value to send: as it came when untouched, else a number when it reads as one,
    /// else text.
    pub fn json_value(&self) -> Value {
        if let Some(was) = self
            .was
            .as_ref()
            .filter(|was| value_text(was) == self.value)
        {
            return was.clone();
        }
        let text = self.value.trim();
        match serde_json::from_str::<Value>(text) {
            Ok(number @ Value::Number(_)) => number,
            _ => Value::String(text.to_owned()),
        }
    }

    fn constraint(&self) -> Option<Constraint> {
        Some(Constraint {
            field: self.field.trim().to_owned(),
            operator: ConstraintOperator::parse(&self.operator)?,
            value: self.json_value(),
        })
    }
}

impl From<&Constraint> for ConstraintDraft {
    fn from(constraint: &Constraint) -> Self {
        ConstraintDraft {
            field: constraint.field.clone(),
            operator: constraint.operator.as_str().to_owned(),
            value: value_text(&constraint.value),
            was: Some(constraint.value.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: Value) {
        let draft = RoleDraft::read("r", &value).unwrap();
        assert_eq!(draft.permissions(), value, "{draft:#?}");
    }

    #[test]
    fn reading_then_writing_gives_back_the_same_object() {
        round_trip(json!({}));
        round_trip(json!({"api": {}}));
        round_trip(json!({"api": {"misc": {}, "team_read": {}}}));
        round_trip(json!({
            "api": {
                "instance_read": {"constraints": "odd", "note": 1},
                "quantum_write": {"x": [1, 2]},
                "instance.logs": {"constraints": {"id": {"eq": "12"}}},
                "machine_read": {"constraints": {"id": {"gte": 1000}}}
            },
            "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}, "size": {"lte": 5.5, "gte": 1}}, "keep": true},
            "api.weird": {"constraints": {"id": {"between": [1, 2]}}},
            "api.plain": 7,
            "ui": {"dark": true}
        }));
    }

    #[test]
    fn unknown_parts_are_kept_and_named() {
        let draft = RoleDraft::read(
            "r",
            &json!({
                "api": {"quantum_write": {}, "team_read": {}},
                "api.weird": {"constraints": {"id": {"between": [1, 2]}}},
                "ui": {"dark": true}
            }),
        )
        .unwrap();
        let paths: Vec<String> = draft.kept().iter().map(UnrecognisedPart::path).collect();
        assert!(paths.contains(&"api.quantum_write".to_owned()));
        assert!(paths.contains(&"api.weird".to_owned()));
        assert!(paths.contains(&"ui".to_owned()));
        assert!(draft.grants(PermissionGroup::TeamRead));
    }

    #[test]
    fn only_objects_are_edited() {
        assert!(RoleDraft::read("r", &json!(["instance_read"])).is_err());
        assert_eq!(
            RoleDraft::read("r", &Value::Null).unwrap().permissions(),
            json!({})
        );
    }

    #[test]
    fn groups_toggle_and_edited_constraints_are_written() {
        let mut draft = RoleDraft::read("r", &json!({"api": {"misc": {}}})).unwrap();
        draft.set_group(PermissionGroup::TeamWrite, true);
        draft.set_group(PermissionGroup::Misc, false);
        let mut route = RouteDraft::new();
        route.name = "api.instance.request_logs".into();
        route.constraints.push(ConstraintDraft {
            value: "1227".into(),
            ..ConstraintDraft::new()
        });
        route.constraints.push(ConstraintDraft {
            field: "name".into(),
            value: "gpu box".into(),
            ..ConstraintDraft::new()
        });
        draft.routes.push(route);
        assert_eq!(
            draft.permissions(),
            json!({"api": {"team_write": {}}, "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}, "name": {"eq": "gpu box"}}}})
        );
    }

    #[test]
    fn an_untouched_value_keeps_its_type_and_a_typed_one_reads_as_a_number_when_it_is_one() {
        let draft = RoleDraft::read(
            "r",
            &json!({"api.x.y": {"constraints": {"id": {"eq": "12"}}}}),
        )
        .unwrap();
        let mut constraint = draft.routes[0].constraints[0].clone();
        assert_eq!(constraint.json_value(), json!("12"));
        constraint.value = "13".into();
        assert_eq!(constraint.json_value(), json!(13));
    }
}
