//! The Machines page's rules: its rows (each machine with its next window, its count of
//! windows and its health) and their words; its other pages' rules below.

pub mod detail;
pub mod health;
pub mod maintenance;
pub mod offers;
pub mod rolling;

use crate::components::time::stage_and_distance;

use crate::domain::health::{FleetHealth, MachineHealth};
use gpudeck_wire::{Machine, MaintenanceWindow};
use std::collections::HashMap;

/// One row: a machine, its next window (the ongoing or soonest one), how many are active,
/// and its health findings.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetRow {
    pub machine: Machine,
    pub next: Option<(f64, f64)>,
    pub active: usize,
    pub health: MachineHealth,
}

/// The rows of the table, in the machines' order, each with its findings in `health`.
pub fn fleet_rows(
    machines: &[Machine],
    windows: &[MaintenanceWindow],
    health: &FleetHealth,
) -> Vec<FleetRow> {
    let mut by_machine: HashMap<i64, Vec<&MaintenanceWindow>> = HashMap::new();
    for window in windows {
        by_machine
            .entry(window.machine_id)
            .or_default()
            .push(window);
    }
    machines
        .iter()
        .map(|machine| {
            let own = by_machine
                .get(&machine.id)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            let next = own
                .iter()
                .min_by(|a, b| a.start_time.total_cmp(&b.start_time))
                .map(|w| (w.start_time, w.end_time));
            FleetRow {
                machine: machine.clone(),
                next,
                active: own.len(),
                health: health.of(machine.id).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

/// `Upcoming · in 3 h`, `Ongoing · 2 h left`, or `None`.
pub fn next_window_text(now: f64, next: Option<(f64, f64)>) -> String {
    next.map_or_else(
        || "None".into(),
        |(start, end)| stage_and_distance(now, start, end),
    )
}

/// `+1` when a machine has active windows after its next one.
pub fn more_windows_text(active: usize) -> Option<String> {
    (active > 1).then(|| format!("+{}", active - 1))
}

/// `RTX 4090 × 8`.
pub fn gpus_text(machine: &Machine) -> String {
    format!("{} {}", machine.gpu_name, gpu_count_text(machine))
}

/// `× 8`: the count part of [`gpus_text`], which a two-line GPUs cell puts on its own line.
pub fn gpu_count_text(machine: &Machine) -> String {
    format!("× {}", machine.num_gpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(id: i64) -> Machine {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": id, "hostname": format!("host-{id}"), "gpu_name": "RTX 4090",
            "cpu_name": "EPYC", "driver_version": "550", "num_gpus": 4, "cpu_cores": 32,
            "current_rentals_running": 1, "gpu_ram": 24000.0, "cpu_ram": 128000.0,
            "disk_space": 2000.0, "listed": true, "verification": "verified",
            "reliability2": 0.99, "gpu_occupancy": "D x x x", "geolocation": null,
            "public_ipaddr": null, "timeout": 0.0, "listed_gpu_cost": 0.4,
            "min_bid_price": 0.2, "earn_day": 10.0
        }))
        .unwrap()
    }

    fn window(id: i64, machine_id: i64, start: f64, hours: i64) -> MaintenanceWindow {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": machine_id, "start_time": start, "duration_hours": hours,
            "maintenance_category": "disk", "created_at": 0.0,
            "end_time": start + hours as f64 * 3600.0,
        }))
        .unwrap()
    }

    #[test]
    fn each_machine_gets_its_soonest_window_and_its_count() {
        let now = 1_800_000_000.0;
        let windows = [
            window(1, 2, now + 7200.0, 1),
            window(2, 2, now - 3600.0, 3),
            window(3, 3, now + 3600.0, 1),
        ];
        let machines = [machine(1), machine(2), machine(3)];
        let health = FleetHealth::judge(&machines, &windows, None, now);
        let rows = fleet_rows(&machines, &windows, &health);
        assert_eq!(rows.iter().map(|r| r.active).collect::<Vec<_>>(), [0, 2, 1]);
        assert_eq!(rows[0].next, None);
        assert_eq!(rows[1].next, Some((now - 3600.0, now + 7200.0)));
        assert_eq!(next_window_text(now, rows[0].next), "None");
        assert_eq!(next_window_text(now, rows[1].next), "Ongoing · 2 h left");
        assert_eq!(next_window_text(now, rows[2].next), "Upcoming · in 1 h");
        assert_eq!(gpus_text(&rows[0].machine), "RTX 4090 × 4");
    }
}
