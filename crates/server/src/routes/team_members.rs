//! The current team's members: N18 remove one, N19 give, replace or take a member's role.

use super::team::{actor, member_user_id, standing, success, EXCEEDS};
use crate::auth::Caller;
use crate::body::{JsonObject, UnusedBody};
use crate::db;
use crate::db::team_members::{MemberRoleRefusal, RemoveMemberRefusal, RoleChange};
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::operations::{self, Operation};
use gpudeck_wire::{
    paths, ErrorBody, Lenient, MemberRoleReplaced, MemberRoleRequest, MessageAnswer,
    ReplaceMemberRoleRequest, StatusAnswer, Whole,
};

const NOT_A_MEMBER: &str = "User is not a member of this team";

impl From<RemoveMemberRefusal> for ApiError {
    fn from(refusal: RemoveMemberRefusal) -> Self {
        match refusal {
            RemoveMemberRefusal::Standing(standing) => standing.into(),
            RemoveMemberRefusal::NotMember => ApiError::not_found(NOT_A_MEMBER),
            RemoveMemberRefusal::Owner => ApiError::forbidden("The team owner cannot be removed"),
            RemoveMemberRefusal::Yourself => ApiError::forbidden("You cannot remove yourself"),
        }
    }
}

/// Takes a member out of the caller's current team and deletes their team keys for it at
/// once (their personal keys stay). Needs `team_write`.
#[utoipa::path(
    delete,
    path = paths::TEAM_MEMBER,
    tag = "team",
    params(("id" = i64, Path, minimum = 0, description = "The member's user id (seed op 7's `id`)", example = 3)),
    request_body(content = Option<Object>, description = "Ignored: any JSON object, an empty body or none"),
    responses(
        (status = 200, description = "`{\"status\": \"success\", \"message\": \"User removed from the team.\"}`", body = StatusAnswer),
        (status = 400, description = "The id is not a user id (`invalid_args`), or a body that is not a JSON object", body = ErrorBody),
        (status = 403, description = "The team's owner, the caller itself, or a team key lacks team_write", body = ErrorBody),
        (status = 404, description = "Not an active member of the caller's team (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    _body: UnusedBody,
) -> Result<Json<StatusAnswer>, ApiError> {
    standing(&state, &caller, &operations::REMOVE_MEMBER).await?;
    let user_id = member_user_id(&raw_id)?;
    let actor = actor(&caller);
    let now = state.clock.now();
    state
        .db
        .run(move |conn| db::team_members::remove_member(conn, actor, user_id, now))
        .await??;
    Ok(Json(StatusAnswer {
        status: "success".into(),
        message: "User removed from the team.".into(),
    }))
}

impl From<MemberRoleRefusal> for ApiError {
    fn from(refusal: MemberRoleRefusal) -> Self {
        use MemberRoleRefusal as R;
        let conflict = |msg: &str| ApiError::conflict("role_conflict", msg);
        match refusal {
            R::Standing(standing) => standing.into(),
            R::RoleNotFound => ApiError::not_found("Role not found"),
            R::OwnerRole => ApiError::invalid_args("The owner role cannot be assigned or removed"),
            R::NotMember => ApiError::not_found(NOT_A_MEMBER),
            R::TargetIsOwner => ApiError::forbidden("You cannot change the team owner's roles"),
            R::Exceeds => ApiError::forbidden(EXCEEDS),
            R::AlreadyHasARole => conflict("Member already has a role; use PUT to replace it"),
            R::AlreadyHasThisRole => conflict("Member already has this role"),
            R::HasNoRole => conflict("Member has no role; use POST"),
            R::HasSeveralRoles => conflict("Member has several roles; remove extra roles first"),
            R::DoesNotHaveRole => ApiError::not_found("Member does not have that role"),
            R::OnlyRole => conflict("Cannot remove the member's only role; use PUT to replace it"),
        }
    }
}

/// The role name of N19's POST and DELETE bodies.
fn role_named(body: JsonObject) -> Result<String, ApiError> {
    match body.read::<MemberRoleRequest>()?.role {
        Some(Lenient::Valid(name)) if !name.is_empty() => Ok(name),
        _ => Err(ApiError::invalid_args("role is required")),
    }
}

/// Runs one of N19's changes on the roles of the member `raw_id` names; returns the
/// permissions of the role given or taken.
async fn change(
    state: &AppState,
    caller: &Caller,
    operation: &Operation,
    raw_id: &str,
    read_change: impl FnOnce(i64) -> Result<RoleChange, ApiError>,
) -> Result<serde_json::Value, ApiError> {
    standing(state, caller, operation).await?;
    let user_id = member_user_id(raw_id)?;
    let change = read_change(user_id)?;
    let actor = actor(caller);
    let permissions = state
        .db
        .run(move |conn| db::team_members::change_member_role(conn, actor, user_id, &change))
        .await??;
    Ok(permissions)
}

/// N19's give and take: the role is named in the body, and the answer is `{"msg": "success"}`.
async fn change_named_role(
    state: &AppState,
    caller: &Caller,
    operation: &Operation,
    raw_id: &str,
    body: JsonObject,
    named_change: fn(String) -> RoleChange,
) -> Result<Json<MessageAnswer>, ApiError> {
    change(state, caller, operation, raw_id, |_| {
        Ok(named_change(role_named(body)?))
    })
    .await?;
    Ok(success())
}

/// The answers N19's give and take share: they answer and refuse alike but for which
/// role conflicts.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Read by the OpenAPI document only.
enum RoleGivenOrTakenAnswers {
    #[response(status = 200, description = "`{\"msg\": \"success\"}`")]
    Success(MessageAnswer),
    #[response(
        status = 400,
        description = "Malformed JSON (`invalid_json`); no role, a bad user id, or the owner role (`invalid_args`)"
    )]
    InvalidArgs(ErrorBody),
    #[response(
        status = 403,
        description = "The team's owner, a role the caller does not hold, or a team key lacks team_write"
    )]
    Forbidden(ErrorBody),
}

/// The 404 of N19's give and replace (take says also when the member lacks the role).
#[derive(utoipa::IntoResponses)]
#[response(
    status = 404,
    description = "No such role or member (`not_found`), or the caller has no team (`no_team`)"
)]
#[allow(dead_code)] // Read by the OpenAPI document only.
struct RoleOrMemberNotFound(ErrorBody);

/// Gives a role to a member of the caller's current team who has none. Needs `team_write`.
#[utoipa::path(
    post,
    path = paths::TEAM_MEMBER_ROLES,
    tag = "team",
    params(("id" = i64, Path, minimum = 0, description = "The member's user id", example = 3)),
    request_body = MemberRoleRequest,
    responses(
        RoleGivenOrTakenAnswers,
        RoleOrMemberNotFound,
        (status = 409, description = "`role_conflict`: the member already has a role", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn give_role(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    body: JsonObject,
) -> Result<Json<MessageAnswer>, ApiError> {
    change_named_role(
        &state,
        &caller,
        &operations::GIVE_MEMBER_ROLE,
        &raw_id,
        body,
        RoleChange::Give,
    )
    .await
}

/// Replaces the single role of a member of the caller's current team. Needs `team_write`.
#[utoipa::path(
    put,
    path = paths::TEAM_MEMBER_ROLES,
    tag = "team",
    params(("id" = i64, Path, minimum = 0, description = "The member's user id", example = 3)),
    request_body = ReplaceMemberRoleRequest,
    responses(
        (status = 200, description = "`User role updated successfully`, with the new role's permissions", body = MemberRoleReplaced),
        (status = 400, description = "Malformed JSON (`invalid_json`); `role_id` not an integer, `member_id` not the path's, a bad user id, or the owner role (`invalid_args`)", body = ErrorBody),
        (status = 403, description = "The team's owner, a role the caller does not hold (given or taken), or a team key lacks team_write", body = ErrorBody),
        RoleOrMemberNotFound,
        (status = 409, description = "`role_conflict`: the member already has this role, has none, or has several", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn replace_role(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    body: JsonObject,
) -> Result<Json<MemberRoleReplaced>, ApiError> {
    let permissions = change(
        &state,
        &caller,
        &operations::REPLACE_MEMBER_ROLE,
        &raw_id,
        |user_id| {
            let ReplaceMemberRoleRequest { member_id, role_id } = body.read()?;
            let Some(Lenient::Valid(Whole(role_id))) = role_id else {
                return Err(ApiError::invalid_args("role_id must be an integer"));
            };
            match member_id {
                None => Ok(RoleChange::Replace(role_id)),
                Some(Lenient::Valid(Whole(id))) if id == user_id => {
                    Ok(RoleChange::Replace(role_id))
                }
                Some(_) => Err(ApiError::invalid_args("member_id does not match the path")),
            }
        },
    )
    .await?;
    Ok(Json(MemberRoleReplaced {
        success: true,
        msg: "User role updated successfully".into(),
        new_role_permissions: permissions,
    }))
}

/// Takes one of several roles from a member of the caller's current team. Needs
/// `team_write`.
#[utoipa::path(
    delete,
    path = paths::TEAM_MEMBER_ROLES,
    tag = "team",
    params(("id" = i64, Path, minimum = 0, description = "The member's user id", example = 6)),
    request_body = MemberRoleRequest,
    responses(
        RoleGivenOrTakenAnswers,
        (status = 404, description = "No such role or member, or the member lacks the role (`not_found`); or the caller has no team (`no_team`)", body = ErrorBody),
        (status = 409, description = "`role_conflict`: it is the member's only role", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn take_role(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    body: JsonObject,
) -> Result<Json<MessageAnswer>, ApiError> {
    change_named_role(
        &state,
        &caller,
        &operations::TAKE_MEMBER_ROLE,
        &raw_id,
        body,
        RoleChange::Take,
    )
    .await
}
