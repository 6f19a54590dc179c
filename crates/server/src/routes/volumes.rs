//! Volumes: seed op 4 `PUT /volumes` (accept an ask), N10 `POST /volumes/search/`, N11
//! `GET /volumes` and N12 `DELETE /volumes/?id=`.

use crate::auth::Caller;
use crate::body::{JsonObject, OptionalObject};
use crate::db;
use crate::db::volumes::{offer_field_kind, AcceptVolumeRefusal, DeleteVolumeRefusal, OfferSearch};
use crate::error::ApiError;
use crate::query::{self, QueryRefusal};
use crate::query_string::first_query_value;
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{RawQuery, State};
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{
    is_volume_label, paths, AcceptVolumeRequest, AcceptVolumeResponse, DeleteVolumeRequest,
    DeleteVolumeResponse, ErrorBody, Lenient, VolumeList, VolumeOfferList, VolumeSearchRequest,
    Whole,
};

impl From<AcceptVolumeRefusal> for ApiError {
    fn from(refusal: AcceptVolumeRefusal) -> Self {
        match refusal {
            AcceptVolumeRefusal::AskNotFound { ask_id } => {
                ApiError::not_found(format!("volume ask {ask_id} not found"))
            }
            AcceptVolumeRefusal::InsufficientCapacity {
                ask_id,
                left,
                asked,
            } => ApiError::conflict(
                "insufficient_capacity",
                format!("volume ask {ask_id} has {left} GB left; {asked} GB asked"),
            ),
        }
    }
}

/// Creates a volume of `size` GB on ask `id` for the caller. Needs `instance_write`.
#[utoipa::path(
    put,
    path = paths::VOLUMES,
    tag = "volumes",
    request_body = AcceptVolumeRequest,
    responses(
        (status = 200, description = "The volume was created; `volume_name` is `V.<id>`", body = AcceptVolumeResponse),
        (status = 400, description = "Malformed JSON (`invalid_json`), `id`/`size` missing or not an integer, or a `name` that is not 1–64 letters, digits and underscores (`invalid_args`)", body = ErrorBody),
        (status = 404, description = "No such volume ask", body = ErrorBody),
        (status = 409, description = "`insufficient_capacity`: the ask has less space left than asked", body = ErrorBody),
        (status = 422, description = "`size` is below 1 GB", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn accept(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<AcceptVolumeResponse>, ApiError> {
    caller.require_for(&operations::ACCEPT_VOLUME_ASK)?;
    let AcceptVolumeRequest {
        id: ask_id,
        size,
        name,
    } = body.read()?;
    if size < 1 {
        return Err(ApiError::unprocessable(format!(
            "size must be at least 1 GB; {size} was given"
        )));
    }
    let label = volume_label(name)?;
    let now = state.clock.now();
    let volume_id = state
        .db
        .run(move |conn| db::volumes::accept(conn, caller.user_id, ask_id, size, label, now))
        .await??;
    Ok(Json(AcceptVolumeResponse {
        success: true,
        volume_name: format!("V.{volume_id}"),
    }))
}

/// Seed op 4's optional `name`, the volume's label: absent, `null` or `""` is none.
fn volume_label(name: Option<Lenient<String>>) -> Result<Option<String>, ApiError> {
    match name {
        None => Ok(None),
        Some(Lenient::Valid(name)) if name.is_empty() => Ok(None),
        Some(Lenient::Valid(name)) if is_volume_label(&name) => Ok(Some(name)),
        Some(_) => Err(ApiError::invalid_args(
            "name may contain only letters, digits and underscores, at most 64 characters",
        )),
    }
}

impl From<DeleteVolumeRefusal> for ApiError {
    fn from(refusal: DeleteVolumeRefusal) -> Self {
        match refusal {
            DeleteVolumeRefusal::NotFound => ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                "no_such_volume",
                "Volume with that ID does not exist.",
            ),
            DeleteVolumeRefusal::NotYours => {
                ApiError::forbidden("You are not authorized to delete this volume")
            }
            DeleteVolumeRefusal::InUse => {
                ApiError::conflict("in_use", "existing instances use that volume!")
            }
        }
    }
}

const VOLUME_TYPES: [&str; 3] = ["local_volume", "network_volume", "all_volume"];

/// The caller's volumes that are not deleted, by id. `type` is `local_volume`,
/// `network_volume` or `all_volume` (absent or empty: all); every volume here is local.
/// Needs `instance_read`.
#[utoipa::path(
    get,
    path = paths::VOLUMES,
    tag = "volumes",
    params(
        ("type" = Option<String>, Query, pattern = "^(|local_volume|network_volume|all_volume)$", description = "`local_volume`, `network_volume` or `all_volume`; absent or empty means all", example = "all_volume"),
        ("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)"),
    ),
    responses(
        (status = 200, description = "The caller's volumes, by id", body = VolumeList),
        (status = 400, description = "`type` is not one of the three (`invalid_args`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<VolumeList>, ApiError> {
    caller.require_for(&operations::VOLUMES)?;
    let kind = first_query_value(query.as_deref(), "type").unwrap_or_default();
    if !kind.is_empty() && !VOLUME_TYPES.contains(&kind.as_str()) {
        return Err(ApiError::invalid_args(
            "type must be unspecified or one of: ['local_volume', 'network_volume', 'all_volume']",
        ));
    }
    if kind == "network_volume" {
        return Ok(Json(VolumeList {
            volumes: Vec::new(),
        }));
    }
    let volumes = state
        .db
        .run(move |conn| db::volumes::volumes(conn, caller.user_id))
        .await?;
    Ok(Json(VolumeList { volumes }))
}

const INVALID_VOLUME_ID: &str = "Please provide a valid volume ID.";

/// The volume to delete: the query's `id` (decimal digits), else the body's `id`.
fn volume_id(query: Option<&str>, body: OptionalObject) -> Result<i64, ApiError> {
    let invalid = || ApiError::invalid_args(INVALID_VOLUME_ID);
    if let Some(raw) = first_query_value(query, "id").filter(|raw| !raw.is_empty()) {
        if !raw.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid());
        }
        return raw.parse().map_err(|_| invalid());
    }
    let DeleteVolumeRequest { id } = body.read().map_err(|_| invalid())?;
    match id {
        Some(Lenient::Valid(Whole(id))) => Ok(id),
        _ => Err(invalid()),
    }
}

/// Deletes one of the caller's volumes, unless an instance (running or stopped) still uses
/// it; its size returns to its ask. Needs `instance_write`.
#[utoipa::path(
    delete,
    path = paths::VOLUMES,
    tag = "volumes",
    params(("id" = Option<String>, Query, pattern = "^[0-9]*$", description = "The volume (decimal digits); wins over the body's `id`; empty counts as absent", example = "20118471")),
    request_body(content = Option<DeleteVolumeRequest>, description = "Optional: `{\"id\": N}` when the query has none; any JSON object, an empty body or none is accepted"),
    responses(
        (status = 200, description = "The volume was deleted", body = DeleteVolumeResponse),
        (status = 400, description = "No valid volume id (`invalid_args`), or a body that is not a JSON object", body = ErrorBody),
        (status = 403, description = "The volume is someone else's, or a team key lacks instance_write", body = ErrorBody),
        (status = 404, description = "`no_such_volume`: absent or already deleted", body = ErrorBody),
        (status = 409, description = "`in_use`: instances still use the volume", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
    body: OptionalObject,
) -> Result<Json<DeleteVolumeResponse>, ApiError> {
    caller.require_for(&operations::DELETE_VOLUME)?;
    let id = volume_id(query.as_deref(), body)?;
    let now = state.clock.now();
    state
        .db
        .run(move |conn| db::volumes::delete(conn, caller.user_id, id, now))
        .await??;
    Ok(Json(DeleteVolumeResponse { success: true }))
}

const NOT_A_QUERY: &str = "Invalid query: must be dict of conditions";

/// N10's search from its body: reserved keys, then every other key a condition.
fn offer_search(request: VolumeSearchRequest) -> Result<OfferSearch, ApiError> {
    let terms = query::parse(&request.filters.into_iter().collect(), offer_field_kind).map_err(
        |refusal| match refusal {
            QueryRefusal::NotAnObject | QueryRefusal::UnknownOperator { .. } => {
                ApiError::invalid_args(NOT_A_QUERY)
            }
            other => ApiError::invalid_args(other.to_string()),
        },
    )?;
    let order = match request.order {
        None => vec![("score", true)],
        Some(Lenient::Valid(pairs)) => pairs
            .iter()
            .map(|(field, direction)| {
                let field = match field.as_str() {
                    "score" => "score",
                    other => offer_field_kind(other)
                        .map(|(name, _)| name)
                        .ok_or_else(|| {
                            ApiError::invalid_args(format!("cannot order by {}", quote(other, 64)))
                        })?,
                };
                match direction.as_str() {
                    "asc" => Ok((field, false)),
                    "desc" => Ok((field, true)),
                    _ => Err(ApiError::invalid_args(
                        "order must be an array of [field, \"asc\" or \"desc\"]",
                    )),
                }
            })
            .collect::<Result<_, _>>()?,
        Some(Lenient::Invalid) => {
            return Err(ApiError::invalid_args(
                "order must be an array of [field, \"asc\" or \"desc\"]",
            ))
        }
    };
    let limit = match request.limit {
        None => 64,
        Some(Lenient::Valid(Whole(n))) if (1..=1000).contains(&n) => n as usize,
        Some(_) => {
            return Err(ApiError::invalid_args(
                "limit must be an integer from 1 to 1000",
            ))
        }
    };
    let allocated_storage = match request.allocated_storage {
        None => 1.0,
        Some(Lenient::Valid(gb)) if gb > 0.0 && gb.is_finite() => gb,
        Some(_) => {
            return Err(ApiError::invalid_args(
                "allocated_storage must be a positive number",
            ))
        }
    };
    Ok(OfferSearch {
        terms,
        order,
        limit,
        allocated_storage,
    })
}

/// Volume offers: every volume ask that has not ended, with its free space, price and its
/// machine's qualities, filtered, ordered (default by score, which is reliability,
/// descending; ties by id) and limited (default 64). Needs `misc`.
#[utoipa::path(
    post,
    path = paths::VOLUMES_SEARCH,
    tag = "volumes",
    request_body = VolumeSearchRequest,
    responses(
        (status = 200, description = "The offers found; `offers` is always present", body = VolumeOfferList),
        (status = 400, description = "Malformed JSON (`invalid_json`), a condition that is not an object or an unknown operator, an unknown field, a value of the wrong kind, a bad `order`, `limit` or `allocated_storage` (`invalid_args`)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn search(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<VolumeOfferList>, ApiError> {
    caller.require_for(&operations::SEARCH_VOLUME_OFFERS)?;
    let search = offer_search(body.read()?)?;
    let now = state.clock.now();
    let offers = state
        .db
        .run(move |conn| db::volumes::offers(conn, &search, now))
        .await?;
    Ok(Json(VolumeOfferList { offers }))
}
