//! Scheduling and cancelling maintenance windows (N3–N7). Each operation is one IMMEDIATE
//! transaction, so parallel requests never both act on the same state.

use super::listing::active_contract;
use super::machines::owned_among;
use super::{write_tx, DbError};
use gpudeck_wire::WindowPlan;
use rusqlite::{params, Connection, OptionalExtension, Transaction};

/// Whether `owner_id` owns machine `machine_id`.
fn owns(tx: &Transaction<'_>, owner_id: i64, machine_id: i64) -> Result<bool, DbError> {
    let owner: Option<i64> = tx
        .query_row(
            "SELECT owner_id FROM machines WHERE id = ?1",
            [machine_id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(owner == Some(owner_id))
}

/// Inserts a window the host scheduled and returns how many renters are told: the
/// distinct renters with active contracts on the machine (no e-mail is sent).
fn insert_window(
    tx: &Transaction<'_>,
    machine_id: i64,
    plan: &WindowPlan,
    reason: Option<&str>,
    now: f64,
) -> Result<i64, DbError> {
    tx.prepare_cached(
        "INSERT INTO maintenances (machine_id, start_time, duration_hours, category, reason,
                                   created_at, cancelled_at, scheduled_by_marketplace)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, 0)",
    )?
    .execute(params![
        machine_id,
        plan.start_time,
        plan.duration_hours,
        plan.category.as_str(),
        reason,
        now
    ])?;
    let renters = format!(
        "SELECT COUNT(DISTINCT renter_id) FROM contracts c WHERE machine_id = ?1 AND {}",
        active_contract("?2")
    );
    Ok(tx
        .prepare_cached(&renters)?
        .query_row(params![machine_id, now], |r| r.get(0))?)
}

/// Schedules a window on one of `owner_id`'s machines; the renters told, or `None` when
/// the machine is absent or someone else's.
pub fn schedule(
    conn: &mut Connection,
    owner_id: i64,
    machine_id: i64,
    plan: &WindowPlan,
    reason: Option<&str>,
    now: f64,
) -> Result<Option<i64>, DbError> {
    let tx = write_tx(conn)?;
    if !owns(&tx, owner_id, machine_id)? {
        return Ok(None);
    }
    let told = insert_window(&tx, machine_id, plan, reason, now)?;
    tx.commit()?;
    Ok(Some(told))
}

/// Schedules the same window on each of `ids` that is `owner_id`'s, in one transaction
/// with one `created_at`. Per id, in the order asked: the renters told, or `None`.
pub fn schedule_batch(
    conn: &mut Connection,
    owner_id: i64,
    ids: &[i64],
    plan: &WindowPlan,
    now: f64,
) -> Result<Vec<(i64, Option<i64>)>, DbError> {
    let tx = write_tx(conn)?;
    let (_, owned) = owned_among(&tx, owner_id, ids)?;
    let mut results = Vec::with_capacity(ids.len());
    for &machine_id in ids {
        let told = if owned.contains(&machine_id) {
            Some(insert_window(&tx, machine_id, plan, None, now)?)
        } else {
            None
        };
        results.push((machine_id, told));
    }
    tx.commit()?;
    Ok(results)
}

/// What cancelling every window of a machine did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MachineCancellation {
    /// Upcoming and ongoing windows now cancelled.
    pub cancelled: usize,
    /// Upcoming and ongoing windows the marketplace scheduled, left as they were.
    pub kept: usize,
}

/// Cancels the upcoming and ongoing windows of one of `owner_id`'s machines, except those
/// the marketplace scheduled; `None` when the machine is absent or someone else's.
pub fn cancel_machine(
    conn: &mut Connection,
    owner_id: i64,
    machine_id: i64,
    now: f64,
) -> Result<Option<MachineCancellation>, DbError> {
    let tx = write_tx(conn)?;
    if !owns(&tx, owner_id, machine_id)? {
        return Ok(None);
    }
    // The end expression is the active index's (migration 0002).
    let cancelled = tx.execute(
        "UPDATE maintenances SET cancelled_at = ?2
         WHERE machine_id = ?1 AND cancelled_at IS NULL
           AND start_time + duration_hours * 3600.0 > ?2 AND scheduled_by_marketplace = 0",
        params![machine_id, now],
    )?;
    let kept: i64 = tx.query_row(
        "SELECT COUNT(*) FROM maintenances
         WHERE machine_id = ?1 AND cancelled_at IS NULL
           AND start_time + duration_hours * 3600.0 > ?2 AND scheduled_by_marketplace = 1",
        params![machine_id, now],
        |r| r.get(0),
    )?;
    tx.commit()?;
    Ok(Some(MachineCancellation {
        cancelled,
        kept: kept as usize,
    }))
}

/// Why a window was not cancelled, in the order the checks are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelRefusal {
    /// No window has this id.
    NotFound,
    /// The window is on a machine of someone else's.
    NotOwner,
    /// The marketplace scheduled it.
    ByMarketplace,
    AlreadyCancelled,
    Completed,
}

/// One window's cancellation, or why not.
pub type CancelOutcome = Result<(), CancelRefusal>;

/// Cancels one window inside `tx`.
fn cancel_one(
    tx: &Transaction<'_>,
    owner_id: i64,
    maintenance_id: i64,
    now: f64,
) -> Result<CancelOutcome, DbError> {
    let found: Option<(i64, Option<f64>, f64, bool)> = tx
        .prepare_cached(
            "SELECT m.owner_id, w.cancelled_at, w.start_time + w.duration_hours * 3600.0,
                    w.scheduled_by_marketplace
             FROM maintenances w JOIN machines m ON m.id = w.machine_id
             WHERE w.id = ?1",
        )?
        .query_row([maintenance_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?;
    let Some((owner, cancelled_at, end_time, by_marketplace)) = found else {
        return Ok(Err(CancelRefusal::NotFound));
    };
    let refusal = if owner != owner_id {
        Some(CancelRefusal::NotOwner)
    } else if by_marketplace {
        Some(CancelRefusal::ByMarketplace)
    } else if cancelled_at.is_some() {
        Some(CancelRefusal::AlreadyCancelled)
    } else if end_time <= now {
        Some(CancelRefusal::Completed)
    } else {
        None
    };
    if let Some(refusal) = refusal {
        return Ok(Err(refusal));
    }
    tx.prepare_cached("UPDATE maintenances SET cancelled_at = ?2 WHERE id = ?1")?
        .execute(params![maintenance_id, now])?;
    Ok(Ok(()))
}

/// Cancels window `maintenance_id` of one of `owner_id`'s machines.
pub fn cancel_window(
    conn: &mut Connection,
    owner_id: i64,
    maintenance_id: i64,
    now: f64,
) -> Result<CancelOutcome, DbError> {
    let tx = write_tx(conn)?;
    let outcome = cancel_one(&tx, owner_id, maintenance_id, now)?;
    tx.commit()?;
    Ok(outcome)
}

/// Cancels each of `ids` in one transaction, all with the same `cancelled_at`; the
/// outcome per id, in the order asked.
pub fn cancel_windows(
    conn: &mut Connection,
    owner_id: i64,
    ids: &[i64],
    now: f64,
) -> Result<Vec<(i64, CancelOutcome)>, DbError> {
    let tx = write_tx(conn)?;
    let mut outcomes = Vec::with_capacity(ids.len());
    for &id in ids {
        outcomes.push((id, cancel_one(&tx, owner_id, id, now)?));
    }
    tx.commit()?;
    Ok(outcomes)
}
