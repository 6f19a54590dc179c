//! `GET /team/roles/{name}` and `GET /team/members`, in the caller's current team.

use crate::auth::Caller;
use crate::config::MAX_ROLE_NAME_CHARS;
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
    params(("name" = String, Path, max_length = 200, example = "owner", description = "The role's name (percent-encoded; any text up to 200 characters)")),
    responses(
        (status = 200, description = "The role", body = TeamRole),
        (status = 400, description = "The name is longer than 200 characters", body = ErrorBody),
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
    let length = name.chars().count();
    if length > MAX_ROLE_NAME_CHARS {
        return Err(ApiError::invalid_args(format!(
            "a role name has at most {MAX_ROLE_NAME_CHARS} characters; this one has {length}"
        )));
    }
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
