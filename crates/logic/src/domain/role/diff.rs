//! What saving would change, in the words of the grid.

use super::summary::group_words;
use gpudeck_wire::{PermissionGroup, Permissions};
use serde_json::Value;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
