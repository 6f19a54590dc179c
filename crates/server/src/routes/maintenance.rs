//! Scheduling and cancelling maintenance windows: N3 `PUT /machines/{id}/dnotify`, N4
//! `POST /machines/maintenances/batch`, N5 `PUT /machines/{id}/cancel_maint`, N6 `DELETE
//! /machines/maintenances` and N7 `DELETE /machines/maintenances/batch`. All need
//! `machine_write`.

use crate::auth::Caller;
use crate::body::{JsonObject, UnusedBody};
use crate::db;
use crate::db::maintenance::{CancelOutcome, CancelRefusal};
use crate::error::ApiError;
use crate::notifications::events;
use crate::routes::fleet::machine_id_from_path;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{
    paths, BatchCancelItem, BatchCancelRequest, BatchCancelResponse, BatchRefusal,
    BatchScheduleItem, BatchScheduleRefusal, BatchScheduleRequest, BatchScheduleResponse,
    CancelMachineMaintenanceResponse, CancelMaintenanceRequest, CancelMaintenanceResponse,
    ErrorBody, ScheduleMaintenance, ScheduleMaintenanceRequest, ScheduleMaintenanceResponse,
    ScheduleRefusal,
};
use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};

/// The path id of N3 and N5.
fn path_machine_id(raw: &str) -> Result<i64, ApiError> {
    machine_id_from_path(raw).ok_or_else(|| ApiError::invalid_args("Missing machine_id"))
}

/// An `sdate` refusal is 422, the others 400; `msg` is the operation's wording.
fn schedule_refused(refusal: ScheduleRefusal, msg: String) -> ApiError {
    if refusal.is_about_sdate() {
        ApiError::unprocessable(msg)
    } else {
        ApiError::invalid_args(msg)
    }
}

impl From<ScheduleRefusal> for ApiError {
    fn from(refusal: ScheduleRefusal) -> Self {
        schedule_refused(refusal, refusal.to_string())
    }
}

impl From<BatchScheduleRefusal> for ApiError {
    fn from(refusal: BatchScheduleRefusal) -> Self {
        match refusal {
            BatchScheduleRefusal::Ids(ids) => ApiError::invalid_args(ids.message("machine_ids")),
            BatchScheduleRefusal::Window(window) => {
                schedule_refused(window, window.batch_message())
            }
        }
    }
}

/// N6's answer to a refusal.
impl From<CancelRefusal> for ApiError {
    fn from(refusal: CancelRefusal) -> Self {
        match refusal {
            CancelRefusal::NotFound => ApiError::not_found("Maintenance record not found"),
            CancelRefusal::NotOwner => ApiError::forbidden("User is not the owner of the machine"),
            CancelRefusal::ByMarketplace => ApiError::new(
                StatusCode::FORBIDDEN,
                "scheduled_by_marketplace",
                "This window was scheduled by the marketplace; contact support to cancel it",
            ),
            CancelRefusal::AlreadyCancelled => ApiError::conflict(
                "not_cancellable",
                "Maintenance not found or already cancelled",
            ),
            CancelRefusal::Completed => ApiError::conflict(
                "not_cancellable",
                "Completed maintenance windows cannot be cancelled",
            ),
        }
    }
}

/// N7's item message for an outcome. A window on someone else's machine reads as unknown.
fn batch_cancel_msg(outcome: CancelOutcome) -> &'static str {
    match outcome {
        Ok(()) => "Maintenance record deleted",
        Err(CancelRefusal::NotFound | CancelRefusal::NotOwner) => "Maintenance record not found",
        Err(CancelRefusal::AlreadyCancelled) => "Maintenance not found or already cancelled",
        Err(CancelRefusal::Completed) => "Completed maintenance windows cannot be cancelled",
        Err(CancelRefusal::ByMarketplace) => {
            "Scheduled by the marketplace; contact support to cancel it"
        }
    }
}

/// A batch's status and refusal (N4, N7): 200 when any item succeeded, else 400 with
/// `error` and `msg` beside the results.
fn batch_outcome(success: bool, error: &str, msg: &str) -> (StatusCode, BatchRefusal) {
    if success {
        (StatusCode::OK, BatchRefusal::default())
    } else {
        (StatusCode::BAD_REQUEST, BatchRefusal::new(error, msg))
    }
}

/// Schedules a maintenance window on one of the caller's machines and tells its renters.
#[utoipa::path(
    put,
    path = paths::MACHINE_DNOTIFY,
    tag = "machines",
    params(("id" = i64, Path, minimum = 1, example = 1001, description = "The machine")),
    request_body = ScheduleMaintenanceRequest,
    responses(
        (status = 200, description = "Scheduled; `notifications_sent` counts the distinct renters with contracts on the machine", body = ScheduleMaintenanceResponse),
        (status = 400, description = "`Missing machine_id`, malformed JSON, or a bad `duration`, `maintenance_category` or `maintenance_reason`", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
        (status = 422, description = "`sdate` missing, not a timestamp, not in the future or more than a year ahead", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn schedule(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    body: JsonObject,
) -> Result<Json<ScheduleMaintenanceResponse>, ApiError> {
    caller.require_for(&operations::SCHEDULE_WINDOW)?;
    let machine_id = path_machine_id(&raw)?;
    let now = state.clock.now();
    let ScheduleMaintenance { window, reason } =
        body.read::<ScheduleMaintenanceRequest>()?.validate(now)?;
    let owner = caller.user_id;
    let planned = window.clone();
    let told = state
        .db
        .run(move |conn| {
            db::maintenance::schedule(conn, owner, machine_id, &planned, reason.as_deref(), now)
        })
        .await?
        .ok_or_else(|| ApiError::not_found("No such machine id"))?;
    events::maintenance_scheduled(&state, owner, machine_id, &window);
    Ok(Json(ScheduleMaintenanceResponse {
        success: true,
        machine_id: Some(machine_id),
        notifications_sent: Some(told),
        you_sent: format!("{told} notifications sent"),
    }))
}

/// Schedules the same window on up to 100 of the caller's machines, in one transaction.
#[utoipa::path(
    post,
    path = paths::MAINTENANCES_BATCH,
    tag = "machines",
    request_body = BatchScheduleRequest,
    responses(
        (status = 200, description = "At least one window was scheduled; one result per machine, in the order asked", body = BatchScheduleResponse),
        (status = 400, description = "Malformed JSON, bad `machine_ids`, `duration` or `maintenance_category`; or `nothing_scheduled` (with `success: false` and the results) when none of the machines exists and is the caller's", body = inline(BatchScheduleRefused)),
        (status = 422, description = "`sdate` missing, not a timestamp, not in the future or more than a year ahead", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn schedule_batch(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<(StatusCode, Json<BatchScheduleResponse>), ApiError> {
    caller.require_for(&operations::SCHEDULE_WINDOWS)?;
    let now = state.clock.now();
    let (ids, window) = body.read::<BatchScheduleRequest>()?.validate(now)?;
    let owner = caller.user_id;
    let planned = window.clone();
    let outcomes = state
        .db
        .run(move |conn| db::maintenance::schedule_batch(conn, owner, &ids, &planned, now))
        .await?;
    for (machine_id, told) in &outcomes {
        if told.is_some() {
            events::maintenance_scheduled(&state, owner, *machine_id, &window);
        }
    }
    let results: Vec<BatchScheduleItem> = outcomes
        .into_iter()
        .map(|(machine_id, told)| BatchScheduleItem {
            success: told.is_some(),
            machine_id,
            notifications_sent: told,
            refusal: match told {
                Some(_) => BatchRefusal::default(),
                None => BatchRefusal::new("not_found", "No such machine id or not owned"),
            },
        })
        .collect();
    let success = results.iter().any(|item| item.success);
    let (status, refusal) = batch_outcome(
        success,
        "nothing_scheduled",
        "none of the machine_ids exists or is yours",
    );
    Ok((
        status,
        Json(BatchScheduleResponse {
            success,
            results,
            refusal,
        }),
    ))
}

/// N5's body in the document: any JSON object, ignored (the official client sends
/// `{"client_id": "me", "machine_id": <id>}`, and the path id wins).
pub(crate) struct IgnoredBody;

impl utoipa::PartialSchema for IgnoredBody {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("Any JSON object; ignored"))
            .examples([serde_json::json!({"client_id": "me", "machine_id": 1101})])
            .into()
    }
}

impl utoipa::ToSchema for IgnoredBody {}

/// A 400 of N4 or N7 in the document: the results (schema `results`) with
/// `nothing_scheduled` or `nothing_cancelled`, or the `{error, msg}` of a malformed request.
fn batch_refusal(results: &str) -> RefOr<Schema> {
    AnyOfBuilder::new()
        .item(Ref::from_schema_name(results))
        .item(Ref::from_schema_name("ErrorBody"))
        .into()
}

/// N4's 400: see [`batch_refusal`].
struct BatchScheduleRefused;

impl utoipa::PartialSchema for BatchScheduleRefused {
    fn schema() -> RefOr<Schema> {
        batch_refusal("BatchScheduleResponse")
    }
}

impl utoipa::ToSchema for BatchScheduleRefused {}

/// N7's 400: see [`batch_refusal`].
struct BatchCancelRefused;

impl utoipa::PartialSchema for BatchCancelRefused {
    fn schema() -> RefOr<Schema> {
        batch_refusal("BatchCancelResponse")
    }
}

impl utoipa::ToSchema for BatchCancelRefused {}

/// Cancels every upcoming and ongoing window of one of the caller's machines, except those
/// the marketplace scheduled.
#[utoipa::path(
    put,
    path = paths::MACHINE_CANCEL_MAINT,
    tag = "machines",
    params(("id" = i64, Path, minimum = 1, example = 1001, description = "The machine")),
    request_body(content = Option<IgnoredBody>, description = "Optional and ignored: no body, an empty one, null or any JSON object, with or without Content-Type"),
    responses(
        (status = 200, description = "Cancelled (possibly none); `msg` counts them and any marketplace windows kept", body = CancelMachineMaintenanceResponse),
        (status = 400, description = "`Missing machine_id` (the path id is not a positive integer), or a body that is not a JSON object", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn cancel_machine(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    _body: UnusedBody,
) -> Result<Json<CancelMachineMaintenanceResponse>, ApiError> {
    caller.require_for(&operations::CANCEL_MACHINE_WINDOWS)?;
    let machine_id = path_machine_id(&raw)?;
    let now = state.clock.now();
    let done = state
        .db
        .run(move |conn| db::maintenance::cancel_machine(conn, caller.user_id, machine_id, now))
        .await?
        .ok_or_else(|| ApiError::not_found("No such machine id"))?;
    Ok(Json(CancelMachineMaintenanceResponse {
        success: true,
        ctime: now,
        machine_id,
        msg: CancelMachineMaintenanceResponse::message(
            machine_id,
            done.cancelled as i64,
            done.kept as i64,
        ),
    }))
}

/// Cancels one window of the caller's, by its id from the maintenance list.
#[utoipa::path(
    delete,
    path = paths::MAINTENANCES,
    tag = "machines",
    request_body = CancelMaintenanceRequest,
    responses(
        (status = 200, description = "Cancelled", body = CancelMaintenanceResponse),
        (status = 400, description = "Malformed JSON, or `Missing maintenance_id` (absent, null or not a positive integer)", body = ErrorBody),
        (status = 403, description = "`forbidden`: the window is on someone else's machine; `scheduled_by_marketplace`: the marketplace scheduled it", body = ErrorBody),
        (status = 404, description = "`Maintenance record not found`", body = ErrorBody),
        (status = 409, description = "`not_cancellable`: already cancelled, or completed", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn cancel_window(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<CancelMaintenanceResponse>, ApiError> {
    caller.require_for(&operations::CANCEL_WINDOW)?;
    let maintenance_id = body
        .read::<CancelMaintenanceRequest>()?
        .id()
        .ok_or_else(|| ApiError::invalid_args("Missing maintenance_id"))?;
    let now = state.clock.now();
    state
        .db
        .run(move |conn| db::maintenance::cancel_window(conn, caller.user_id, maintenance_id, now))
        .await??;
    Ok(Json(CancelMaintenanceResponse {
        success: true,
        msg: "Maintenance cancelled".to_owned(),
    }))
}

/// Cancels up to 100 windows of the caller's, in one transaction.
#[utoipa::path(
    delete,
    path = paths::MAINTENANCES_BATCH,
    tag = "machines",
    request_body = BatchCancelRequest,
    responses(
        (status = 200, description = "At least one window was cancelled; one result per id, in input order", body = BatchCancelResponse),
        (status = 400, description = "Malformed JSON or bad `maintenance_ids`; or `nothing_cancelled` (with `success: false` and the results) when no window was cancelled", body = inline(BatchCancelRefused)),
    ),
    security(("bearer" = []))
)]
pub async fn cancel_batch(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<(StatusCode, Json<BatchCancelResponse>), ApiError> {
    caller.require_for(&operations::CANCEL_WINDOWS)?;
    let ids = body
        .read::<BatchCancelRequest>()?
        .validate()
        .map_err(|refusal| ApiError::invalid_args(refusal.message("maintenance_ids")))?;
    let now = state.clock.now();
    let outcomes = state
        .db
        .run(move |conn| db::maintenance::cancel_windows(conn, caller.user_id, &ids, now))
        .await?;
    let results: Vec<BatchCancelItem> = outcomes
        .into_iter()
        .map(|(maintenance_id, outcome)| BatchCancelItem {
            success: outcome.is_ok(),
            maintenance_id,
            msg: batch_cancel_msg(outcome).to_owned(),
        })
        .collect();
    let success = results.iter().any(|item| item.success);
    let (status, refusal) = batch_outcome(
        success,
        "nothing_cancelled",
        "No maintenance window was cancelled",
    );
    Ok((
        status,
        Json(BatchCancelResponse {
            success,
            results,
            refusal,
        }),
    ))
}
