//! The caller's webhooks: N28 list, N29 create, N30 update, N31 delete, N32 rotate the
//! secret, N33 send a test delivery (spec fleet-health §3.4). A webhook belongs to the
//! key's user; another user's reads as absent. The secret is answered only by N29 and N32.

use super::notifications::offered;
use super::webhook_fields;
use crate::auth::Caller;
use crate::body::{JsonObject, UnusedBody};
use crate::db;
use crate::db::notifications::{
    CreateWebhookRefusal, NewWebhook, UpdateWebhookRefusal, WebhookChange,
};
use crate::error::ApiError;
use crate::keys;
use crate::notifications::delivery::{self, Event, Outcome, Target};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use gpudeck_wire::lenient::Nullable;
use gpudeck_wire::notifications::{
    CreateWebhookRequest, Delivery, SecretRotated, UpdateWebhookRequest, WebhookCreated,
    WebhookDeleted, WebhookList, WebhookTested, WebhookUpdated, WebhookWithSecret, WEBHOOK_TEST,
};
use gpudeck_wire::{operations, paths, ErrorBody};

/// `user`'s webhooks by id, never with their secrets. Needs `user_read`.
#[utoipa::path(
    get,
    path = paths::WEBHOOKS,
    tag = "notifications",
    responses(
        (status = 200, description = "The caller's webhooks by id, without secrets", body = WebhookList),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<WebhookList>, ApiError> {
    caller.require_for(&operations::WEBHOOKS)?;
    let user = caller.user_id;
    let webhooks = state
        .db
        .run(move |conn| db::notifications::webhooks(conn, user))
        .await?;
    Ok(Json(WebhookList {
        success: true,
        webhooks,
    }))
}

/// A new signing secret: 32 random bytes, hex-encoded (project rule).
fn new_secret() -> String {
    hex::encode(keys::generate_secret())
}

fn duplicate_url() -> ApiError {
    ApiError::conflict("duplicate_url", "This webhook URL is already registered")
}

impl From<CreateWebhookRefusal> for ApiError {
    fn from(refusal: CreateWebhookRefusal) -> Self {
        match refusal {
            CreateWebhookRefusal::LimitReached => {
                ApiError::conflict("limit_reached", "Maximum of 4 webhooks per user")
            }
            CreateWebhookRefusal::DuplicateUrl => duplicate_url(),
        }
    }
}

/// Subscribes a URL to event types and turns on their webhook channel. The answer is one
/// of the two that carry the secret. Needs `user_write`.
#[utoipa::path(
    post,
    path = paths::WEBHOOKS,
    tag = "notifications",
    request_body = CreateWebhookRequest,
    responses(
        (status = 200, description = "The webhook with its secret (shown only here and by N32), and the keys whose webhook channel this turned on", body = WebhookCreated),
        (status = 400, description = "Malformed JSON (`invalid_json`); a name that is not a string, over 120 characters or with control characters; a URL missing, over 2048 characters, not https (http to 127.0.0.1 or localhost too in demo or test mode), without a hostname or with an invalid port; `event_types` not a list, empty, with an unknown, ambiguous or repeated type (`invalid_args`)", body = ErrorBody),
        (status = 409, description = "`limit_reached`: the caller has 4 webhooks; `duplicate_url`: the caller has registered this URL", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<WebhookCreated>, ApiError> {
    caller.require_for(&operations::CREATE_WEBHOOK)?;
    let CreateWebhookRequest {
        name,
        webhook_url,
        event_types,
    } = body.read()?;
    let name = name
        .as_ref()
        .map(webhook_fields::name)
        .transpose()?
        .flatten();
    let webhook_url = webhook_fields::url(webhook_url.as_ref(), state.config.demo_or_test_mode())?;
    let event_types =
        webhook_fields::event_types(event_types.as_ref(), &offered(&state, &caller).await?)?;
    let new = NewWebhook {
        name,
        webhook_url,
        event_types,
        secret: new_secret(),
    };
    let (user, now) = (caller.user_id, state.clock.now());
    let secret = new.secret.clone();
    let (webhook, enabled) = state
        .db
        .run(move |conn| db::notifications::create_webhook(conn, user, &new, now))
        .await??;
    Ok(Json(WebhookCreated {
        success: true,
        webhook: WebhookWithSecret {
            webhook,
            webhook_secret: Some(secret),
        },
        enabled_notification_preferences: enabled,
    }))
}

/// `{id}` of N30–N33: a positive integer.
fn webhook_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::invalid_args("Webhook id must be a positive integer"))
}

fn not_found() -> ApiError {
    ApiError::not_found("Webhook not found")
}

impl From<UpdateWebhookRefusal> for ApiError {
    fn from(refusal: UpdateWebhookRefusal) -> Self {
        match refusal {
            UpdateWebhookRefusal::NotFound => not_found(),
            UpdateWebhookRefusal::DuplicateUrl => duplicate_url(),
        }
    }
}

/// Changes a webhook's name, URL or subscriptions; the secret is kept and not answered.
/// Needs `user_write`.
#[utoipa::path(
    put,
    path = paths::WEBHOOK,
    tag = "notifications",
    params(("id" = i64, Path, minimum = 1, description = "The webhook's id", example = 1)),
    request_body = UpdateWebhookRequest,
    responses(
        (status = 200, description = "The webhook after the change (no secret), and the keys whose webhook channel this turned on", body = WebhookUpdated),
        (status = 400, description = "Malformed JSON (`invalid_json`); an id that is not a positive integer, none of name, webhook_url and event_types given, or N29's field refusals (`invalid_args`)", body = ErrorBody),
        (status = 404, description = "`Webhook not found`: none of the caller's has this id", body = ErrorBody),
        (status = 409, description = "`duplicate_url`: another of the caller's webhooks has this URL", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    body: JsonObject,
) -> Result<Json<WebhookUpdated>, ApiError> {
    caller.require_for(&operations::UPDATE_WEBHOOK)?;
    let id = webhook_id(&raw_id)?;
    let UpdateWebhookRequest {
        name,
        webhook_url,
        event_types,
    } = body.read()?;
    if name.is_none() && webhook_url.is_none() && event_types.is_none() {
        return Err(ApiError::invalid_args(
            "At least one of webhook_url, event_types, or name is required",
        ));
    }
    let name = match &name {
        None => None,
        Some(Nullable::Null) => Some(None),
        Some(Nullable::Value(name)) => Some(webhook_fields::name(name)?),
    };
    let webhook_url = webhook_url
        .as_ref()
        .map(|url| webhook_fields::url(Some(url), state.config.demo_or_test_mode()))
        .transpose()?;
    let event_types = match &event_types {
        None => None,
        Some(given) => Some(webhook_fields::event_types(
            Some(given),
            &offered(&state, &caller).await?,
        )?),
    };
    let change = WebhookChange {
        name,
        webhook_url,
        event_types,
    };
    let (user, now) = (caller.user_id, state.clock.now());
    let (webhook, enabled) = state
        .db
        .run(move |conn| db::notifications::update_webhook(conn, user, id, &change, now))
        .await??;
    Ok(Json(WebhookUpdated {
        success: true,
        webhook,
        enabled_notification_preferences: enabled,
    }))
}

/// Deletes a webhook; its pending retries stop. Preferences are unchanged. Needs
/// `user_write`.
#[utoipa::path(
    delete,
    path = paths::WEBHOOK,
    tag = "notifications",
    params(("id" = i64, Path, minimum = 1, description = "The webhook's id", example = 1)),
    request_body(content = Option<Object>, description = "None, empty, or any JSON object: ignored"),
    responses(
        (status = 200, description = "`{\"success\": true}`", body = WebhookDeleted),
        (status = 400, description = "An id that is not a positive integer (`invalid_args`), or a body that is not a JSON object", body = ErrorBody),
        (status = 404, description = "`Webhook not found`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    _body: UnusedBody,
) -> Result<Json<WebhookDeleted>, ApiError> {
    caller.require_for(&operations::DELETE_WEBHOOK)?;
    let id = webhook_id(&raw_id)?;
    let user = caller.user_id;
    let deleted = state
        .db
        .run(move |conn| db::notifications::delete_webhook(conn, user, id))
        .await?;
    if !deleted {
        return Err(not_found());
    }
    Ok(Json(WebhookDeleted { success: true }))
}

/// Replaces a webhook's secret; the old one signs nothing more. The answer is one of the
/// two that carry the secret. Needs `user_write`.
#[utoipa::path(
    post,
    path = paths::WEBHOOK_ROTATE_SECRET,
    tag = "notifications",
    params(("id" = i64, Path, minimum = 1, description = "The webhook's id", example = 1)),
    request_body(content = Option<Object>, description = "None, empty, or any JSON object: ignored"),
    responses(
        (status = 200, description = "The webhook with its new secret, shown once", body = SecretRotated),
        (status = 400, description = "An id that is not a positive integer (`invalid_args`), or a body that is not a JSON object", body = ErrorBody),
        (status = 404, description = "`Webhook not found`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn rotate_secret(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    _body: UnusedBody,
) -> Result<Json<SecretRotated>, ApiError> {
    caller.require_for(&operations::ROTATE_WEBHOOK_SECRET)?;
    let id = webhook_id(&raw_id)?;
    let (user, now, secret) = (caller.user_id, state.clock.now(), new_secret());
    let stored = secret.clone();
    let webhook = state
        .db
        .run(move |conn| db::notifications::rotate_secret(conn, user, id, &stored, now))
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(SecretRotated {
        success: true,
        webhook: WebhookWithSecret {
            webhook,
            webhook_secret: Some(secret),
        },
    }))
}

/// Sends one signed `webhook_test` delivery to the webhook's URL, whatever its
/// subscriptions, and answers after it (10 s at most). Not retried, not recorded. Needs
/// `user_write`.
#[utoipa::path(
    post,
    path = paths::WEBHOOK_TEST,
    tag = "notifications",
    params(("id" = i64, Path, minimum = 1, description = "The webhook's id", example = 1)),
    request_body(content = Option<Object>, description = "None, empty, or any JSON object: ignored"),
    responses(
        (status = 200, description = "The receiver answered 2xx", body = WebhookTested),
        (status = 400, description = "An id that is not a positive integer (`invalid_args`); `undeliverable`: the receiver answered 3xx or a 4xx other than 408 and 429, or the URL's host resolves to a non-public address", body = ErrorBody),
        (status = 404, description = "`Webhook not found`", body = ErrorBody),
        (status = 502, description = "`delivery_failed`: a time-out, a connection error, or 408, 429 or 5xx from the receiver", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn test(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    _body: UnusedBody,
) -> Result<Json<WebhookTested>, ApiError> {
    caller.require_for(&operations::TEST_WEBHOOK)?;
    let id = webhook_id(&raw_id)?;
    let user = caller.user_id;
    let (webhook, secret) = state
        .db
        .run(move |conn| db::notifications::webhook(conn, user, id))
        .await?
        .ok_or_else(not_found)?;
    let event = Event::new(&Delivery {
        event_id: delivery::event_id(),
        user_id: user,
        notif_type: WEBHOOK_TEST.to_owned(),
        subject: "Webhook test".to_owned(),
        message: format!("Test delivery for webhook {id}."),
        timestamp: state.clock.now(),
    });
    let target = Target {
        webhook_id: id,
        url: webhook.webhook_url,
        secret,
    };
    let local_allowed = state.config.demo_or_test_mode();
    match delivery::attempt(&target, &event, 1, local_allowed, &state.clock).await {
        Outcome::Delivered => Ok(Json(WebhookTested {
            success: true,
            msg: "Test webhook delivered".to_owned(),
            webhook_id: Some(id),
            event_id: Some(event.event_id),
        })),
        Outcome::Permanent => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "undeliverable",
            "Webhook URL is not deliverable",
        )),
        Outcome::Retryable => Err(ApiError::new(
            StatusCode::BAD_GATEWAY,
            "delivery_failed",
            "Webhook delivery failed",
        )),
    }
}
