//! `GET /users/current`.

use crate::auth::Caller;
use crate::db;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use gpudeck_wire::{paths, CurrentUser};

/// Who the key belongs to, and whether it is the user's own key or a team's. Needs no
/// team permission.
#[utoipa::path(
    get,
    path = paths::CURRENT_USER,
    tag = "accounts",
    responses((status = 200, description = "The key's user", body = CurrentUser)),
    security(("bearer" = []))
)]
pub async fn current(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<CurrentUser>, ApiError> {
    let user = state
        .db
        .run(move |conn| db::users::current_user(conn, caller.user_id, caller.team_id))
        .await?;
    // The key was found a moment ago; its user can only be gone if deleted since.
    user.map(Json)
        .ok_or_else(|| ApiError::unauthorized("Invalid user key"))
}
