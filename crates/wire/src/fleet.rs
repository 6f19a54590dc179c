//! The caller's machines (neighbours N1, N2): hardware, listing, occupancy and earnings.

use serde::{Deserialize, Serialize};

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_flops: Option<f64>,
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
        let listing = json!({"end_date": null, "client_end_date": null,
                             "listed_min_gpu_count": null});
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
            // Absent listing fields are sent as null.
            for (field, value) in listing.as_object().unwrap() {
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
}
