//! `DELETE /users/{user_id}/templates` and its alias `DELETE /template/`.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::templates::DeleteTemplateRefusal;
use crate::error::{quote, ApiError};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::{
    paths, DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, PermissionGroup,
};

impl From<DeleteTemplateRefusal> for ApiError {
    fn from(refusal: DeleteTemplateRefusal) -> Self {
        match refusal {
            DeleteTemplateRefusal::NotFound { template_id } => {
                ApiError::not_found(format!("template {template_id} not found"))
            }
            DeleteTemplateRefusal::NotYours { template_id } => {
                ApiError::forbidden(format!("template {template_id} is not yours"))
            }
            DeleteTemplateRefusal::InUse { template_id, users } => {
                let whom = if users == 1 { "user" } else { "users" };
                ApiError::conflict(
                    "in_use",
                    format!(
                        "template {template_id} is in use by {users} other {whom}; it was not deleted"
                    ),
                )
            }
        }
    }
}

/// The answers both deletion paths share.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Read by the OpenAPI document only.
enum DeletionAnswers {
    #[response(status = 200, description = "The template was soft-deleted")]
    Deleted(DeleteTemplateResponse),
    #[response(
        status = 404,
        description = "No such template, or it is already deleted"
    )]
    NotFound(ErrorBody),
    #[response(
        status = 409,
        description = "`in_use`: other users still have an active relationship to it"
    )]
    InUse(ErrorBody),
}

/// Soft-deletes one of the caller's templates. `user_id` must be the caller's own id.
/// Needs `instance_write`.
#[utoipa::path(
    delete,
    path = paths::USER_TEMPLATES,
    tag = "accounts",
    params(("user_id" = i64, Path, example = 1, description = "The caller's own user id")),
    request_body = DeleteTemplateRequest,
    responses(
        DeletionAnswers,
        (status = 400, description = "`user_id` is not an integer, malformed JSON, or `template_id` missing or not an integer", body = ErrorBody),
        (status = 403, description = "`user_id` is not the caller, the template is someone else's, or a team key lacks instance_write", body = ErrorBody),
    ),
    security(("bearer" = [])),
    extensions(("x-team-permission" = json!("instance_write")))
)]
pub async fn delete_user_template(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    body: JsonObject,
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
    path = paths::TEMPLATE_ALIAS,
    tag = "accounts",
    request_body = DeleteTemplateRequest,
    responses(
        DeletionAnswers,
        (status = 400, description = "Malformed JSON, or `template_id` missing or not an integer", body = ErrorBody),
        (status = 403, description = "The template is someone else's, or a team key lacks instance_write", body = ErrorBody),
    ),
    security(("bearer" = [])),
    extensions(("x-team-permission" = json!("instance_write")))
)]
pub async fn delete_template(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    delete(state, caller, body).await
}

async fn delete(
    state: AppState,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    caller.require(PermissionGroup::InstanceWrite)?;
    let DeleteTemplateRequest { template_id } = body.read()?;
    let now = state.clock.now();
    state
        .db
        .run(move |conn| db::templates::delete_template(conn, caller.user_id, template_id, now))
        .await??;
    Ok(Json(DeleteTemplateResponse {
        success: true,
        msg: format!("Template {template_id} deleted"),
    }))
}
