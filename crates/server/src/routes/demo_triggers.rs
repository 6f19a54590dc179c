//! The demo triggers (spec fleet-health D1–D3, a project rule): D1 changes a machine's
//! health signals, D2 files a renter's report, D3 raises a host event; each emits the
//! events of §3.5 after its change committed. The router mounts them only in demo or test
//! mode (elsewhere their paths are unknown: 404 `not_found`). They need `machine_write`,
//! act only on the caller's machines and have no rate limit. The console never calls them.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::machine_health::HealthFailure;
use crate::db::reports::NewReport;
use crate::error::ApiError;
use crate::notifications::events::emit_all;
use crate::notifications::host_events;
use crate::routes::demo_fields;
use crate::routes::fleet::path_machine_id;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::demo::{
    DemoEventRequest, DemoEventsResponse, DemoHealthRequest, DemoHealthResponse, DemoReportRequest,
    DemoReportResponse,
};
use gpudeck_wire::{operations, paths, ErrorBody};

fn no_such_machine() -> ApiError {
    ApiError::not_found("No such machine id")
}

/// D1: changes one of the caller's machines' health signals.
#[utoipa::path(
    put,
    path = paths::DEMO_MACHINE_HEALTH,
    tag = "demo",
    params(("id" = i64, Path, minimum = 1, example = 1001, description = "The machine")),
    request_body = DemoHealthRequest,
    description = "Demo or test mode only (404 otherwise). Stores the signals sent, any \
        subset, and emits, after the change, the host events its transitions are due \
        (spec fleet-health §3.5): `host:machine_offline` (online to offline), \
        `host:machine_error` (no error to one, per field), \
        `host:machine_verification_failed` (verified to not) and `host:low_disk_space` \
        (free disk from 10 % or more to under 10 %). An error set on a verified machine \
        deverifies it; clearing that error restores `verified`. A blank error is no \
        error. Needs `machine_write`.",
    responses(
        (status = 200, description = "The machine as N1 now serves it, and the events emitted", body = DemoHealthResponse),
        (status = 400, description = "`invalid_json`, or `invalid_args` naming the field: a value out of range or of the wrong type, `avail_disk_space` above the machine's `max_disk_space`, or a field D1 does not take", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn health(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    body: JsonObject,
) -> Result<Json<DemoHealthResponse>, ApiError> {
    caller.require_for(&operations::DEMO_MACHINE_HEALTH)?;
    let machine_id = path_machine_id(&raw)?;
    let change = demo_fields::health_change(&body.into_map())?;
    let now = state.clock.now();
    let owner = caller.user_id;
    let changed = state
        .db
        .run(move |conn| db::machine_health::change_health(conn, owner, machine_id, &change, now))
        .await?
        .map_err(|failure| match failure {
            HealthFailure::NotFound => no_such_machine(),
            HealthFailure::DiskAboveMax { max } => ApiError::invalid_args(format!(
                "avail_disk_space must be at most {max} (the machine's max_disk_space)"
            )),
        })?;
    let events = emit_all(&state, owner, host_events::transitions(&changed)).await?;
    Ok(Json(DemoHealthResponse {
        success: true,
        machine: changed.after,
        events,
    }))
}

/// D2: files a renter's report on one of the caller's machines.
#[utoipa::path(
    post,
    path = paths::DEMO_MACHINE_REPORTS,
    tag = "demo",
    params(("id" = i64, Path, minimum = 1, example = 1001, description = "The machine")),
    request_body = DemoReportRequest,
    description = "Demo or test mode only (404 otherwise). Stores a report as a renter's \
        (the demo's renter gustav, or the owner where there is no such user), as N24 then \
        lists it and N1 counts it, and emits `host:machine_reported`. The message is \
        truncated to 512 characters; `created_at` defaults to now. Needs `machine_write`.",
    responses(
        (status = 200, description = "The report as N24 lists it, and the event emitted", body = DemoReportResponse),
        (status = 400, description = "`invalid_json`, or `invalid_args`: `Problem must be one of: <list>`, a `message` that is not a string, a `created_at` that is not Unix seconds from 0 to now, or a field D2 does not take", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn report(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    body: JsonObject,
) -> Result<Json<DemoReportResponse>, ApiError> {
    caller.require_for(&operations::DEMO_MACHINE_REPORT)?;
    let machine_id = path_machine_id(&raw)?;
    let now = state.clock.now();
    let fields = demo_fields::report(&body.into_map(), now)?;
    let owner = caller.user_id;
    let report = state
        .db
        .run(move |conn| {
            let report = NewReport {
                machine_id,
                // The demo's renter (the owner where there is none).
                reporter_id: crate::demo::GUSTAV_ID,
                instance_id: None,
                problem: fields.problem,
                message: &fields.message,
                created_at: fields.created_at.unwrap_or(now),
            };
            db::reports::add_owned_report(conn, owner, &report)
        })
        .await?
        .ok_or_else(no_such_machine)?;
    let event = host_events::reported(machine_id, &report.problem, &report.message);
    let events = emit_all(&state, owner, vec![event]).await?;
    Ok(Json(DemoReportResponse {
        success: true,
        report,
        events,
    }))
}

/// D3: raises a host event about one of the caller's machines, changing nothing.
#[utoipa::path(
    post,
    path = paths::DEMO_MACHINE_EVENTS,
    tag = "demo",
    params(("id" = i64, Path, minimum = 1, example = 1001, description = "The machine")),
    request_body = DemoEventRequest,
    description = "Demo or test mode only (404 otherwise). Emits one event of the `host:` \
        type named, with its standard texts filled from the machine as it is (spec \
        fleet-health §3.5; its error, its newest report, its next window, its offer's end), \
        to the owner's webhooks subscribed to it. Changes nothing. Needs `machine_write`.",
    responses(
        (status = 200, description = "The event emitted", body = DemoEventsResponse),
        (status = 400, description = "`invalid_json`, or `invalid_args`: `event_type is required`, `Unknown event type: <value>` (not a `host:` key of the catalog), or a field D3 does not take", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn event(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
    body: JsonObject,
) -> Result<Json<DemoEventsResponse>, ApiError> {
    caller.require_for(&operations::DEMO_MACHINE_EVENT)?;
    let machine_id = path_machine_id(&raw)?;
    let kind = demo_fields::event_type(&body.into_map())?;
    let now = state.clock.now();
    let owner = caller.user_id;
    let (machine, reports) = state
        .db
        .run(move |conn| {
            let machine = db::fleet::machine(conn, owner, machine_id, now)?;
            let reports = db::reports::machine_reports(conn, owner, machine_id)?;
            Ok((machine, reports))
        })
        .await?;
    let machine = machine.ok_or_else(no_such_machine)?;
    let newest = reports.as_deref().and_then(<[_]>::first);
    let raised = host_events::raised(
        kind.key,
        &machine,
        newest.map(|r| (r.problem.as_str(), r.message.as_str())),
    )
    .ok_or_else(|| ApiError::invalid_args(format!("Unknown event type: {}", kind.key)))?;
    let events = emit_all(&state, owner, vec![raised]).await?;
    Ok(Json(DemoEventsResponse {
        success: true,
        events,
    }))
}
