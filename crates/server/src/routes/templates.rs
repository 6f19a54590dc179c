//! `DELETE /users/{user_id}/templates` and its alias `DELETE /template/`.

use crate::auth::Caller;
use crate::body::{required_int, JsonObject};
use crate::db;
use crate::error::{quote, ApiError};
use crate::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::{DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, PermissionGroup};

/// Soft-deletes one of the caller's templates. `user_id` must be the caller's own id.
/// Needs `instance_write`.
#[utoipa::path(
    delete,
    path = "/api/v0/users/{user_id}/templates",
    tag = "accounts",
    params(("user_id" = i64, Path, example = 1, description = "The caller's own user id")),
    request_body = DeleteTemplateRequest,
    responses(
        (status = 200, description = "The template was soft-deleted", body = DeleteTemplateResponse),
        (status = 400, description = "`user_id` is not an integer, malformed JSON, or `template_id` missing or not an integer", body = ErrorBody),
        (status = 401, description = "Missing, malformed or unknown key", body = ErrorBody),
        (status = 403, description = "`user_id` is not the caller, the template is someone else's, or a team key lacks instance_write", body = ErrorBody),
        (status = 404, description = "No such template, or it is already deleted", body = ErrorBody),
        (status = 409, description = "`in_use`: other users still have an active relationship to it", body = ErrorBody),
        (status = 413, description = "Body larger than the limit", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete_user_template(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    JsonObject(body): JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    let user_id: i64 = user_id.parse().map_err(|_| {
        ApiError::invalid_args(format!(
            "user_id must be an integer, not \"{}\"",
            quote(&user_id, 32)
        ))
    })?;
    if user_id != caller.user_id {
        return Err(ApiError::forbidden(format!(
            "user_id {user_id} is not you; you can only delete your own templates"
        )));
    }
    delete(state, caller, body).await
}

/// The alias the official client uses: the same deletion, for the caller.
#[utoipa::path(
    delete,
    path = "/api/v0/template",
    tag = "accounts",
    request_body = DeleteTemplateRequest,
    responses(
        (status = 200, description = "The template was soft-deleted", body = DeleteTemplateResponse),
        (status = 400, description = "Malformed JSON, or `template_id` missing or not an integer", body = ErrorBody),
        (status = 401, description = "Missing, malformed or unknown key", body = ErrorBody),
        (status = 403, description = "The template is someone else's, or a team key lacks instance_write", body = ErrorBody),
        (status = 404, description = "No such template, or it is already deleted", body = ErrorBody),
        (status = 409, description = "`in_use`: other users still have an active relationship to it", body = ErrorBody),
        (status = 413, description = "Body larger than the limit", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete_template(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    delete(state, caller, body).await
}

async fn delete(
    state: AppState,
    caller: Caller,
    body: serde_json::Map<String, serde_json::Value>,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    caller.require(PermissionGroup::InstanceWrite)?;
    let template_id = required_int(&body, "template_id")?;
    let now = state.clock.now();
    state
        .db
        .run(move |conn| db::users::delete_template(conn, caller.user_id, template_id, now))
        .await?;
    Ok(Json(DeleteTemplateResponse {
        success: true,
        msg: format!("Template {template_id} deleted"),
    }))
}
