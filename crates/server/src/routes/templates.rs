//! Templates: N8 `GET /template/` (search), N9 `GET /users/{user_id}/templates/` (the
//! caller's library), and seed op 3, `DELETE /users/{user_id}/templates` and its alias
//! `DELETE /template/`.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::templates::DeleteTemplateRefusal;
use crate::error::ApiError;
use crate::query::{self, Kind, QueryRefusal};
use crate::query_string::first_query_value;
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{Path, RawQuery, State};
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{
    paths, DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, TemplateLibrary,
    TemplateSearch,
};
use serde_json::Value;

/// The fields N8 lets a query name, with their kinds.
fn template_field_kind(name: &str) -> Option<(&'static str, Kind)> {
    Some(match name {
        "id" => ("id", Kind::Number),
        "creator_id" => ("creator_id", Kind::Number),
        "count_created" => ("count_created", Kind::Number),
        "created_at" => ("created_at", Kind::Number),
        "private" => ("private", Kind::Bool),
        "name" => ("name", Kind::Text),
        "image" => ("image", Kind::Text),
        "tag" => ("tag", Kind::Text),
        "hash_id" => ("hash_id", Kind::Text),
        _ => return None,
    })
}

const FILTERS_NOT_AN_OBJECT: &str = "select_filters must be a JSON object of conditions";

/// N8's conditions from the query string: `select_filters` (a JSON object, absent or `{}`
/// for none) and `select_cols` (a JSON array of strings, checked but not applied: whole
/// objects are always returned).
fn template_terms(query: Option<&str>) -> Result<Vec<query::Term>, ApiError> {
    if let Some(cols) = first_query_value(query, "select_cols") {
        let valid = matches!(serde_json::from_str::<Value>(&cols),
            Ok(Value::Array(items)) if items.iter().all(Value::is_string));
        if !valid {
            return Err(ApiError::invalid_args(
                "select_cols must be a JSON array of strings",
            ));
        }
    }
    let Some(filters) = first_query_value(query, "select_filters") else {
        return Ok(Vec::new());
    };
    let Ok(Value::Object(filters)) = serde_json::from_str::<Value>(&filters) else {
        return Err(ApiError::invalid_args(FILTERS_NOT_AN_OBJECT));
    };
    query::parse(&filters, template_field_kind).map_err(|refusal| match refusal {
        QueryRefusal::NotAnObject => ApiError::invalid_args(FILTERS_NOT_AN_OBJECT),
        other => ApiError::invalid_args(other.to_string()),
    })
}

/// Public templates of every user plus the caller's own (never deleted ones), meeting every
/// condition of `select_filters`, by id, at most 1000. Needs `user_read`.
#[utoipa::path(
    get,
    path = paths::TEMPLATE_ALIAS,
    tag = "accounts",
    params(
        ("select_cols" = Option<String>, Query, description = "A JSON array of strings; absent means `[\"*\"]`. Whole objects are always returned.", example = "[\"*\"]"),
        ("select_filters" = Option<String>, Query, description = "A JSON object `{field: {op: value}}`; ops `eq`, `neq`, `lt`, `lte`, `gt`, `gte`, `in`, `notin`; fields `id`, `creator_id`, `count_created`, `created_at`, `private`, `name`, `image`, `tag`, `hash_id`. Numbers may be numeric strings.", example = "{\"creator_id\": {\"eq\": \"1\"}}"),
    ),
    responses(
        (status = 200, description = "The templates found (`templates_found` is their number; none is `0` and `[]`)", body = TemplateSearch),
        (status = 400, description = "`select_filters` or `select_cols` malformed, an unknown field or operator, or a value of the wrong kind (`invalid_args`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn search(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<TemplateSearch>, ApiError> {
    caller.require_for(&operations::SEARCH_TEMPLATES)?;
    let terms = template_terms(query.as_deref())?;
    let templates = state
        .db
        .run(move |conn| db::templates::search(conn, caller.user_id, &terms))
        .await?;
    Ok(Json(TemplateSearch {
        success: true,
        templates_found: templates.len() as i64,
        templates,
        msg: None,
    }))
}

/// The caller's templates that are not deleted, most recently updated first. `user_id`
/// must be the caller's own id. Needs `instance_read`.
#[utoipa::path(
    get,
    path = paths::USER_TEMPLATES,
    tag = "accounts",
    params(("user_id" = i64, Path, example = 1, description = "The caller's own user id")),
    responses(
        (status = 200, description = "The caller's library; each template carries `user_template_id`", body = TemplateLibrary),
        (status = 400, description = "`user_id` is not an integer", body = ErrorBody),
        (status = 403, description = "`user_id` is not the caller, or a team key lacks instance_read", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn library(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
) -> Result<Json<TemplateLibrary>, ApiError> {
    caller.require_for(&operations::TEMPLATE_LIBRARY)?;
    let user_id: i64 = user_id
        .parse()
        .map_err(|_| ApiError::invalid_args("user_id must be an integer"))?;
    if user_id != caller.user_id {
        return Err(ApiError::forbidden("you may only read your own templates"));
    }
    let templates = state
        .db
        .run(move |conn| db::templates::library(conn, caller.user_id))
        .await?;
    Ok(Json(TemplateLibrary {
        success: true,
        templates,
    }))
}

impl From<DeleteTemplateRefusal> for ApiError {
    fn from(refusal: DeleteTemplateRefusal) -> Self {
        match refusal {
            DeleteTemplateRefusal::NotFound { template_id } => {
                ApiError::not_found(format!("template {template_id} not found"))
            }
            DeleteTemplateRefusal::NotYours { template_id } => {
                ApiError::forbidden(format!("template {template_id} is not yours"))
            }
            DeleteTemplateRefusal::InUse { template_id, users } => {
                let whom = if users == 1 { "user" } else { "users" };
                ApiError::conflict(
                    "in_use",
                    format!(
                        "template {template_id} is in use by {users} other {whom}; it was not deleted"
                    ),
                )
            }
        }
    }
}

/// The answers both deletion paths share.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // Read by the OpenAPI document only.
enum DeletionAnswers {
    #[response(status = 200, description = "The template was soft-deleted")]
    Deleted(DeleteTemplateResponse),
    #[response(
        status = 404,
        description = "No such template, or it is already deleted"
    )]
    NotFound(ErrorBody),
    #[response(
        status = 409,
        description = "`in_use`: other users still have an active relationship to it"
    )]
    InUse(ErrorBody),
}

/// Soft-deletes one of the caller's templates. `user_id` must be the caller's own id.
/// Needs `instance_write`.
#[utoipa::path(
    delete,
    path = paths::USER_TEMPLATES,
    tag = "accounts",
    params(("user_id" = i64, Path, example = 1, description = "The caller's own user id")),
    request_body = DeleteTemplateRequest,
    responses(
        DeletionAnswers,
        (status = 400, description = "`user_id` is not an integer, malformed JSON, or `template_id` missing or not an integer", body = ErrorBody),
        (status = 403, description = "`user_id` is not the caller, the template is someone else's, or a team key lacks instance_write", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete_user_template(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    body: JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    let user_id: i64 = user_id.parse().map_err(|_| {
        ApiError::invalid_args(format!(
            "user_id must be an integer, not \"{}\"",
            quote(&user_id, 32)
        ))
    })?;
    if user_id != caller.user_id {
        return Err(ApiError::forbidden(format!(
            "user_id {user_id} is not you; you can only delete your own templates"
        )));
    }
    delete(state, caller, body).await
}

/// The alias the official client uses: the same deletion, for the caller.
#[utoipa::path(
    delete,
    path = paths::TEMPLATE_ALIAS,
    tag = "accounts",
    request_body = DeleteTemplateRequest,
    responses(
        DeletionAnswers,
        (status = 400, description = "Malformed JSON, or `template_id` missing or not an integer", body = ErrorBody),
        (status = 403, description = "The template is someone else's, or a team key lacks instance_write", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete_template(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    delete(state, caller, body).await
}

async fn delete(
    state: AppState,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<DeleteTemplateResponse>, ApiError> {
    caller.require_for(&operations::DELETE_TEMPLATE)?;
    let DeleteTemplateRequest { template_id } = body.read()?;
    let now = state.clock.now();
    state
        .db
        .run(move |conn| db::templates::delete_template(conn, caller.user_id, template_id, now))
        .await??;
    Ok(Json(DeleteTemplateResponse {
        success: true,
        msg: format!("Template {template_id} deleted"),
    }))
}
