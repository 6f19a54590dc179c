//! `PUT /volumes`: accept a volume ask.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::volumes::AcceptVolumeRefusal;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use gpudeck_wire::{paths, AcceptVolumeRequest, AcceptVolumeResponse, ErrorBody, PermissionGroup};

impl From<AcceptVolumeRefusal> for ApiError {
    fn from(refusal: AcceptVolumeRefusal) -> Self {
        match refusal {
            AcceptVolumeRefusal::AskNotFound { ask_id } => {
                ApiError::not_found(format!("volume ask {ask_id} not found"))
            }
            AcceptVolumeRefusal::InsufficientCapacity {
                ask_id,
                left,
                asked,
            } => ApiError::conflict(
                "insufficient_capacity",
                format!("volume ask {ask_id} has {left} GB left; {asked} GB asked"),
            ),
        }
    }
}

/// Creates a volume of `size` GB on ask `id` for the caller. Needs `instance_write`.
#[utoipa::path(
    put,
    path = paths::VOLUMES,
    tag = "volumes",
    request_body = AcceptVolumeRequest,
    responses(
        (status = 200, description = "The volume was created; `volume_name` is `V.<id>`", body = AcceptVolumeResponse),
        (status = 400, description = "Malformed JSON (`invalid_json`), or `id`/`size` missing or not an integer (`invalid_args`)", body = ErrorBody),
        (status = 404, description = "No such volume ask", body = ErrorBody),
        (status = 409, description = "`insufficient_capacity`: the ask has less space left than asked", body = ErrorBody),
        (status = 422, description = "`size` is below 1 GB", body = ErrorBody),
    ),
    security(("bearer" = [])),
    extensions(("x-team-permission" = json!("instance_write")))
)]
pub async fn accept(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<AcceptVolumeResponse>, ApiError> {
    caller.require(PermissionGroup::InstanceWrite)?;
    let AcceptVolumeRequest { id: ask_id, size } = body.read()?;
    if size < 1 {
        return Err(ApiError::unprocessable(format!(
            "size must be at least 1 GB; {size} was given"
        )));
    }
    let now = state.clock.now();
    let volume_id = state
        .db
        .run(move |conn| db::volumes::accept(conn, caller.user_id, ask_id, size, now))
        .await??;
    Ok(Json(AcceptVolumeResponse {
        success: true,
        volume_name: format!("V.{volume_id}"),
    }))
}
