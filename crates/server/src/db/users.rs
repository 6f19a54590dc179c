//! Users, API keys and subaccounts.

use super::{write_tx, DbError};
use crate::keys;
use gpudeck_wire::{CreatedSubaccount, CurrentUser, KeyScope, Subaccount};
use rusqlite::{params, Connection, OptionalExtension};

/// A stored key: whose it is and which team it is scoped to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyRow {
    pub user_id: i64,
    pub team_id: Option<i64>,
}

pub fn lookup_key(conn: &Connection, key_hash: &str) -> Result<Option<KeyRow>, DbError> {
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
) -> Result<(), DbError> {
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
) -> Result<i64, DbError> {
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

/// The user `user_id` as a key made for `key_team` (none: a personal key) sees it, or
/// `None` when there is no such user.
pub fn current_user(
    conn: &Connection,
    user_id: i64,
    key_team: Option<i64>,
) -> Result<Option<CurrentUser>, DbError> {
    let key_scope = match key_team {
        None => KeyScope::Personal,
        Some(team_id) => KeyScope::Team {
            team_id,
            team_name: conn.query_row("SELECT name FROM teams WHERE id = ?1", [team_id], |r| {
                r.get(0)
            })?,
        },
    };
    Ok(conn
        .query_row(
            "SELECT id, email, username, balance, host_agreement_accepted FROM users WHERE id = ?1",
            [user_id],
            |r| {
                Ok(CurrentUser {
                    id: r.get(0)?,
                    email: r.get(1)?,
                    username: r.get(2)?,
                    balance: r.get(3)?,
                    host_agreement_accepted: r.get(4)?,
                    key_scope: Some(key_scope),
                })
            },
        )
        .optional()?)
}

/// The caller's subaccounts with their derived keys, usernames and kinds (host or client), by id.
pub fn subaccounts(
    conn: &Connection,
    secret: &[u8],
    parent_id: i64,
) -> Result<Vec<Subaccount>, DbError> {
    let mut statement = conn.prepare(
        "SELECT id, email, balance, username, host_only FROM users WHERE parent_id = ?1 ORDER BY id",
    )?;
    let rows = statement.query_map([parent_id], |r| {
        let id: i64 = r.get(0)?;
        Ok(Subaccount {
            id,
            email: r.get(1)?,
            api_key: keys::subaccount_key(secret, id),
            balance: r.get(2)?,
            username: Some(r.get(3)?),
            host_only: Some(r.get(4)?),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A subaccount to create (N20), its values already validated.
#[derive(Debug, Clone)]
pub struct NewSubaccount {
    pub email: String,
    pub username: String,
    /// The salted slow hash, never the password.
    pub password_hash: String,
    pub host_only: bool,
    pub ssh_key: Option<String>,
}

/// Why a subaccount was not created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateSubaccountRefusal {
    /// The caller is itself a subaccount.
    ParentIsSubaccount,
    /// A user with this e-mail or username exists (ignoring case).
    UserExists,
}

/// Creates a subaccount of `parent_id` with its derived key, in one IMMEDIATE transaction:
/// the uniqueness checks and the insert see the same state.
pub fn create_subaccount(
    conn: &mut Connection,
    secret: &[u8],
    parent_id: i64,
    new: &NewSubaccount,
    now: f64,
) -> Result<Result<CreatedSubaccount, CreateSubaccountRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let parent_of_parent: Option<i64> = tx.query_row(
        "SELECT parent_id FROM users WHERE id = ?1",
        [parent_id],
        |r| r.get(0),
    )?;
    if parent_of_parent.is_some() {
        return Ok(Err(CreateSubaccountRefusal::ParentIsSubaccount));
    }
    let taken: i64 = tx.query_row(
        "SELECT COUNT(*) FROM users WHERE lower(email) = lower(?1) OR lower(username) = lower(?2)",
        params![new.email, new.username],
        |r| r.get(0),
    )?;
    if taken > 0 {
        return Ok(Err(CreateSubaccountRefusal::UserExists));
    }
    let id = create_user(
        &tx,
        secret,
        &NewUser {
            id: None,
            email: &new.email,
            username: &new.username,
            fullname: "",
            balance: 0.0,
            parent_id: Some(parent_id),
        },
        now,
    )?;
    tx.execute(
        "UPDATE users SET password_hash = ?1, host_only = ?2, ssh_key = ?3 WHERE id = ?4",
        params![new.password_hash, new.host_only, new.ssh_key, id],
    )?;
    let api_key = keys::subaccount_key(secret, id);
    let key_id: i64 = tx.query_row(
        "SELECT rowid FROM api_keys WHERE key_hash = ?1",
        [keys::hash_key(&api_key)],
        |r| r.get(0),
    )?;
    tx.commit()?;
    Ok(Ok(CreatedSubaccount {
        id,
        username: new.username.clone(),
        email: new.email.clone(),
        api_key: Some(api_key),
        key_id: Some(key_id),
        balance: 0.0,
        credit: 0.0,
        host_only: new.host_only,
        ssh_key: new.ssh_key.clone(),
        email_verified: false,
        can_pay: false,
        has_billing: false,
    }))
}
