//! Authentication: the [`Caller`] extractor.
//!
//! The key comes from `Authorization: Bearer <key>` or, as older clients send it, from the
//! `api_key` query parameter; the header wins. Only the key's SHA-256 is looked up. A key
//! scoped to a team acts through the member's roles there; a personal key may do anything
//! its user may.

use crate::db;
use crate::error::ApiError;
use crate::holding::Holding;
use crate::keys;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use gpudeck_wire::operations::Operation;
use gpudeck_wire::PermissionGroup;

/// Who is calling, resolved from the API key.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The key's user: whose machines, templates, volumes and subaccounts are acted on.
    pub user_id: i64,
    /// The team the key is scoped to, if any.
    pub team_id: Option<i64>,
    /// Everything for a personal key; for a team key, the union of the member's roles in
    /// that team.
    pub holding: Holding,
}

impl Caller {
    /// Refuses with 403, naming the permission, when a team key's roles lack `group`.
    pub fn require(&self, group: PermissionGroup) -> Result<(), ApiError> {
        if self.holding.grants(group) {
            Ok(())
        } else {
            Err(lacks_permission(group))
        }
    }

    /// [`Caller::require`] for the group the operation table says `operation` needs; an
    /// operation that needs none passes.
    pub fn require_for(&self, operation: &Operation) -> Result<(), ApiError> {
        operation
            .permission
            .map_or(Ok(()), |group| self.require(group))
    }
}

/// 403 `forbidden`: what the caller holds lacks `group`.
pub fn lacks_permission(group: PermissionGroup) -> ApiError {
    ApiError::forbidden(format!("this key's team role lacks the permission {group}"))
}

/// The key a request presents, if any. Errors are 401s with a message saying what to fix.
pub fn presented_key(parts: &Parts) -> Result<String, ApiError> {
    if let Some(value) = parts.headers.get(AUTHORIZATION) {
        let malformed =
            || ApiError::unauthorized("the Authorization header must be \"Bearer <API key>\"");
        let text = value.to_str().map_err(|_| malformed())?.trim();
        let (scheme, key) = text.split_once(' ').ok_or_else(malformed)?;
        let key = key.trim();
        if !scheme.eq_ignore_ascii_case("bearer") || key.is_empty() {
            return Err(malformed());
        }
        return Ok(key.to_owned());
    }
    let from_query = parts.uri.query().and_then(|query| {
        form_urlencoded::parse(query.as_bytes())
            .find(|(name, _)| name == "api_key")
            .map(|(_, value)| value.into_owned())
    });
    match from_query {
        Some(key) if !key.trim().is_empty() => Ok(key.trim().to_owned()),
        _ => Err(ApiError::unauthorized(
            "an API key is required: send the header Authorization: Bearer <API key>",
        )),
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let hash = keys::hash_key(&presented_key(parts)?);
        let standing = state
            .db
            .run(move |conn| {
                let Some(key) = db::users::lookup_key(conn, &hash)? else {
                    return Ok(KeyStanding::Unknown);
                };
                let Some(team_id) = key.team_id else {
                    return Ok(KeyStanding::Personal {
                        user_id: key.user_id,
                    });
                };
                Ok(
                    match db::team::member_role_permissions(conn, team_id, key.user_id)? {
                        Some(roles) => KeyStanding::Team {
                            user_id: key.user_id,
                            team_id,
                            roles,
                        },
                        None => KeyStanding::MembershipEnded,
                    },
                )
            })
            .await?;
        match standing {
            KeyStanding::Unknown => Err(ApiError::unauthorized("Invalid user key")),
            KeyStanding::MembershipEnded => Err(ApiError::unauthorized(
                "this key belongs to a team membership that has ended",
            )),
            KeyStanding::Personal { user_id } => Ok(Caller {
                user_id,
                team_id: None,
                holding: Holding::Everything,
            }),
            KeyStanding::Team {
                user_id,
                team_id,
                roles,
            } => Ok(Caller {
                user_id,
                team_id: Some(team_id),
                holding: Holding::of_roles(&roles),
            }),
        }
    }
}

/// What the database says about a presented key.
enum KeyStanding {
    Unknown,
    Personal {
        user_id: i64,
    },
    /// A team key, with the permission objects of the member's roles.
    Team {
        user_id: i64,
        team_id: i64,
        roles: Vec<serde_json::Value>,
    },
    /// A team key whose member was removed from the team.
    MembershipEnded,
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;
    use serde_json::json;

    fn parts(auth: Option<&str>, uri: &str) -> Parts {
        let mut builder = Request::builder().uri(uri);
        if let Some(value) = auth {
            builder = builder.header(AUTHORIZATION, value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn header_wins_over_query() {
        let key = presented_key(&parts(Some("Bearer abc"), "/x?api_key=def")).unwrap();
        assert_eq!(key, "abc");
        assert_eq!(
            presented_key(&parts(None, "/x?a=1&api_key=d%2Bf")).unwrap(),
            "d+f"
        );
        assert_eq!(
            presented_key(&parts(Some("bearer  k "), "/x")).unwrap(),
            "k"
        );
    }

    #[test]
    fn malformed_and_missing_keys_are_401() {
        for auth in ["Basic abc", "Bearer", "Bearer   ", "abc", ""] {
            let error = presented_key(&parts(Some(auth), "/x?api_key=ok")).unwrap_err();
            assert_eq!(error.status, 401, "{auth:?}");
            assert!(error.msg.contains("Bearer"), "{auth:?}");
        }
        let missing = presented_key(&parts(None, "/x?api_key=")).unwrap_err();
        assert_eq!(missing.error, "auth_error");
        assert!(missing.msg.contains("required"));
    }

    #[test]
    fn roles_are_united() {
        let holding = Holding::of_roles(&[
            json!({"api": {"instance_read": {}}}),
            json!({"api": {"team_read": {}}}),
        ]);
        assert!(holding.grants(PermissionGroup::InstanceRead));
        assert!(holding.grants(PermissionGroup::TeamRead));
        assert!(!holding.grants(PermissionGroup::MachineWrite));
        let caller = Caller {
            user_id: 1,
            team_id: Some(1),
            holding,
        };
        let error = caller.require(PermissionGroup::MachineWrite).unwrap_err();
        assert_eq!(error.status, 403);
        assert_eq!(
            error.msg,
            "this key's team role lacks the permission machine_write"
        );
        let personal = Caller {
            user_id: 1,
            team_id: None,
            holding: Holding::Everything,
        };
        assert!(personal.require(PermissionGroup::MachineWrite).is_ok());
    }
}
