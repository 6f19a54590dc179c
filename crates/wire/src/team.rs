//! The caller's current team: its roles and members.

use crate::lenient::{Lenient, Whole};
use serde::{Deserialize, Deserializer, Serialize};

/// `GET /team/roles/{name}`. `permissions` stays raw JSON on the wire: its structure is not
/// specified, so everyone reads it through [`crate::Permissions`], which keeps
/// whatever it does not recognise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamRole {
    pub id: i64,
    pub name: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub permissions: serde_json::Value,
}

/// An element of `GET /team/members`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamMember {
    pub id: i64,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub username: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub email: String,
    #[serde(default, deserialize_with = "null_as_empty")]
    pub fullname: String,
    #[serde(default)]
    pub roles: Vec<String>,
}

/// An element of N13 `GET /team/roles-full/`: every assignable role (never the owner role).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TeamRoleEntry {
    /// What N15 and N19's PUT take.
    pub id: i64,
    pub name: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub permissions: serde_json::Value,
    /// The system id of a built-in role (`team_manager`, `team_member`); null for a custom one.
    #[serde(default)]
    pub identifier: Option<String>,
}

/// Body of N14 `POST /team/roles/` and N15 `PUT /team/roles/{id}/`. Read leniently so the
/// server can refuse in the operation's own words; an absent or `null` field is `None`
/// (for N15: unchanged).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleRequest {
    /// 2–50 characters, unique in the team, no control characters, no surrounding spaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, min_length = 2, max_length = 50, example = "auditor"))]
    pub name: Option<Lenient<String>>,
    /// `{"api": {<group>: {}, …}, "<route name>": {"constraints": …}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub permissions: Option<serde_json::Value>,
}

/// `{"msg": "success"}` (N14, N19 POST and DELETE); `success` when the sender adds it (N17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageAnswer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    #[serde(default)]
    pub msg: String,
}

/// N15's answer: `{"success": true, "msg": …}`, or the bare string the docs show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum RoleUpdated {
    Answer(MessageAnswer),
    Text(String),
}

impl RoleUpdated {
    /// The sentence to show, whichever shape arrived.
    pub fn message(&self) -> &str {
        match self {
            RoleUpdated::Answer(answer) => &answer.msg,
            RoleUpdated::Text(text) => text,
        }
    }
}

/// `{"status", "message"}` of N16 and N18. `status: "failure"` is a refusal (spec §1.3;
/// the console's API client reads it as one before it would be this type).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatusAnswer {
    pub status: String,
    #[serde(default)]
    pub message: String,
}

/// N16's optional body: `role_id` takes precedence over the name in the path.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RemoveRoleRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>))]
    pub role_id: Option<Lenient<Whole>>,
}

/// N17's body form (the docs'); the official client sends the same in the query, which wins.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InviteRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 254, example = "dana@example.org"))]
    pub email: Option<Lenient<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "auditor"))]
    pub role: Option<Lenient<String>>,
}

/// An element of N17a `GET /team/invites/`: a pending invitation. Never its token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Invitation {
    pub email: String,
    /// The role's name.
    pub role: String,
    /// User id of the member who sent it.
    pub invited_by: i64,
    /// Unix seconds.
    pub created_at: f64,
    /// Unix seconds: `created_at` + 4 h, or earlier when a newer invitation replaced it.
    pub expires_at: f64,
}

/// Body of N19 `POST` (give a first role) and `DELETE` (take one of several):
/// `{"role": <name>}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberRoleRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "auditor"))]
    pub role: Option<Lenient<String>>,
}

/// Body of N19 `PUT`: replace the member's single role with `role_id`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReplaceMemberRoleRequest {
    /// If present, must equal the user id in the path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>))]
    pub member_id: Option<Lenient<Whole>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = i64, example = 12))]
    pub role_id: Option<Lenient<Whole>>,
}

/// N19 `PUT`'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MemberRoleReplaced {
    pub success: bool,
    #[serde(default)]
    pub msg: String,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub new_role_permissions: serde_json::Value,
}

/// The public service sends `null` for names people never filled in.
fn null_as_empty<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn team_shapes_round_trip() {
        let role: TeamRole = serde_json::from_str(
            r#"{"id":3,"name":"member","permissions":{"api":{"instance_read":{}}}}"#,
        )
        .unwrap();
        assert_eq!(
            role.permissions["api"]["instance_read"],
            serde_json::json!({})
        );

        let members: Vec<TeamMember> = serde_json::from_str(
            r#"[{"id":1,"username":"ann","email":"a@x","fullname":null,"roles":["owner"],"extra":1}]"#,
        )
        .unwrap();
        assert_eq!(members[0].fullname, "");
        assert_eq!(members[0].roles, vec!["owner"]);
    }
    #[test]
    fn new_team_shapes_read_both_documented_forms() {
        let roles: Vec<TeamRoleEntry> = serde_json::from_str(
            r#"[{"id":2,"name":"manager","permissions":{},"identifier":"team_manager"},
                {"id":9,"name":"auditor","permissions":{"api":{}},"identifier":null}]"#,
        )
        .unwrap();
        assert_eq!(roles[0].identifier.as_deref(), Some("team_manager"));
        assert_eq!(roles[1].identifier, None);

        let answer: RoleUpdated = serde_json::from_str(
            r#"{"success":true,"msg":"Successfully Updated Team Role For x"}"#,
        )
        .unwrap();
        assert_eq!(answer.message(), "Successfully Updated Team Role For x");
        let bare: RoleUpdated = serde_json::from_str(r#""Successfully Updated""#).unwrap();
        assert_eq!(bare.message(), "Successfully Updated");
    }

    #[test]
    fn role_requests_send_only_what_is_set_and_read_odd_values_leniently() {
        let rename = RoleRequest {
            name: Some("auditor".to_string().into()),
            permissions: None,
        };
        assert_eq!(
            serde_json::to_string(&rename).unwrap(),
            r#"{"name":"auditor"}"#
        );
        let odd: RoleRequest = serde_json::from_str(r#"{"name":5,"permissions":null}"#).unwrap();
        assert_eq!(odd.name, Some(Lenient::Invalid));
        assert_eq!(odd.permissions, None);

        let replace: ReplaceMemberRoleRequest =
            serde_json::from_str(r#"{"member_id":4,"role_id":12.0}"#).unwrap();
        assert_eq!(replace.role_id, Some(Lenient::Valid(Whole(12))));
        let text: ReplaceMemberRoleRequest = serde_json::from_str(r#"{"role_id":"12"}"#).unwrap();
        assert_eq!(text.role_id, Some(Lenient::Invalid));
    }
}
