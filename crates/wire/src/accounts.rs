//! The caller's account: identity, templates, volumes and subaccounts.

use crate::lenient::Lenient;
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
    /// Whether the key is the user's own or made in a team's context (project rule: the
    /// reference server says so; the public service does not, and then the console names
    /// no kind of key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_scope: Option<KeyScope>,
}

/// What a key acts for: the user's own account, or one team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeyScope {
    Personal,
    Team { team_id: i64, team_name: String },
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// The volume's label: see [`is_volume_label`]. Absent, `null` or `""`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, pattern = "^[A-Za-z0-9_]{0,64}$", example = "scratch"))]
    pub name: Option<Lenient<String>>,
}

/// The longest volume label.
pub const MAX_VOLUME_LABEL_CHARS: usize = 64;

/// Seed op 4's rule for a volume's `name`: 1–64 ASCII letters, digits and underscores.
pub fn is_volume_label(name: &str) -> bool {
    (1..=MAX_VOLUME_LABEL_CHARS).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
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
    /// The name it signs in with, as N20 took it. The seed operation's table does not list
    /// it, so a service may leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// True for an account that only hosts (N20's `host_only`, the official client's `--type
    /// host`), false for one that rents (a client); absent when the service leaves it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_only: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubaccountList {
    pub users: Vec<Subaccount>,
    #[serde(default)]
    pub msg: String,
}

/// The parent N20 names: always the caller, `"me"`. On the public service this field is
/// what makes `POST /users/` a subaccount rather than a sign-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ParentId {
    #[serde(rename = "me")]
    Me,
}

/// The body of `POST /users` (N20), in the official client's order. Every field is read
/// leniently so the operation can answer in its own words; `captcha` is ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateSubaccountRequest {
    /// At most 64 characters; unique among users, ignoring case.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, max_length = 64, example = "new-sub@example.org"))]
    pub email: Option<Lenient<String>>,
    /// 1–64 characters, no control characters; unique, ignoring case.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, min_length = 1, max_length = 64, example = "carol"))]
    pub username: Option<Lenient<String>>,
    /// 8–256 characters; stored only as a salted slow hash.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, min_length = 8, max_length = 256, example = "correct horse"))]
    pub password: Option<Lenient<String>>,
    /// Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<bool>))]
    pub host_only: Option<Lenient<bool>>,
    /// Required, `"me"`: the request creates a subaccount of the caller, nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = ParentId, required = true))]
    pub parent_id: Option<Lenient<ParentId>>,
    /// At most 4096 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 4096))]
    pub ssh_key: Option<Lenient<String>>,
}

impl CreateSubaccountRequest {
    /// What the console sends for a new subaccount: the client's fields, and
    /// `parent_id: "me"`, without which the public service reads a sign-up.
    pub fn of_caller(email: String, username: String, password: String, host_only: bool) -> Self {
        Self {
            email: Some(Lenient::Valid(email)),
            username: Some(Lenient::Valid(username)),
            password: Some(Lenient::Valid(password)),
            host_only: Some(Lenient::Valid(host_only)),
            parent_id: Some(ParentId::Me.into()),
            ssh_key: None,
        }
    }
}

/// N20's answer. The public docs show only `id`, `username`, `email` and `key_id`; without
/// `api_key`, the subaccount list (seed op 5) shows the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedSubaccount {
    pub id: i64,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub email: String,
    /// The derived key that seed op 5 lists.
    #[serde(default)]
    pub api_key: Option<String>,
    /// The id of its key record.
    #[serde(default)]
    pub key_id: Option<i64>,
    /// US dollars.
    #[serde(default)]
    pub balance: f64,
    /// US dollars.
    #[serde(default)]
    pub credit: f64,
    #[serde(default)]
    pub host_only: bool,
    #[serde(default)]
    pub ssh_key: Option<String>,
    #[serde(default)]
    pub email_verified: bool,
    #[serde(default)]
    pub can_pay: bool,
    #[serde(default)]
    pub has_billing: bool,
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
        assert_eq!(list.users[0].username, None);
        assert_eq!(list.users[0].host_only, None);
        let back = serde_json::to_value(&list).unwrap();
        assert_eq!(back["users"][0]["balance"], 0.0);
        assert!(back["users"][0].get("host_only").is_none());
        let named: Subaccount = serde_json::from_str(
            r#"{"id":2,"email":"h@b.c","api_key":"k","balance":1,"username":"h","host_only":true}"#,
        )
        .unwrap();
        assert_eq!(named.username.as_deref(), Some("h"));
        assert_eq!(named.host_only, Some(true));

        let accepted: AcceptVolumeResponse =
            serde_json::from_str(r#"{"success":true,"volume_name":"V.20118481"}"#).unwrap();
        assert_eq!(accepted.volume_name, "V.20118481");

        let deleted: DeleteTemplateResponse =
            serde_json::from_str(r#"{"success":true,"msg":"Template deleted"}"#).unwrap();
        assert!(deleted.success);

        // Whole numbers written as floats read as the integers they are.
        for body in [r#"{"size": 20, "id": 7}"#, r#"{"id": 7.0, "size": 2e1}"#] {
            let request: AcceptVolumeRequest = serde_json::from_str(body).unwrap();
            let expected = AcceptVolumeRequest {
                id: 7,
                size: 20,
                name: None,
            };
            assert_eq!(request, expected, "{body}");
        }
        assert!(serde_json::from_str::<AcceptVolumeRequest>(r#"{"id":"7","size":20}"#).is_err());
        let labelled: AcceptVolumeRequest =
            serde_json::from_str(r#"{"id": 7, "size": 2, "name": 5}"#).unwrap();
        assert_eq!(labelled.name, Some(Lenient::Invalid));
        assert!(is_volume_label("datasets_2"));
        assert!(is_volume_label(&"a".repeat(64)));
        for bad in ["", "a b", "ü", "a-b", &"a".repeat(65)] {
            assert!(!is_volume_label(bad), "{bad:?}");
        }
        let template: DeleteTemplateRequest =
            serde_json::from_str(r#"{"template_id": 501.0}"#).unwrap();
        assert_eq!(template.template_id, 501);

        let create: CreateSubaccountRequest = serde_json::from_str(
            r#"{"email":"c@d.ef","username":"c","password":"12345678","host_only":false,"parent_id":"me"}"#,
        )
        .unwrap();
        assert_eq!(create.email, Some(Lenient::Valid("c@d.ef".into())));
        assert_eq!(create.host_only, Some(Lenient::Valid(false)));
        assert_eq!(create.parent_id, Some(ParentId::Me.into()));
        for other in [r#""you""#, r#""ME""#, "1", "{}"] {
            let odd: CreateSubaccountRequest =
                serde_json::from_str(&format!(r#"{{"parent_id":{other}}}"#)).unwrap();
            assert_eq!(odd.parent_id, Some(Lenient::Invalid), "{other}");
        }
        assert_eq!(
            serde_json::to_value(CreateSubaccountRequest {
                parent_id: Some(ParentId::Me.into()),
                ..CreateSubaccountRequest::default()
            })
            .unwrap()["parent_id"],
            "me"
        );
        let odd: CreateSubaccountRequest = serde_json::from_str(r#"{"email":5}"#).unwrap();
        assert_eq!(odd.email, Some(Lenient::Invalid));
        assert_eq!(odd.username, None);
        let created: CreatedSubaccount =
            serde_json::from_str(r#"{"id":9,"username":"c","email":"c@d.ef","key_id":3}"#).unwrap();
        assert_eq!(created.api_key, None);
    }
}
