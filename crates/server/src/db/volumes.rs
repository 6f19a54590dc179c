//! Volume asks and the volumes created from them.

use super::{write_tx, DbError};
use rusqlite::{params, Connection, OptionalExtension};

/// Why a volume ask was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcceptVolumeRefusal {
    /// No volume ask has this id.
    AskNotFound { ask_id: i64 },
    /// The ask has `left` GB left, fewer than the `asked` GB.
    InsufficientCapacity { ask_id: i64, left: i64, asked: i64 },
}

/// Creates a volume of `size` GB on ask `ask_id` for `owner_id` and returns its id. The
/// capacity check and the insert share one IMMEDIATE transaction, so concurrent accepts
/// can never overdraw an ask.
pub fn accept(
    conn: &mut Connection,
    owner_id: i64,
    ask_id: i64,
    size: i64,
    now: f64,
) -> Result<Result<i64, AcceptVolumeRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let capacity: Option<i64> = tx
        .query_row(
            "SELECT disk_space FROM volume_asks WHERE id = ?1",
            [ask_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(capacity) = capacity else {
        return Ok(Err(AcceptVolumeRefusal::AskNotFound { ask_id }));
    };
    let used: i64 = tx.query_row(
        "SELECT COALESCE(SUM(size), 0) FROM volumes WHERE ask_id = ?1",
        [ask_id],
        |r| r.get(0),
    )?;
    let left = (capacity - used).max(0);
    if size > left {
        return Ok(Err(AcceptVolumeRefusal::InsufficientCapacity {
            ask_id,
            left,
            asked: size,
        }));
    }
    tx.execute(
        "INSERT INTO volumes (ask_id, owner_id, size, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![ask_id, owner_id, size, now],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(Ok(id))
}
