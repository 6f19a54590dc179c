//! `GET /team/roles/{name}` and `GET /team/members`, in the caller's current team, and
//! what the team operations N13–N19 share: the caller's standing in its current team.

use crate::auth::{lacks_permission, Caller};
use crate::config::MAX_ROLE_NAME_CHARS;
use crate::db;
use crate::db::team::{Actor, Standing, TeamContext};
use crate::error::ApiError;
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use gpudeck_wire::operations::{self, Operation};
use gpudeck_wire::{paths, ErrorBody, MessageAnswer, TeamMember, TeamRole};

/// §1.4's refusal of a role that exceeds the caller (N14 create role, N15 update role, N17
/// invite member, N19 change a member's roles).
pub const EXCEEDS: &str = "you cannot grant or remove permissions you do not hold";

impl From<Standing> for ApiError {
    fn from(standing: Standing) -> Self {
        match standing {
            Standing::NoTeam => no_team(),
            Standing::Lacks(group) => lacks_permission(group),
        }
    }
}

/// The caller as the team queries know it.
pub fn actor(caller: &Caller) -> Actor {
    Actor {
        user_id: caller.user_id,
        key_team_id: caller.team_id,
    }
}

/// The caller's current team, if it holds the group `operation` needs there (§1.4: a team key's roles, a
/// personal key everything in a team its user owns and its member's roles elsewhere).
/// Checked before the operation's inputs; each write checks again in its transaction.
pub async fn standing(
    state: &AppState,
    caller: &Caller,
    operation: &Operation,
) -> Result<TeamContext, ApiError> {
    caller.require_for(operation)?;
    let group = operation
        .permission
        .expect("every team operation of the table names its permission group");
    let actor = actor(caller);
    let context = state
        .db
        .run(move |conn| db::team::acting_in_team(conn, actor, group))
        .await??;
    Ok(context)
}

/// `{"msg": "success"}`: N14's answer and N19's to POST and DELETE.
pub fn success() -> Json<MessageAnswer> {
    Json(MessageAnswer {
        success: None,
        msg: "success".into(),
    })
}

/// A user id in the path (N18 remove member, N19): decimal digits.
pub fn member_user_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|_| raw.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| ApiError::invalid_args("Missing team member's user id"))
}

/// 404 `no_team`: the caller belongs to no team.
fn no_team() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_team",
        "you are not a member of any team",
    )
}

/// The role of that name in the caller's current team. Needs `team_read`.
#[utoipa::path(
    get,
    path = paths::TEAM_ROLE,
    tag = "team",
    params(("name" = String, Path, max_length = 200, example = "owner", description = "The role's name (percent-encoded; any text up to 200 characters)")),
    responses(
        (status = 200, description = "The role", body = TeamRole),
        (status = 400, description = "The name is longer than 200 characters", body = ErrorBody),
        (status = 404, description = "No such role in the current team (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn role(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
) -> Result<Json<TeamRole>, ApiError> {
    let team = standing(&state, &caller, &operations::TEAM_ROLE)
        .await?
        .team;
    let length = name.chars().count();
    if length > MAX_ROLE_NAME_CHARS {
        return Err(ApiError::invalid_args(format!(
            "a role name has at most {MAX_ROLE_NAME_CHARS} characters; this one has {length}"
        )));
    }
    let wanted = name.clone();
    let team_id = team.id;
    let role = state
        .db
        .run(move |conn| db::team::role_by_name(conn, team_id, &wanted))
        .await?;
    role.map(Json).ok_or_else(|| {
        ApiError::not_found(format!(
            "no role named \"{}\" in team {}",
            quote(&name, 64),
            team.name
        ))
    })
}

/// Active members of the caller's current team, by id, with their role names sorted.
/// Needs `team_read`.
#[utoipa::path(
    get,
    path = paths::TEAM_MEMBERS,
    tag = "team",
    responses(
        (status = 200, description = "Active members", body = Vec<TeamMember>),
        (status = 404, description = "The caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn members(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<TeamMember>>, ApiError> {
    let team_id = standing(&state, &caller, &operations::TEAM_MEMBERS)
        .await?
        .team
        .id;
    let members = state
        .db
        .run(move |conn| db::team::members(conn, team_id))
        .await?;
    Ok(Json(members))
}
