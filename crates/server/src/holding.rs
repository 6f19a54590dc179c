//! What a caller holds in a team (spec §1.4), and the two rules built on it: whether a role
//! *exceeds* the caller, and what a valid `permissions` object is (N14 create role, N15
//! update role). Both read roles through the wire crate's [`Permissions`], as the console
//! does.

use gpudeck_wire::permissions::Place;
use gpudeck_wire::{PermissionGroup, Permissions};
use serde_json::Value;

/// What a caller holds: everything (a team's owner there; a personal key at the group
/// check), else the union of its roles in the team.
#[derive(Debug, Clone, PartialEq)]
pub enum Holding {
    Everything,
    /// The union of the caller's roles (nothing if it holds none).
    Roles(Permissions),
}

impl Holding {
    /// The union of the roles with these permission objects.
    pub fn of_roles<'a>(roles: impl IntoIterator<Item = &'a Value>) -> Self {
        Holding::Roles(Permissions::union(roles.into_iter().map(Permissions::read)))
    }

    /// Whether the caller holds the whole `group`.
    pub fn grants(&self, group: PermissionGroup) -> bool {
        match self {
            Holding::Everything => true,
            Holding::Roles(held) => held.grants(group),
        }
    }

    /// Whether a role with `permissions` exceeds the caller: it names a group under `api`
    /// the caller lacks, or it has a top-level entry (`"api.instance.request_logs"`) that
    /// none of the caller's roles has.
    pub fn is_exceeded_by(&self, permissions: &Value) -> bool {
        let Holding::Roles(held) = self else {
            return false;
        };
        let role = Permissions::read(permissions);
        [Place::InApi, Place::Top].into_iter().any(|place| {
            role.keys_at(place)
                .any(|key| !held.keys_at(place).any(|held| held == key))
        })
    }
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
    if !permissions.is_object() {
        return Err(PermissionsRefusal::NotAnObject);
    }
    let read = Permissions::read(permissions);
    let in_api = read
        .routes
        .iter()
        .filter(|route| route.place == Place::InApi)
        .map(|route| &route.name);
    let not_a_group = read
        .unrecognised
        .iter()
        .filter(|part| part.place == Place::InApi)
        .map(|part| &part.key);
    if let Some(key) = in_api.chain(not_a_group).next() {
        return Err(PermissionsRefusal::UnknownGroup(key.clone()));
    }
    // Route entries are objects by the time the model reads them as routes.
    let mut values = read
        .groups
        .iter()
        .map(|grant| &grant.entry)
        .chain(read.unrecognised.iter().map(|part| &part.value));
    if values.any(|value| !value.is_object()) {
        return Err(PermissionsRefusal::NotAnObject);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn member() -> Holding {
        Holding::of_roles(&[
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
        assert!(!Holding::of_roles(&[]).grants(PermissionGroup::TeamRead));
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
        assert!(Holding::of_roles(&[]).is_exceeded_by(&json!({"api": {"misc": {}}})));
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
