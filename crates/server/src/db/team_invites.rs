//! Invitations: recording one (N17) and listing the pending ones (N17a). No e-mail is sent;
//! only the SHA-256 of the invitation's random token is kept.

use super::team::{acting_in_team, stored_role, Actor, RoleRef, Standing};
use super::{write_tx, DbError};
use crate::config::{INVITATIONS_PER_HOUR, INVITATION_LIFETIME_SECS, INVITATION_REPEAT_SECS};
use gpudeck_wire::{Invitation, PermissionGroup};
use rusqlite::{params, Connection, OptionalExtension};

/// An invitation to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInvitation<'a> {
    /// Already checked to be an address; compared case-insensitively.
    pub email: &'a str,
    pub role_name: &'a str,
    /// Hex SHA-256 of the random token (the token itself is never stored).
    pub token_hash: &'a str,
}

/// Why an invitation was not recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InviteRefusal {
    Standing(Standing),
    /// The address is the caller's own.
    OwnEmail,
    /// No role of the team has that name.
    RoleNotFound,
    /// The role is the owner role.
    OwnerRole,
    /// The role names something the caller does not hold.
    Exceeds,
    /// An active member of the team has that address.
    AlreadyMember,
    /// An invitation to the address went out `seconds_ago` seconds ago (under a minute).
    TooSoon {
        seconds_ago: i64,
        retry_after: i64,
    },
    /// The team sent its hourly quota; the oldest of the hour leaves it in `retry_after` s.
    Quota {
        retry_after: i64,
    },
}

/// Records an invitation at `now`, ending any pending one to the same address.
pub fn invite(
    conn: &mut Connection,
    actor: Actor,
    invitation: &NewInvitation<'_>,
    now: f64,
) -> Result<Result<(), InviteRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let context = match acting_in_team(&tx, actor, PermissionGroup::TeamWrite)? {
        Ok(context) => context,
        Err(standing) => return Ok(Err(InviteRefusal::Standing(standing))),
    };
    let team_id = context.team.id;
    let own: i64 = tx.query_row(
        "SELECT COUNT(*) FROM users WHERE id = ?1 AND lower(email) = lower(?2)",
        params![actor.user_id, invitation.email],
        |r| r.get(0),
    )?;
    if own > 0 {
        return Ok(Err(InviteRefusal::OwnEmail));
    }
    let Some(role) = stored_role(
        &tx,
        team_id,
        &RoleRef::Name(invitation.role_name.to_owned()),
    )?
    else {
        return Ok(Err(InviteRefusal::RoleNotFound));
    };
    if role.is_owner {
        return Ok(Err(InviteRefusal::OwnerRole));
    }
    if context.holding.is_exceeded_by(&role.permissions) {
        return Ok(Err(InviteRefusal::Exceeds));
    }
    let members: i64 = tx.query_row(
        "SELECT COUNT(*) FROM team_members m JOIN users u ON u.id = m.user_id
         WHERE m.team_id = ?1 AND m.removed_at IS NULL AND lower(u.email) = lower(?2)",
        params![team_id, invitation.email],
        |r| r.get(0),
    )?;
    if members > 0 {
        return Ok(Err(InviteRefusal::AlreadyMember));
    }
    let last_to_address: Option<f64> = tx
        .query_row(
            "SELECT MAX(created_at) FROM team_invitations
             WHERE team_id = ?1 AND lower(email) = lower(?2)",
            params![team_id, invitation.email],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    if let Some(last) = last_to_address {
        let elapsed = now - last;
        if elapsed < INVITATION_REPEAT_SECS {
            return Ok(Err(InviteRefusal::TooSoon {
                seconds_ago: elapsed.max(0.0).floor() as i64,
                retry_after: (INVITATION_REPEAT_SECS - elapsed).ceil().max(1.0) as i64,
            }));
        }
    }
    let hour_ago = now - 3600.0;
    let (sent, oldest): (i64, Option<f64>) = tx.query_row(
        "SELECT COUNT(*), MIN(created_at) FROM team_invitations
         WHERE team_id = ?1 AND created_at > ?2",
        params![team_id, hour_ago],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if sent >= INVITATIONS_PER_HOUR {
        let frees_at = oldest.unwrap_or(now) + 3600.0;
        return Ok(Err(InviteRefusal::Quota {
            retry_after: (frees_at - now).ceil().max(1.0) as i64,
        }));
    }
    tx.execute(
        "UPDATE team_invitations SET expires_at = ?1
         WHERE team_id = ?2 AND lower(email) = lower(?3) AND expires_at > ?1",
        params![now, team_id, invitation.email],
    )?;
    let sent = SentInvitation {
        team_id,
        email: invitation.email,
        role_id: role.id,
        invited_by: actor.user_id,
        token_hash: invitation.token_hash,
    };
    record(&tx, &sent, now)?;
    tx.commit()?;
    Ok(Ok(()))
}

/// An invitation as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentInvitation<'a> {
    pub team_id: i64,
    pub email: &'a str,
    pub role_id: i64,
    pub invited_by: i64,
    pub token_hash: &'a str,
}

/// Stores an invitation sent at `created_at`; it expires four hours later.
pub fn record(
    conn: &Connection,
    invitation: &SentInvitation<'_>,
    created_at: f64,
) -> Result<(), DbError> {
    conn.execute(
        "INSERT INTO team_invitations
             (team_id, email, role_id, invited_by, created_at, expires_at, token_hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            invitation.team_id,
            invitation.email,
            invitation.role_id,
            invitation.invited_by,
            created_at,
            created_at + INVITATION_LIFETIME_SECS,
            invitation.token_hash
        ],
    )?;
    Ok(())
}

/// Team `team_id`'s pending invitations at `now` (not expired, not ended by a newer one),
/// newest first. Never the token's hash.
pub fn pending(conn: &Connection, team_id: i64, now: f64) -> Result<Vec<Invitation>, DbError> {
    let mut statement = conn.prepare_cached(
        "SELECT i.email, r.name, i.invited_by, i.created_at, i.expires_at
         FROM team_invitations i JOIN team_roles r ON r.id = i.role_id
         WHERE i.team_id = ?1 AND i.expires_at > ?2
         ORDER BY i.created_at DESC, i.id DESC",
    )?;
    let rows = statement
        .query_map(params![team_id, now], |r| {
            Ok(Invitation {
                email: r.get(0)?,
                role: r.get(1)?,
                invited_by: r.get(2)?,
                created_at: r.get(3)?,
                expires_at: r.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}
