//! `GET /machines` (N1) and `GET /machines/{id}` (N2): the caller's machines.

use crate::auth::Caller;
use crate::db;
use crate::error::ApiError;
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::Json;
use gpudeck_wire::operations;
use gpudeck_wire::{paths, whole_number, ErrorBody, Machine, MachineList};

/// A machine id from the path: a positive integer, or `None`. As in bodies, a whole number
/// written with a fraction part (`1001.0`) counts (the document calls the id an integer).
pub fn machine_id_from_path(raw: &str) -> Option<i64> {
    let id = raw.parse::<i64>().ok().or_else(|| {
        raw.parse::<f64>()
            .ok()
            .and_then(|f| whole_number::from_f64(f).ok())
    })?;
    (id >= 1).then_some(id)
}

/// The path id of N2 and N23 (unlist machine), or their 400 naming what was sent.
pub fn path_machine_id(raw: &str) -> Result<i64, ApiError> {
    machine_id_from_path(raw).ok_or_else(|| {
        ApiError::invalid_args(format!(
            "Missing or invalid machine_id: '{}'",
            quote(raw, 32)
        ))
    })
}

/// The caller's machines by id. `owner` and `user_id` are ignored: the answer is always
/// the caller's own machines. Needs `machine_read`.
#[utoipa::path(
    get,
    path = paths::MACHINES,
    tag = "machines",
    params(
        ("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)"),
        ("user_id" = Option<String>, Query, description = "Ignored"),
    ),
    responses((status = 200, description = "The caller's machines, by id", body = MachineList)),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<MachineList>, ApiError> {
    caller.require_for(&operations::MACHINES)?;
    let now = state.clock.now();
    let machines = state
        .db
        .run(move |conn| db::fleet::machines(conn, caller.user_id, None, now))
        .await?;
    Ok(Json(MachineList { machines }))
}

/// One of the caller's machines, as a one-element array. Needs `machine_read`.
#[utoipa::path(
    get,
    path = paths::MACHINE,
    tag = "machines",
    params(
        ("id" = i64, Path, minimum = 1, example = 1001, description = "The machine"),
        ("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)"),
    ),
    responses(
        (status = 200, description = "A bare array holding the machine", body = Vec<Machine>),
        (status = 400, description = "The id is not a positive integer", body = ErrorBody),
        (status = 404, description = "No such machine, or it is not the caller's", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
) -> Result<Json<Vec<Machine>>, ApiError> {
    caller.require_for(&operations::MACHINE)?;
    let id = path_machine_id(&raw)?;
    let now = state.clock.now();
    let machine = state
        .db
        .run(move |conn| db::fleet::machine(conn, caller.user_id, id, now))
        .await?;
    machine
        .map(|machine| Json(vec![machine]))
        .ok_or_else(|| ApiError::not_found("No such machine id"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_ids_are_positive_integers() {
        assert_eq!(machine_id_from_path("1001"), Some(1001));
        assert_eq!(machine_id_from_path("1001.0"), Some(1001));
        assert_eq!(machine_id_from_path("1e3"), Some(1000));
        for bad in [
            "0",
            "-1",
            "1.5",
            "x",
            "",
            "99999999999999999999",
            "1e19",
            "1 ",
            "NaN",
            "inf",
        ] {
            assert_eq!(machine_id_from_path(bad), None, "{bad}");
        }
    }
}
