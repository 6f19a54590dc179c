//! The caller's account: identity, templates, volumes and subaccounts.

use serde::{Deserialize, Serialize};

/// `GET /users/current`: who the key belongs to. The public service returns many more
/// fields; only these are relied on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurrentUser {
    pub id: i64,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub username: String,
    /// Prepaid credit in US dollars.
    #[serde(default)]
    pub balance: f64,
    /// The account hosts machines (N21); absent means false. Host screens may come first,
    /// but nothing is hidden or blocked by it.
    #[serde(default)]
    pub host_agreement_accepted: bool,
}

/// Body of `DELETE /users/{user_id}/templates` and `DELETE /template/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeleteTemplateRequest {
    #[cfg_attr(feature = "openapi", schema(example = 503))]
    #[serde(deserialize_with = "crate::whole_number::deserialize")]
    pub template_id: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeleteTemplateResponse {
    pub success: bool,
    #[serde(default)]
    pub msg: String,
}

/// Body of `PUT /volumes`: accept volume ask `id` for a volume of `size` GB.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AcceptVolumeRequest {
    /// The volume ask (offer) to accept.
    #[cfg_attr(feature = "openapi", schema(example = 8))]
    #[serde(deserialize_with = "crate::whole_number::deserialize")]
    pub id: i64,
    /// Size of the new volume in GB, at least 1.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, example = 20))]
    #[serde(deserialize_with = "crate::whole_number::deserialize")]
    pub size: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AcceptVolumeResponse {
    pub success: bool,
    /// `V.<volume id>`, the name used to mount the volume into an instance.
    pub volume_name: String,
}

/// An element of `users` in `GET /subaccounts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Subaccount {
    pub id: i64,
    #[serde(default)]
    pub email: String,
    /// The key derived for this subaccount; it authenticates as the subaccount.
    pub api_key: String,
    /// Prepaid credit in US dollars.
    #[serde(default)]
    pub balance: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubaccountList {
    pub users: Vec<Subaccount>,
    #[serde(default)]
    pub msg: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_shapes_round_trip() {
        let user: CurrentUser = serde_json::from_str(
            r#"{"id":7,"email":"a@b.c","username":"a","balance":12.5,"sshkey":"x","credit":3}"#,
        )
        .unwrap();
        assert_eq!(user.id, 7);
        assert_eq!(user.balance, 12.5);
        assert!(!user.host_agreement_accepted);
        let host: CurrentUser =
            serde_json::from_str(r#"{"id":1,"host_agreement_accepted":true}"#).unwrap();
        assert!(host.host_agreement_accepted);

        let list: SubaccountList = serde_json::from_str(
            r#"{"users":[{"id":1,"email":"s@b.c","api_key":"k","balance":0}],"msg":"1 subaccount"}"#,
        )
        .unwrap();
        assert_eq!(list.users[0].api_key, "k");
        let back = serde_json::to_value(&list).unwrap();
        assert_eq!(back["users"][0]["balance"], 0.0);

        let accepted: AcceptVolumeResponse =
            serde_json::from_str(r#"{"success":true,"volume_name":"V.20118481"}"#).unwrap();
        assert_eq!(accepted.volume_name, "V.20118481");

        let deleted: DeleteTemplateResponse =
            serde_json::from_str(r#"{"success":true,"msg":"Template deleted"}"#).unwrap();
        assert!(deleted.success);

        let request: AcceptVolumeRequest =
            serde_json::from_str(r#"{"size": 20, "id": 7}"#).unwrap();
        assert_eq!(request, AcceptVolumeRequest { id: 7, size: 20 });
        assert!(serde_json::from_str::<AcceptVolumeRequest>(r#"{"id":"7","size":20}"#).is_err());
        let whole: AcceptVolumeRequest =
            serde_json::from_str(r#"{"id": 7.0, "size": 2e1}"#).unwrap();
        assert_eq!(whole, AcceptVolumeRequest { id: 7, size: 20 });
        let template: DeleteTemplateRequest =
            serde_json::from_str(r#"{"template_id": 501.0}"#).unwrap();
        assert_eq!(template.template_id, 501);
    }
}
