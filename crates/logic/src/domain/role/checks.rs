//! What must be fixed before a role is saved, each said as a sentence.

use super::draft::{ConstraintDraft, Place, RoleDraft, RouteDraft};
use gpudeck_wire::permissions::ConstraintOperator;

impl RoleDraft {
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

/// The name rule of N14 (create role): 2–50 characters, no control characters, no
/// surrounding spaces, unique in the team (compared exactly).
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
