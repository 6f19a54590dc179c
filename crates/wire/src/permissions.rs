//! Team-role permissions: one reading of the `permissions` object for the server, which
//! checks them, and for the console, which shows them.
//!
//! The observed shape is `{"api": {"instance_read": {}, ...}}` with route-level entries
//! such as `"api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}}`. Nothing
//! about it is specified, so [`PermissionsView::read`] never drops what it does not know:
//! such parts land in [`PermissionsView::unrecognised`].

use serde_json::{Map, Value};
use std::fmt;

/// The permission groups of the public service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PermissionGroup {
    InstanceRead,
    InstanceWrite,
    UserRead,
    UserWrite,
    BillingRead,
    BillingWrite,
    MachineRead,
    MachineWrite,
    Misc,
    TeamRead,
    TeamWrite,
}

/// Read or write access within an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// `misc` has no read/write split.
    Any,
}

impl PermissionGroup {
    pub const ALL: [PermissionGroup; 11] = [
        PermissionGroup::InstanceRead,
        PermissionGroup::InstanceWrite,
        PermissionGroup::UserRead,
        PermissionGroup::UserWrite,
        PermissionGroup::BillingRead,
        PermissionGroup::BillingWrite,
        PermissionGroup::MachineRead,
        PermissionGroup::MachineWrite,
        PermissionGroup::Misc,
        PermissionGroup::TeamRead,
        PermissionGroup::TeamWrite,
    ];

    /// The areas in display order.
    pub const AREAS: [&'static str; 6] = ["instance", "user", "billing", "machine", "team", "misc"];

    pub fn as_str(self) -> &'static str {
        match self {
            PermissionGroup::InstanceRead => "instance_read",
            PermissionGroup::InstanceWrite => "instance_write",
            PermissionGroup::UserRead => "user_read",
            PermissionGroup::UserWrite => "user_write",
            PermissionGroup::BillingRead => "billing_read",
            PermissionGroup::BillingWrite => "billing_write",
            PermissionGroup::MachineRead => "machine_read",
            PermissionGroup::MachineWrite => "machine_write",
            PermissionGroup::Misc => "misc",
            PermissionGroup::TeamRead => "team_read",
            PermissionGroup::TeamWrite => "team_write",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|group| group.as_str() == name)
    }

    /// `instance`, `user`, `billing`, `machine`, `team` or `misc`.
    pub fn area(self) -> &'static str {
        self.as_str().split('_').next().unwrap_or("misc")
    }

    pub fn access(self) -> Access {
        match self.as_str().rsplit('_').next() {
            Some("read") => Access::Read,
            Some("write") => Access::Write,
            _ => Access::Any,
        }
    }

    /// The group of `area` with `access`, if the public service has one.
    pub fn of(area: &str, access: Access) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|group| group.area() == area && group.access() == access)
    }
}

impl fmt::Display for PermissionGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One condition on an entry, e.g. `id = 1227`.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    pub field: String,
    /// `eq`, `lte`, `gte`, or whatever else the service sends.
    pub operator: String,
    pub value: Value,
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let symbol = match self.operator.as_str() {
            "eq" => "=",
            "lte" => "≤",
            "gte" => "≥",
            other => other,
        };
        let value = match &self.value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        write!(f, "{} {symbol} {value}", self.field)
    }
}

/// A granted permission: a group or a single route, with its constraints.
#[derive(Debug, Clone, PartialEq)]
pub struct Permission {
    /// The group name (`instance_read`) or the route name (`api.instance.request_logs`).
    pub name: String,
    pub group: Option<PermissionGroup>,
    pub constraints: Vec<Constraint>,
    /// Parts of the entry that are not `constraints` of the known shape, kept verbatim.
    pub extra: Option<Value>,
}

/// The permissions object, read into what people and checks need.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PermissionsView {
    /// Whole groups granted, e.g. `instance_read`.
    pub groups: Vec<Permission>,
    /// Route-level entries, e.g. `api.instance.request_logs`.
    pub routes: Vec<Permission>,
    /// Everything else, by its JSON path, so nothing is silently dropped.
    pub unrecognised: Vec<(String, Value)>,
}

impl PermissionsView {
    pub fn read(permissions: &Value) -> Self {
        let mut view = PermissionsView::default();
        let Some(top) = permissions.as_object() else {
            if !permissions.is_null() {
                view.unrecognised.push((String::new(), permissions.clone()));
            }
            return view;
        };
        for (key, value) in top {
            if key == "api" {
                match value.as_object() {
                    Some(api) => view.read_api(api),
                    None => view.unrecognised.push((key.clone(), value.clone())),
                }
            } else if key.starts_with("api.") {
                view.routes.push(read_entry(key, None, value));
            } else {
                view.unrecognised.push((key.clone(), value.clone()));
            }
        }
        // JSON objects come in whatever order the parser keeps (serde_json's
        // `preserve_order` may be on or off); sort so every reader sees the same view.
        view.groups.sort_by_key(|p| p.group);
        view.routes.sort_by(|a, b| a.name.cmp(&b.name));
        view.unrecognised.sort_by(|a, b| a.0.cmp(&b.0));
        view
    }

    fn read_api(&mut self, api: &Map<String, Value>) {
        for (key, value) in api {
            if let Some(group) = PermissionGroup::parse(key) {
                self.groups.push(read_entry(key, Some(group), value));
            } else if key.contains('.') {
                self.routes.push(read_entry(key, None, value));
            } else {
                self.unrecognised
                    .push((format!("api.{key}"), value.clone()));
            }
        }
    }

    /// Whether the whole group is granted (with or without constraints).
    pub fn grants(&self, group: PermissionGroup) -> bool {
        self.groups.iter().any(|p| p.group == Some(group))
    }

    pub fn group(&self, group: PermissionGroup) -> Option<&Permission> {
        self.groups.iter().find(|p| p.group == Some(group))
    }
}

fn read_entry(name: &str, group: Option<PermissionGroup>, value: &Value) -> Permission {
    let mut constraints = Vec::new();
    let mut extra = Map::new();
    match value.as_object() {
        Some(fields) => {
            for (key, inner) in fields {
                match (key.as_str(), read_constraints(inner)) {
                    ("constraints", Some(read)) => constraints = read,
                    _ => {
                        extra.insert(key.clone(), inner.clone());
                    }
                }
            }
        }
        None => {
            extra.insert("value".into(), value.clone());
        }
    }
    Permission {
        name: name.to_owned(),
        group,
        constraints,
        extra: (!extra.is_empty()).then_some(Value::Object(extra)),
    }
}

/// `{"id": {"eq": 1227}}` → `[id = 1227]`; `None` when the shape is not that.
fn read_constraints(value: &Value) -> Option<Vec<Constraint>> {
    let mut out = Vec::new();
    for (field, ops) in value.as_object()? {
        for (operator, operand) in ops.as_object()? {
            out.push(Constraint {
                field: field.clone(),
                operator: operator.clone(),
                value: operand.clone(),
            });
        }
    }
    out.sort_by(|a, b| (&a.field, &a.operator).cmp(&(&b.field, &b.operator)));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_observed_shape() {
        let view = PermissionsView::read(&json!({
            "api": {"misc": {}, "user_read": {}, "instance_read": {}, "instance_write": {}, "team_read": {}}
        }));
        assert!(view.grants(PermissionGroup::TeamRead));
        assert!(!view.grants(PermissionGroup::MachineWrite));
        assert_eq!(view.groups.len(), 5);
        assert!(view.routes.is_empty() && view.unrecognised.is_empty());
    }

    #[test]
    fn reads_route_entries_with_constraints() {
        let view = PermissionsView::read(&json!({
            "api": {"instance_read": {}},
            "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}, "size": {"lte": 5, "gte": 1}}}
        }));
        let route = &view.routes[0];
        assert_eq!(route.name, "api.instance.request_logs");
        let written: Vec<String> = route.constraints.iter().map(|c| c.to_string()).collect();
        // Sorted by field, then operator, whatever order the server sent.
        assert_eq!(written, ["id = 1227", "size ≥ 1", "size ≤ 5"]);
        assert_eq!(route.extra, None);
    }

    #[test]
    fn keeps_what_it_does_not_know() {
        let view = PermissionsView::read(&json!({
            "api": {"instance_read": {"constraints": "odd", "note": 1}, "quantum_write": {}},
            "ui": {"dark": true}
        }));
        let group = view.group(PermissionGroup::InstanceRead).unwrap();
        assert!(group.constraints.is_empty());
        assert_eq!(group.extra, Some(json!({"constraints": "odd", "note": 1})));
        let paths: Vec<&str> = view.unrecognised.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["api.quantum_write", "ui"]);

        let odd = PermissionsView::read(&json!([1, 2]));
        assert_eq!(odd.unrecognised, vec![(String::new(), json!([1, 2]))]);
        assert_eq!(
            PermissionsView::read(&Value::Null),
            PermissionsView::default()
        );
    }

    #[test]
    fn groups_split_into_area_and_access() {
        assert_eq!(PermissionGroup::MachineWrite.area(), "machine");
        assert_eq!(PermissionGroup::MachineWrite.access(), Access::Write);
        assert_eq!(PermissionGroup::Misc.access(), Access::Any);
        assert_eq!(
            PermissionGroup::of("team", Access::Read),
            Some(PermissionGroup::TeamRead)
        );
        assert_eq!(PermissionGroup::of("misc", Access::Read), None);
        for area in PermissionGroup::AREAS {
            assert!(PermissionGroup::ALL.iter().any(|g| g.area() == area));
        }
    }
}
