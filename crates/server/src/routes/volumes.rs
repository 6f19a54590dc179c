//! `PUT /volumes`: accept a volume ask.

use crate::auth::Caller;
use crate::body::{required_int, JsonObject};
use crate::db;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use gpudeck_wire::{AcceptVolumeRequest, AcceptVolumeResponse, ErrorBody, PermissionGroup};

/// Creates a volume of `size` GB on ask `id` for the caller. Needs `instance_write`.
#[utoipa::path(
    put,
    path = "/api/v0/volumes",
    tag = "volumes",
    request_body = AcceptVolumeRequest,
    responses(
        (status = 200, description = "The volume was created; `volume_name` is `V.<id>`", body = AcceptVolumeResponse),
        (status = 400, description = "Malformed JSON (`invalid_json`), or `id`/`size` missing or not an integer (`invalid_args`)", body = ErrorBody),
        (status = 401, description = "Missing, malformed or unknown key", body = ErrorBody),
        (status = 403, description = "A team key whose role lacks instance_write", body = ErrorBody),
        (status = 404, description = "No such volume ask", body = ErrorBody),
        (status = 409, description = "`insufficient_capacity`: the ask has less space left than asked", body = ErrorBody),
        (status = 413, description = "Body larger than the limit", body = ErrorBody),
        (status = 422, description = "`size` is below 1 GB", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn accept(
    State(state): State<AppState>,
    caller: Caller,
    JsonObject(body): JsonObject,
) -> Result<Json<AcceptVolumeResponse>, ApiError> {
    caller.require(PermissionGroup::InstanceWrite)?;
    let ask_id = required_int(&body, "id")?;
    let size = required_int(&body, "size")?;
    if size < 1 {
        return Err(ApiError::unprocessable(format!(
            "size must be at least 1 GB; {size} was given"
        )));
    }
    let now = state.clock.now();
    let volume_name = state
        .db
        .run(move |conn| db::volumes::accept(conn, caller.user_id, ask_id, size, now))
        .await?;
    Ok(Json(AcceptVolumeResponse {
        success: true,
        volume_name,
    }))
}
