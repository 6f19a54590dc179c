//! Users, API keys, subaccounts and templates.

use super::write_tx;
use crate::error::ApiError;
use crate::keys;
use gpudeck_wire::{CurrentUser, Subaccount};
use rusqlite::{params, Connection, OptionalExtension};

/// A stored key: whose it is and which team it is scoped to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRow {
    pub user_id: i64,
    pub team_id: Option<i64>,
}

pub fn lookup_key(conn: &Connection, key_hash: &str) -> Result<Option<KeyRow>, ApiError> {
    Ok(conn
        .query_row(
            "SELECT user_id, team_id FROM api_keys WHERE key_hash = ?1",
            [key_hash],
            |r| {
                Ok(KeyRow {
                    user_id: r.get(0)?,
                    team_id: r.get(1)?,
                })
            },
        )
        .optional()?)
}

/// Stores the hash of `key`; the key itself is never stored.
pub fn insert_key(
    conn: &Connection,
    key: &str,
    user_id: i64,
    team_id: Option<i64>,
    now: f64,
) -> Result<(), ApiError> {
    conn.execute(
        "INSERT INTO api_keys (key_hash, user_id, team_id, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![keys::hash_key(key), user_id, team_id, now],
    )?;
    Ok(())
}

/// A user to create. `id: None` lets SQLite choose.
#[derive(Debug, Clone, Default)]
pub struct NewUser<'a> {
    pub id: Option<i64>,
    pub email: &'a str,
    pub username: &'a str,
    pub fullname: &'a str,
    pub balance: f64,
    pub parent_id: Option<i64>,
}

/// Inserts a user and returns its id. A subaccount (with `parent_id`) also gets its
/// derived key registered, so that key authenticates as the subaccount.
pub fn create_user(
    conn: &Connection,
    secret: &[u8],
    user: &NewUser<'_>,
    now: f64,
) -> Result<i64, ApiError> {
    conn.execute(
        "INSERT INTO users (id, email, username, fullname, balance, parent_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            user.id,
            user.email,
            user.username,
            user.fullname,
            user.balance,
            user.parent_id,
            now
        ],
    )?;
    let id = conn.last_insert_rowid();
    if user.parent_id.is_some() {
        insert_key(conn, &keys::subaccount_key(secret, id), id, None, now)?;
    }
    Ok(id)
}

pub fn current_user(conn: &Connection, user_id: i64) -> Result<CurrentUser, ApiError> {
    conn.query_row(
        "SELECT id, email, username, balance FROM users WHERE id = ?1",
        [user_id],
        |r| {
            Ok(CurrentUser {
                id: r.get(0)?,
                email: r.get(1)?,
                username: r.get(2)?,
                balance: r.get(3)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| ApiError::unauthorized("Invalid user key"))
}

/// The caller's subaccounts with their derived keys, by id.
pub fn subaccounts(
    conn: &Connection,
    secret: &[u8],
    parent_id: i64,
) -> Result<Vec<Subaccount>, ApiError> {
    let mut statement =
        conn.prepare("SELECT id, email, balance FROM users WHERE parent_id = ?1 ORDER BY id")?;
    let rows = statement.query_map([parent_id], |r| {
        let id: i64 = r.get(0)?;
        Ok(Subaccount {
            id,
            email: r.get(1)?,
            api_key: keys::subaccount_key(secret, id),
            balance: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Soft-deletes template `template_id` of `owner_id`, unless other users still have an
/// active relationship to it. One IMMEDIATE transaction: the checks and the update see
/// the same state.
pub fn delete_template(
    conn: &mut Connection,
    owner_id: i64,
    template_id: i64,
    now: f64,
) -> Result<(), ApiError> {
    let tx = write_tx(conn)?;
    let row: Option<(i64, Option<f64>)> = tx
        .query_row(
            "SELECT owner_id, deleted_at FROM templates WHERE id = ?1",
            [template_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let not_found = || ApiError::not_found(format!("template {template_id} not found"));
    match row {
        None | Some((_, Some(_))) => return Err(not_found()),
        Some((owner, None)) if owner != owner_id => {
            return Err(ApiError::forbidden(format!(
                "template {template_id} is not yours"
            )))
        }
        Some(_) => {}
    }
    let users: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT user_id) FROM template_usage
         WHERE template_id = ?1 AND active = 1 AND user_id != ?2",
        params![template_id, owner_id],
        |r| r.get(0),
    )?;
    if users > 0 {
        let whom = if users == 1 { "user" } else { "users" };
        return Err(ApiError::conflict(
            "in_use",
            format!("template {template_id} is in use by {users} other {whom}; it was not deleted"),
        ));
    }
    tx.execute(
        "UPDATE templates SET deleted_at = ?1 WHERE id = ?2",
        params![now, template_id],
    )?;
    tx.commit()?;
    Ok(())
}
