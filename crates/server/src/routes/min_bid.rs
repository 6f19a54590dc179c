//! The interruptible floor: fleet-health N35 `PUT /machines/{id}/minbid/`. Needs
//! `machine_write`.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::min_bid::MinBidFailure;
use crate::error::ApiError;
use crate::routes::fleet::path_machine_id;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::min_bid::read_price;
use gpudeck_wire::operations;
use gpudeck_wire::{paths, ErrorBody, MinBidRefusal, MinBidRequest, MinBidResponse};
use serde_json::Value;

impl From<MinBidRefusal> for ApiError {
    fn from(refusal: MinBidRefusal) -> Self {
        ApiError::unprocessable(refusal.to_string())
    }
}

/// Sets one of the caller's machines' minimum price for interruptible rentals.
#[utoipa::path(
    put,
    path = paths::MACHINE_MIN_BID,
    tag = "machines",
    params(("id" = i64, Path, minimum = 1, example = 1001, description = "The machine")),
    request_body = MinBidRequest,
    description = "Sets the machine's interruptible floor (N1's `min_bid_price`, the offer's \
        `price_min_bid`) alone, in $/GPU-hour; its other terms and its contracts are \
        untouched. A machine whose offer was withdrawn keeps the floor for its next listing. \
        The price may not exceed `2 * 0.1 * gpu_tflops`, with `gpu_tflops` the machine's \
        `total_flops` per GPU (no bound when `total_flops` is not known). `client_id` is \
        ignored. The answer echoes the body; read N2 for the new floor. Needs \
        `machine_write`.",
    responses(
        (status = 200, description = "Set; `you_sent` is the body", body = MinBidResponse),
        (status = 400, description = "`Missing or invalid machine_id: '<value>'`, or a body that is not a JSON object", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
        (status = 409, description = "`no_offer`: `Machine <id> has no offer terms yet; list it first`", body = ErrorBody),
        (status = 422, description = "`Missing argument: min_bid.` (price absent or null), `min_bid must be a number.`, `min_bid must be greater than 0.`, `min_bid must be <= <max> (2 * 0.1 * gpu_tflops).`", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn set(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    body: JsonObject,
) -> Result<Json<MinBidResponse>, ApiError> {
    caller.require_for(&operations::SET_MIN_BID)?;
    let machine_id = path_machine_id(&raw)?;
    let sent = body.into_map();
    let price = read_price(&sent)?;
    let now = state.clock.now();
    let outcome = state
        .db
        .run(move |conn| db::min_bid::set_min_bid(conn, caller.user_id, machine_id, price, now))
        .await?;
    match outcome {
        Ok(()) => Ok(Json(MinBidResponse {
            success: true,
            you_sent: Some(Value::Object(sent)),
        })),
        Err(MinBidFailure::NotFound) => Err(ApiError::not_found("No such machine id")),
        Err(MinBidFailure::Refused(refusal)) => Err(refusal.into()),
        Err(MinBidFailure::NoOffer) => Err(ApiError::conflict(
            "no_offer",
            format!("Machine {machine_id} has no offer terms yet; list it first"),
        )),
    }
}
