//! Listing a machine: N22 `PUT /machines/create_asks` (create or change its offer) and N23
//! `DELETE /machines/{id}/asks` (unlist it). Both need `machine_write`.

use crate::auth::Caller;
use crate::body::{JsonObject, UnusedBody};
use crate::db;
use crate::db::listing::{Listed, ListingFailure};
use crate::error::ApiError;
use crate::routes::fleet::path_machine_id;
use crate::routes::maintenance::IgnoredBody;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{
    paths, ErrorBody, ListMachineRequest, ListMachineResponse, ListingRefusal,
    UnlistMachineResponse,
};

impl From<ListingRefusal> for ApiError {
    fn from(refusal: ListingRefusal) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, refusal.code(), refusal.to_string())
    }
}

/// Creates or changes the offer of one of the caller's machines.
#[utoipa::path(
    put,
    path = paths::MACHINE_CREATE_ASKS,
    tag = "machines",
    request_body = ListMachineRequest,
    description = "Lists one of the caller's machines (§1.7): creates its offer, or changes \
        the terms given; a missing or null term keeps the offer's current value, except \
        `min_chunk`: absent sets the minimum to 1, null is refused. A machine listed for the \
        first time takes `price_disk` 0.10, `credit_discount_max` 0.4 and `price_min_bid` \
        equal to `price_gpu`, and needs `price_gpu`. `end_date` (Unix seconds, later than \
        now) or `duration` (rolling) sets the offer end date; when it moves later than an \
        active contract's rental end date at prices none of which (GPU, storage, upload, \
        download) is above what that contract locked, the contract is extended to it, and \
        `extended` counts those contracts. `vol_size` 0 withdraws the volume offer. Needs \
        `machine_write`.",
    responses(
        (status = 200, description = "Listed: `msg` is `offer created` (the machine was not listed) or `offer updated`", body = ListMachineResponse),
        (status = 400, description = "`invalid_args`: a bad `machine`, `end_date`, `duration`, price, `credit_discount_max`, `vol_size` or `vol_price` (one given for no volume), `end_date` with `duration`, no `price_gpu` for a first listing, or a null `min_chunk` (`Invalid machine id or min_chunk`); `invalid_min_chunk`: `min_chunk` is not 1 or a power of two up to the machine's GPUs", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list_machine(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<ListMachineResponse>, ApiError> {
    caller.require_for(&operations::LIST_MACHINE)?;
    let now = state.clock.now();
    let change = body.read::<ListMachineRequest>()?.validate(now)?;
    let outcome = state
        .db
        .run(move |conn| db::listing::list_machine(conn, caller.user_id, &change, now))
        .await?;
    match outcome {
        Ok(Listed { created, extended }) => Ok(Json(ListMachineResponse {
            success: true,
            extended: Some(extended as i64),
            msg: if created {
                "offer created"
            } else {
                "offer updated"
            }
            .to_owned(),
        })),
        Err(ListingFailure::NotFound) => Err(ApiError::not_found("No such machine id")),
        Err(ListingFailure::Refused(refusal)) => Err(refusal.into()),
    }
}

/// Unlists one of the caller's machines: no new rentals; running contracts go on.
#[utoipa::path(
    delete,
    path = paths::MACHINE_ASKS,
    tag = "machines",
    params(("id" = i64, Path, minimum = 1, example = 1007, description = "The machine")),
    request_body(content = Option<IgnoredBody>, description = "Optional and ignored: no body, an empty one, null or any JSON object, with or without Content-Type"),
    description = "Withdraws the machine's offer at once (§1.7): it is no longer listed, and \
        its existing contracts run on to their rental end dates. The offer's terms stay on \
        the machine for the next listing; its end date and duration are cleared. Unlisting \
        a machine that is not listed also succeeds. Needs `machine_write`.",
    responses(
        (status = 200, description = "Unlisted (or already not listed)", body = UnlistMachineResponse),
        (status = 400, description = "`Missing or invalid machine_id: '<value>'`, or a body that is not a JSON object", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn unlist_machine(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    _body: UnusedBody,
) -> Result<Json<UnlistMachineResponse>, ApiError> {
    caller.require_for(&operations::UNLIST_MACHINE)?;
    let machine_id = path_machine_id(&raw)?;
    let now = state.clock.now();
    let user_id = caller.user_id;
    let found = state
        .db
        .run(move |conn| db::listing::unlist_machine(conn, user_id, machine_id, now))
        .await?;
    if !found {
        return Err(ApiError::not_found("No such machine id"));
    }
    Ok(Json(UnlistMachineResponse {
        success: true,
        machine_id: Some(machine_id),
        user_id: Some(user_id),
    }))
}
