//! Offers and rental contracts (§1.7): listing a machine (N22) and unlisting it (N23).
//!
//! A machine has at most one offer (a row of `offers`). It is listed while the offer is
//! not withdrawn and its end date is null or later than now; at the end date it expires by
//! itself, and its terms stay for the next listing. A contract locks each of the offer's
//! prices (GPU, storage, upload, download) and its end date; only N22's extension moves
//! that end date, and only later.

use super::{write_tx, DbError};
use gpudeck_wire::listing::{min_chunk_fits, DEFAULT_CREDIT_DISCOUNT_MAX, DEFAULT_PRICE_DISK};
use gpudeck_wire::{EndChange, ListingChange, ListingRefusal};
use rusqlite::{params, Connection, OptionalExtension, Row, Transaction};

/// The columns [`Offer::from_row`] reads, of `offers` joined as `o`.
pub const OFFER_COLUMNS: &str = "o.machine_id, o.price_gpu, o.price_min_bid, o.price_disk,
    o.price_inetu, o.price_inetd, o.min_chunk, o.credit_discount_max, o.end_date, o.duration,
    o.vol_size, o.vol_price, o.withdrawn_at";

/// Whether the contract `c` is active at the time bound to `now_parameter` (e.g. `?3`):
/// its rental end date is null or later. An ended contract is no running rental, holds no
/// GPU slot and is not moved by defragmentation.
pub fn active_contract(now_parameter: &str) -> String {
    format!("(c.end_date IS NULL OR c.end_date > {now_parameter})")
}

/// A machine's offer: its terms, end date and whether it was withdrawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    pub price_gpu: f64,
    pub price_min_bid: f64,
    pub price_disk: f64,
    pub price_inetu: Option<f64>,
    pub price_inetd: Option<f64>,
    pub min_chunk: i64,
    pub credit_discount_max: f64,
    pub end_date: Option<f64>,
    /// Rolling: the end date is now + this many seconds.
    pub duration: Option<f64>,
    pub vol_size: Option<i64>,
    pub vol_price: Option<f64>,
    pub withdrawn_at: Option<f64>,
}

impl Offer {
    /// The offer in [`OFFER_COLUMNS`] from column `at` on; `None` when the machine has none.
    pub fn from_row(row: &Row<'_>, at: usize) -> rusqlite::Result<Option<Offer>> {
        if row.get::<_, Option<i64>>(at)?.is_none() {
            return Ok(None);
        }
        Ok(Some(Offer {
            price_gpu: row.get(at + 1)?,
            price_min_bid: row.get(at + 2)?,
            price_disk: row.get(at + 3)?,
            price_inetu: row.get(at + 4)?,
            price_inetd: row.get(at + 5)?,
            min_chunk: row.get(at + 6)?,
            credit_discount_max: row.get(at + 7)?,
            end_date: row.get(at + 8)?,
            duration: row.get(at + 9)?,
            vol_size: row.get(at + 10)?,
            vol_price: row.get(at + 11)?,
            withdrawn_at: row.get(at + 12)?,
        }))
    }

    /// The offer end date at `now`: a rolling offer's is `now + duration`.
    pub fn end_at(&self, now: f64) -> Option<f64> {
        self.duration.map(|d| now + d).or(self.end_date)
    }

    /// Listed: not withdrawn, and the end date null or later than `now`.
    pub fn is_listed(&self, now: f64) -> bool {
        self.withdrawn_at.is_none() && self.end_at(now).is_none_or(|end| end > now)
    }

    /// The `end_date` of N1 (list machines): the offer end date while listed, else null.
    pub fn listed_until(&self, now: f64) -> Option<f64> {
        self.end_at(now).filter(|_| self.is_listed(now))
    }
}

/// The offer of `machine_id`, if it ever had one.
fn stored_offer(tx: &Transaction<'_>, machine_id: i64) -> Result<Option<Offer>, DbError> {
    let sql = format!("SELECT {OFFER_COLUMNS} FROM offers o WHERE o.machine_id = ?1");
    Ok(tx
        .prepare_cached(&sql)?
        .query_row([machine_id], |row| Offer::from_row(row, 0))
        .optional()?
        .flatten())
}

/// The GPUs of `owner_id`'s machine `machine_id`; `None` when it is absent or someone
/// else's.
fn owned_gpus(
    tx: &Transaction<'_>,
    owner_id: i64,
    machine_id: i64,
) -> Result<Option<i64>, DbError> {
    Ok(tx
        .query_row(
            "SELECT num_gpus FROM machines WHERE id = ?1 AND owner_id = ?2",
            params![machine_id, owner_id],
            |r| r.get(0),
        )
        .optional()?)
}

/// Why N22 did nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ListingFailure {
    /// The machine is absent or someone else's.
    NotFound,
    /// A rule that needs the machine or its offer (`price_gpu`, `min_chunk`, `vol_price`).
    Refused(ListingRefusal),
}

/// What N22 did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    /// The machine was not listed before (never, withdrawn or expired).
    pub created: bool,
    /// Active contracts whose rental end date moved to the new offer end date.
    pub extended: usize,
}

/// The offer after `change`: each term given, else the stored one, else the first
/// listing's default; the minimum GPUs always as given (absent is 1). An expired end date
/// is not kept: relisting without one is open-ended.
fn merged_offer(
    change: &ListingChange,
    stored: Option<&Offer>,
    num_gpus: i64,
    now: f64,
) -> Result<Offer, ListingRefusal> {
    let terms = &change.terms;
    let price_gpu = terms
        .price_gpu
        .or(stored.map(|o| o.price_gpu))
        .ok_or(ListingRefusal::PriceGpuNeeded)?;
    let min_chunk = terms.min_chunk;
    if !min_chunk_fits(min_chunk, num_gpus) {
        return Err(ListingRefusal::MinChunk { num_gpus });
    }
    let vol_size = terms.vol_size.or(stored.and_then(|o| o.vol_size));
    // Only a price given for no volume is refused: `vol_size: 0` withdraws the volume offer
    // and its kept price stays for the next one, as every other kept term does.
    if terms.vol_price.is_some() && vol_size.unwrap_or(0) == 0 {
        return Err(ListingRefusal::VolPriceWithoutSize);
    }
    let vol_price = terms.vol_price.or(stored.and_then(|o| o.vol_price));
    let (end_date, duration) = match change.end {
        EndChange::Keep => (
            stored.and_then(|o| o.end_date).filter(|end| *end > now),
            stored.and_then(|o| o.duration),
        ),
        EndChange::Date(end) => (Some(end), None),
        EndChange::Rolling(seconds) => (None, Some(seconds)),
    };
    Ok(Offer {
        price_gpu,
        price_min_bid: terms
            .price_min_bid
            .or(stored.map(|o| o.price_min_bid))
            .unwrap_or(price_gpu),
        price_disk: terms
            .price_disk
            .or(stored.map(|o| o.price_disk))
            .unwrap_or(DEFAULT_PRICE_DISK),
        price_inetu: terms.price_inetu.or(stored.and_then(|o| o.price_inetu)),
        price_inetd: terms.price_inetd.or(stored.and_then(|o| o.price_inetd)),
        min_chunk,
        credit_discount_max: terms
            .credit_discount_max
            .or(stored.map(|o| o.credit_discount_max))
            .unwrap_or(DEFAULT_CREDIT_DISCOUNT_MAX),
        end_date,
        duration,
        vol_size,
        vol_price,
        withdrawn_at: None,
    })
}

fn save_offer(tx: &Transaction<'_>, machine_id: i64, offer: &Offer) -> Result<(), DbError> {
    tx.prepare_cached(
        "INSERT INTO offers (machine_id, price_gpu, price_min_bid, price_disk, price_inetu,
             price_inetd, min_chunk, credit_discount_max, end_date, duration, vol_size,
             vol_price, withdrawn_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
         ON CONFLICT (machine_id) DO UPDATE SET
             price_gpu = excluded.price_gpu, price_min_bid = excluded.price_min_bid,
             price_disk = excluded.price_disk, price_inetu = excluded.price_inetu,
             price_inetd = excluded.price_inetd, min_chunk = excluded.min_chunk,
             credit_discount_max = excluded.credit_discount_max,
             end_date = excluded.end_date, duration = excluded.duration,
             vol_size = excluded.vol_size, vol_price = excluded.vol_price,
             withdrawn_at = excluded.withdrawn_at",
    )?
    .execute(params![
        machine_id,
        offer.price_gpu,
        offer.price_min_bid,
        offer.price_disk,
        offer.price_inetu,
        offer.price_inetd,
        offer.min_chunk,
        offer.credit_discount_max,
        offer.end_date,
        offer.duration,
        offer.vol_size,
        offer.vol_price,
        offer.withdrawn_at,
    ])?;
    Ok(())
}

/// The extension of §1.7: every active contract of `machine_id` with a rental end date
/// before `new_end`, none of whose locked prices is below `offer`'s, now ends at `new_end`.
/// Contracts without an end date need none; those with a lower locked price keep theirs.
/// A price that is absent (on the offer or the contract) is charged as nothing: 0.
fn extend_contracts(
    tx: &Transaction<'_>,
    machine_id: i64,
    new_end: f64,
    offer: &Offer,
    now: f64,
) -> Result<usize, DbError> {
    Ok(tx
        .prepare_cached(
            "UPDATE contracts SET end_date = ?2
             WHERE machine_id = ?1 AND end_date > ?3 AND end_date < ?2
                 AND price_gpu >= ?4 AND ifnull(price_disk, 0) >= ?5
                 AND ifnull(price_inetu, 0) >= ifnull(?6, 0)
                 AND ifnull(price_inetd, 0) >= ifnull(?7, 0)",
        )?
        .execute(params![
            machine_id,
            new_end,
            now,
            offer.price_gpu,
            offer.price_disk,
            offer.price_inetu,
            offer.price_inetd,
        ])?)
}

/// N22 on `owner_id`'s machine, in one IMMEDIATE transaction: the offer and every
/// extended contract change together, or nothing does.
pub fn list_machine(
    conn: &mut Connection,
    owner_id: i64,
    change: &ListingChange,
    now: f64,
) -> Result<Result<Listed, ListingFailure>, DbError> {
    let tx = write_tx(conn)?;
    let machine_id = change.machine_id;
    let Some(num_gpus) = owned_gpus(&tx, owner_id, machine_id)? else {
        return Ok(Err(ListingFailure::NotFound));
    };
    let stored = stored_offer(&tx, machine_id)?;
    let offer = match merged_offer(change, stored.as_ref(), num_gpus, now) {
        Ok(offer) => offer,
        Err(refusal) => return Ok(Err(ListingFailure::Refused(refusal))),
    };
    save_offer(&tx, machine_id, &offer)?;
    // Only a request that sets the offer end date can extend.
    let extended = match change.end {
        EndChange::Keep => 0,
        EndChange::Date(_) | EndChange::Rolling(_) => match offer.end_at(now) {
            Some(end) => extend_contracts(&tx, machine_id, end, &offer, now)?,
            None => 0,
        },
    };
    tx.commit()?;
    Ok(Ok(Listed {
        created: !stored.is_some_and(|o| o.is_listed(now)),
        extended,
    }))
}

/// N23 on `owner_id`'s machine: withdraws the offer (keeping its terms, clearing its end
/// date and duration). `false` when the machine is absent or someone else's; unlisting a
/// machine that is not listed succeeds and changes nothing that matters.
pub fn unlist_machine(
    conn: &mut Connection,
    owner_id: i64,
    machine_id: i64,
    now: f64,
) -> Result<bool, DbError> {
    let tx = write_tx(conn)?;
    if owned_gpus(&tx, owner_id, machine_id)?.is_none() {
        return Ok(false);
    }
    tx.execute(
        "UPDATE offers SET withdrawn_at = COALESCE(withdrawn_at, ?2), end_date = NULL,
             duration = NULL
         WHERE machine_id = ?1",
        params![machine_id, now],
    )?;
    tx.commit()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(end_date: Option<f64>, duration: Option<f64>, withdrawn_at: Option<f64>) -> Offer {
        Offer {
            price_gpu: 0.5,
            price_min_bid: 0.3,
            price_disk: 0.1,
            price_inetu: None,
            price_inetd: None,
            min_chunk: 1,
            credit_discount_max: 0.4,
            end_date,
            duration,
            vol_size: None,
            vol_price: None,
            withdrawn_at,
        }
    }

    #[test]
    fn an_offer_is_listed_until_its_end_date_or_withdrawal() {
        let now = 1000.0;
        assert!(offer(None, None, None).is_listed(now));
        assert!(offer(Some(1001.0), None, None).is_listed(now));
        assert!(!offer(Some(1000.0), None, None).is_listed(now));
        assert!(!offer(None, None, Some(5.0)).is_listed(now));
        assert_eq!(
            offer(Some(2000.0), None, None).listed_until(now),
            Some(2000.0)
        );
        assert_eq!(offer(Some(999.0), None, None).listed_until(now), None);
        assert_eq!(
            offer(None, Some(60.0), None).listed_until(now),
            Some(1060.0)
        );
        assert_eq!(offer(None, None, None).listed_until(now), None);
    }
}
