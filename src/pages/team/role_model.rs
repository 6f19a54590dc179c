//! The role editor's model, free of the browser: a permissions object read into editor
//! state and written back, the checks made before saving, what a save would change, and
//! the role in plain words.
//!
//! Reading then writing an object gives back an equal JSON value: whatever the editor does
//! not understand is kept as it came, and shown.

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

    /// Everything that must be fixed before saving, each as a sentence. `other_names` are
    /// the team's other roles.
    pub fn problems(&self, other_names: &[String]) -> Vec<String> {
        let mut problems: Vec<String> = name_problem(&self.name, other_names).into_iter().collect();
        for (index, route) in self.routes.iter().enumerate() {
            let label = if route.name.trim().is_empty() {
                format!("Route entry {}", index + 1)
            } else {
                route.name.clone()
            };
            if let Some(problem) = route_name_problem(route, &self.routes[..index]) {
                problems.push(format!("{label}: {problem}"));
            }
            for (at, constraint) in route.constraints.iter().enumerate() {
                if let Some(problem) = constraint_problem(constraint, &route.constraints[..at]) {
                    problems.push(format!("{label}: {problem}"));
                }
            }
        }
        problems
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
    /// ones is left out; [`constraint_problem`] names it before anything is sent.
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

/// N14's name rule: 2–50 characters, no control characters, no surrounding spaces,
/// unique in the team (compared exactly).
pub fn name_problem(name: &str, other_names: &[String]) -> Option<String> {
    let length = name.chars().count();
    if name.is_empty() {
        Some("Enter a name for the role.".into())
    } else if !(2..=50).contains(&length) {
        Some("The name must be 2 to 50 characters long.".into())
    } else if name.chars().any(char::is_control) {
        Some("The name must not contain control characters.".into())
    } else if name.trim() != name {
        Some("The name must not start or end with a space.".into())
    } else if other_names.iter().any(|other| other == name) {
        Some(format!("The team already has a role named {name}."))
    } else {
        None
    }
}

fn route_name_problem(route: &RouteDraft, earlier: &[RouteDraft]) -> Option<String> {
    let name = route.name.as_str();
    if name.trim().is_empty() {
        Some("enter the route's name, like api.instance.request_logs.".into())
    } else if route.place == Place::Top && !name.starts_with("api.") {
        Some("a route name starts with \"api.\".".into())
    } else if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("a route name has no spaces.".into())
    } else if earlier.iter().any(|other| other.name == name) {
        Some("this route is listed twice.".into())
    } else {
        None
    }
}

/// What is wrong with one constraint; `earlier` are the ones before it on the same entry.
pub fn constraint_problem(
    constraint: &ConstraintDraft,
    earlier: &[ConstraintDraft],
) -> Option<String> {
    let field = constraint.field.trim();
    let value = constraint.value.trim();
    if field.is_empty() {
        return Some("a constraint needs a field, like id.".into());
    }
    let Some(operator) = ConstraintOperator::parse(&constraint.operator) else {
        return Some(format!("the operator of {field} must be eq, lte or gte."));
    };
    let symbol = operator.symbol();
    if value.is_empty() {
        Some(format!("enter the value {field} is compared with."))
    } else if operator != ConstraintOperator::Eq && !constraint.json_value().is_number() {
        Some(format!("{field} {symbol} needs a number."))
    } else if earlier
        .iter()
        .any(|other| other.field.trim() == field && other.operator == constraint.operator)
    {
        Some(format!("{field} {symbol} is set twice."))
    } else {
        None
    }
}

/// What saving would change, in the words of the grid.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoleDiff {
    pub renamed: Option<(String, String)>,
    pub groups_added: Vec<PermissionGroup>,
    pub groups_removed: Vec<PermissionGroup>,
    pub routes_added: Vec<String>,
    pub routes_removed: Vec<String>,
    /// Entry name, constraints before, constraints after (written out).
    pub constraints_changed: Vec<(String, Vec<String>, Vec<String>)>,
    /// Whether anything else (unrecognised parts, extra fields) changed.
    pub other_changed: bool,
}

impl RoleDiff {
    pub fn between(before: (&str, &Value), after: (&str, &Value)) -> Self {
        let old = Permissions::read(before.1);
        let new = Permissions::read(after.1);
        let groups = |read: &Permissions| read.groups.iter().map(|g| g.group).collect::<Vec<_>>();
        let (old_groups, new_groups) = (groups(&old), groups(&new));
        let routes = |read: &Permissions| {
            read.routes
                .iter()
                .map(|r| r.name.clone())
                .collect::<Vec<_>>()
        };
        let (old_routes, new_routes) = (routes(&old), routes(&new));
        let mut diff = RoleDiff {
            renamed: (before.0 != after.0).then(|| (before.0.to_owned(), after.0.to_owned())),
            groups_added: missing_from(&new_groups, &old_groups),
            groups_removed: missing_from(&old_groups, &new_groups),
            routes_added: missing_from(&new_routes, &old_routes),
            routes_removed: missing_from(&old_routes, &new_routes),
            constraints_changed: Vec::new(),
            other_changed: old.unrecognised != new.unrecognised,
        };
        let after_entries = entries(&new);
        for (name, constraints, extra) in entries(&old) {
            let Some((_, now, now_extra)) = after_entries.iter().find(|(n, ..)| *n == name) else {
                continue;
            };
            if constraints != *now {
                diff.constraints_changed
                    .push((name.clone(), constraints, now.clone()));
            }
            diff.other_changed |= extra != *now_extra;
        }
        diff
    }

    pub fn is_empty(&self) -> bool {
        *self == RoleDiff::default()
    }

    /// One sentence per change.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some((from, to)) = &self.renamed {
            lines.push(format!("Renamed from {from} to {to}"));
        }
        lines.extend(
            self.groups_added
                .iter()
                .map(|g| format!("Adds {g}: {}", group_words(*g))),
        );
        lines.extend(
            self.groups_removed
                .iter()
                .map(|g| format!("Removes {g}: {}", group_words(*g))),
        );
        lines.extend(
            self.routes_added
                .iter()
                .map(|r| format!("Adds the route {r}")),
        );
        lines.extend(
            self.routes_removed
                .iter()
                .map(|r| format!("Removes the route {r}")),
        );
        for (name, before, after) in &self.constraints_changed {
            let said = |list: &Vec<String>| {
                if list.is_empty() {
                    "none".to_owned()
                } else {
                    list.join(", ")
                }
            };
            lines.push(format!(
                "Constraints of {name}: {} → {}",
                said(before),
                said(after)
            ));
        }
        if self.other_changed {
            lines.push("Changes parts the editor does not recognise (see the raw JSON)".to_owned());
        }
        lines
    }
}

/// The items of `list` that `other` lacks, in order.
fn missing_from<T: PartialEq + Clone>(list: &[T], other: &[T]) -> Vec<T> {
    list.iter()
        .filter(|item| !other.contains(item))
        .cloned()
        .collect()
}

/// Every group and route entry: its name, its constraints written out, and what else it
/// holds.
fn entries(permissions: &Permissions) -> Vec<(String, Vec<String>, Option<Value>)> {
    let groups = permissions.groups.iter().map(|grant| {
        let written = grant
            .constraints()
            .iter()
            .map(ToString::to_string)
            .collect();
        (grant.group.as_str().to_owned(), written, grant.extra())
    });
    let routes = permissions.routes.iter().map(|route| {
        (
            route.name.clone(),
            route.entry.written_constraints(),
            route.entry.extra(),
        )
    });
    groups.chain(routes).collect()
}

/// What a group lets a key do, in plain words.
pub fn group_words(group: PermissionGroup) -> &'static str {
    match group {
        PermissionGroup::InstanceRead => "see instances",
        PermissionGroup::InstanceWrite => "create, change and destroy instances",
        PermissionGroup::UserRead => "see account details",
        PermissionGroup::UserWrite => "change account details and create subaccounts",
        PermissionGroup::BillingRead => "see billing",
        PermissionGroup::BillingWrite => "change billing",
        PermissionGroup::MachineRead => "see hosted machines",
        PermissionGroup::MachineWrite => "change hosted machines and their maintenance",
        PermissionGroup::Misc => "use general operations such as searching offers",
        PermissionGroup::TeamRead => "see the team's roles and members",
        PermissionGroup::TeamWrite => "manage the team's roles and members",
    }
}

/// A role in plain words: what it can do, what it cannot, and its narrower grants.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoleSummary {
    pub can: Vec<String>,
    pub cannot: Vec<String>,
    pub limited: Vec<String>,
    pub unrecognised: usize,
}

impl RoleSummary {
    pub fn of(permissions: &Value) -> Self {
        let read = Permissions::read(permissions);
        let mut summary = RoleSummary::default();
        for group in PermissionGroup::ALL {
            let words = group_words(group);
            match read.group(group).map(|grant| grant.constraints()) {
                Some(constraints) if constraints.is_empty() => summary.can.push(words.to_owned()),
                Some(constraints) => summary
                    .limited
                    .push(format!("{words} only where {}", written(&constraints))),
                None => summary.cannot.push(words.to_owned()),
            }
        }
        for route in &read.routes {
            let name = &route.name;
            summary.limited.push(if route.entry.constraints.is_empty() {
                format!("use the route {name}")
            } else {
                format!(
                    "use the route {name} only where {}",
                    written(&route.entry.constraints)
                )
            });
        }
        summary.unrecognised = read.unrecognised.len();
        summary
    }
}

fn written(constraints: &[Constraint]) -> String {
    constraints
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
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

    #[test]
    fn constraints_are_checked() {
        let c = |field: &str, operator: &str, value: &str| ConstraintDraft {
            field: field.into(),
            operator: operator.into(),
            value: value.into(),
            was: None,
        };
        assert_eq!(constraint_problem(&c("id", "eq", "1227"), &[]), None);
        assert_eq!(constraint_problem(&c("name", "eq", "box"), &[]), None);
        assert_eq!(constraint_problem(&c("size", "lte", "5.5"), &[]), None);
        assert!(constraint_problem(&c(" ", "eq", "1"), &[])
            .unwrap()
            .contains("needs a field"));
        assert!(constraint_problem(&c("id", "ne", "1"), &[])
            .unwrap()
            .contains("eq, lte or gte"));
        assert!(constraint_problem(&c("id", "eq", " "), &[])
            .unwrap()
            .contains("enter the value"));
        assert_eq!(
            constraint_problem(&c("size", "gte", "big"), &[]).unwrap(),
            "size ≥ needs a number."
        );
        assert_eq!(
            constraint_problem(&c("id", "eq", "2"), &[c("id", "eq", "1")]).unwrap(),
            "id = is set twice."
        );
        assert_eq!(
            constraint_problem(&c("id", "lte", "2"), &[c("id", "gte", "1")]),
            None
        );
    }

    #[test]
    fn names_and_routes_are_checked_before_saving() {
        let others = vec!["manager".to_owned()];
        assert_eq!(name_problem("auditor", &others), None);
        assert!(name_problem("", &others).is_some());
        assert!(name_problem("a", &others).unwrap().contains("2 to 50"));
        assert!(name_problem(&"x".repeat(51), &others).is_some());
        assert!(name_problem(" auditor", &others).unwrap().contains("space"));
        assert!(name_problem("a\tb", &others).unwrap().contains("control"));
        assert!(name_problem("manager", &others)
            .unwrap()
            .contains("already"));
        assert_eq!(name_problem("Manager", &others), None, "compared exactly");

        let mut draft = RoleDraft::empty();
        draft.name = "auditor".into();
        let mut route = RouteDraft::new();
        route.name = "instance.logs".into();
        draft.routes.push(route.clone());
        route.name = "api.a".into();
        draft.routes.push(route.clone());
        draft.routes.push(route);
        let problems = draft.problems(&others);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("starts with \"api.\""));
        assert!(problems[1].contains("twice"));
    }

    #[test]
    fn the_diff_names_groups_routes_constraints_and_the_name() {
        let before = json!({"api": {"misc": {}, "team_read": {}}, "api.a.b": {"constraints": {"id": {"eq": 1}}}, "api.c.d": {}});
        let after = json!({"api": {"misc": {}, "team_write": {}}, "api.a.b": {"constraints": {"id": {"eq": 2}}}, "api.e.f": {}});
        let diff = RoleDiff::between(("auditor", &before), ("auditor 2", &after));
        assert_eq!(diff.renamed, Some(("auditor".into(), "auditor 2".into())));
        assert_eq!(diff.groups_added, [PermissionGroup::TeamWrite]);
        assert_eq!(diff.groups_removed, [PermissionGroup::TeamRead]);
        assert_eq!(diff.routes_added, ["api.e.f"]);
        assert_eq!(diff.routes_removed, ["api.c.d"]);
        assert_eq!(
            diff.constraints_changed,
            [(
                "api.a.b".to_owned(),
                vec!["id = 1".to_owned()],
                vec!["id = 2".to_owned()]
            )]
        );
        assert!(!diff.other_changed);
        let lines = diff.lines();
        assert_eq!(lines[0], "Renamed from auditor to auditor 2");
        assert!(lines.contains(&"Constraints of api.a.b: id = 1 → id = 2".to_owned()));
        assert!(RoleDiff::between(("x", &before), ("x", &before)).is_empty());
        let odd = json!({"api": {"misc": {}, "team_read": {}}, "api.a.b": {"constraints": {"id": {"eq": 1}}}, "api.c.d": {}, "ui": 1});
        assert!(RoleDiff::between(("x", &before), ("x", &odd)).other_changed);
    }

    #[test]
    fn the_summary_says_what_the_role_can_and_cannot_do() {
        let summary = RoleSummary::of(&json!({
            "api": {"instance_read": {}, "machine_read": {"constraints": {"id": {"gte": 1000}}}},
            "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}},
            "ui": {}
        }));
        assert_eq!(summary.can, ["see instances"]);
        assert_eq!(summary.cannot.len(), 9);
        assert_eq!(
            summary.limited,
            [
                "see hosted machines only where id ≥ 1000",
                "use the route api.instance.request_logs only where id = 1227",
            ]
        );
        assert_eq!(summary.unrecognised, 1);
    }
}
