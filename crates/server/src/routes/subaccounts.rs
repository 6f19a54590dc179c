//! `GET /subaccounts`.

use crate::auth::Caller;
use crate::db;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use gpudeck_wire::{paths, PermissionGroup, SubaccountList};

/// The caller's subaccounts with their derived keys. Needs `user_read`.
#[utoipa::path(
    get,
    path = paths::SUBACCOUNTS,
    tag = "accounts",
    params(("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)")),
    responses(
        (status = 200, description = "The caller's subaccounts; each `api_key` authenticates as that subaccount", body = SubaccountList),
    ),
    security(("bearer" = [])),
    extensions(("x-team-permission" = json!("user_read")))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<SubaccountList>, ApiError> {
    caller.require(PermissionGroup::UserRead)?;
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
