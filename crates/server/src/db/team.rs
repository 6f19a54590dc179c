//! Teams: the caller's current team, its roles and its members.

use super::DbError;
use crate::holding::Holding;
use gpudeck_wire::{PermissionGroup, TeamMember, TeamRole, TeamRoleEntry};
use rusqlite::{params, Connection, OptionalExtension};

/// A team, as the messages name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub id: i64,
    pub name: String,
}

/// The permission objects of `user_id`'s roles in `team_id`, or `None` when the user is
/// not an active member. The team's owner is always a member.
pub fn member_role_permissions(
    conn: &Connection,
    team_id: i64,
    user_id: i64,
) -> Result<Option<Vec<serde_json::Value>>, DbError> {
    let Some(member) = membership(conn, team_id, user_id)? else {
        return Ok(None);
    };
    let mut statement = conn.prepare(
        "SELECT r.permissions FROM team_member_roles mr JOIN team_roles r ON r.id = mr.role_id
         WHERE mr.member_id = ?1 ORDER BY r.id",
    )?;
    let texts = statement
        .query_map([member], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let mut roles = Vec::with_capacity(texts.len());
    for text in texts {
        roles.push(serde_json::from_str(&text)?);
    }
    Ok(Some(roles))
}

/// The current team of `user_id` calling with a key scoped to `key_team_id`: the key's
/// team, else the team the user owns, else the first team where the user is an active
/// member; `None` when there is none.
pub fn current_team(
    conn: &Connection,
    user_id: i64,
    key_team_id: Option<i64>,
) -> Result<Option<Team>, DbError> {
    let row = |r: &rusqlite::Row<'_>| {
        Ok(Team {
            id: r.get(0)?,
            name: r.get(1)?,
        })
    };
    let team = match key_team_id {
        Some(id) => conn
            .query_row("SELECT id, name FROM teams WHERE id = ?1", [id], row)
            .optional()?,
        None => match conn
            .query_row(
                "SELECT id, name FROM teams WHERE owner_id = ?1 ORDER BY id LIMIT 1",
                [user_id],
                row,
            )
            .optional()?
        {
            Some(owned) => Some(owned),
            None => conn
                .query_row(
                    "SELECT t.id, t.name FROM team_members m JOIN teams t ON t.id = m.team_id
                     WHERE m.user_id = ?1 AND m.removed_at IS NULL ORDER BY t.id LIMIT 1",
                    [user_id],
                    row,
                )
                .optional()?,
        },
    };
    Ok(team)
}

/// The role called `name` in team `team_id`, if there is one.
pub fn role_by_name(
    conn: &Connection,
    team_id: i64,
    name: &str,
) -> Result<Option<TeamRole>, DbError> {
    let row: Option<(i64, String, String)> = conn
        .query_row(
            "SELECT id, name, permissions FROM team_roles WHERE team_id = ?1 AND name = ?2",
            params![team_id, name],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((id, name, permissions)) = row else {
        return Ok(None);
    };
    Ok(Some(TeamRole {
        id,
        name,
        permissions: serde_json::from_str(&permissions)?,
    }))
}

/// Active members of team `team_id` with their role names (sorted), by user id.
pub fn members(conn: &Connection, team_id: i64) -> Result<Vec<TeamMember>, DbError> {
    let mut statement = conn.prepare(
        "SELECT m.id, u.id, u.username, u.email, u.fullname
         FROM team_members m JOIN users u ON u.id = m.user_id
         WHERE m.team_id = ?1 AND m.removed_at IS NULL
         ORDER BY u.id, m.id",
    )?;
    let rows = statement
        .query_map([team_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                TeamMember {
                    id: r.get(1)?,
                    username: r.get(2)?,
                    email: r.get(3)?,
                    fullname: r.get(4)?,
                    roles: Vec::new(),
                },
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut roles_of = conn.prepare(
        "SELECT r.name FROM team_member_roles mr JOIN team_roles r ON r.id = mr.role_id
         WHERE mr.member_id = ?1 ORDER BY r.name",
    )?;
    let mut out = Vec::with_capacity(rows.len());
    for (member_id, mut member) in rows {
        member.roles = roles_of
            .query_map([member_id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        out.push(member);
    }
    Ok(out)
}

/// Who acts on a team: the key's user and the team the key is scoped to, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    pub user_id: i64,
    pub key_team_id: Option<i64>,
}

/// The caller's current team and what the caller holds there (spec §1.4).
#[derive(Debug, Clone, PartialEq)]
pub struct TeamContext {
    pub team: Team,
    pub owner_id: i64,
    pub holding: Holding,
    /// The caller's own roles in the team (none for an owner without a membership row).
    pub own_role_ids: Vec<i64>,
}

/// Why a caller may not act on a team at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The caller has no current team.
    NoTeam,
    /// What the caller holds there lacks this group.
    Lacks(PermissionGroup),
}

/// The actor's current team and holding, if it holds `group` there. Read again inside
/// each write's transaction, so a membership or role changed meanwhile is seen.
pub fn acting_in_team(
    conn: &Connection,
    actor: Actor,
    group: PermissionGroup,
) -> Result<Result<TeamContext, Standing>, DbError> {
    let Some(team) = current_team(conn, actor.user_id, actor.key_team_id)? else {
        return Ok(Err(Standing::NoTeam));
    };
    let owner_id: i64 =
        conn.query_row("SELECT owner_id FROM teams WHERE id = ?1", [team.id], |r| {
            r.get(0)
        })?;
    let mut statement = conn.prepare_cached(
        "SELECT r.id, r.permissions
         FROM team_members m
         JOIN team_member_roles mr ON mr.member_id = m.id
         JOIN team_roles r ON r.id = mr.role_id
         WHERE m.team_id = ?1 AND m.user_id = ?2 AND m.removed_at IS NULL
         ORDER BY r.id",
    )?;
    let rows = statement
        .query_map(params![team.id, actor.user_id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut own_role_ids = Vec::with_capacity(rows.len());
    let mut roles: Vec<serde_json::Value> = Vec::with_capacity(rows.len());
    for (id, permissions) in rows {
        own_role_ids.push(id);
        roles.push(serde_json::from_str(&permissions)?);
    }
    let holding = if owner_id == actor.user_id {
        Holding::Everything
    } else {
        Holding::of_roles(&roles)
    };
    if !holding.grants(group) {
        return Ok(Err(Standing::Lacks(group)));
    }
    Ok(Ok(TeamContext {
        team,
        owner_id,
        holding,
        own_role_ids,
    }))
}

/// Every role of team `team_id` but the owner role, by id (N13, list roles).
pub fn assignable_roles(conn: &Connection, team_id: i64) -> Result<Vec<TeamRoleEntry>, DbError> {
    let mut statement = conn.prepare_cached(
        "SELECT id, name, permissions, identifier FROM team_roles
         WHERE team_id = ?1 AND is_owner = 0 ORDER BY id",
    )?;
    let rows = statement
        .query_map([team_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(id, name, permissions, identifier)| {
            Ok(TeamRoleEntry {
                id,
                name,
                permissions: serde_json::from_str(&permissions)?,
                identifier,
            })
        })
        .collect()
}

/// A role of a team as the writes need it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRole {
    pub id: i64,
    pub name: String,
    pub permissions: serde_json::Value,
    pub is_owner: bool,
}

/// How a write names a role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoleRef {
    Id(i64),
    Name(String),
}

/// The role of team `team_id` that `role` names, if there is one.
pub fn stored_role(
    conn: &Connection,
    team_id: i64,
    role: &RoleRef,
) -> Result<Option<StoredRole>, DbError> {
    let (id, name) = match role {
        RoleRef::Id(id) => (Some(*id), None),
        RoleRef::Name(name) => (None, Some(name.as_str())),
    };
    let found = conn
        .query_row(
            "SELECT id, name, permissions, is_owner FROM team_roles
             WHERE team_id = ?1 AND (?2 IS NULL OR id = ?2) AND (?3 IS NULL OR name = ?3)",
            params![team_id, id, name],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, bool>(3)?,
                ))
            },
        )
        .optional()?;
    found
        .map(|(id, name, permissions, is_owner)| {
            Ok(StoredRole {
                id,
                name,
                permissions: serde_json::from_str(&permissions)?,
                is_owner,
            })
        })
        .transpose()
}

/// The active membership of `user_id` in team `team_id`, if any.
pub fn membership(conn: &Connection, team_id: i64, user_id: i64) -> Result<Option<i64>, DbError> {
    Ok(conn
        .query_row(
            "SELECT id FROM team_members
             WHERE team_id = ?1 AND user_id = ?2 AND removed_at IS NULL
             ORDER BY id LIMIT 1",
            params![team_id, user_id],
            |r| r.get(0),
        )
        .optional()?)
}
