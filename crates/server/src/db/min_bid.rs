//! The interruptible floor (fleet-health N35): sets an offer's `price_min_bid` alone.

use super::{fleet, DbError};
use gpudeck_wire::min_bid::{ceiling, check_ceiling};
use gpudeck_wire::MinBidRefusal;
use rusqlite::{params, Connection};

/// Why N35 changed nothing, beyond the body's own refusals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MinBidFailure {
    /// No such machine, or not the caller's.
    NotFound,
    /// Above the machine's ceiling.
    Refused(MinBidRefusal),
    /// The machine was never listed: it has no offer terms to change.
    NoOffer,
}

/// Sets the interruptible floor of `owner_id`'s machine `machine_id` to `price` ($/GPU-hour,
/// above 0), in one IMMEDIATE transaction. Contracts are untouched: the floor is not one of
/// the prices a contract locks (neighbours §1.7). A withdrawn offer keeps the new floor for
/// its next listing.
pub fn set_min_bid(
    conn: &mut Connection,
    owner_id: i64,
    machine_id: i64,
    price: f64,
    now: f64,
) -> Result<Result<(), MinBidFailure>, DbError> {
    let tx = super::write_tx(conn)?;
    // N1's machine, so the ceiling reads the very `total_flops` N1 serves.
    let Some(machine) = fleet::machine(&tx, owner_id, machine_id, now)? else {
        return Ok(Err(MinBidFailure::NotFound));
    };
    if let Err(refusal) = check_ceiling(price, ceiling(machine.total_flops, machine.num_gpus)) {
        return Ok(Err(MinBidFailure::Refused(refusal)));
    }
    let changed = tx.execute(
        "UPDATE offers SET price_min_bid = ?2 WHERE machine_id = ?1",
        params![machine_id, price],
    )?;
    if changed == 0 {
        return Ok(Err(MinBidFailure::NoOffer));
    }
    tx.commit()?;
    Ok(Ok(()))
}
