//! Volume asks and the volumes created from them.

use super::write_tx;
use crate::error::ApiError;
use rusqlite::{params, Connection, OptionalExtension};

/// Creates a volume of `size` GB on ask `ask_id` for `owner_id` and returns its name,
/// `V.<id>`. The capacity check and the insert share one IMMEDIATE transaction, so
/// concurrent accepts can never overdraw an ask.
pub fn accept(
    conn: &mut Connection,
    owner_id: i64,
    ask_id: i64,
    size: i64,
    now: f64,
) -> Result<String, ApiError> {
    let tx = write_tx(conn)?;
    let capacity: Option<i64> = tx
        .query_row(
            "SELECT disk_space FROM volume_asks WHERE id = ?1",
            [ask_id],
            |r| r.get(0),
        )
        .optional()?;
    let capacity =
        capacity.ok_or_else(|| ApiError::not_found(format!("volume ask {ask_id} not found")))?;
    let used: i64 = tx.query_row(
        "SELECT COALESCE(SUM(size), 0) FROM volumes WHERE ask_id = ?1",
        [ask_id],
        |r| r.get(0),
    )?;
    let left = (capacity - used).max(0);
    if size > left {
        return Err(ApiError::conflict(
            "insufficient_capacity",
            format!("volume ask {ask_id} has {left} GB left; {size} GB asked"),
        ));
    }
    tx.execute(
        "INSERT INTO volumes (ask_id, owner_id, size, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![ask_id, owner_id, size, now],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(format!("V.{id}"))
}
