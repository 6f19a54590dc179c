//! Writing a team's roles: create (N14), update (N15) and remove (N16). Each is one
//! IMMEDIATE transaction that reads the caller's standing again before it writes.

use super::team::{acting_in_team, stored_role, Actor, RoleRef, Standing};
use super::{write_tx, DbError};
use gpudeck_wire::PermissionGroup;
use rusqlite::{params, Connection};
use serde_json::Value;

/// Why a role was not created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreateRoleRefusal {
    Standing(Standing),
    /// The permissions name something the caller does not hold.
    Exceeds,
    /// The team already has a role of this name.
    DuplicateName(String),
}

/// Whether team `team_id` has a role called `name` other than `except`.
fn name_taken(
    conn: &Connection,
    team_id: i64,
    name: &str,
    except: Option<i64>,
) -> Result<bool, DbError> {
    let count: i64 = conn.query_row(
        "SELECT COUNT(*) FROM team_roles WHERE team_id = ?1 AND name = ?2 AND id != ?3",
        params![team_id, name, except.unwrap_or(0)],
        |r| r.get(0),
    )?;
    Ok(count > 0)
}

/// Adds a custom role `name` with `permissions` (already checked) to the actor's team.
pub fn create_role(
    conn: &mut Connection,
    actor: Actor,
    name: &str,
    permissions: &Value,
) -> Result<Result<i64, CreateRoleRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let context = match acting_in_team(&tx, actor, PermissionGroup::TeamWrite)? {
        Ok(context) => context,
        Err(standing) => return Ok(Err(CreateRoleRefusal::Standing(standing))),
    };
    if context.holding.is_exceeded_by(permissions) {
        return Ok(Err(CreateRoleRefusal::Exceeds));
    }
    if name_taken(&tx, context.team.id, name, None)? {
        return Ok(Err(CreateRoleRefusal::DuplicateName(name.to_owned())));
    }
    tx.execute(
        "INSERT INTO team_roles (team_id, name, permissions) VALUES (?1, ?2, ?3)",
        params![context.team.id, name, permissions.to_string()],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(Ok(id))
}

/// Why a role was not updated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateRoleRefusal {
    Standing(Standing),
    /// No role of the caller's team has this id.
    NotFound {
        role_id: i64,
    },
    /// The owner role is never edited.
    OwnerRole,
    /// The caller holds the role and its permissions would change.
    KeyInUse,
    /// The old or the new permissions name something the caller does not hold.
    Exceeds,
    DuplicateName(String),
}

/// What an update did: the role's name afterwards, and whether anything changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleUpdate {
    pub name: String,
    pub changed: bool,
}

/// Renames role `role_id` and/or replaces its permissions; `None` leaves a field as it is.
pub fn update_role(
    conn: &mut Connection,
    actor: Actor,
    role_id: i64,
    name: Option<&str>,
    permissions: Option<&Value>,
) -> Result<Result<RoleUpdate, UpdateRoleRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let context = match acting_in_team(&tx, actor, PermissionGroup::TeamWrite)? {
        Ok(context) => context,
        Err(standing) => return Ok(Err(UpdateRoleRefusal::Standing(standing))),
    };
    let Some(role) = stored_role(&tx, context.team.id, &RoleRef::Id(role_id))? else {
        return Ok(Err(UpdateRoleRefusal::NotFound { role_id }));
    };
    if role.is_owner {
        return Ok(Err(UpdateRoleRefusal::OwnerRole));
    }
    let new_permissions = permissions.filter(|new| **new != role.permissions);
    if let Some(new) = new_permissions {
        if context.own_role_ids.contains(&role.id) {
            return Ok(Err(UpdateRoleRefusal::KeyInUse));
        }
        if context.holding.is_exceeded_by(&role.permissions) || context.holding.is_exceeded_by(new)
        {
            return Ok(Err(UpdateRoleRefusal::Exceeds));
        }
    }
    let new_name = name.filter(|new| *new != role.name);
    if let Some(new) = new_name {
        if name_taken(&tx, context.team.id, new, Some(role.id))? {
            return Ok(Err(UpdateRoleRefusal::DuplicateName(new.to_owned())));
        }
    }
    if new_name.is_none() && new_permissions.is_none() {
        return Ok(Ok(RoleUpdate {
            name: role.name,
            changed: false,
        }));
    }
    let final_name = new_name.unwrap_or(&role.name).to_owned();
    let final_permissions = new_permissions.unwrap_or(&role.permissions).to_string();
    tx.execute(
        "UPDATE team_roles SET name = ?1, permissions = ?2 WHERE id = ?3",
        params![final_name, final_permissions, role.id],
    )?;
    tx.commit()?;
    Ok(Ok(RoleUpdate {
        name: final_name,
        changed: true,
    }))
}

/// Why a role was not removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoveRoleRefusal {
    Standing(Standing),
    NotFound,
    OwnerRole,
    /// `holders` active members still hold the role.
    InUse {
        holders: i64,
    },
}

/// Deletes the role `role` names, if no active member holds it, with the assignments of it
/// that removed members still had; its pending invitations end at `now`. Returns its name.
pub fn remove_role(
    conn: &mut Connection,
    actor: Actor,
    role: &RoleRef,
    now: f64,
) -> Result<Result<String, RemoveRoleRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let context = match acting_in_team(&tx, actor, PermissionGroup::TeamWrite)? {
        Ok(context) => context,
        Err(standing) => return Ok(Err(RemoveRoleRefusal::Standing(standing))),
    };
    let Some(role) = stored_role(&tx, context.team.id, role)? else {
        return Ok(Err(RemoveRoleRefusal::NotFound));
    };
    if role.is_owner {
        return Ok(Err(RemoveRoleRefusal::OwnerRole));
    }
    let holders: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT m.user_id) FROM team_member_roles mr
         JOIN team_members m ON m.id = mr.member_id
         WHERE mr.role_id = ?1 AND m.removed_at IS NULL",
        [role.id],
        |r| r.get(0),
    )?;
    if holders > 0 {
        return Ok(Err(RemoveRoleRefusal::InUse { holders }));
    }
    tx.execute(
        "UPDATE team_invitations SET expires_at = ?1 WHERE role_id = ?2 AND expires_at > ?1",
        params![now, role.id],
    )?;
    tx.execute(
        "DELETE FROM team_member_roles WHERE role_id = ?1",
        [role.id],
    )?;
    tx.execute("DELETE FROM team_roles WHERE id = ?1", [role.id])?;
    tx.commit()?;
    Ok(Ok(role.name))
}
