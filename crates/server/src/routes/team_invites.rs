//! Invitations to the current team: N17 invite (recorded, never e-mailed) and N17a the
//! pending ones.

use super::team::{actor, standing, EXCEEDS};
use crate::auth::Caller;
use crate::body::OptionalObject;
use crate::config::{INVITATIONS_PER_HOUR, MAX_INVITE_EMAIL_CHARS};
use crate::db;
use crate::db::team_invites::{InviteRefusal, NewInvitation};
use crate::error::ApiError;
use crate::keys;
use crate::query_string::first_query_value;
use crate::state::AppState;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{paths, ErrorBody, Invitation, InviteRequest, Lenient, MessageAnswer};
use regex::Regex;
use std::sync::LazyLock;

/// The address pattern of N17.
static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$").expect("valid pattern")
});

/// One of N17's inputs: the query's value when it has a non-empty one, else the body's.
/// The query's value of `name`, else the body's. A body value of the wrong type is refused
/// even when the query gives one: bad input is never silently ignored.
fn query_or_body(
    query: Option<&str>,
    name: &str,
    body: Option<Lenient<String>>,
) -> Result<Option<String>, ApiError> {
    let from_body = match body {
        Some(Lenient::Valid(value)) if !value.is_empty() => Some(value),
        Some(Lenient::Invalid) => {
            return Err(ApiError::invalid_args(format!("{name} must be a string")))
        }
        _ => None,
    };
    Ok(first_query_value(query, name)
        .filter(|value| !value.is_empty())
        .or(from_body))
}

fn refusal(refusal: InviteRefusal, email: &str) -> ApiError {
    match refusal {
        InviteRefusal::Standing(standing) => standing.into(),
        InviteRefusal::OwnEmail => {
            ApiError::invalid_args("User cannot be invited to their own team.")
        }
        InviteRefusal::RoleNotFound => ApiError::not_found("Invalid role choice for invitee"),
        InviteRefusal::OwnerRole => {
            ApiError::invalid_args("The owner role cannot be given to an invitee")
        }
        InviteRefusal::Exceeds => ApiError::forbidden(EXCEEDS),
        InviteRefusal::AlreadyMember => ApiError::new(
            StatusCode::CONFLICT,
            "already_member",
            "User is already a member of this team.",
        ),
        InviteRefusal::TooSoon {
            seconds_ago,
            retry_after,
        } => ApiError::rate_limited(
            format!("Error: invitation already sent to {email} only {seconds_ago} seconds ago."),
            retry_after as u64,
        ),
        InviteRefusal::Quota { retry_after } => ApiError::rate_limited(
            format!(
                "at most {INVITATIONS_PER_HOUR} invitations per hour; retry after {retry_after} s"
            ),
            retry_after as u64,
        ),
    }
}

/// Invites a person by e-mail to the caller's current team with a role (not the owner
/// role). Nothing is e-mailed: the invitation is recorded with the SHA-256 of a random
/// token, and expires after four hours. Needs `team_write`.
#[utoipa::path(
    post,
    path = paths::TEAM_INVITE,
    tag = "team",
    params(
        ("email" = Option<String>, Query, max_length = 254, description = "The invitee's address; wins over the body's", example = "dana@example.org"),
        ("role" = Option<String>, Query, description = "A role's name (not the owner role); wins over the body's", example = "member"),
    ),
    request_body(content = Option<InviteRequest>, description = "Optional: `{\"email\", \"role\"}` (the docs' form); a JSON object whose `email` and `role`, when given, are strings, an empty body or none"),
    responses(
        (status = 200, description = "`New invitation sent to <email>` (recorded; no e-mail is sent)", body = MessageAnswer),
        (status = 400, description = "email or role missing, an invalid address, the owner role, or the caller's own address (`invalid_args`); a body that is not a JSON object, or whose `email` or `role` is not a string", body = ErrorBody),
        (status = 403, description = "The role grants what the caller does not hold, or a team key lacks team_write", body = ErrorBody),
        (status = 404, description = "No role of that name (`not_found`), or the caller has no team (`no_team`)", body = ErrorBody),
        (status = 409, description = "`already_member`: a member of the team has that address", body = ErrorBody),
        (status = 429, description = "`rate_limited`: an invitation to the address under 60 s ago, or the team's 20 invitations an hour", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    ),
    security(("bearer" = []))
)]
pub async fn invite(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
    body: OptionalObject,
) -> Result<Json<MessageAnswer>, ApiError> {
    standing(&state, &caller, &operations::INVITE_MEMBER).await?;
    let InviteRequest { email, role } = body.read()?;
    let email = query_or_body(query.as_deref(), "email", email)?;
    let role = query_or_body(query.as_deref(), "role", role)?;
    let (Some(email), Some(role)) = (email, role) else {
        return Err(ApiError::invalid_args("email and role are required"));
    };
    if email.chars().count() > MAX_INVITE_EMAIL_CHARS || !EMAIL.is_match(&email) {
        return Err(ApiError::invalid_args("invalid email address"));
    }
    // The token would reach the invitee by e-mail; only its hash is kept, and it is never
    // logged or answered.
    let token_hash = keys::hash_key(&keys::generate_key());
    let actor = actor(&caller);
    let now = state.clock.now();
    let address = email.clone();
    let outcome = state
        .db
        .run(move |conn| {
            let invitation = NewInvitation {
                email: &address,
                role_name: &role,
                token_hash: &token_hash,
            };
            db::team_invites::invite(conn, actor, &invitation, now)
        })
        .await?;
    outcome.map_err(|refused| refusal(refused, &email))?;
    Ok(Json(MessageAnswer {
        success: Some(true),
        msg: format!("New invitation sent to {email}"),
    }))
}

/// The current team's pending invitations (not expired, not replaced by a newer one to
/// the same address), newest first; never their tokens. Needs `team_read`.
#[utoipa::path(
    get,
    path = paths::TEAM_INVITES,
    tag = "team",
    responses(
        (status = 200, description = "Pending invitations, newest first", body = Vec<Invitation>),
        (status = 404, description = "The caller has no team (`no_team`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn pending(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<Invitation>>, ApiError> {
    let context = standing(&state, &caller, &operations::INVITATIONS).await?;
    let now = state.clock.now();
    let invitations = state
        .db
        .run(move |conn| db::team_invites::pending(conn, context.team.id, now))
        .await?;
    Ok(Json(invitations))
}
