//! The current team's roles: N13 list, N14 create, N15 update (by numeric id) and N16
//! remove (by name). N15 and N16 share seed op 6's path `team/roles/{name}`.

use super::team::{actor, standing, success, EXCEEDS};
use crate::auth::Caller;
use crate::body::{JsonObject, OptionalObject};
use crate::config::{MAX_ROLE_NAME_CHARS, ROLE_NAME_CHARS};
use crate::db;
use crate::db::team::RoleRef;
use crate::db::team_roles::{CreateRoleRefusal, RemoveRoleRefusal, UpdateRoleRefusal};
use crate::error::ApiError;
use crate::holding::{check_permissions, PermissionsRefusal};
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{
    paths, ErrorBody, Lenient, MessageAnswer, RemoveRoleRequest, RoleRequest, StatusAnswer,
    TeamRoleEntry, Whole,
};
use serde_json::Value;

/// Every assignable role of the caller's current team (never the owner role), by id.
/// Needs `team_read`.
#[utoipa::path(
    get,
    path = paths::TEAM_ROLES_FULL,
    tag = "team",
    responses(
        (status = 200, description = "The roles, by id, without the owner role", body = Vec<TeamRoleEntry>),
        (status = 404, description = "The caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<TeamRoleEntry>>, ApiError> {
    let context = standing(&state, &caller, &operations::TEAM_ROLES).await?;
    let roles = state
        .db
        .run(move |conn| db::team::assignable_roles(conn, context.team.id))
        .await?;
    Ok(Json(roles))
}

const MISSING_NAME_OR_PERMISSIONS: &str = "Missing name or permissions parameter";
const NAME_LENGTH: &str = "role name must be 2 to 50 characters";

/// A role name as N14 and N15 take it: a string of 2–50 characters, without control
/// characters or surrounding spaces.
fn role_name(name: &Lenient<String>) -> Result<&str, ApiError> {
    let Lenient::Valid(name) = name else {
        return Err(ApiError::invalid_args(NAME_LENGTH));
    };
    if !ROLE_NAME_CHARS.contains(&name.chars().count()) {
        return Err(ApiError::invalid_args(NAME_LENGTH));
    }
    if name.chars().any(char::is_control) || name.trim() != name {
        return Err(ApiError::invalid_args(
            "role name must not contain control characters or leading or trailing spaces",
        ));
    }
    Ok(name)
}

/// A `permissions` object as N14 and N15 take it.
fn role_permissions(permissions: &Value) -> Result<(), ApiError> {
    check_permissions(permissions).map_err(|refusal| match refusal {
        PermissionsRefusal::NotAnObject => ApiError::invalid_args("permissions must be an object"),
        PermissionsRefusal::UnknownGroup(group) => {
            ApiError::invalid_args(format!("unknown permission group {}", quote(&group, 64)))
        }
    })
}

fn duplicate_name(name: &str) -> ApiError {
    ApiError::conflict(
        "duplicate_name",
        format!(
            "a role named {} already exists in this team",
            quote(name, 64)
        ),
    )
}

impl From<CreateRoleRefusal> for ApiError {
    fn from(refusal: CreateRoleRefusal) -> Self {
        match refusal {
            CreateRoleRefusal::Standing(standing) => standing.into(),
            CreateRoleRefusal::Exceeds => ApiError::forbidden(EXCEEDS),
            CreateRoleRefusal::DuplicateName(name) => duplicate_name(&name),
        }
    }
}

/// Adds a custom role to the caller's current team. Needs `team_write`.
#[utoipa::path(
    post,
    path = paths::TEAM_ROLES,
    tag = "team",
    request_body = RoleRequest,
    responses(
        (status = 200, description = "The role was created: `{\"msg\": \"success\"}`", body = MessageAnswer),
        (status = 400, description = "Malformed JSON (`invalid_json`); name or permissions missing, a name not of 2–50 characters or with control characters or surrounding spaces, permissions not an object, an unknown permission group (`invalid_args`)", body = ErrorBody),
        (status = 403, description = "The role would grant what the caller does not hold, or a team key lacks team_write", body = ErrorBody),
        (status = 404, description = "The caller has no team (`no_team`)", body = ErrorBody),
        (status = 409, description = "`duplicate_name`: the team has a role of that name", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<MessageAnswer>, ApiError> {
    standing(&state, &caller, &operations::CREATE_ROLE).await?;
    let RoleRequest { name, permissions } = body.read()?;
    let (Some(name), Some(permissions)) = (name, permissions) else {
        return Err(ApiError::invalid_args(MISSING_NAME_OR_PERMISSIONS));
    };
    let name = role_name(&name)?.to_owned();
    role_permissions(&permissions)?;
    let actor = actor(&caller);
    state
        .db
        .run(move |conn| db::team_roles::create_role(conn, actor, &name, &permissions))
        .await??;
    Ok(success())
}

impl From<UpdateRoleRefusal> for ApiError {
    fn from(refusal: UpdateRoleRefusal) -> Self {
        match refusal {
            UpdateRoleRefusal::Standing(standing) => standing.into(),
            UpdateRoleRefusal::NotFound { role_id } => {
                ApiError::not_found(format!("Role with id {role_id} not found."))
            }
            UpdateRoleRefusal::OwnerRole => ApiError::forbidden("You cannot update the owner role"),
            UpdateRoleRefusal::KeyInUse => {
                ApiError::forbidden("You cannot modify the permissions of the key in use")
            }
            UpdateRoleRefusal::Exceeds => ApiError::forbidden(EXCEEDS),
            UpdateRoleRefusal::DuplicateName(name) => duplicate_name(&name),
        }
    }
}

/// Renames a role of the caller's current team or replaces its permissions; `{name}` is
/// the role's numeric id here. Needs `team_write`.
#[utoipa::path(
    put,
    path = paths::TEAM_ROLE,
    tag = "team",
    params(("name" = i64, Path, minimum = 0, description = "The role's numeric id (N15 shares this path with seed op 6, where it is the name)", example = 4)),
    request_body = RoleRequest,
    responses(
        (status = 200, description = "`Successfully Updated Team Role For <name>` (the new name), or `No changes made to team role <name>`", body = MessageAnswer),
        (status = 400, description = "Malformed JSON (`invalid_json`); an id that is not an integer, neither name nor permissions given, or N14's refusals (`invalid_args`)", body = ErrorBody),
        (status = 403, description = "The owner role; a role the caller holds whose permissions would change; permissions the caller does not hold; or a team key lacks team_write", body = ErrorBody),
        (status = 404, description = "No role of the caller's team has that id (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
        (status = 409, description = "`duplicate_name`: the team has another role of that name", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw_id): Path<String>,
    body: JsonObject,
) -> Result<Json<MessageAnswer>, ApiError> {
    standing(&state, &caller, &operations::UPDATE_ROLE).await?;
    let role_id: i64 = raw_id
        .parse()
        .map_err(|_| ApiError::invalid_args("Role id must be an integer"))?;
    let RoleRequest { name, permissions } = body.read()?;
    if name.is_none() && permissions.is_none() {
        return Err(ApiError::invalid_args("name or permissions is required"));
    }
    let name = name.as_ref().map(role_name).transpose()?.map(str::to_owned);
    if let Some(permissions) = &permissions {
        role_permissions(permissions)?;
    }
    let actor = actor(&caller);
    let update = state
        .db
        .run(move |conn| {
            db::team_roles::update_role(conn, actor, role_id, name.as_deref(), permissions.as_ref())
        })
        .await??;
    let msg = if update.changed {
        format!("Successfully Updated Team Role For {}", update.name)
    } else {
        format!("No changes made to team role {}", update.name)
    };
    Ok(Json(MessageAnswer {
        success: Some(true),
        msg,
    }))
}

impl From<RemoveRoleRefusal> for ApiError {
    fn from(refusal: RemoveRoleRefusal) -> Self {
        match refusal {
            RemoveRoleRefusal::Standing(standing) => standing.into(),
            RemoveRoleRefusal::NotFound => ApiError::not_found("Role not found"),
            RemoveRoleRefusal::OwnerRole => ApiError::forbidden("Cannot delete the owner role"),
            RemoveRoleRefusal::InUse { holders } => {
                ApiError::conflict(
                    "in_use",
                    format!(
                    "Cannot delete role if there are team members with the role ({holders} {} it)",
                    if holders == 1 { "member holds" } else { "members hold" }
                ),
                )
            }
        }
    }
}

const MISSING_ROLE: &str = "Missing 'id' (role name) or 'role_id' parameter";

/// Deletes a role of the caller's current team that no active member holds; `{name}` is
/// its name, unless the body's `role_id` names it. Needs `team_write`.
#[utoipa::path(
    delete,
    path = paths::TEAM_ROLE,
    tag = "team",
    params(("name" = String, Path, max_length = 200, description = "The role's name, percent-encoded", example = "auditor")),
    request_body(content = Option<RemoveRoleRequest>, description = "Optional: `{\"role_id\": N}` wins over the name; any JSON object, an empty body or none is accepted"),
    responses(
        (status = 200, description = "`{\"status\": \"success\", \"message\": \"Role <name> removed from team\"}`", body = StatusAnswer),
        (status = 400, description = "A name over 200 characters, a `role_id` that is not an integer (`invalid_args`), or a body that is not a JSON object", body = ErrorBody),
        (status = 403, description = "The owner role, or a team key lacks team_write", body = ErrorBody),
        (status = 404, description = "No such role in the caller's team (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
        (status = 409, description = "`in_use`: active members hold the role; the message says how many", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(name): Path<String>,
    body: OptionalObject,
) -> Result<Json<StatusAnswer>, ApiError> {
    remove_named(&state, &caller, name, body).await
}

/// N16 with an empty name (`team/roles//`, which reaches the path without one): only the
/// body's `role_id` can name the role. Needs `team_write`.
#[utoipa::path(
    delete,
    path = paths::TEAM_ROLES,
    tag = "team",
    request_body(content = Option<RemoveRoleRequest>, description = "`{\"role_id\": N}`; without it the request names no role"),
    responses(
        (status = 200, description = "`{\"status\": \"success\", \"message\": \"Role <name> removed from team\"}`", body = StatusAnswer),
        (status = 400, description = "No `role_id`, or one that is not an integer (`invalid_args`), or a body that is not a JSON object", body = ErrorBody),
        (status = 403, description = "The owner role, or a team key lacks team_write", body = ErrorBody),
        (status = 404, description = "No such role in the caller's team (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
        (status = 409, description = "`in_use`: active members hold the role; the message says how many", body = ErrorBody),
    ),
    security(("bearer" = [])),
    extensions(("x-team-permission" = json!("team_write")))
)]
pub async fn remove_by_id(
    State(state): State<AppState>,
    caller: Caller,
    body: OptionalObject,
) -> Result<Json<StatusAnswer>, ApiError> {
    remove_named(&state, &caller, String::new(), body).await
}

/// N16's steps: the name (empty when the path has none) unless the body's `role_id` wins.
async fn remove_named(
    state: &AppState,
    caller: &Caller,
    name: String,
    body: OptionalObject,
) -> Result<Json<StatusAnswer>, ApiError> {
    standing(state, caller, &operations::REMOVE_ROLE).await?;
    if name.chars().count() > MAX_ROLE_NAME_CHARS {
        return Err(ApiError::invalid_args("role name is too long"));
    }
    let RemoveRoleRequest { role_id } = body.read()?;
    let role = match role_id {
        Some(Lenient::Valid(Whole(id))) => RoleRef::Id(id),
        Some(Lenient::Invalid) => return Err(ApiError::invalid_args(MISSING_ROLE)),
        None if name.is_empty() => return Err(ApiError::invalid_args(MISSING_ROLE)),
        None => RoleRef::Name(name),
    };
    let actor = actor(caller);
    let now = state.clock.now();
    let removed = state
        .db
        .run(move |conn| db::team_roles::remove_role(conn, actor, &role, now))
        .await??;
    Ok(Json(StatusAnswer {
        status: "success".into(),
        message: format!("Role {removed} removed from team"),
    }))
}
