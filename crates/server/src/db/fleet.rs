//! The caller's machines (N1, N2): stored hardware, listing and earnings, with occupancy
//! and rentals derived from the contracts.

use super::DbError;
use gpudeck_wire::fleet::gpu_occupancy;
use gpudeck_wire::{Machine, NumberOrText};
use rusqlite::{params, Connection, Row};
use std::collections::HashMap;

/// `owner_id`'s machines (`?1`), all of them or only `?2` when it is not null, by id.
const MACHINES: &str = "
    SELECT id, hostname, gpu_name, cpu_name, driver_version, num_gpus, cpu_cores, gpu_ram,
           cpu_ram, disk_space, listed, verification, reliability2, geolocation,
           public_ipaddr, offline_since, listed_gpu_cost, min_bid_price, earn_day, earn_hour,
           num_reports, hosting_type, inet_up, inet_down, cuda_max_good
    FROM machines
    WHERE owner_id = ?1 AND (?2 IS NULL OR id = ?2)
    ORDER BY id";

/// The contracts on those machines.
const CONTRACTS: &str = "
    SELECT c.machine_id, c.slot_start, c.gpu_count, c.kind
    FROM contracts c JOIN machines m ON m.id = c.machine_id
    WHERE m.owner_id = ?1 AND (?2 IS NULL OR m.id = ?2)
    ORDER BY c.id";

/// A contract as occupancy sees it: `(slot_start, gpu_count, kind)`.
type Run = (usize, usize, char);

fn machine_from(row: &Row<'_>, runs: &[Run], now: f64) -> rusqlite::Result<Machine> {
    let id: i64 = row.get(0)?;
    let num_gpus: i64 = row.get(5)?;
    let offline_since: Option<f64> = row.get(15)?;
    let on_demand = runs.iter().filter(|run| run.2 == 'D').count() as i64;
    Ok(Machine {
        id,
        machine_id: id,
        hostname: row.get(1)?,
        gpu_name: row.get(2)?,
        cpu_name: row.get(3)?,
        driver_version: row.get(4)?,
        num_gpus,
        cpu_cores: row.get(6)?,
        current_rentals_running: runs.len() as i64,
        gpu_ram: row.get(7)?,
        cpu_ram: row.get(8)?,
        disk_space: row.get(9)?,
        listed: row.get(10)?,
        verification: row.get(11)?,
        reliability2: row.get(12)?,
        gpu_occupancy: gpu_occupancy(num_gpus.max(0) as usize, runs),
        geolocation: row.get(13)?,
        public_ipaddr: row.get(14)?,
        timeout: offline_since.map_or(0.0, |since| (now - since).max(0.0)),
        listed_gpu_cost: row.get(16)?,
        min_bid_price: row.get(17)?,
        earn_day: row.get(18)?,
        earn_hour: Some(row.get(19)?),
        current_rentals_resident: None,
        current_rentals_on_demand: Some(on_demand),
        current_rentals_running_on_demand: Some(on_demand),
        num_reports: Some(row.get(20)?),
        hosting_type: row.get(21)?,
        listed_storage_cost: None,
        listed_volume_cost: None,
        listed_inet_up_cost: None,
        listed_inet_down_cost: None,
        inet_up: row.get(22)?,
        inet_down: row.get(23)?,
        cuda_max_good: row.get::<_, Option<f64>>(24)?.map(NumberOrText::Number),
        credit_discount_max: None,
        total_flops: None,
    })
}

/// `owner_id`'s machines by id, or only `only` (empty when it is not theirs or absent).
pub fn machines(
    conn: &Connection,
    owner_id: i64,
    only: Option<i64>,
    now: f64,
) -> Result<Vec<Machine>, DbError> {
    let mut runs: HashMap<i64, Vec<Run>> = HashMap::new();
    let mut contracts = conn.prepare_cached(CONTRACTS)?;
    let mut rows = contracts.query(params![owner_id, only])?;
    while let Some(row) = rows.next()? {
        let kind: String = row.get(3)?;
        runs.entry(row.get(0)?).or_default().push((
            row.get::<_, i64>(1)?.max(0) as usize,
            row.get::<_, i64>(2)?.max(0) as usize,
            kind.chars().next().unwrap_or('D'),
        ));
    }
    let mut statement = conn.prepare_cached(MACHINES)?;
    let machines = statement.query_map(params![owner_id, only], |row| {
        let id: i64 = row.get(0)?;
        machine_from(row, runs.get(&id).map_or(&[], Vec::as_slice), now)
    })?;
    Ok(machines.collect::<Result<_, _>>()?)
}

/// One of `owner_id`'s machines; `None` when it is absent or someone else's.
pub fn machine(
    conn: &Connection,
    owner_id: i64,
    machine_id: i64,
    now: f64,
) -> Result<Option<Machine>, DbError> {
    Ok(machines(conn, owner_id, Some(machine_id), now)?.pop())
}
