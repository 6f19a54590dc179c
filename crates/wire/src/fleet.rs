//! The caller's machines (neighbours N1, N2): hardware, listing, occupancy and earnings.

use serde::{Deserialize, Serialize};

/// The states of N1's `verification`, as the docs name them ("Unverified → Verified →
/// (potentially) Deverified"); the public service may send others.
pub const VERIFICATIONS: [&str; 3] = ["verified", "unverified", "deverified"];

/// A machine of `GET /machines` (N1) and `GET /machines/{id}` (N2). The fields without
/// `Option` are the ones the specification marks required; the others are optional and
/// left out when unknown. Units are the reference server's (see each field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Machine {
    pub id: i64,
    /// Equal to `id`.
    pub machine_id: i64,
    pub hostname: String,
    /// e.g. `RTX 4090`.
    pub gpu_name: String,
    pub cpu_name: String,
    /// e.g. `550.54.14`.
    pub driver_version: String,
    pub num_gpus: i64,
    pub cpu_cores: i64,
    /// Running rentals (the reference server counts the machine's active contracts).
    pub current_rentals_running: i64,
    /// Per GPU, MB (the public unit is unconfirmed).
    pub gpu_ram: f64,
    /// MB (the public unit is unconfirmed).
    pub cpu_ram: f64,
    /// GB (the public unit is unconfirmed).
    pub disk_space: f64,
    /// The machine has an offer whose end date is null or later than now (§1.7).
    pub listed: bool,
    /// `verified`, `unverified` or `deverified`; other values are shown as they are.
    pub verification: String,
    /// 0–1.
    pub reliability2: f64,
    /// One code per GPU in slot order, space separated: `D` on-demand, `R` reserved, `I`
    /// interruptible, `x` not rented, e.g. `D D x x I x x x`.
    pub gpu_occupancy: String,
    /// e.g. `Sweden, SE`.
    #[serde(default)]
    pub geolocation: Option<String>,
    #[serde(default)]
    pub public_ipaddr: Option<String>,
    /// Seconds since the machine was last seen; 0 while online.
    pub timeout: f64,
    /// On-demand price, $/GPU-hour.
    #[serde(default)]
    pub listed_gpu_cost: Option<f64>,
    /// Interruptible floor, $/GPU-hour.
    #[serde(default)]
    pub min_bid_price: Option<f64>,
    /// $ earned in the last 24 h.
    pub earn_day: f64,

    // The listing fields of §1.7. The reference server sends them all (null when unknown);
    // the console relies on none being present.
    /// The offer end date, Unix seconds; null when not listed or open-ended.
    #[serde(default)]
    pub end_date: Option<f64>,
    /// The latest rental end date among the active contracts; null when none has one.
    #[serde(default)]
    pub client_end_date: Option<f64>,
    /// The offer's `min_chunk`: the fewest GPUs a renter may take.
    #[serde(default)]
    pub listed_min_gpu_count: Option<i64>,

    /// $ earned in the last hour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earn_hour: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_rentals_resident: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_rentals_on_demand: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_rentals_running_on_demand: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_reports: Option<i64>,
    /// 1 = datacenter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosting_type: Option<i64>,
    /// $/GB/month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_storage_cost: Option<f64>,
    /// $/GB/month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_volume_cost: Option<f64>,
    /// $/GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_inet_up_cost: Option<f64>,
    /// $/GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_inet_down_cost: Option<f64>,
    /// Mbps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inet_up: Option<f64>,
    /// Mbps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inet_down: Option<f64>,
    /// A number or a string (e.g. `12.4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_max_good: Option<NumberOrText>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_discount_max: Option<f64>,
    /// TFLOPS of the whole machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_flops: Option<f64>,

    // The health signals of fleet-health §1.1. Beyond `cuda_max_good` and `total_flops`
    // only third-party payloads show them, so every one is optional and an absent one is
    // "not said". Those the sources show as nullable are sent as null when unknown.
    /// The machine's current error; null, `""` or blank mean none.
    #[serde(default)]
    pub error_description: Option<String>,
    /// An error about running VM instances on the machine.
    #[serde(default)]
    pub vm_error_msg: Option<String>,
    /// Renter reports lately (the reference server: the last 7 days). A float on the
    /// public service, for reasons unknown.
    #[serde(default)]
    pub num_recent_reports: Option<f64>,
    /// A rolling offer's length in seconds; null or absent proves nothing (§1.7).
    #[serde(default)]
    pub duration: Option<f64>,
    /// Total disk, GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_disk_space: Option<f64>,
    /// Free disk, GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avail_disk_space: Option<f64>,
    /// Disk allocated to rentals, GB; null when nothing is allocated.
    #[serde(default)]
    pub alloc_disk_space: Option<f64>,
    /// e.g. `6.8.0-45-generic`.
    #[serde(default)]
    pub kernel_version: Option<String>,
    /// e.g. `22.04`.
    #[serde(default)]
    pub ubuntu_version: Option<String>,
    /// The hottest GPU's current temperature (°C, inferred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_max_cur_temp: Option<f64>,
    /// The machine's upcoming and ongoing maintenance windows, or null.
    #[serde(default)]
    pub machine_maintenance: Option<MachineMaintenance>,
    /// Open ports mapped to the machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direct_port_count: Option<i64>,
    /// PCIe bandwidth (GB/s, inferred).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie_bw: Option<f64>,
}

/// N1's `machine_maintenance`: an array of windows, or a string (third-party models allow
/// one; its meaning is unknown, so it is kept as received).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum MachineMaintenance {
    Windows(Vec<AnnouncedWindow>),
    Text(String),
}

impl MachineMaintenance {
    /// The windows announced, none for a string.
    pub fn windows(&self) -> &[AnnouncedWindow] {
        match self {
            MachineMaintenance::Windows(windows) => windows,
            MachineMaintenance::Text(_) => &[],
        }
    }
}

/// A window as N1's `machine_maintenance` carries it: the six fields of seed op 1's
/// window that third-party payloads show there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AnnouncedWindow {
    pub id: i64,
    pub machine_id: i64,
    /// Unix seconds.
    pub start_time: f64,
    /// Whole hours, as seed op 1 has them.
    pub duration_hours: i64,
    pub maintenance_category: crate::MaintenanceCategory,
    #[serde(default)]
    pub maintenance_reason: Option<String>,
}

/// A value the public service sends as a number or as a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum NumberOrText {
    Number(f64),
    Text(String),
}

/// Answer of `GET /machines` (N1): the caller's machines by id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MachineList {
    pub machines: Vec<Machine>,
}

/// The codes of `gpu_occupancy` for `num_gpus` slots, given each rented run as
/// `(slot_start, gpu_count, kind)`: covered slots show their contract's kind, the others
/// `x`. Runs outside the machine's slots are clipped.
pub fn gpu_occupancy(num_gpus: usize, runs: &[(usize, usize, char)]) -> String {
    let mut slots = vec!['x'; num_gpus];
    for &(start, count, kind) in runs {
        for slot in slots.iter_mut().skip(start).take(count) {
            *slot = kind;
        }
    }
    let mut text = String::with_capacity(num_gpus * 2);
    for (i, code) in slots.into_iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push(code);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn occupancy_is_one_code_per_slot() {
        assert_eq!(
            gpu_occupancy(8, &[(0, 2, 'D'), (4, 1, 'I')]),
            "D D x x I x x x"
        );
        assert_eq!(gpu_occupancy(2, &[]), "x x");
        assert_eq!(gpu_occupancy(2, &[(1, 5, 'R')]), "x R");
        assert_eq!(gpu_occupancy(0, &[(0, 1, 'D')]), "");
    }

    #[test]
    fn a_machine_needs_its_required_fields_only() {
        let required = json!({
            "id": 1, "machine_id": 1, "hostname": "h", "gpu_name": "RTX 4090",
            "cpu_name": "EPYC", "driver_version": "550.54.14", "num_gpus": 2, "cpu_cores": 32,
            "current_rentals_running": 1, "gpu_ram": 24564, "cpu_ram": 128000,
            "disk_space": 2000, "listed": true, "verification": "verified",
            "reliability2": 0.99, "gpu_occupancy": "D x", "geolocation": null,
            "public_ipaddr": null, "timeout": 0, "listed_gpu_cost": null,
            "min_bid_price": null, "earn_day": 3.5, "unknown_field": 1
        });
        // Absent listing fields, and absent health fields the sources show as nullable,
        // are sent as null.
        let nulls = json!({"end_date": null, "client_end_date": null,
                           "listed_min_gpu_count": null, "error_description": null,
                           "vm_error_msg": null, "num_recent_reports": null, "duration": null,
                           "alloc_disk_space": null, "kernel_version": null,
                           "ubuntu_version": null, "machine_maintenance": null});
        let machine: Machine = serde_json::from_value(required.clone()).unwrap();
        assert_eq!(machine.cuda_max_good, None);
        let mut back = serde_json::to_value(&machine).unwrap();
        back.as_object_mut()
            .unwrap()
            .insert("unknown_field".into(), json!(1));
        assert_eq!(back, {
            let mut v = required;
            for f in ["gpu_ram", "cpu_ram", "disk_space", "timeout"] {
                v[f] = json!(v[f].as_f64().unwrap());
            }
            for (field, value) in nulls.as_object().unwrap() {
                v[field] = value.clone();
            }
            v
        });
        for (raw, read) in [
            (json!("12.4"), NumberOrText::Text("12.4".into())),
            (json!(12.4), NumberOrText::Number(12.4)),
        ] {
            assert_eq!(serde_json::from_value::<NumberOrText>(raw).unwrap(), read);
        }
    }

    #[test]
    fn health_fields_read_as_third_party_payloads_send_them() {
        let mut raw: serde_json::Value = serde_json::from_str(
            r#"{
            "id": 7, "machine_id": 7, "hostname": "h", "gpu_name": "RTX 4090",
            "cpu_name": "EPYC", "driver_version": "550.54.14", "num_gpus": 8, "cpu_cores": 32,
            "current_rentals_running": 0, "gpu_ram": 24564, "cpu_ram": 128000,
            "disk_space": 6436.0, "listed": true, "verification": "verified",
            "reliability2": 0.99, "gpu_occupancy": "x x x x x x x x", "geolocation": null,
            "public_ipaddr": null, "timeout": 0, "listed_gpu_cost": null,
            "min_bid_price": null, "earn_day": 0,
            "error_description": "failed to inject CDI devices", "vm_error_msg": null,
            "num_recent_reports": 2.0, "duration": null, "max_disk_space": 7152,
            "avail_disk_space": 6636, "alloc_disk_space": null, "kernel_version": null,
            "ubuntu_version": "22.04", "gpu_max_cur_temp": 34.0, "direct_port_count": 16385,
            "pcie_bw": 54.2, "total_flops": 1084.9536,
            "machine_maintenance": [{"id": 3, "machine_id": 7, "start_time": 1800000000.0,
                "duration_hours": 2, "maintenance_category": "gpu",
                "maintenance_reason": null}]
        }"#,
        )
        .unwrap();
        let machine: Machine = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(
            machine.error_description.as_deref(),
            Some("failed to inject CDI devices")
        );
        assert_eq!(machine.num_recent_reports, Some(2.0));
        assert_eq!(
            (machine.max_disk_space, machine.avail_disk_space),
            (Some(7152.0), Some(6636.0))
        );
        assert_eq!(machine.alloc_disk_space, None);
        assert_eq!(machine.gpu_max_cur_temp, Some(34.0));
        assert_eq!(
            (machine.direct_port_count, machine.pcie_bw),
            (Some(16385), Some(54.2))
        );
        let windows = machine.machine_maintenance.as_ref().unwrap().windows();
        assert_eq!((windows[0].id, windows[0].duration_hours), (3, 2));
        assert_eq!(
            windows[0].maintenance_category,
            crate::MaintenanceCategory::Gpu
        );
        // The string form some models allow is kept, and holds no windows.
        raw["machine_maintenance"] = json!("none");
        let text: Machine = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(
            text.machine_maintenance,
            Some(MachineMaintenance::Text("none".into()))
        );
        assert!(text.machine_maintenance.unwrap().windows().is_empty());
        // Absent non-nullable health fields stay absent when sent on.
        for field in [
            "max_disk_space",
            "gpu_max_cur_temp",
            "direct_port_count",
            "pcie_bw",
        ] {
            raw.as_object_mut().unwrap().remove(field);
        }
        let sparse: Machine = serde_json::from_value(raw).unwrap();
        let back = serde_json::to_value(&sparse).unwrap();
        for field in [
            "max_disk_space",
            "gpu_max_cur_temp",
            "direct_port_count",
            "pcie_bw",
        ] {
            assert!(back.get(field).is_none(), "{field}");
        }
    }
}
