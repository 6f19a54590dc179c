//! Renter reports (fleet-health N24): what renters reported on the caller's machines.

use super::DbError;
use gpudeck_wire::reports::MAX_REPORTS;
use gpudeck_wire::{NumberOrText, RenterReport};
use rusqlite::{params, Connection, OptionalExtension};

/// N1's `num_recent_reports` counts the reports of the last 7 days (fleet-health §1.1, a
/// project rule: the public window is unknown).
pub const RECENT_REPORTS_SECS: f64 = 7.0 * 86_400.0;

/// Whether `machine_id` is one of `owner_id`'s machines.
pub fn owns_machine(conn: &Connection, owner_id: i64, machine_id: i64) -> Result<bool, DbError> {
    Ok(conn
        .query_row(
            "SELECT 1 FROM machines WHERE id = ?1 AND owner_id = ?2",
            params![machine_id, owner_id],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The newest [`MAX_REPORTS`] reports on `machine_id`, newest first (the later id first
/// among equal times), or `None` when it is not one of `owner_id`'s machines.
pub fn machine_reports(
    conn: &Connection,
    owner_id: i64,
    machine_id: i64,
) -> Result<Option<Vec<RenterReport>>, DbError> {
    if !owns_machine(conn, owner_id, machine_id)? {
        return Ok(None);
    }
    let mut statement = conn.prepare_cached(
        "SELECT problem, message, created_at FROM machine_reports WHERE machine_id = ?1
         ORDER BY created_at DESC, id DESC LIMIT ?2",
    )?;
    let reports = statement
        .query_map(params![machine_id, MAX_REPORTS as i64], |row| {
            Ok(RenterReport {
                problem: row.get(0)?,
                message: row.get(1)?,
                created_at: NumberOrText::Number(row.get(2)?),
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(Some(reports))
}

/// A report to store: what a renter filed about a machine.
#[derive(Debug, Clone, PartialEq)]
pub struct NewReport<'a> {
    pub machine_id: i64,
    pub reporter_id: i64,
    pub instance_id: Option<i64>,
    pub problem: &'a str,
    /// Kept to its first 512 characters, as the public service truncates it.
    pub message: &'a str,
    pub created_at: f64,
}

/// Stores `report`; its id.
pub fn add_report(conn: &Connection, report: &NewReport<'_>) -> Result<i64, DbError> {
    let message: String = report
        .message
        .chars()
        .take(gpudeck_wire::reports::MAX_REPORT_MESSAGE_CHARS)
        .collect();
    conn.execute(
        "INSERT INTO machine_reports
             (machine_id, reporter_id, instance_id, problem, message, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            report.machine_id,
            report.reporter_id,
            report.instance_id,
            report.problem,
            message,
            report.created_at
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Files `report` on one of `owner_id`'s machines (D2), by its `reporter_id` when that user
/// exists (the demo's renter), else by the owner (a database without the demo has no
/// renter to stand for one; N24 never shows who reported). The report as N24 will list
/// it, or `None` when the machine is not the owner's.
pub fn add_owned_report(
    conn: &mut Connection,
    owner_id: i64,
    report: &NewReport<'_>,
) -> Result<Option<RenterReport>, DbError> {
    let tx = super::write_tx(conn)?;
    if !owns_machine(&tx, owner_id, report.machine_id)? {
        return Ok(None);
    }
    let reporter_exists = tx
        .query_row(
            "SELECT 1 FROM users WHERE id = ?1",
            [report.reporter_id],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    let report = NewReport {
        reporter_id: if reporter_exists {
            report.reporter_id
        } else {
            owner_id
        },
        ..report.clone()
    };
    let id = add_report(&tx, &report)?;
    let stored = tx.query_row(
        "SELECT problem, message, created_at FROM machine_reports WHERE id = ?1",
        [id],
        |row| {
            Ok(RenterReport {
                problem: row.get(0)?,
                message: row.get(1)?,
                created_at: NumberOrText::Number(row.get(2)?),
            })
        },
    )?;
    tx.commit()?;
    Ok(Some(stored))
}
