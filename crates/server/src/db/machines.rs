//! Machines: maintenance windows and GPU slot defragmentation.

use super::listing::active_contract;
use super::{id_array, write_tx, DbError};
use crate::defrag::{self, Contract};
use gpudeck_wire::{MaintenanceCategory, MaintenanceWindow};
use rusqlite::{params, Connection};
use std::collections::HashMap;

/// The owners of the machines `?1` that exist.
const OWNERS: &str = "SELECT id, owner_id FROM machines WHERE id IN rarray(?1)";

/// Of `ids`, which exist and which of those `owner_id` owns (in the order asked).
pub(super) fn owned_among(
    conn: &Connection,
    owner_id: i64,
    ids: &[i64],
) -> Result<(usize, Vec<i64>), DbError> {
    let owner_of: HashMap<i64, i64> = conn
        .prepare_cached(OWNERS)?
        .query_map([id_array(ids)], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let owned = ids
        .iter()
        .copied()
        .filter(|id| owner_of.get(id) == Some(&owner_id))
        .collect();
    Ok((owner_of.len(), owned))
}

/// Active windows of the machines `?1` at time `?2`. The end expression is the one the
/// index `maintenances_active_by_end` (migration 0002) is built on, so SQLite reads only
/// uncancelled windows that end after now.
pub(super) const ACTIVE_WINDOWS: &str = "
    SELECT id, machine_id, start_time, duration_hours, category, reason, created_at,
           cancelled_at, scheduled_by_marketplace
    FROM maintenances
    WHERE machine_id IN rarray(?1) AND cancelled_at IS NULL
      AND start_time + duration_hours * 3600.0 > ?2
    ORDER BY start_time, id";

/// Why no maintenance windows were listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaintenancesRefusal {
    /// None of the ids names a machine.
    NoneExist,
    /// Some exist, but none is the caller's.
    NoneOwned,
}

/// Active windows (not cancelled, `end_time > now`) of `owner_id`'s machines among `ids`,
/// by start time then id. Machines of others are left out without a word.
pub fn maintenances(
    conn: &Connection,
    owner_id: i64,
    ids: &[i64],
    now: f64,
) -> Result<Result<Vec<MaintenanceWindow>, MaintenancesRefusal>, DbError> {
    let (existing, owned) = owned_among(conn, owner_id, ids)?;
    if existing == 0 {
        return Ok(Err(MaintenancesRefusal::NoneExist));
    }
    if owned.is_empty() {
        return Ok(Err(MaintenancesRefusal::NoneOwned));
    }
    let mut statement = conn.prepare_cached(ACTIVE_WINDOWS)?;
    let rows = statement.query_map(params![id_array(&owned), now], |r| {
        let start_time: f64 = r.get(2)?;
        let duration_hours: i64 = r.get(3)?;
        Ok(MaintenanceWindow {
            id: r.get(0)?,
            machine_id: r.get(1)?,
            start_time,
            duration_hours,
            maintenance_category: MaintenanceCategory::from_stored(&r.get::<_, String>(4)?),
            maintenance_reason: r.get(5)?,
            created_at: r.get(6)?,
            cancelled_at: r.get(7)?,
            end_time: MaintenanceWindow::computed_end(start_time, duration_hours),
            scheduled_by_marketplace: r.get(8)?,
        })
    })?;
    Ok(Ok(rows.collect::<Result<_, _>>()?))
}

/// What defragmenting changed, summed over the machines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defragmented {
    /// Machines whose layout changed, in the order asked.
    pub machines: Vec<i64>,
    /// Contracts whose GPU slots moved.
    pub contracts_moved: i64,
    /// Free-slot offers before.
    pub offers_before: i64,
    /// Free-slot offers after.
    pub offers_after: i64,
}

/// Defragments `owner_id`'s machines among `ids` in one IMMEDIATE transaction; `None`
/// when none of them is the caller's. Only contracts active at `now` hold slots and move.
pub fn defragment(
    conn: &mut Connection,
    owner_id: i64,
    ids: &[i64],
    now: f64,
) -> Result<Option<Defragmented>, DbError> {
    let tx = write_tx(conn)?;
    let (_, owned) = owned_among(&tx, owner_id, ids)?;
    if owned.is_empty() {
        return Ok(None);
    }
    let (mut moved, mut before, mut after) = (0i64, 0i64, 0i64);
    let mut changed = Vec::new();
    for machine_id in owned {
        let num_gpus: u32 = tx.query_row(
            "SELECT num_gpus FROM machines WHERE id = ?1",
            [machine_id],
            |r| r.get(0),
        )?;
        let contracts: Vec<Contract> = tx
            .prepare_cached(&format!(
                "SELECT id, slot_start, gpu_count FROM contracts c
                 WHERE machine_id = ?1 AND {} ORDER BY id",
                active_contract("?2")
            ))?
            .query_map(params![machine_id, now], |r| {
                Ok(Contract {
                    id: r.get(0)?,
                    slot_start: r.get(1)?,
                    gpu_count: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let outcome = defrag::defragment(num_gpus, &contracts);
        for (old, new) in contracts.iter().zip(&outcome.contracts) {
            if old.slot_start != new.slot_start {
                tx.execute(
                    "UPDATE contracts SET slot_start = ?1 WHERE id = ?2",
                    params![new.slot_start, new.id],
                )?;
            }
        }
        if outcome.changed {
            changed.push(machine_id);
        }
        moved += outcome.moved as i64;
        before += outcome.offers_before as i64;
        after += outcome.offers_after as i64;
    }
    tx.commit()?;
    Ok(Some(Defragmented {
        machines: changed,
        contracts_moved: moved,
        offers_before: before,
        offers_after: after,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{Db, DbLocation};

    /// SQLite's plan for `sql` with `parameters`, one line per step.
    fn query_plan(sql: &str, parameters: impl rusqlite::Params) -> String {
        let db = Db::open(&DbLocation::Memory).unwrap();
        db.with_conn(|conn| {
            let mut statement = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
            let steps = statement
                .query_map(parameters, |r| r.get::<_, String>(3))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(steps.join("\n"))
        })
        .unwrap()
    }

    #[test]
    fn the_active_window_list_reads_only_the_active_index() {
        let plan = query_plan(ACTIVE_WINDOWS, params![id_array(&[1, 2, 3]), 0.0]);
        assert!(
            plan.contains("USING INDEX maintenances_active_by_end (machine_id=? AND <expr>>?)"),
            "{plan}"
        );
        assert!(!plan.contains("SCAN maintenances"), "{plan}");
    }

    #[test]
    fn owners_are_looked_up_by_primary_key() {
        let plan = query_plan(OWNERS, [id_array(&[1, 2, 3])]);
        assert!(
            plan.contains("SEARCH machines USING INTEGER PRIMARY KEY (rowid=?)"),
            "{plan}"
        );
        assert!(!plan.contains("SCAN machines"), "{plan}");
    }
}
