//! The caller's volumes: which instances use one, and why such a volume cannot be deleted.

use super::rules::volume_name;

use gpudeck_wire::{Volume, VolumeInstance};

/// The ids of the instances using `volume`, as sent (the public service may send objects;
/// their `id` is shown when they have one).
pub fn instance_names(volume: &Volume) -> Vec<String> {
    volume
        .instances
        .iter()
        .map(|instance| match instance {
            VolumeInstance::Id(id) => id.to_string(),
            VolumeInstance::Other(value) => value
                .get("id")
                .map(|id| id.to_string())
                .unwrap_or_else(|| "(unnamed)".into()),
        })
        .collect()
}

/// Why a volume in use cannot go, and what to do, in plain words.
pub fn in_use_explanation(volume: &Volume) -> String {
    let instances = instance_names(volume);
    let name = volume_name(volume.id);
    match instances.len() {
        0 => format!(
            "{name} is still used by an instance (running or stopped). Destroy that instance first, then delete the volume."
        ),
        1 => format!(
            "{name} is still used by instance {} (running or stopped). Destroy that instance first, then delete the volume.",
            instances[0]
        ),
        _ => format!(
            "{name} is still used by instances {} (running or stopped). Destroy them first, then delete the volume.",
            instances.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn volume(instances: Vec<VolumeInstance>) -> Volume {
        Volume {
            id: 20118470,
            label: None,
            status: "active".into(),
            start_date: 0.0,
            disk_space: 30.0,
            machine_id: 2003,
            host_id: 2,
            instances,
            disk_name: "nvme".into(),
            driver_version: "550".into(),
            verification: "verified".into(),
            inet_up: 1.0,
            inet_down: 1.0,
            reliability2: 0.9,
            geolocation: None,
            storage_total_cost: 0.01,
            cpu_name: None,
            cuda_max_good: None,
        }
    }

    #[test]
    fn the_in_use_refusal_names_the_instances_and_what_to_do() {
        assert_eq!(
            in_use_explanation(&volume(vec![VolumeInstance::Id(7001)])),
            "V.20118470 is still used by instance 7001 (running or stopped). Destroy that instance first, then delete the volume."
        );
        let two = volume(vec![
            VolumeInstance::Id(7001),
            VolumeInstance::Other(serde_json::json!({"id": 7002, "actual_status": "exited"})),
        ]);
        assert_eq!(instance_names(&two), ["7001", "7002"]);
        assert!(in_use_explanation(&two).contains("instances 7001, 7002"));
        assert!(in_use_explanation(&volume(vec![])).contains("an instance"));
    }
}
