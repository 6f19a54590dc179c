//! `GET /users/current`.

use crate::auth::Caller;
use crate::db;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use gpudeck_wire::{CurrentUser, ErrorBody};

/// Who the key belongs to. Needs no team permission.
#[utoipa::path(
    get,
    path = "/api/v0/users/current",
    tag = "accounts",
    responses(
        (status = 200, description = "The key's user", body = CurrentUser),
        (status = 401, description = "Missing, malformed or unknown key", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn current(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<CurrentUser>, ApiError> {
    let user = state
        .db
        .run(move |conn| db::users::current_user(conn, caller.user_id))
        .await?;
    Ok(Json(user))
}
