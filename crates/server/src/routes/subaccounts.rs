//! Subaccounts: seed op 5 `GET /subaccounts` and N20 `POST /users/`.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::users::{CreateSubaccountRefusal, NewSubaccount};
use crate::error::ApiError;
use crate::keys;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{
    paths, CreateSubaccountRequest, CreatedSubaccount, ErrorBody, Lenient, ParentId, SubaccountList,
};
use regex::Regex;
use std::sync::LazyLock;

/// The caller's subaccounts with their derived keys. Needs `user_read`.
#[utoipa::path(
    get,
    path = paths::SUBACCOUNTS,
    tag = "accounts",
    params(("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)")),
    responses(
        (status = 200, description = "The caller's subaccounts; each `api_key` authenticates as that subaccount", body = SubaccountList),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<SubaccountList>, ApiError> {
    caller.require_for(&operations::SUBACCOUNTS)?;
    let secret = state.secret.clone();
    let users = state
        .db
        .run(move |conn| db::users::subaccounts(conn, &secret, caller.user_id))
        .await?;
    let msg = match users.len() {
        1 => "1 subaccount".to_owned(),
        n => format!("{n} subaccounts"),
    };
    Ok(Json(SubaccountList { users, msg }))
}

impl From<CreateSubaccountRefusal> for ApiError {
    fn from(refusal: CreateSubaccountRefusal) -> Self {
        match refusal {
            CreateSubaccountRefusal::ParentIsSubaccount => {
                ApiError::forbidden("subaccounts cannot create subaccounts")
            }
            CreateSubaccountRefusal::UserExists => {
                ApiError::conflict("user_exists", "user already exists.")
            }
        }
    }
}

/// The public service's e-mail pattern, without its `(?!.*@vast)` lookahead (checked
/// apart: Rust's `regex` has no lookaround).
static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$").expect("a valid pattern")
});

fn invalid_request(msg: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_request", msg)
}

/// A string field of N20: `None` when absent or null; refused when not a string or longer
/// than `max` characters.
fn text(
    field: &str,
    value: Option<Lenient<String>>,
    max: usize,
) -> Result<Option<String>, ApiError> {
    match value {
        None => Ok(None),
        Some(Lenient::Invalid) => Err(invalid_request(format!("{field} must be a string"))),
        Some(Lenient::Valid(text)) if text.chars().count() > max => {
            Err(invalid_request(format!("{field} is too long")))
        }
        Some(Lenient::Valid(text)) => Ok(Some(text)),
    }
}

/// Checks N20's body field by field, in the client's order (then `ssh_key`, which it does
/// not send), and hashes the password.
fn new_subaccount(request: CreateSubaccountRequest) -> Result<NewSubaccount, ApiError> {
    let missing = |value: &Option<Lenient<String>>| match value {
        None => true,
        Some(Lenient::Valid(text)) => text.is_empty(),
        Some(Lenient::Invalid) => false,
    };
    if missing(&request.email) || missing(&request.username) || missing(&request.password) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "missing_auth_value",
            "email, username and password are required",
        ));
    }
    let email = text("email", request.email, 64)?.unwrap_or_default();
    if !EMAIL.is_match(&email) || email.to_ascii_lowercase().contains("@vast") {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_email",
            "Email address not allowed",
        ));
    }
    let username = text("username", request.username, 64)?.unwrap_or_default();
    if username.chars().any(char::is_control) {
        return Err(invalid_request(
            "username must not contain control characters".to_owned(),
        ));
    }
    let password = text("password", request.password, 256)?.unwrap_or_default();
    if password.chars().count() < 8 {
        return Err(invalid_request(
            "password must be at least 8 characters".to_owned(),
        ));
    }
    let host_only = match request.host_only {
        None => false,
        Some(Lenient::Valid(flag)) => flag,
        Some(Lenient::Invalid) => {
            return Err(invalid_request(
                "host_only must be true or false".to_owned(),
            ))
        }
    };
    // Without it the public service takes the request for a sign-up (N20).
    if request.parent_id != Some(Lenient::Valid(ParentId::Me)) {
        return Err(invalid_request(
            r#"parent_id must be "me": this creates subaccounts only"#.to_owned(),
        ));
    }
    let ssh_key = text("ssh_key", request.ssh_key, 4096)?;
    Ok(NewSubaccount {
        email,
        username,
        password_hash: keys::hash_password(&password),
        host_only,
        ssh_key,
    })
}

/// Creates a subaccount of the caller with its derived key, which authenticates at once
/// and appears in `GET /subaccounts`. Needs `user_write`.
#[utoipa::path(
    post,
    path = paths::USERS,
    tag = "accounts",
    request_body = CreateSubaccountRequest,
    responses(
        (status = 200, description = "The subaccount; `api_key` is its derived key", body = CreatedSubaccount),
        (status = 400, description = "Malformed JSON (`invalid_json`), a required field missing (`missing_auth_value`), an e-mail not allowed (`invalid_email`), a field of the wrong type or length, or a `parent_id` other than `me` (`invalid_request`)", body = ErrorBody),
        (status = 403, description = "The caller is a subaccount, or a team key lacks user_write", body = ErrorBody),
        (status = 409, description = "`user_exists`: the e-mail or username is taken (ignoring case)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<CreatedSubaccount>, ApiError> {
    caller.require_for(&operations::CREATE_SUBACCOUNT)?;
    let request: CreateSubaccountRequest = body.read()?;
    // The slow hash runs in the blocking pool, outside the write transaction.
    let new = tokio::task::spawn_blocking(move || new_subaccount(request))
        .await
        .map_err(ApiError::internal)??;
    let secret = state.secret.clone();
    let now = state.clock.now();
    let created = state
        .db
        .run(move |conn| db::users::create_subaccount(conn, &secret, caller.user_id, &new, now))
        .await??;
    Ok(Json(created))
}
