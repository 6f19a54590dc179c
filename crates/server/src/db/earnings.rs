//! Machine earnings (fleet-health N34): what the caller's machines earned per machine and
//! per day over a window, from the stored earnings per machine and day.

use super::reports::owns_machine;
use super::DbError;
use gpudeck_wire::{
    AccountBalance, DayEarningsRow, EarningsScope, EarningsSummary, MachineEarnings,
    MachineEarningsRow,
};
use rusqlite::{params, Connection};
use std::collections::HashMap;

/// N34's refusal that only the database can tell: `machid` is not the caller's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchMachine;

/// Earnings in dollars of one machine or one day, in the answer's order.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Amounts {
    gpu: f64,
    sto: f64,
    bwu: f64,
    bwd: f64,
    sla: f64,
}

/// Dollars to 4 decimal places (spec: amounts are rounded so).
fn cents4(amount: f64) -> f64 {
    (amount * 10_000.0).round() / 10_000.0
}

/// Sums of the stored earnings in the window, keyed by the column `key` (machine or day).
fn sums(
    conn: &Connection,
    owner_id: i64,
    scope: &EarningsScope,
    key: &str,
) -> Result<HashMap<i64, Amounts>, DbError> {
    let sql = format!(
        "SELECT e.{key}, SUM(e.gpu_earn), SUM(e.sto_earn), SUM(e.bwu_earn), SUM(e.bwd_earn),
                SUM(e.sla_earn)
         FROM machine_earnings e JOIN machines m ON m.id = e.machine_id
         WHERE m.owner_id = ?1 AND (?2 IS NULL OR m.id = ?2) AND e.day BETWEEN ?3 AND ?4
         GROUP BY e.{key}"
    );
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map(
        params![owner_id, scope.machine, scope.sday, scope.eday],
        |row| {
            Ok((
                row.get(0)?,
                Amounts {
                    gpu: row.get(1)?,
                    sto: row.get(2)?,
                    bwu: row.get(3)?,
                    bwd: row.get(4)?,
                    sla: row.get(5)?,
                },
            ))
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The machines in scope with their current `reliability2`, by id.
fn machines(
    conn: &Connection,
    owner_id: i64,
    scope: &EarningsScope,
) -> Result<Vec<(i64, f64)>, DbError> {
    let mut statement = conn.prepare_cached(
        "SELECT id, reliability2 FROM machines WHERE owner_id = ?1 AND (?2 IS NULL OR id = ?2)
         ORDER BY id",
    )?;
    let rows = statement.query_map(params![owner_id, scope.machine], |row| {
        Ok((row.get(0)?, row.get(1)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The account part of the answer: `current`, `username` and `email`.
struct Account {
    username: String,
    email: String,
    balance: f64,
}

fn account(conn: &Connection, user_id: i64) -> Result<Account, DbError> {
    Ok(conn.query_row(
        "SELECT username, email, balance FROM users WHERE id = ?1",
        [user_id],
        |row| {
            Ok(Account {
                username: row.get(0)?,
                email: row.get(1)?,
                balance: row.get(2)?,
            })
        },
    )?)
}

/// What `owner_id`'s machines in `scope` earned: one row per machine and one per day of the
/// window, zeros included. `Err(NoSuchMachine)` when `scope` names a machine that is not
/// the caller's. Read in one transaction, so the rows and the totals agree.
pub fn machine_earnings(
    conn: &mut Connection,
    owner_id: i64,
    scope: &EarningsScope,
) -> Result<Result<MachineEarnings, NoSuchMachine>, DbError> {
    let tx = conn.transaction()?;
    if let Some(machine_id) = scope.machine {
        if !owns_machine(&tx, owner_id, machine_id)? {
            return Ok(Err(NoSuchMachine));
        }
    }
    let machines = machines(&tx, owner_id, scope)?;
    let by_machine = sums(&tx, owner_id, scope, "machine_id")?;
    let by_day = sums(&tx, owner_id, scope, "day")?;
    let account = account(&tx, owner_id)?;
    tx.finish()?;

    let per_machine: Vec<MachineEarningsRow> = machines
        .iter()
        .map(|&(machine_id, reliability)| {
            let earned = by_machine.get(&machine_id).copied().unwrap_or_default();
            MachineEarningsRow {
                machine_id,
                gpu_earn: cents4(earned.gpu),
                sto_earn: cents4(earned.sto),
                bwu_earn: cents4(earned.bwu),
                bwd_earn: cents4(earned.bwd),
                sla_earn: Some(cents4(earned.sla)),
                reliability: Some(reliability),
            }
        })
        .collect();
    let per_day = scope
        .days()
        .map(|day| {
            let earned = by_day.get(&day).copied().unwrap_or_default();
            DayEarningsRow {
                day,
                gpu_earn: cents4(earned.gpu),
                sto_earn: cents4(earned.sto),
                bwu_earn: cents4(earned.bwu),
                bwd_earn: cents4(earned.bwd),
                sla_earn: Some(cents4(earned.sla)),
                reliability: None,
            }
        })
        .collect();
    let total = by_machine
        .values()
        .fold(Amounts::default(), |sum, earned| Amounts {
            gpu: sum.gpu + earned.gpu,
            sto: sum.sto + earned.sto,
            bwu: sum.bwu + earned.bwu,
            bwd: sum.bwd + earned.bwd,
            sla: sum.sla + earned.sla,
        });
    let avg_reliability = (!machines.is_empty()).then(|| {
        machines
            .iter()
            .map(|&(_, reliability)| reliability)
            .sum::<f64>()
            / machines.len() as f64
    });
    let balance = cents4(account.balance);
    Ok(Ok(MachineEarnings {
        sday: Some(scope.sday),
        eday: Some(scope.eday),
        summary: EarningsSummary {
            total_gpu: cents4(total.gpu),
            total_stor: cents4(total.sto),
            total_bwu: cents4(total.bwu),
            total_bwd: cents4(total.bwd),
            total_sla: Some(cents4(total.sla)),
            avg_reliability,
        },
        per_machine,
        per_day,
        current: Some(AccountBalance {
            balance: Some(balance),
            service_fee: Some(0.0),
            total: Some(balance),
            credit: Some(0.0),
        }),
        username: Some(account.username),
        email: Some(account.email),
        fullname: None,
        address1: None,
        address2: None,
        city: None,
        zip: None,
        country: None,
        taxinfo: None,
    }))
}

/// One machine's earnings on one day, to store.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayEarned {
    pub machine_id: i64,
    pub day: i64,
    pub gpu_earn: f64,
    pub sto_earn: f64,
    pub bwu_earn: f64,
    pub bwd_earn: f64,
    pub sla_earn: f64,
}

/// Stores (or replaces) a machine's earnings on a day.
pub fn record_day(conn: &Connection, earned: &DayEarned) -> Result<(), DbError> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO machine_earnings
             (machine_id, day, gpu_earn, sto_earn, bwu_earn, bwd_earn, sla_earn)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        earned.machine_id,
        earned.day,
        earned.gpu_earn,
        earned.sto_earn,
        earned.bwu_earn,
        earned.bwd_earn,
        earned.sla_earn
    ])?;
    Ok(())
}
