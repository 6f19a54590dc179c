//! Notification types and preferences: N25 list the types, N26 read and N27 change the
//! caller's preferences (spec fleet-health §3.4). They belong to the key's user, never to
//! a team.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::notifications::ChannelSetting;
use crate::error::ApiError;
use crate::notifications::catalog::{self, Kind, CHANNELS};
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::notifications::{
    ChangePreferencesRequest, NotificationPreferences, NotificationTypes, EMAIL,
};
use gpudeck_wire::{operations, paths, ErrorBody};
use serde_json::Value;

/// The types the caller can subscribe to: host types only to one who owns a machine.
/// Needs `user_read` (project rule; none is published).
#[utoipa::path(
    get,
    path = paths::NOTIFICATION_TYPES,
    tag = "notifications",
    responses(
        (status = 200, description = "The types offered to the caller, client types first", body = NotificationTypes),
    ),
    security(("bearer" = []))
)]
pub async fn types(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<NotificationTypes>, ApiError> {
    caller.require_for(&operations::NOTIFICATION_TYPES)?;
    Ok(Json(NotificationTypes {
        success: true,
        notification_types: offered(&state, &caller)
            .await?
            .into_iter()
            .map(Kind::wire)
            .collect(),
    }))
}

/// The types offered to the caller: host types only to one who owns a machine (project
/// rule). What N27, N29 and N30 judge keys against.
pub async fn offered(state: &AppState, caller: &Caller) -> Result<Vec<&'static Kind>, ApiError> {
    let user = caller.user_id;
    let hosts = state
        .db
        .run(move |conn| db::notifications::hosts(conn, user))
        .await?;
    Ok(catalog::offered(hosts).collect())
}

/// N26's and N27's `{user_id}`: the caller's own id, or `me`. Anything else that is not
/// an integer is a 400; another user's id is checked later, as ownership.
fn path_user(raw: &str, caller: &Caller) -> Result<i64, ApiError> {
    if raw == "me" {
        return Ok(caller.user_id);
    }
    raw.parse::<i64>()
        .map_err(|_| ApiError::invalid_args("user_id must be an integer or me"))
}

fn own(user: i64, caller: &Caller) -> Result<(), ApiError> {
    if user == caller.user_id {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "you may only read or change your own notification preferences",
        ))
    }
}

/// The caller's channel settings for every type offered to them, stored or default.
/// Needs `user_read`.
#[utoipa::path(
    get,
    path = paths::NOTIFICATION_PREFS,
    tag = "notifications",
    params(("user_id" = String, Path, pattern = "^(me|[0-9]{1,18})$", description = "The caller's numeric id, or `me`", example = "me")),
    responses(
        (status = 200, description = "`{context: {slug: {email, webhooks}}}` for every type offered", body = NotificationPreferences),
        (status = 400, description = "`user_id must be an integer or me` (`invalid_args`)", body = ErrorBody),
        (status = 403, description = "Another user's id, or a team key lacks user_read", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn preferences(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<Json<NotificationPreferences>, ApiError> {
    caller.require_for(&operations::NOTIFICATION_PREFERENCES)?;
    let user = path_user(&user_id, &caller)?;
    own(user, &caller)?;
    let map = state
        .db
        .run(move |conn| db::notifications::preferences(conn, user))
        .await?;
    Ok(Json(NotificationPreferences {
        success: true,
        notification_preferences: map,
    }))
}

/// Reads N27's map as settings, refusing the first entry at fault: a type not offered to
/// the caller, a channel other than email and webhooks, a value that is not a boolean, or
/// e-mail off for a type whose e-mail is mandatory.
fn settings(map: &Value, offered: &[&'static Kind]) -> Result<Vec<ChannelSetting>, ApiError> {
    let Value::Object(contexts) = map else {
        return Err(ApiError::invalid_args(
            "notification_preferences is required and must be an object",
        ));
    };
    let mut settings = Vec::new();
    for (context, types) in contexts {
        let Value::Object(types) = types else {
            return Err(ApiError::invalid_args(format!(
                "notification_preferences.{} must be an object",
                quote(context, 64)
            )));
        };
        for (slug, channels) in types {
            let key = format!("{context}:{slug}");
            let Some(kind) = offered.iter().find(|kind| kind.key == key) else {
                return Err(ApiError::invalid_args(format!(
                    "Unknown event type: {}",
                    quote(&key, 64)
                )));
            };
            let Value::Object(channels) = channels else {
                return Err(ApiError::invalid_args(format!(
                    "{} must be an object of channels",
                    kind.key
                )));
            };
            for (channel, value) in channels {
                let Some(channel) = CHANNELS.into_iter().find(|known| known == channel) else {
                    return Err(ApiError::invalid_args(format!(
                        "Unknown channel {} for {}",
                        quote(channel, 64),
                        kind.key
                    )));
                };
                let Value::Bool(enabled) = *value else {
                    return Err(ApiError::invalid_args(format!(
                        "{}.{channel} must be true or false",
                        kind.key
                    )));
                };
                if channel == EMAIL && !enabled && kind.mandatory_email {
                    return Err(ApiError::invalid_args(format!(
                        "Email is mandatory for {}",
                        kind.key
                    )));
                }
                settings.push(ChannelSetting {
                    key: kind.key,
                    channel,
                    enabled,
                });
            }
        }
    }
    Ok(settings)
}

/// Sets the given channels of the given types; the others keep their values. Needs
/// `user_write`.
#[utoipa::path(
    put,
    path = paths::NOTIFICATION_PREFS,
    tag = "notifications",
    params(("user_id" = String, Path, pattern = "^(me|[0-9]{1,18})$", description = "The caller's numeric id, or `me`", example = "me")),
    request_body = ChangePreferencesRequest,
    responses(
        (status = 200, description = "The whole map after the change", body = NotificationPreferences),
        (status = 400, description = "Malformed JSON (`invalid_json`); `user_id` neither an integer nor `me`, the map missing or not an object, an unknown type or channel, a value that is not a boolean, or e-mail off where it is mandatory (`invalid_args`)", body = ErrorBody),
        (status = 403, description = "Another user's id, or a team key lacks user_write", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn change_preferences(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    body: JsonObject,
) -> Result<Json<NotificationPreferences>, ApiError> {
    caller.require_for(&operations::CHANGE_NOTIFICATION_PREFERENCES)?;
    let user = path_user(&user_id, &caller)?;
    let ChangePreferencesRequest {
        notification_preferences,
    } = body.read()?;
    let settings = settings(
        notification_preferences.as_ref().unwrap_or(&Value::Null),
        &offered(&state, &caller).await?,
    )?;
    own(user, &caller)?;
    let map = state
        .db
        .run(move |conn| db::notifications::change_preferences(conn, user, &settings))
        .await?;
    Ok(Json(NotificationPreferences {
        success: true,
        notification_preferences: map,
    }))
}
