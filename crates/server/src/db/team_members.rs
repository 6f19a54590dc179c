//! Writing a team's members: removing one (N18) and changing a member's roles (N19). Each
//! is one IMMEDIATE transaction that reads the caller's standing again before it writes.

use super::team::{acting_in_team, membership, stored_role, Actor, RoleRef, Standing, TeamContext};
use super::{write_tx, DbError};
use gpudeck_wire::PermissionGroup;
use rusqlite::{params, Connection};
use serde_json::Value;

/// Why a member was not removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoveMemberRefusal {
    Standing(Standing),
    /// The user is not an active member of the caller's team.
    NotMember,
    /// The user owns the team.
    Owner,
    /// The user is the caller.
    Yourself,
}

/// Ends `user_id`'s membership of the actor's team at `now` and deletes their team keys
/// for that team, so those keys answer 401 at once; personal keys stay.
pub fn remove_member(
    conn: &mut Connection,
    actor: Actor,
    user_id: i64,
    now: f64,
) -> Result<Result<(), RemoveMemberRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let context = match acting_in_team(&tx, actor, PermissionGroup::TeamWrite)? {
        Ok(context) => context,
        Err(standing) => return Ok(Err(RemoveMemberRefusal::Standing(standing))),
    };
    let team_id = context.team.id;
    if membership(&tx, team_id, user_id)?.is_none() {
        return Ok(Err(RemoveMemberRefusal::NotMember));
    }
    if user_id == context.owner_id {
        return Ok(Err(RemoveMemberRefusal::Owner));
    }
    if user_id == actor.user_id {
        return Ok(Err(RemoveMemberRefusal::Yourself));
    }
    tx.execute(
        "UPDATE team_members SET removed_at = ?1
         WHERE team_id = ?2 AND user_id = ?3 AND removed_at IS NULL",
        params![now, team_id, user_id],
    )?;
    tx.execute(
        "DELETE FROM api_keys WHERE user_id = ?1 AND team_id = ?2",
        params![user_id, team_id],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}

/// One of N19's three changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoleChange {
    /// POST: give a first role, by name.
    Give(String),
    /// PUT: replace the single role, by id.
    Replace(i64),
    /// DELETE: take one of several roles, by name.
    Take(String),
}

/// Why a member's roles were not changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberRoleRefusal {
    Standing(Standing),
    RoleNotFound,
    /// The owner role is never given or taken.
    OwnerRole,
    NotMember,
    /// The member owns the team.
    TargetIsOwner,
    /// The role given or taken names something the caller does not hold.
    Exceeds,
    /// POST to a member who already has a role.
    AlreadyHasARole,
    /// PUT with the role the member already has.
    AlreadyHasThisRole,
    /// PUT to a member with no role.
    HasNoRole,
    /// PUT to a member with several roles.
    HasSeveralRoles,
    /// DELETE of a role the member does not hold.
    DoesNotHaveRole,
    /// DELETE of the member's only role.
    OnlyRole,
}

/// Applies `change` to `user_id`'s roles in the actor's team; returns the permissions of
/// the role given (for PUT's answer), else of the role taken.
pub fn change_member_role(
    conn: &mut Connection,
    actor: Actor,
    user_id: i64,
    change: &RoleChange,
) -> Result<Result<Value, MemberRoleRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let context = match acting_in_team(&tx, actor, PermissionGroup::TeamWrite)? {
        Ok(context) => context,
        Err(standing) => return Ok(Err(MemberRoleRefusal::Standing(standing))),
    };
    let outcome = plan_role_change(&tx, &context, user_id, change)?;
    let (member_id, remove, add, permissions) = match outcome {
        Ok(plan) => plan,
        Err(refusal) => return Ok(Err(refusal)),
    };
    if let Some(role_id) = remove {
        tx.execute(
            "DELETE FROM team_member_roles WHERE member_id = ?1 AND role_id = ?2",
            params![member_id, role_id],
        )?;
    }
    if let Some(role_id) = add {
        tx.execute(
            "INSERT INTO team_member_roles (member_id, role_id) VALUES (?1, ?2)",
            params![member_id, role_id],
        )?;
    }
    tx.commit()?;
    Ok(Ok(permissions))
}

/// (membership, role to remove, role to add, permissions to answer with).
type RolePlan = (i64, Option<i64>, Option<i64>, Value);

/// Decides what `change` does to the member's roles, or why it may not.
fn plan_role_change(
    conn: &Connection,
    context: &TeamContext,
    user_id: i64,
    change: &RoleChange,
) -> Result<Result<RolePlan, MemberRoleRefusal>, DbError> {
    use MemberRoleRefusal as R;
    let team_id = context.team.id;
    let reference = match change {
        RoleChange::Give(name) | RoleChange::Take(name) => RoleRef::Name(name.clone()),
        RoleChange::Replace(id) => RoleRef::Id(*id),
    };
    let Some(role) = stored_role(conn, team_id, &reference)? else {
        return Ok(Err(R::RoleNotFound));
    };
    if role.is_owner {
        return Ok(Err(R::OwnerRole));
    }
    let Some(member_id) = membership(conn, team_id, user_id)? else {
        return Ok(Err(R::NotMember));
    };
    if user_id == context.owner_id {
        return Ok(Err(R::TargetIsOwner));
    }
    if context.holding.is_exceeded_by(&role.permissions) {
        return Ok(Err(R::Exceeds));
    }
    let mut statement =
        conn.prepare_cached("SELECT role_id FROM team_member_roles WHERE member_id = ?1")?;
    let held = statement
        .query_map([member_id], |r| r.get::<_, i64>(0))?
        .collect::<Result<Vec<i64>, _>>()?;
    let plan = match change {
        RoleChange::Give(_) if !held.is_empty() => Err(R::AlreadyHasARole),
        RoleChange::Give(_) => Ok((member_id, None, Some(role.id), role.permissions)),
        RoleChange::Replace(_) => match held.as_slice() {
            [] => Err(R::HasNoRole),
            [old] if *old == role.id => Err(R::AlreadyHasThisRole),
            [old] => {
                let taken = stored_role(conn, team_id, &RoleRef::Id(*old))?;
                if taken.is_some_and(|taken| context.holding.is_exceeded_by(&taken.permissions)) {
                    Err(R::Exceeds)
                } else {
                    Ok((member_id, Some(*old), Some(role.id), role.permissions))
                }
            }
            _ => Err(R::HasSeveralRoles),
        },
        RoleChange::Take(_) if !held.contains(&role.id) => Err(R::DoesNotHaveRole),
        RoleChange::Take(_) if held.len() == 1 => Err(R::OnlyRole),
        RoleChange::Take(_) => Ok((member_id, Some(role.id), None, role.permissions)),
    };
    Ok(plan)
}
