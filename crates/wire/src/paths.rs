//! Paths of the interface, relative to the base URL. The reference server routes them and
//! the console requests them, so both read them from here.

pub const PREFIX: &str = "/api/v0";
pub const CURRENT_USER: &str = "/api/v0/users/current";
pub const MAINTENANCES: &str = "/api/v0/machines/maintenances";
pub const DEFRAG_OFFERS: &str = "/api/v0/machines/defrag_offers";
/// The specified template path; `{user_id}` is the caller's own id.
pub const USER_TEMPLATES: &str = "/api/v0/users/{user_id}/templates";
/// The alias the official client uses for the same deletion; N8 is `GET` on it.
pub const TEMPLATE_ALIAS: &str = "/api/v0/template";
/// Seed op 4 (PUT), N11 (GET) and N12 (DELETE, `?id=`).
pub const VOLUMES: &str = "/api/v0/volumes";
/// N10: search volume offers (POST; the body is the query).
pub const VOLUMES_SEARCH: &str = "/api/v0/volumes/search";
/// N20: create a subaccount (POST).
pub const USERS: &str = "/api/v0/users";
pub const SUBACCOUNTS: &str = "/api/v0/subaccounts";
/// `{name}` is the role's name, not a number.
pub const TEAM_ROLE: &str = "/api/v0/team/roles/{name}";
pub const TEAM_MEMBERS: &str = "/api/v0/team/members";
/// N13: every assignable role with its permissions (GET).
pub const TEAM_ROLES_FULL: &str = "/api/v0/team/roles-full";
/// N14: create a role (POST).
pub const TEAM_ROLES: &str = "/api/v0/team/roles";
/// N17: invite a member (POST, `?email=…&role=…`).
pub const TEAM_INVITE: &str = "/api/v0/team/invite";
/// N17a (project rule): pending invitations (GET).
pub const TEAM_INVITES: &str = "/api/v0/team/invites";
/// N18: remove a member (DELETE); `{id}` is the member's user id.
pub const TEAM_MEMBER: &str = "/api/v0/team/members/{id}";
/// N19: give (POST), replace (PUT) or take (DELETE) a member's role.
pub const TEAM_MEMBER_ROLES: &str = "/api/v0/team/members/{id}/roles";
pub const OPENAPI: &str = "/api/v0/openapi.json";
/// Project rule: which server answers (GET; no key needed), see [`crate::ServerInfo`].
pub const SERVER: &str = "/api/v0/gpudeck/server";
/// N1: the caller's machines (the official client adds `?owner=me`).
pub const MACHINES: &str = "/api/v0/machines";
/// N2: one machine.
pub const MACHINE: &str = "/api/v0/machines/{id}";
/// N3: schedule a window on one machine (PUT).
pub const MACHINE_DNOTIFY: &str = "/api/v0/machines/{id}/dnotify";
/// N5: cancel every window of one machine (PUT).
pub const MACHINE_CANCEL_MAINT: &str = "/api/v0/machines/{id}/cancel_maint";
/// N4 (POST) and N7 (DELETE). N6 is `DELETE` on [`MAINTENANCES`].
pub const MAINTENANCES_BATCH: &str = "/api/v0/machines/maintenances/batch";
/// N22: create or change a machine's offer (PUT; the machine is in the body).
pub const MACHINE_CREATE_ASKS: &str = "/api/v0/machines/create_asks";
/// N23: unlist a machine (DELETE).
pub const MACHINE_ASKS: &str = "/api/v0/machines/{id}/asks";

/// `MACHINE` for one machine.
pub fn machine(id: i64) -> String {
    format!("{PREFIX}/machines/{id}")
}

/// `MACHINE_DNOTIFY` for one machine, with the trailing slash the official client sends
/// (the public service answers it without a redirect).
pub fn machine_dnotify(id: i64) -> String {
    format!("{PREFIX}/machines/{id}/dnotify/")
}

/// `MACHINE_CANCEL_MAINT` for one machine, with the official client's trailing slash.
pub fn machine_cancel_maint(id: i64) -> String {
    format!("{PREFIX}/machines/{id}/cancel_maint/")
}

/// N22 as the official client sends it, with its trailing slash.
pub fn machine_create_asks() -> String {
    format!("{MACHINE_CREATE_ASKS}/")
}

/// `MACHINE_ASKS` for one machine (N23), with the official client's trailing slash.
pub fn machine_asks(id: i64) -> String {
    format!("{PREFIX}/machines/{id}/asks/")
}

/// `USER_TEMPLATES` for one user.
pub fn user_templates(user_id: i64) -> String {
    format!("{PREFIX}/users/{user_id}/templates")
}

/// N10 as the official client sends it, with its trailing slash.
pub fn volumes_search() -> String {
    format!("{VOLUMES_SEARCH}/")
}

/// N12's path as the official client sends it, with its trailing slash; the volume's
/// id goes in the query (`?id=`).
pub fn volume_deletion() -> String {
    format!("{VOLUMES}/")
}

/// N20 as the official client sends it, with its trailing slash.
pub fn users_create() -> String {
    format!("{USERS}/")
}

/// `TEAM_ROLE` for one role name, percent-encoded so any name is a single path segment.
pub fn team_role(name: &str) -> String {
    format!("{PREFIX}/team/roles/{}", encode_path_segment(name))
}

/// N15's form of `TEAM_ROLE`: the numeric role id, with the official client's trailing slash.
pub fn team_role_by_id(role_id: i64) -> String {
    format!("{PREFIX}/team/roles/{role_id}/")
}

/// N16's form of `TEAM_ROLE`: the encoded name, with the official client's trailing slash.
pub fn team_role_removal(name: &str) -> String {
    format!("{}/", team_role(name))
}

/// `TEAM_MEMBER` for one member (N18), with the official client's trailing slash.
pub fn team_member(user_id: i64) -> String {
    format!("{PREFIX}/team/members/{user_id}/")
}

/// `TEAM_MEMBER_ROLES` for one member (N19).
pub fn team_member_roles(user_id: i64) -> String {
    format!("{PREFIX}/team/members/{user_id}/roles/")
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn encode_path_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_names_are_one_encoded_segment() {
        assert_eq!(team_role("owner"), "/api/v0/team/roles/owner");
        assert_eq!(team_role("a/b c"), "/api/v0/team/roles/a%2Fb%20c");
        assert_eq!(team_role("ü"), "/api/v0/team/roles/%C3%BC");
    }

    #[test]
    fn team_paths_carry_their_ids_and_names() {
        assert_eq!(team_role_by_id(12), "/api/v0/team/roles/12/");
        assert_eq!(team_role_removal("a b"), "/api/v0/team/roles/a%20b/");
        assert_eq!(team_member(4), "/api/v0/team/members/4/");
        assert_eq!(team_member_roles(4), "/api/v0/team/members/4/roles/");
    }

    #[test]
    fn machine_paths_carry_the_machine() {
        assert_eq!(machine(7), "/api/v0/machines/7");
        assert_eq!(machine_dnotify(7), "/api/v0/machines/7/dnotify/");
        assert_eq!(machine_cancel_maint(7), "/api/v0/machines/7/cancel_maint/");
        assert_eq!(machine_create_asks(), "/api/v0/machines/create_asks/");
        assert_eq!(machine_asks(7), "/api/v0/machines/7/asks/");
    }

    #[test]
    fn template_path_carries_the_user() {
        assert_eq!(user_templates(42), "/api/v0/users/42/templates");
    }

    #[test]
    fn volume_and_user_paths_take_the_official_clients_form() {
        assert_eq!(volumes_search(), "/api/v0/volumes/search/");
        assert_eq!(volume_deletion(), "/api/v0/volumes/");
        assert_eq!(users_create(), "/api/v0/users/");
    }
}
