//! Volumes: offer search (N10), the caller's volumes (N11) and deletion (N12). Accepting an
//! ask (seed op 4) is in [`crate::accounts`].

use crate::lenient::{Lenient, Whole};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The body of `POST /volumes/search` (N10): reserved keys, and every other key a filter
/// `{op: value}` in the query language of [`crate::query`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumeSearchRequest {
    /// `[[field, "asc"|"desc"], …]`; default `[["score", "desc"]]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Vec<String>>>, example = json!([["score", "desc"]])))]
    pub order: Option<Lenient<Vec<(String, String)>>>,
    /// 1–1000; default 64.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>, minimum = 1, maximum = 1000))]
    pub limit: Option<Lenient<Whole>>,
    /// GiB to price; default 1.0, must be > 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>, exclusive_minimum = 0))]
    pub allocated_storage: Option<Lenient<f64>>,
    /// `on-demand`, `bid` or `reserved`; accepted and ignored by the reference server.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Value>))]
    pub kind: Option<serde_json::Value>,
    /// `field → {op: value}`, e.g. `"disk_space": {"gte": 1}`.
    #[serde(flatten)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub filters: BTreeMap<String, serde_json::Value>,
}

/// An offer of N10: a volume ask with its free space and its machine's qualities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumeOffer {
    /// The ask id: the `id` of seed op 4.
    pub id: i64,
    pub machine_id: i64,
    /// The machine's owner.
    pub host_id: i64,
    /// Free GB.
    pub disk_space: f64,
    /// $/GB/month.
    pub storage_cost: f64,
    /// $/hour for `allocated_storage`.
    pub storage_total_cost: f64,
    /// Seconds left.
    pub duration: f64,
    pub start_date: f64,
    pub end_date: f64,
    /// 0–1.
    pub reliability: f64,
    pub cuda_max_good: f64,
    /// Mbps.
    pub inet_up: f64,
    /// Mbps.
    pub inet_down: f64,
    /// MB/s.
    pub disk_bw: f64,
    pub disk_name: String,
    pub driver_version: String,
    /// e.g. `verified`.
    pub verification: String,
    #[serde(default)]
    pub geolocation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask_contract_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_ip: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_name: Option<String>,
}

/// N10's answer; `offers` is always present.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumeOfferList {
    pub offers: Vec<VolumeOffer>,
}

/// An instance using a volume: the reference server sends ids, the public service may send
/// objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum VolumeInstance {
    Id(i64),
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    Other(serde_json::Value),
}

/// A volume of N11.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Volume {
    /// The volume's name is `V.<id>`.
    pub id: i64,
    /// Seed op 4's `name`.
    #[serde(default)]
    pub label: Option<String>,
    /// `active` on the reference server; show any value.
    pub status: String,
    /// Creation time, Unix seconds.
    pub start_date: f64,
    /// Size in GB.
    pub disk_space: f64,
    pub machine_id: i64,
    pub host_id: i64,
    /// Instances using the volume, running or stopped.
    #[serde(default)]
    pub instances: Vec<VolumeInstance>,
    pub disk_name: String,
    pub driver_version: String,
    pub verification: String,
    /// Mbps.
    pub inet_up: f64,
    /// Mbps.
    pub inet_down: f64,
    /// 0–1.
    pub reliability2: f64,
    #[serde(default)]
    pub geolocation: Option<String>,
    /// $/hour for this size.
    pub storage_total_cost: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_max_good: Option<f64>,
}

/// N11's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumeList {
    pub volumes: Vec<Volume>,
}

/// N12's optional body: the id may come here instead of the query (the query wins).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeleteVolumeRequest {
    /// The volume, a positive integer, when the query names none; not read when it does.
    // Published as any value: with the id in the query, no value here is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<serde_json::Value>))]
    pub id: Option<Lenient<Whole>>,
}

/// N12's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeleteVolumeResponse {
    pub success: bool,
}

/// `storage_cost` ($/GB/month) × `gb` ÷ 720: $/hour over a 30-day month (N10, N11).
pub fn storage_total_cost(storage_cost: f64, gb: f64) -> f64 {
    storage_cost * gb / 720.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_body_keeps_reserved_keys_apart() {
        let body: VolumeSearchRequest = serde_json::from_str(
            r#"{"verified": {"eq": true}, "external": {"eq": false}, "disk_space": {"gte": 1},
                "order": [["score", "desc"]], "allocated_storage": 1.0, "limit": 5.0}"#,
        )
        .unwrap();
        assert_eq!(
            body.order,
            Some(Lenient::Valid(vec![("score".into(), "desc".into())]))
        );
        assert_eq!(body.limit, Some(Lenient::Valid(Whole(5))));
        assert_eq!(body.allocated_storage, Some(Lenient::Valid(1.0)));
        assert_eq!(body.filters.len(), 3);
        let odd: VolumeSearchRequest =
            serde_json::from_str(r#"{"limit": "x", "order": 3}"#).unwrap();
        assert_eq!(odd.limit, Some(Lenient::Invalid));
        assert_eq!(odd.order, Some(Lenient::Invalid));
    }

    #[test]
    fn volumes_accept_instance_ids_or_objects() {
        let list: VolumeList = serde_json::from_str(
            r#"{"volumes":[{"id":20118481,"label":null,"status":"active","start_date":1,"disk_space":20,
            "machine_id":1,"host_id":2,"instances":[7,{"id":8}],"disk_name":"nvme","driver_version":"550",
            "verification":"verified","inet_up":1,"inet_down":2,"reliability2":0.9,"geolocation":null,
            "storage_total_cost":0.01}]}"#,
        )
        .unwrap();
        assert_eq!(list.volumes[0].instances[0], VolumeInstance::Id(7));
        assert!(matches!(
            list.volumes[0].instances[1],
            VolumeInstance::Other(_)
        ));
        assert!((storage_total_cost(0.4, 1.0) - 0.000_555_555).abs() < 1e-8);
        let delete: DeleteVolumeRequest = serde_json::from_str("{}").unwrap();
        assert_eq!(delete.id, None);
    }
}
