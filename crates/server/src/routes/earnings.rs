//! Machine earnings: fleet-health N34 `GET /users/{user_id}/machine-earnings/`. Needs
//! `billing_read`.

use crate::auth::Caller;
use crate::db;
use crate::db::earnings::NoSuchMachine;
use crate::error::ApiError;
use crate::query_string::first_query_value;
use crate::state::AppState;
use axum::extract::{Path, RawQuery, State};
use axum::Json;
use gpudeck_wire::earnings::day_of;
use gpudeck_wire::operations;
use gpudeck_wire::{paths, EarningsQuery, ErrorBody, MachineEarnings};

/// `{user_id}` names the caller: `me` (the official client's form) or its own id.
fn names_caller(raw: &str, caller_id: i64) -> bool {
    raw == "me" || raw.parse::<i64>() == Ok(caller_id)
}

/// What the caller's machines earned over a window of whole UTC days.
#[utoipa::path(
    get,
    path = paths::MACHINE_EARNINGS,
    tag = "machines",
    params(
        ("user_id" = String, Path, example = "me", description = "`me` or the caller's own id"),
        ("sday" = Option<String>, Query, example = "20454.0", description = "First day: days since 1970-01-01 as a JSON number, integer or float, floored"),
        ("eday" = Option<String>, Query, example = "20484.0", description = "Last day, inclusive, read as `sday`. With neither day: yesterday, or the `last_days` before today"),
        ("last_days" = Option<String>, Query, example = "30", description = "1–366: the window when no day is given"),
        ("machid" = Option<String>, Query, example = "1001", description = "One of the caller's machines; absent, empty or `null` for all of them"),
        ("owner" = Option<String>, Query, description = "Ignored (the official client sends `owner=me`)"),
    ),
    description = "Earnings per machine (one row per machine in scope, zeros included) and \
        per day (one row per day of the window, ascending, zeros included), their totals and \
        the account's balance. A window is at most 366 days. Amounts are US dollars rounded \
        to 4 decimals. Needs `billing_read`.",
    responses(
        (status = 200, description = "The window's earnings", body = MachineEarnings),
        (status = 400, description = "`Invalid input syntax: <reason>`: a day that is not a number of days since 1970-01-01, `sday` after `eday`, a window longer than 366 days, a bad `last_days` or `machid`", body = ErrorBody),
        (status = 403, description = "`you may only read your own earnings`", body = ErrorBody),
        (status = 404, description = "`No such machine id` (`machid` is not the caller's)", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn read(
    State(state): State<AppState>,
    caller: Caller,
    Path(user_id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<MachineEarnings>, ApiError> {
    caller.require_for(&operations::MACHINE_EARNINGS)?;
    if !names_caller(&user_id, caller.user_id) {
        return Err(ApiError::forbidden("you may only read your own earnings"));
    }
    let value = |name| first_query_value(query.as_deref(), name);
    let (sday, eday, last_days, machid) = (
        value("sday"),
        value("eday"),
        value("last_days"),
        value("machid"),
    );
    let scope = EarningsQuery {
        sday: sday.as_deref(),
        eday: eday.as_deref(),
        last_days: last_days.as_deref(),
        machid: machid.as_deref(),
    }
    .scope(day_of(state.clock.now()))
    .map_err(|refusal| ApiError::invalid_args(refusal.to_string()))?;
    let earnings = state
        .db
        .run(move |conn| db::earnings::machine_earnings(conn, caller.user_id, &scope))
        .await?;
    earnings
        .map(Json)
        .map_err(|NoSuchMachine| ApiError::not_found("No such machine id"))
}

#[cfg(test)]
mod tests {
    use super::names_caller;

    #[test]
    fn the_user_is_me_or_the_callers_own_id() {
        assert!(names_caller("me", 1));
        assert!(names_caller("1", 1));
        for other in ["2", "Me", "", "1.5", "01x", "me "] {
            assert!(!names_caller(other, 1), "{other}");
        }
    }
}
