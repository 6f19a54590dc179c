//! What a caller holds in a team (spec §1.4), and the two rules built on it: whether a role
//! *exceeds* the caller, and what a valid `permissions` object is (N14, N15). Pure
//! functions over JSON, so the queries that enforce them and the tests share one meaning.

use gpudeck_wire::PermissionGroup;
use serde_json::{Map, Value};

/// What a caller holds in its current team.
#[derive(Debug, Clone, PartialEq)]
pub enum Holding {
    /// The team's owner holds everything in its own team.
    Everything,
    /// Anyone else: the permission objects of their roles there (none if they hold none).
    Roles(Vec<Value>),
}

impl Holding {
    /// Whether the caller holds the whole `group`.
    pub fn grants(&self, group: PermissionGroup) -> bool {
        match self {
            Holding::Everything => true,
            Holding::Roles(roles) => roles
                .iter()
                .any(|role| api_groups(role).any(|name| name == group.as_str())),
        }
    }

    /// Whether a role with `permissions` exceeds the caller: it names a group under `api`
    /// the caller lacks, or it has a top-level entry (`"api.instance.request_logs"`) that
    /// none of the caller's roles has.
    pub fn is_exceeded_by(&self, permissions: &Value) -> bool {
        let Holding::Roles(roles) = self else {
            return false;
        };
        let lacks_group = api_groups(permissions).any(|name| {
            !roles
                .iter()
                .any(|role| api_groups(role).any(|held| held == name))
        });
        let lacks_entry = top_level_entries(permissions).any(|entry| {
            !roles
                .iter()
                .any(|role| top_level_entries(role).any(|held| held == entry))
        });
        lacks_group || lacks_entry
    }
}

/// The keys under `api` (the groups a role names).
fn api_groups(permissions: &Value) -> impl Iterator<Item = &str> {
    permissions
        .get("api")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(Map::keys)
        .map(String::as_str)
}

/// The top-level keys other than `api` (route entries).
fn top_level_entries(permissions: &Value) -> impl Iterator<Item = &str> {
    permissions
        .as_object()
        .into_iter()
        .flat_map(Map::keys)
        .map(String::as_str)
        .filter(|key| *key != "api")
}

/// Why a `permissions` object was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermissionsRefusal {
    /// Not an object, or `api`, a group's value or a top-level value not an object.
    NotAnObject,
    /// A key under `api` that is not one of the 11 groups.
    UnknownGroup(String),
}

/// Checks a role's `permissions` (N14): an object; its optional `api` an object keyed by
/// the 11 groups, each with an object value; every other top-level value an object. `{}`
/// is allowed. The object is stored verbatim.
pub fn check_permissions(permissions: &Value) -> Result<(), PermissionsRefusal> {
    let top = permissions
        .as_object()
        .ok_or(PermissionsRefusal::NotAnObject)?;
    for (key, value) in top {
        let inner = value.as_object().ok_or(PermissionsRefusal::NotAnObject)?;
        if key != "api" {
            continue;
        }
        for (group, grant) in inner {
            if PermissionGroup::parse(group).is_none() {
                return Err(PermissionsRefusal::UnknownGroup(group.clone()));
            }
            if !grant.is_object() {
                return Err(PermissionsRefusal::NotAnObject);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn member() -> Holding {
        Holding::Roles(vec![
            json!({"api": {"instance_read": {}, "team_read": {}},
                   "api.instance.request_logs": {"constraints": {"id": {"eq": 1}}}}),
            json!({"api": {"team_write": {}}}),
        ])
    }

    #[test]
    fn the_owner_holds_everything_and_others_the_union_of_their_roles() {
        assert!(Holding::Everything.grants(PermissionGroup::TeamWrite));
        assert!(member().grants(PermissionGroup::TeamWrite));
        assert!(member().grants(PermissionGroup::InstanceRead));
        assert!(!member().grants(PermissionGroup::MachineRead));
        assert!(!Holding::Roles(vec![]).grants(PermissionGroup::TeamRead));
    }

    #[test]
    fn a_role_exceeds_by_a_group_or_a_top_level_entry_the_caller_lacks() {
        let caller = member();
        assert!(!caller.is_exceeded_by(&json!({})));
        assert!(!caller.is_exceeded_by(&json!({"api": {"instance_read": {}, "team_write": {}}})));
        assert!(!caller.is_exceeded_by(&json!({"api.instance.request_logs": {}})));
        assert!(caller.is_exceeded_by(&json!({"api": {"machine_read": {}}})));
        assert!(caller.is_exceeded_by(&json!({"api.team.delete": {}})));
        assert!(!Holding::Everything.is_exceeded_by(&json!({"api.team.delete": {}})));
        assert!(Holding::Roles(vec![]).is_exceeded_by(&json!({"api": {"misc": {}}})));
    }

    #[test]
    fn permissions_are_objects_of_known_groups() {
        assert_eq!(check_permissions(&json!({})), Ok(()));
        assert_eq!(
            check_permissions(&json!({"api": {"misc": {}}, "api.x.y": {"constraints": {}}})),
            Ok(())
        );
        for bad in [
            json!([]),
            json!("x"),
            json!({"api": []}),
            json!({"api": {"misc": true}}),
            json!({"api.x": 1}),
        ] {
            assert_eq!(
                check_permissions(&bad),
                Err(PermissionsRefusal::NotAnObject),
                "{bad}"
            );
        }
        assert_eq!(
            check_permissions(&json!({"api": {"root": {}}})),
            Err(PermissionsRefusal::UnknownGroup("root".into()))
        );
    }
}
