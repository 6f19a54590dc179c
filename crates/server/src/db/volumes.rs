//! Volume asks and the volumes created from them: accepting an ask (seed op 4), offers
//! (N10), the caller's volumes (N11) and deletion (N12).

use super::{write_tx, DbError};
use crate::query::{all_match, compare, Kind, Scalar, Term};
use gpudeck_wire::volumes::storage_total_cost;
use gpudeck_wire::{Volume, VolumeInstance, VolumeOffer};
use rusqlite::{params, Connection, OptionalExtension};
use std::cmp::Ordering;

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
    label: Option<String>,
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
        "SELECT COALESCE(SUM(size), 0) FROM volumes WHERE ask_id = ?1 AND deleted_at IS NULL",
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
        "INSERT INTO volumes (ask_id, owner_id, size, created_at, label) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![ask_id, owner_id, size, now, label],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(Ok(id))
}

/// An offer's fields a query may name, with their kinds; `cuda_vers` is an alias for
/// `cuda_max_good`. `None` for any other field.
pub fn offer_field_kind(name: &str) -> Option<(&'static str, Kind)> {
    Some(match name {
        "id" => ("id", Kind::Number),
        "machine_id" => ("machine_id", Kind::Number),
        "host_id" => ("host_id", Kind::Number),
        "disk_space" => ("disk_space", Kind::Number),
        "storage_cost" => ("storage_cost", Kind::Number),
        "duration" => ("duration", Kind::Number),
        "reliability" => ("reliability", Kind::Number),
        "inet_up" => ("inet_up", Kind::Number),
        "inet_down" => ("inet_down", Kind::Number),
        "disk_bw" => ("disk_bw", Kind::Number),
        "cuda_max_good" | "cuda_vers" => ("cuda_max_good", Kind::Number),
        "driver_version" => ("driver_version", Kind::Text),
        "geolocation" => ("geolocation", Kind::Location),
        "verified" => ("verified", Kind::Bool),
        "external" => ("external", Kind::Bool),
        "static_ip" => ("static_ip", Kind::Bool),
        _ => return None,
    })
}

/// An offer's value of a field [`offer_field_kind`] knows, or of `score` (its reliability).
pub fn offer_field(offer: &VolumeOffer, name: &str) -> Scalar {
    let number = Scalar::Number;
    match name {
        "id" => number(offer.id as f64),
        "machine_id" => number(offer.machine_id as f64),
        "host_id" => number(offer.host_id as f64),
        "disk_space" => number(offer.disk_space),
        "storage_cost" => number(offer.storage_cost),
        "duration" => number(offer.duration),
        "reliability" | "score" => number(offer.reliability),
        "inet_up" => number(offer.inet_up),
        "inet_down" => number(offer.inet_down),
        "disk_bw" => number(offer.disk_bw),
        "cuda_max_good" => number(offer.cuda_max_good),
        "driver_version" => Scalar::Text(offer.driver_version.clone()),
        "geolocation" => offer.geolocation.clone().map_or(Scalar::Null, Scalar::Text),
        "verified" => Scalar::Bool(offer.verification == "verified"),
        "external" => Scalar::Bool(offer.external == Some(true)),
        "static_ip" => Scalar::Bool(offer.static_ip == Some(true)),
        _ => Scalar::Null,
    }
}

/// How offers are searched: conditions, sort keys (field, descending) and how many.
#[derive(Debug, Clone)]
pub struct OfferSearch {
    pub terms: Vec<Term>,
    pub order: Vec<(&'static str, bool)>,
    pub limit: usize,
    /// GB priced in `storage_total_cost`.
    pub allocated_storage: f64,
}

/// Every volume ask with `end_date > now` as an offer, with its free space and its
/// machine's qualities, filtered and ordered as `search` says (ties by id ascending).
pub fn offers(
    conn: &Connection,
    search: &OfferSearch,
    now: f64,
) -> Result<Vec<VolumeOffer>, DbError> {
    let mut statement = conn.prepare_cached(
        "SELECT a.id, a.machine_id, m.owner_id,
                a.disk_space - COALESCE((SELECT SUM(size) FROM volumes v
                                         WHERE v.ask_id = a.id AND v.deleted_at IS NULL), 0),
                a.storage_cost, a.start_date, a.end_date, m.reliability2,
                COALESCE(m.cuda_max_good, 0), COALESCE(m.inet_up, 0), COALESCE(m.inet_down, 0),
                a.disk_bw, a.disk_name, m.driver_version, m.verification, m.geolocation,
                a.static_ip, a.external, m.cpu_name
         FROM volume_asks a JOIN machines m ON m.id = a.machine_id
         WHERE a.end_date > ?1
         ORDER BY a.id",
    )?;
    let rows = statement.query_map([now], |r| {
        let id: i64 = r.get(0)?;
        let storage_cost: f64 = r.get(4)?;
        let end_date: f64 = r.get(6)?;
        Ok(VolumeOffer {
            id,
            machine_id: r.get(1)?,
            host_id: r.get(2)?,
            disk_space: r.get::<_, i64>(3)?.max(0) as f64,
            storage_cost,
            storage_total_cost: storage_total_cost(storage_cost, search.allocated_storage),
            duration: end_date - now,
            start_date: r.get(5)?,
            end_date,
            reliability: r.get(7)?,
            cuda_max_good: r.get(8)?,
            inet_up: r.get(9)?,
            inet_down: r.get(10)?,
            disk_bw: r.get(11)?,
            disk_name: r.get(12)?,
            driver_version: r.get(13)?,
            verification: r.get(14)?,
            geolocation: r.get(15)?,
            ask_contract_id: Some(id),
            static_ip: Some(r.get(16)?),
            external: Some(r.get(17)?),
            cpu_name: Some(r.get(18)?),
        })
    })?;
    let mut found = Vec::new();
    for offer in rows {
        let offer = offer?;
        if all_match(&search.terms, |name| offer_field(&offer, name)) {
            found.push(offer);
        }
    }
    found.sort_by(|a, b| {
        search
            .order
            .iter()
            .map(|&(field, descending)| {
                let ordering = compare(&offer_field(a, field), &offer_field(b, field))
                    .unwrap_or(Ordering::Equal);
                if descending {
                    ordering.reverse()
                } else {
                    ordering
                }
            })
            .find(|ordering| ordering.is_ne())
            .unwrap_or_else(|| a.id.cmp(&b.id))
    });
    found.truncate(search.limit);
    Ok(found)
}

/// `owner_id`'s volumes that are not deleted, by id, with their machine's qualities and the
/// instances using them (running or stopped).
pub fn volumes(conn: &Connection, owner_id: i64) -> Result<Vec<Volume>, DbError> {
    let mut statement = conn.prepare_cached(
        "SELECT v.id, v.label, v.status, v.created_at, v.size, a.machine_id, m.owner_id,
                a.disk_name, m.driver_version, m.verification, COALESCE(m.inet_up, 0),
                COALESCE(m.inet_down, 0), m.reliability2, m.geolocation, a.storage_cost,
                m.cpu_name, m.cuda_max_good
         FROM volumes v JOIN volume_asks a ON a.id = v.ask_id JOIN machines m ON m.id = a.machine_id
         WHERE v.owner_id = ?1 AND v.deleted_at IS NULL
         ORDER BY v.id",
    )?;
    let mut instances = conn.prepare_cached(
        "SELECT id FROM instances WHERE volume_id = ?1 AND destroyed_at IS NULL ORDER BY id",
    )?;
    let rows = statement
        .query_map([owner_id], |r| {
            let size: i64 = r.get(4)?;
            Ok(Volume {
                id: r.get(0)?,
                label: r.get(1)?,
                status: r.get(2)?,
                start_date: r.get(3)?,
                disk_space: size as f64,
                machine_id: r.get(5)?,
                host_id: r.get(6)?,
                instances: Vec::new(),
                disk_name: r.get(7)?,
                driver_version: r.get(8)?,
                verification: r.get(9)?,
                inet_up: r.get(10)?,
                inet_down: r.get(11)?,
                reliability2: r.get(12)?,
                geolocation: r.get(13)?,
                storage_total_cost: storage_total_cost(r.get(14)?, size as f64),
                cpu_name: Some(r.get(15)?),
                cuda_max_good: r.get(16)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|mut volume| {
            volume.instances = instances
                .query_map([volume.id], |r| r.get(0).map(VolumeInstance::Id))?
                .collect::<Result<_, _>>()?;
            Ok(volume)
        })
        .collect()
}

/// Why a volume was not deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteVolumeRefusal {
    /// No such volume, or it is already deleted.
    NotFound,
    /// It belongs to another user.
    NotYours,
    /// Instances (running or stopped) still use it.
    InUse,
}

/// Soft-deletes `owner_id`'s volume `volume_id`, unless an instance still uses it; its
/// size returns to its ask. One IMMEDIATE transaction.
pub fn delete(
    conn: &mut Connection,
    owner_id: i64,
    volume_id: i64,
    now: f64,
) -> Result<Result<(), DeleteVolumeRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let owner: Option<i64> = tx
        .query_row(
            "SELECT owner_id FROM volumes WHERE id = ?1 AND deleted_at IS NULL",
            [volume_id],
            |r| r.get(0),
        )
        .optional()?;
    match owner {
        None => return Ok(Err(DeleteVolumeRefusal::NotFound)),
        Some(owner) if owner != owner_id => return Ok(Err(DeleteVolumeRefusal::NotYours)),
        Some(_) => {}
    }
    let users: i64 = tx.query_row(
        "SELECT COUNT(*) FROM instances WHERE volume_id = ?1 AND destroyed_at IS NULL",
        [volume_id],
        |r| r.get(0),
    )?;
    if users > 0 {
        return Ok(Err(DeleteVolumeRefusal::InUse));
    }
    tx.execute(
        "UPDATE volumes SET deleted_at = ?1 WHERE id = ?2",
        params![now, volume_id],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}
