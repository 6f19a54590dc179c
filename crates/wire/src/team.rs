//! The caller's current team: its roles and members.

use serde::{Deserialize, Deserializer, Serialize};

/// `GET /team/roles/{name}`. `permissions` stays raw JSON on the wire: its structure is not
/// specified, so the console reads it through [`crate::PermissionsView`], which keeps
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
}
