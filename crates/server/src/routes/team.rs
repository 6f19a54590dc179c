//! `GET /team/roles/{name}` and `GET /team/members`, in the caller's current team.

use crate::auth::Caller;
use crate::db;
use crate::error::ApiError;
use crate::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::{ErrorBody, PermissionGroup, TeamMember, TeamRole};

/// The role of that name in the caller's current team. Needs `team_read`.
#[utoipa::path(
    get,
    path = "/api/v0/team/roles/{name}",
    tag = "team",
    params(("name" = String, Path, description = "The role's name (percent-encoded; any text)")),
    responses(
        (status = 200, description = "The role", body = TeamRole),
        (status = 401, description = "Missing, malformed or unknown key", body = ErrorBody),
        (status = 403, description = "A team key whose role lacks team_read", body = ErrorBody),
        (status = 404, description = "No such role in the current team (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn role(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> Result<Json<TeamRole>, ApiError> {
    caller.require(PermissionGroup::TeamRead)?;
    let role = state
        .db
        .run(move |conn| {
            let team = db::team::current_team(conn, &caller)?;
            db::team::role_by_name(conn, &team, &name)
        })
        .await?;
    Ok(Json(role))
}

/// Active members of the caller's current team, by id, with their role names sorted.
/// Needs `team_read`.
#[utoipa::path(
    get,
    path = "/api/v0/team/members",
    tag = "team",
    responses(
        (status = 200, description = "Active members", body = Vec<TeamMember>),
        (status = 401, description = "Missing, malformed or unknown key", body = ErrorBody),
        (status = 403, description = "A team key whose role lacks team_read", body = ErrorBody),
        (status = 404, description = "The caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn members(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<TeamMember>>, ApiError> {
    caller.require(PermissionGroup::TeamRead)?;
    let members = state
        .db
        .run(move |conn| {
            let team = db::team::current_team(conn, &caller)?;
            db::team::members(conn, &team)
        })
        .await?;
    Ok(Json(members))
}
