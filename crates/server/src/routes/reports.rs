//! Renter reports: fleet-health N24 `GET /machines/{id}/reports/`. Needs `machine_read`.

use crate::auth::Caller;
use crate::db;
use crate::error::ApiError;
use crate::routes::fleet::path_machine_id;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{paths, ErrorBody, RenterReport};

/// The newest 20 reports renters filed on one of the caller's machines, newest first.
#[utoipa::path(
    get,
    path = paths::MACHINE_REPORTS,
    tag = "machines",
    params(("id" = i64, Path, minimum = 1, example = 1058, description = "The machine")),
    description = "The 20 most recent problem reports renters filed on one of the caller's \
        machines, newest first; `[]` when there are none. `created_at` is Unix seconds. A \
        GET body (the official client sends `{\"machine_id\": …}`) is ignored. Needs \
        `machine_read`.",
    responses(
        (status = 200, description = "A bare array of reports, newest first", body = Vec<RenterReport>),
        (status = 400, description = "`Missing or invalid machine_id: '<value>'`", body = ErrorBody),
        (status = 404, description = "`No such machine id` (absent, or not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
) -> Result<Json<Vec<RenterReport>>, ApiError> {
    caller.require_for(&operations::MACHINE_REPORTS)?;
    let machine_id = path_machine_id(&raw)?;
    let reports = state
        .db
        .run(move |conn| db::reports::machine_reports(conn, caller.user_id, machine_id))
        .await?;
    reports
        .map(Json)
        .ok_or_else(|| ApiError::not_found("No such machine id"))
}
