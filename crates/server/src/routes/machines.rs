//! `GET /machines/maintenances` and `PUT /machines/defrag_offers`.

use crate::auth::Caller;
use crate::body::JsonObject;
use crate::db;
use crate::db::machines::{Defragmented, MaintenancesRefusal};
use crate::error::ApiError;
use crate::quote::quote;
use crate::state::AppState;
use axum::extract::{RawQuery, State};
use axum::Json;
use gpudeck_wire::machine_ids::format_machine_ids;
use gpudeck_wire::operations;
use gpudeck_wire::{
    parse_machine_ids, paths, DefragRequest, DefragResult, ErrorBody, MaintenanceWindow,
};

/// `machine_ids` from a query string, in every form clients send: a URL-encoded JSON
/// array (`%5B1%2C+2%5D`), `1,2`, `7`, or repeated parameters (joined with commas).
/// Other parameters (`owner=me`, `api_key`) are ignored.
pub fn machine_ids_from_query(query: Option<&str>) -> Result<Vec<i64>, ApiError> {
    let values: Vec<String> = form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .filter(|(name, _)| name == "machine_ids")
        .map(|(_, value)| value.into_owned())
        .filter(|value| !value.trim().is_empty())
        .collect();
    parse_machine_ids(&values.join(",")).map_err(|e| ApiError::invalid_args(e.to_string()))
}

/// The 404 of a maintenance list, naming the ids asked (compactly, and cut short when long),
/// so the person sees which ids are at fault.
fn maintenances_refused(refusal: MaintenancesRefusal, ids: &[i64]) -> ApiError {
    let named = quote(&format_machine_ids(ids), 64);
    ApiError::not_found(match refusal {
        MaintenancesRefusal::NoneExist => format!("the machine_ids do not exist: {named}"),
        MaintenancesRefusal::NoneOwned => format!(
            "Include only machine_ids that exist and are owned by you; none of {named} is yours"
        ),
    })
}

/// Active maintenance windows (neither cancelled nor expired) of the caller's machines
/// among `machine_ids`, by start time. Needs `instance_read`.
#[utoipa::path(
    get,
    path = paths::MAINTENANCES,
    tag = "machines",
    params(
        ("machine_ids" = String, Query, pattern = r"^ *(\[ *[1-9][0-9]{0,17}([ ,]+[1-9][0-9]{0,17}){0,999} *\]|[1-9][0-9]{0,17}([ ,]+[1-9][0-9]{0,17}){0,999}) *$", description = "Machine ids: a JSON array (`[1, 2]`, URL-encoded), `1,2`, a single id, or the parameter repeated; ranges like `100-110` are also accepted. At most 1000.", example = "[1001, 1002]"),
        ("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)"),
    ),
    responses(
        (status = 200, description = "Active windows of the caller's machines among the ids; ids of others' machines are left out silently", body = Vec<MaintenanceWindow>),
        (status = 400, description = "`machine_ids` missing, empty, unparseable or more than 1000", body = ErrorBody),
        (status = 404, description = "None of the machines exists, or none is the caller's", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn list_maintenances(
    State(state): State<AppState>,
    caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<Vec<MaintenanceWindow>>, ApiError> {
    caller.require_for(&operations::WINDOWS)?;
    let ids = machine_ids_from_query(query.as_deref())?;
    let now = state.clock.now();
    let asked = ids.clone();
    let windows = state
        .db
        .run(move |conn| db::machines::maintenances(conn, caller.user_id, &ids, now))
        .await?
        .map_err(|refusal| maintenances_refused(refusal, &asked))?;
    Ok(Json(windows))
}

/// The answer for a defragmentation; `None` (no machine of the caller's named) is the
/// specified `{success: false, defragmented: null}`, not an error.
fn defrag_result(outcome: Option<Defragmented>) -> DefragResult {
    match outcome {
        None => DefragResult::nothing_valid(),
        Some(done) => DefragResult {
            success: true,
            defragmented: Some(done.machines),
            n0: Some(done.contracts_moved),
            n1: Some(done.offers_before),
            n2: Some(done.offers_after),
        },
    }
}

/// Recomputes the GPU slot layout of the caller's machines among `machine_ids`.
#[utoipa::path(
    put,
    path = paths::DEFRAG_OFFERS,
    tag = "machines",
    request_body = DefragRequest,
    description = "Defragments the GPU contract assignments of the caller's machines among \
        `machine_ids` (an integer, a comma-separated string or an array of integers). Free GPU \
        slots are offered as aligned power-of-two blocks; each machine's contracts are packed \
        from slot 0, largest first, when that gives a larger biggest free block or fewer \
        offers; otherwise the machine is left as it is. Needs `machine_write`.\n\n\
        * `defragmented`: ids of machines whose layout changed.\n\
        * `n0`: contracts whose GPU slots moved.\n\
        * `n1`: free-slot offers before, summed over the machines.\n\
        * `n2`: free-slot offers after, summed over the machines.\n\n\
        When none of the ids is an existing machine of the caller's, the answer is 200 \
        `{\"success\": false, \"defragmented\": null}`.",
    responses(
        (status = 200, description = "Defragmented, or `{success: false, defragmented: null}` when no id names a machine of the caller's", body = DefragResult),
        (status = 400, description = "Malformed JSON, `machine_ids` missing, of a wrong type, empty, unparseable or more than 1000", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn defrag_offers(
    State(state): State<AppState>,
    caller: Caller,
    body: JsonObject,
) -> Result<Json<DefragResult>, ApiError> {
    caller.require_for(&operations::DEFRAG_OFFERS)?;
    let DefragRequest { machine_ids } = body.read()?;
    let ids = machine_ids
        .resolve()
        .map_err(|e| ApiError::invalid_args(e.to_string()))?;
    let now = state.clock.now();
    let outcome = state
        .db
        .run(move |conn| db::machines::defragment(conn, caller.user_id, &ids, now))
        .await?;
    Ok(Json(defrag_result(outcome)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_form_parses() {
        let ok = |q: &str| machine_ids_from_query(Some(q)).unwrap();
        assert_eq!(ok("owner=me&machine_ids=%5B1%2C+2%5D"), vec![1, 2]);
        assert_eq!(ok("machine_ids=1,2"), vec![1, 2]);
        assert_eq!(ok("machine_ids=1%2C2"), vec![1, 2]);
        assert_eq!(ok("machine_ids=7"), vec![7]);
        assert_eq!(ok("machine_ids=1&machine_ids=2&owner=me"), vec![1, 2]);
        assert_eq!(ok("machine_ids=[3]&machine_ids="), vec![3]);
    }

    #[test]
    fn empty_and_bad_queries_are_refused() {
        for q in [
            None,
            Some(""),
            Some("owner=me"),
            Some("machine_ids="),
            Some("machine_ids=%5B%5D"),
        ] {
            let error = machine_ids_from_query(q).unwrap_err();
            assert_eq!(error.msg, "machine_ids cannot be empty", "{q:?}");
            assert_eq!(error.status, 400);
        }
        let error = machine_ids_from_query(Some("machine_ids=1,x")).unwrap_err();
        assert!(error.msg.contains("\"x\""));
        let error = machine_ids_from_query(Some("machine_ids=1-1001")).unwrap_err();
        assert!(error.msg.contains("at most 1000"));
    }
}
