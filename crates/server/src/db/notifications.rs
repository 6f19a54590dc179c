//! Notification preferences and webhooks (N25–N33). Both belong to a user; every query
//! takes the caller's user id, so another user's webhook reads as absent.

use super::{write_tx, DbError};
use crate::notifications::catalog::{self, Kind, CHANNELS};
use crate::notifications::WEBHOOK_LIMIT;
use gpudeck_wire::notifications::{Channels, PreferenceMap, Webhook, WEBHOOKS};
use rusqlite::{params, Connection, OptionalExtension, Row};
use std::collections::HashMap;

/// Whether `user` owns a machine: only then are host types offered (project rule).
pub fn hosts(conn: &Connection, user: i64) -> Result<bool, DbError> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM machines WHERE owner_id = ?1)",
        [user],
        |r| r.get(0),
    )?)
}

/// Stored channel values of `user`, by (key, channel).
fn stored(conn: &Connection, user: i64) -> Result<HashMap<(String, String), bool>, DbError> {
    let mut statement = conn.prepare_cached(
        "SELECT key, channel, enabled FROM notification_preferences WHERE user_id = ?1",
    )?;
    let rows = statement.query_map([user], |r| Ok(((r.get(0)?, r.get(1)?), r.get(2)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A channel's value for `kind`: stored, else the type's default.
fn channel_on(stored: &HashMap<(String, String), bool>, kind: &Kind, channel: &str) -> bool {
    stored
        .get(&(kind.key.to_owned(), channel.to_owned()))
        .copied()
        .or_else(|| kind.default_channel(channel))
        .unwrap_or(false)
}

/// N26: an entry for every type offered to `user`, its stored values or its defaults.
pub fn preferences(conn: &Connection, user: i64) -> Result<PreferenceMap, DbError> {
    let stored = stored(conn, user)?;
    let mut map = PreferenceMap::new();
    for kind in catalog::offered(hosts(conn, user)?) {
        let channels: Channels = CHANNELS
            .iter()
            .map(|&channel| (channel.to_owned(), channel_on(&stored, kind, channel)))
            .collect();
        map.entry(kind.context().to_owned())
            .or_default()
            .insert(kind.slug().to_owned(), channels);
    }
    Ok(map)
}

/// One channel of one type set to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelSetting {
    pub key: &'static str,
    pub channel: &'static str,
    pub enabled: bool,
}

fn set_channel(conn: &Connection, user: i64, setting: &ChannelSetting) -> Result<(), DbError> {
    conn.execute(
        "INSERT INTO notification_preferences (user_id, key, channel, enabled)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (user_id, key, channel) DO UPDATE SET enabled = excluded.enabled",
        params![user, setting.key, setting.channel, setting.enabled],
    )?;
    Ok(())
}

/// N27: sets each given channel (the others keep their values) in one transaction and
/// returns the whole map after the change.
pub fn change_preferences(
    conn: &mut Connection,
    user: i64,
    settings: &[ChannelSetting],
) -> Result<PreferenceMap, DbError> {
    let tx = write_tx(conn)?;
    for setting in settings {
        set_channel(&tx, user, setting)?;
    }
    let map = preferences(&tx, user)?;
    tx.commit()?;
    Ok(map)
}

/// Turns the webhook channel on for each of `keys` where it is off; returns those it
/// turned on, in the order given (N29 and N30's `enabled_notification_preferences`).
fn enable_webhooks(
    conn: &Connection,
    user: i64,
    keys: &[&'static Kind],
) -> Result<Vec<String>, DbError> {
    let stored = stored(conn, user)?;
    let mut enabled = Vec::new();
    for kind in keys {
        if !channel_on(&stored, kind, WEBHOOKS) {
            set_channel(
                conn,
                user,
                &ChannelSetting {
                    key: kind.key,
                    channel: WEBHOOKS,
                    enabled: true,
                },
            )?;
            enabled.push(kind.key.to_owned());
        }
    }
    Ok(enabled)
}

const WEBHOOK_COLUMNS: &str =
    "id, user_id, name, webhook_url, event_types, created_at, updated_at, secret";

/// A webhook row and its secret (the last column of [`WEBHOOK_COLUMNS`]).
fn webhook_row(row: &Row<'_>) -> rusqlite::Result<(Webhook, String, String)> {
    Ok((
        Webhook {
            id: row.get(0)?,
            user_id: row.get(1)?,
            name: row.get(2)?,
            webhook_url: row.get(3)?,
            event_types: Vec::new(),
            created_at: row.get(5)?,
            updated_at: row.get(6)?,
        },
        row.get(4)?,
        row.get(7)?,
    ))
}

/// A stored webhook with its subscriptions read, and its secret.
fn read_webhook(
    (mut webhook, event_types, secret): (Webhook, String, String),
) -> Result<(Webhook, String), DbError> {
    webhook.event_types = serde_json::from_str(&event_types)?;
    Ok((webhook, secret))
}

/// `user`'s webhooks by id, with their secrets.
fn with_secrets(conn: &Connection, user: i64) -> Result<Vec<(Webhook, String)>, DbError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = ?1 ORDER BY id"
    ))?;
    let rows = statement.query_map([user], webhook_row)?;
    rows.map(|row| read_webhook(row?)).collect()
}

/// N28: `user`'s webhooks by id, without secrets.
pub fn webhooks(conn: &Connection, user: i64) -> Result<Vec<Webhook>, DbError> {
    Ok(with_secrets(conn, user)?
        .into_iter()
        .map(|(webhook, _)| webhook)
        .collect())
}

/// `user`'s webhook `id` with its secret, if it is theirs.
pub fn webhook(
    conn: &Connection,
    user: i64,
    id: i64,
) -> Result<Option<(Webhook, String)>, DbError> {
    let row = conn
        .query_row(
            &format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?1 AND user_id = ?2"),
            [id, user],
            webhook_row,
        )
        .optional()?;
    row.map(read_webhook).transpose()
}

/// `user`'s webhooks subscribed to `key`, with their secrets, when the user's webhook
/// channel for `key` is on (spec fleet-health §3.5).
pub fn subscribers(
    conn: &Connection,
    user: i64,
    kind: &Kind,
) -> Result<Vec<(Webhook, String)>, DbError> {
    if !channel_on(&stored(conn, user)?, kind, WEBHOOKS) {
        return Ok(Vec::new());
    }
    Ok(with_secrets(conn, user)?
        .into_iter()
        .filter(|(webhook, _)| webhook.event_types.iter().any(|key| key == kind.key))
        .collect())
}

/// Why N29 refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateWebhookRefusal {
    LimitReached,
    DuplicateUrl,
}

/// A webhook as N29 creates it, validated.
#[derive(Debug, Clone)]
pub struct NewWebhook {
    pub name: Option<String>,
    pub webhook_url: String,
    pub event_types: Vec<&'static Kind>,
    pub secret: String,
}

fn keys_json(kinds: &[&'static Kind]) -> String {
    serde_json::Value::from(kinds.iter().map(|kind| kind.key).collect::<Vec<_>>()).to_string()
}

fn url_taken(conn: &Connection, user: i64, url: &str, other_than: i64) -> Result<bool, DbError> {
    Ok(conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM webhooks
                        WHERE user_id = ?1 AND webhook_url = ?2 AND id != ?3)",
        params![user, url, other_than],
        |r| r.get(0),
    )?)
}

/// N29: inserts the webhook and turns on the webhook channel of its keys, in one
/// transaction; the limit and the URL are checked inside it, so two requests at once
/// cannot both pass them.
pub fn create_webhook(
    conn: &mut Connection,
    user: i64,
    new: &NewWebhook,
    now: f64,
) -> Result<Result<(Webhook, Vec<String>), CreateWebhookRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let count: i64 = tx.query_row(
        "SELECT COUNT(*) FROM webhooks WHERE user_id = ?1",
        [user],
        |r| r.get(0),
    )?;
    if count >= WEBHOOK_LIMIT {
        return Ok(Err(CreateWebhookRefusal::LimitReached));
    }
    if url_taken(&tx, user, &new.webhook_url, 0)? {
        return Ok(Err(CreateWebhookRefusal::DuplicateUrl));
    }
    tx.execute(
        "INSERT INTO webhooks (user_id, name, webhook_url, event_types, secret, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        params![
            user,
            new.name,
            new.webhook_url,
            keys_json(&new.event_types),
            new.secret,
            now
        ],
    )?;
    let id = tx.last_insert_rowid();
    let enabled = enable_webhooks(&tx, user, &new.event_types)?;
    let (webhook, _) = webhook(&tx, user, id)?.ok_or(rusqlite::Error::QueryReturnedNoRows)?;
    tx.commit()?;
    Ok(Ok((webhook, enabled)))
}

/// Why N30 refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateWebhookRefusal {
    NotFound,
    DuplicateUrl,
}

/// N30's changes, validated; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct WebhookChange {
    /// `Some(None)` clears the name.
    pub name: Option<Option<String>>,
    pub webhook_url: Option<String>,
    pub event_types: Option<Vec<&'static Kind>>,
}

/// N30: changes the webhook and turns on the webhook channel of newly subscribed keys.
pub fn update_webhook(
    conn: &mut Connection,
    user: i64,
    id: i64,
    change: &WebhookChange,
    now: f64,
) -> Result<Result<(Webhook, Vec<String>), UpdateWebhookRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let Some((before, _)) = webhook(&tx, user, id)? else {
        return Ok(Err(UpdateWebhookRefusal::NotFound));
    };
    if let Some(url) = &change.webhook_url {
        if url_taken(&tx, user, url, id)? {
            return Ok(Err(UpdateWebhookRefusal::DuplicateUrl));
        }
    }
    let name = change.name.clone().unwrap_or(before.name);
    let url = change.webhook_url.clone().unwrap_or(before.webhook_url);
    let mut enabled = Vec::new();
    let event_types = match &change.event_types {
        Some(kinds) => {
            let added: Vec<&'static Kind> = kinds
                .iter()
                .copied()
                .filter(|kind| !before.event_types.iter().any(|key| key == kind.key))
                .collect();
            enabled = enable_webhooks(&tx, user, &added)?;
            keys_json(kinds)
        }
        None => serde_json::Value::from(before.event_types).to_string(),
    };
    tx.execute(
        "UPDATE webhooks SET name = ?1, webhook_url = ?2, event_types = ?3, updated_at = ?4
         WHERE id = ?5",
        params![name, url, event_types, now, id],
    )?;
    let (webhook, _) = webhook(&tx, user, id)?.ok_or(rusqlite::Error::QueryReturnedNoRows)?;
    tx.commit()?;
    Ok(Ok((webhook, enabled)))
}

/// N31: deletes `user`'s webhook `id`; false when there is none.
pub fn delete_webhook(conn: &mut Connection, user: i64, id: i64) -> Result<bool, DbError> {
    let tx = write_tx(conn)?;
    let deleted = tx.execute(
        "DELETE FROM webhooks WHERE id = ?1 AND user_id = ?2",
        [id, user],
    )?;
    tx.commit()?;
    Ok(deleted == 1)
}

/// N32: replaces the secret; `None` when `user` has no webhook `id`.
pub fn rotate_secret(
    conn: &mut Connection,
    user: i64,
    id: i64,
    secret: &str,
    now: f64,
) -> Result<Option<Webhook>, DbError> {
    let tx = write_tx(conn)?;
    let changed = tx.execute(
        "UPDATE webhooks SET secret = ?1, updated_at = ?2 WHERE id = ?3 AND user_id = ?4",
        params![secret, now, id, user],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    let found = webhook(&tx, user, id)?.map(|(webhook, _)| webhook);
    tx.commit()?;
    Ok(found)
}
