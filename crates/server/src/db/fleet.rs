//! The caller's machines (N1 list machines, N2 show machine): stored hardware and earnings,
//! the offer's listing fields (§1.7), and occupancy and rentals derived from the active
//! contracts, and the health signals of fleet-health §1.1, stored or derived as it says.

use super::listing::{active_contract, Offer, OFFER_COLUMNS};
use super::machines::ACTIVE_WINDOWS;
use super::{id_array, DbError};
use gpudeck_wire::fleet::gpu_occupancy;
use gpudeck_wire::{
    AnnouncedWindow, Machine, MachineMaintenance, MaintenanceCategory, NumberOrText,
};
use rusqlite::{params, Connection, Row};
use std::collections::HashMap;

/// `owner_id`'s machines (`?1`), all of them or only `?2` when it is not null, by id, each
/// with its offer (from column [`OFFER_AT`] on; all null when it never had one) and its
/// report counts: all of its reports, and those filed since `?3` (fleet-health §1.1).
fn machines_sql() -> String {
    format!(
        "SELECT m.id, m.hostname, m.gpu_name, m.cpu_name, m.driver_version, m.num_gpus,
                m.cpu_cores, m.gpu_ram, m.cpu_ram, m.disk_space, m.verification, m.reliability2,
                m.geolocation, m.public_ipaddr, m.offline_since, m.earn_day, m.earn_hour,
                (SELECT COUNT(*) FROM machine_reports r WHERE r.machine_id = m.id),
                m.hosting_type, m.inet_up, m.inet_down, m.cuda_max_good,
                m.error_description, m.vm_error_msg,
                (SELECT COUNT(*) FROM machine_reports r
                 WHERE r.machine_id = m.id AND r.created_at >= ?3),
                m.max_disk_space,
                m.alloc_disk_space, m.avail_disk_space, m.kernel_version, m.ubuntu_version,
                m.gpu_max_cur_temp, m.direct_port_count, m.pcie_bw,
                {OFFER_COLUMNS}
         FROM machines m LEFT JOIN offers o ON o.machine_id = m.id
         WHERE m.owner_id = ?1 AND (?2 IS NULL OR m.id = ?2)
         ORDER BY m.id"
    )
}

/// The first offer column of [`machines_sql`].
const OFFER_AT: usize = 33;

/// The active contracts on those machines at `?3`.
fn contracts_sql() -> String {
    format!(
        "SELECT c.machine_id, c.slot_start, c.gpu_count, c.kind, c.end_date
         FROM contracts c JOIN machines m ON m.id = c.machine_id
         WHERE m.owner_id = ?1 AND (?2 IS NULL OR m.id = ?2) AND {}
         ORDER BY c.id",
        active_contract("?3")
    )
}

/// A contract as occupancy sees it: `(slot_start, gpu_count, kind)`.
type Run = (usize, usize, char);

/// A machine's active contracts: their slots and their rental end dates.
#[derive(Debug, Default)]
struct Rentals {
    runs: Vec<Run>,
    ends: Vec<Option<f64>>,
}

impl Rentals {
    /// N1's `client_end_date` (§1.7): the latest rental end date, or null when there is
    /// none, or when any contract has none (then the latest end is unknown).
    fn client_end_date(&self) -> Option<f64> {
        let mut latest: Option<f64> = None;
        for end in &self.ends {
            let end = (*end)?;
            latest = Some(latest.map_or(end, |l| l.max(end)));
        }
        latest
    }

    /// GPUs under the active contracts.
    fn rented_gpus(&self) -> usize {
        self.runs.iter().map(|run| run.1).sum()
    }
}

/// TFLOPS per GPU of the demo's GPU models (fleet-health §1.1); `None` for others.
fn tflops_per_gpu(gpu_name: &str) -> Option<f64> {
    Some(match gpu_name {
        "H100 SXM" => 67.0,
        "A100 SXM4" => 19.5,
        "RTX 4090" => 82.6,
        "RTX 3090" => 35.6,
        "RTX A6000" => 38.7,
        "RTX 4080" => 48.7,
        _ => return None,
    })
}

/// A machine's disk in GB, `(max, alloc, avail)`: each stored value, else the specified
/// default (fleet-health §1.1): the whole `disk_space`, 100 per rented GPU (null when none
/// is rented), and what is not allocated.
fn disk(
    disk_space: f64,
    stored: (Option<f64>, Option<f64>, Option<f64>),
    rented_gpus: usize,
) -> (f64, Option<f64>, f64) {
    let (max, alloc, avail) = stored;
    let max = max.unwrap_or(disk_space);
    let alloc = alloc.or((rented_gpus > 0).then_some(100.0 * rented_gpus as f64));
    (max, alloc, avail.unwrap_or(max - alloc.unwrap_or(0.0)))
}

fn machine_from(row: &Row<'_>, rentals: &Rentals, now: f64) -> rusqlite::Result<Machine> {
    let id: i64 = row.get(0)?;
    let num_gpus: i64 = row.get(5)?;
    let offline_since: Option<f64> = row.get(14)?;
    let runs = &rentals.runs;
    let on_demand = runs.iter().filter(|run| run.2 == 'D').count() as i64;
    let offer = Offer::from_row(row, OFFER_AT)?;
    let gpu_name: String = row.get(2)?;
    let disk_space: f64 = row.get(9)?;
    let (max_disk_space, alloc_disk_space, avail_disk_space) = disk(
        disk_space,
        (row.get(25)?, row.get(26)?, row.get(27)?),
        rentals.rented_gpus(),
    );
    Ok(Machine {
        id,
        machine_id: id,
        hostname: row.get(1)?,
        total_flops: tflops_per_gpu(&gpu_name).map(|per_gpu| per_gpu * num_gpus as f64),
        gpu_name,
        cpu_name: row.get(3)?,
        driver_version: row.get(4)?,
        num_gpus,
        cpu_cores: row.get(6)?,
        current_rentals_running: runs.len() as i64,
        gpu_ram: row.get(7)?,
        cpu_ram: row.get(8)?,
        disk_space,
        listed: offer.as_ref().is_some_and(|o| o.is_listed(now)),
        verification: row.get(10)?,
        reliability2: row.get(11)?,
        gpu_occupancy: gpu_occupancy(num_gpus.max(0) as usize, runs),
        geolocation: row.get(12)?,
        public_ipaddr: row.get(13)?,
        timeout: offline_since.map_or(0.0, |since| (now - since).max(0.0)),
        listed_gpu_cost: offer.as_ref().map(|o| o.price_gpu),
        min_bid_price: offer.as_ref().map(|o| o.price_min_bid),
        earn_day: row.get(15)?,
        earn_hour: Some(row.get(16)?),
        current_rentals_resident: None,
        current_rentals_on_demand: Some(on_demand),
        current_rentals_running_on_demand: Some(on_demand),
        num_reports: Some(row.get(17)?),
        hosting_type: row.get(18)?,
        listed_storage_cost: offer.as_ref().map(|o| o.price_disk),
        listed_volume_cost: offer.as_ref().and_then(|o| o.vol_price),
        listed_inet_up_cost: offer.as_ref().and_then(|o| o.price_inetu),
        listed_inet_down_cost: offer.as_ref().and_then(|o| o.price_inetd),
        inet_up: row.get(19)?,
        inet_down: row.get(20)?,
        cuda_max_good: row.get::<_, Option<f64>>(21)?.map(NumberOrText::Number),
        credit_discount_max: offer.as_ref().map(|o| o.credit_discount_max),
        end_date: offer.as_ref().and_then(|o| o.listed_until(now)),
        client_end_date: rentals.client_end_date(),
        listed_min_gpu_count: offer.as_ref().map(|o| o.min_chunk),
        error_description: row.get(22)?,
        vm_error_msg: row.get(23)?,
        num_recent_reports: Some(row.get(24)?),
        duration: offer.as_ref().and_then(|o| o.duration),
        max_disk_space: Some(max_disk_space),
        avail_disk_space: Some(avail_disk_space),
        alloc_disk_space,
        kernel_version: row.get(28)?,
        ubuntu_version: row.get(29)?,
        gpu_max_cur_temp: Some(
            row.get::<_, Option<f64>>(30)?
                .unwrap_or((40 + (id * 7).rem_euclid(36)) as f64),
        ),
        // Filled from the windows once every machine is read.
        machine_maintenance: None,
        direct_port_count: Some(row.get::<_, Option<i64>>(31)?.unwrap_or(100 * num_gpus)),
        pcie_bw: row.get(32)?,
    })
}

/// `owner_id`'s machines by id, or only `only` (empty when it is not theirs or absent).
pub fn machines(
    conn: &Connection,
    owner_id: i64,
    only: Option<i64>,
    now: f64,
) -> Result<Vec<Machine>, DbError> {
    let mut rentals: HashMap<i64, Rentals> = HashMap::new();
    let mut contracts = conn.prepare_cached(&contracts_sql())?;
    let mut rows = contracts.query(params![owner_id, only, now])?;
    while let Some(row) = rows.next()? {
        let kind: String = row.get(3)?;
        let end_date: Option<f64> = row.get(4)?;
        let machine = rentals.entry(row.get(0)?).or_default();
        machine.runs.push((
            row.get::<_, i64>(1)?.max(0) as usize,
            row.get::<_, i64>(2)?.max(0) as usize,
            kind.chars().next().unwrap_or('D'),
        ));
        machine.ends.push(end_date);
    }
    let none = Rentals::default();
    let mut statement = conn.prepare_cached(&machines_sql())?;
    let recent_since = now - super::reports::RECENT_REPORTS_SECS;
    let machines = statement.query_map(params![owner_id, only, recent_since], |row| {
        let id: i64 = row.get(0)?;
        machine_from(row, rentals.get(&id).unwrap_or(&none), now)
    })?;
    let mut machines: Vec<Machine> = machines.collect::<Result<_, _>>()?;
    announce_windows(conn, &mut machines, now)?;
    Ok(machines)
}

/// Sets each machine's `machine_maintenance` to its active windows (seed op 1's), or null
/// when it has none.
fn announce_windows(conn: &Connection, machines: &mut [Machine], now: f64) -> Result<(), DbError> {
    let ids: Vec<i64> = machines.iter().map(|m| m.id).collect();
    let mut windows: HashMap<i64, Vec<AnnouncedWindow>> = HashMap::new();
    let mut statement = conn.prepare_cached(ACTIVE_WINDOWS)?;
    let mut rows = statement.query(params![id_array(&ids), now])?;
    while let Some(r) = rows.next()? {
        let window = AnnouncedWindow {
            id: r.get(0)?,
            machine_id: r.get(1)?,
            start_time: r.get(2)?,
            duration_hours: r.get(3)?,
            maintenance_category: MaintenanceCategory::from_stored(&r.get::<_, String>(4)?),
            maintenance_reason: r.get(5)?,
        };
        windows.entry(window.machine_id).or_default().push(window);
    }
    for machine in machines {
        machine.machine_maintenance = windows.remove(&machine.id).map(MachineMaintenance::Windows);
    }
    Ok(())
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
