//! Paths of the interface as the reference server routes them (no trailing slash), each
//! read from the operation table ([`crate::operations`]), and the server's tests' ways of
//! filling them in.

use crate::operations as op;

pub const PREFIX: &str = "/api/v0";
pub const CURRENT_USER: &str = op::CURRENT_USER.route();
pub const MAINTENANCES: &str = op::WINDOWS.route();
pub const DEFRAG_OFFERS: &str = op::DEFRAG_OFFERS.route();
/// The specified template path; `{user_id}` is the caller's own id.
pub const USER_TEMPLATES: &str = op::DELETE_TEMPLATE.route();
/// The alias the official client uses for the same deletion; N8 is `GET` on it.
pub const TEMPLATE_ALIAS: &str = op::SEARCH_TEMPLATES.route();
/// Seed op 4 (PUT), N11 (GET) and N12 (DELETE, `?id=`).
pub const VOLUMES: &str = op::VOLUMES.route();
/// N10: search volume offers (POST; the body is the query).
pub const VOLUMES_SEARCH: &str = op::SEARCH_VOLUME_OFFERS.route();
/// N20: create a subaccount (POST).
pub const USERS: &str = op::CREATE_SUBACCOUNT.route();
pub const SUBACCOUNTS: &str = op::SUBACCOUNTS.route();
/// `{name}` is the role's name, not a number (N15's id takes the same segment).
pub const TEAM_ROLE: &str = op::TEAM_ROLE.route();
pub const TEAM_MEMBERS: &str = op::TEAM_MEMBERS.route();
/// N13: every assignable role with its permissions (GET).
pub const TEAM_ROLES_FULL: &str = op::TEAM_ROLES.route();
/// N14: create a role (POST).
pub const TEAM_ROLES: &str = op::CREATE_ROLE.route();
/// N17: invite a member (POST, `?email=…&role=…`).
pub const TEAM_INVITE: &str = op::INVITE_MEMBER.route();
/// N17a (project rule): pending invitations (GET).
pub const TEAM_INVITES: &str = op::INVITATIONS.route();
/// N18: remove a member (DELETE); `{id}` is the member's user id.
pub const TEAM_MEMBER: &str = op::REMOVE_MEMBER.route();
/// N19: give (POST), replace (PUT) or take (DELETE) a member's role.
pub const TEAM_MEMBER_ROLES: &str = op::GIVE_MEMBER_ROLE.route();
pub const OPENAPI: &str = "/api/v0/openapi.json";
/// Project rule: which server answers (GET; no key needed), see [`crate::ServerInfo`].
pub const SERVER: &str = op::SERVER.route();
/// N1: the caller's machines (the official client adds `?owner=me`).
pub const MACHINES: &str = op::MACHINES.route();
/// N2: one machine.
pub const MACHINE: &str = op::MACHINE.route();
/// N3: schedule a window on one machine (PUT).
pub const MACHINE_DNOTIFY: &str = op::SCHEDULE_WINDOW.route();
/// N5: cancel every window of one machine (PUT).
pub const MACHINE_CANCEL_MAINT: &str = op::CANCEL_MACHINE_WINDOWS.route();
/// N4 (POST) and N7 (DELETE). N6 is `DELETE` on [`MAINTENANCES`].
pub const MAINTENANCES_BATCH: &str = op::SCHEDULE_WINDOWS.route();
/// N22: create or change a machine's offer (PUT; the machine is in the body).
pub const MACHINE_CREATE_ASKS: &str = op::LIST_MACHINE.route();
/// N23: unlist a machine (DELETE).
pub const MACHINE_ASKS: &str = op::UNLIST_MACHINE.route();
/// N24: a machine's renter reports (GET).
pub const MACHINE_REPORTS: &str = op::MACHINE_REPORTS.route();
/// N34: machine earnings (GET); `{user_id}` is `me` or the caller's id.
pub const MACHINE_EARNINGS: &str = op::MACHINE_EARNINGS.route();
/// N35: set a machine's interruptible floor (PUT).
pub const MACHINE_MIN_BID: &str = op::SET_MIN_BID.route();
/// N25: the notification types (GET).
pub const NOTIFICATION_TYPES: &str = op::NOTIFICATION_TYPES.route();
/// N26 (GET) and N27 (PUT): the caller's notification preferences; `{user_id}` is the
/// caller's id or `me`.
pub const NOTIFICATION_PREFS: &str = op::NOTIFICATION_PREFERENCES.route();
/// N28 (GET) and N29 (POST).
pub const WEBHOOKS: &str = op::WEBHOOKS.route();
/// N30 (PUT) and N31 (DELETE): one webhook.
pub const WEBHOOK: &str = op::UPDATE_WEBHOOK.route();
/// N32: rotate a webhook's secret (POST).
pub const WEBHOOK_ROTATE_SECRET: &str = op::ROTATE_WEBHOOK_SECRET.route();
/// N33: send a test delivery (POST).
pub const WEBHOOK_TEST: &str = op::TEST_WEBHOOK.route();

/// N2's path for one machine.
pub fn machine(id: i64) -> String {
    op::MACHINE.path_with(&[&id.to_string()])
}

/// N3's path for one machine, in the official client's form (the public service answers
/// it without a redirect).
pub fn machine_dnotify(id: i64) -> String {
    op::SCHEDULE_WINDOW.path_with(&[&id.to_string()])
}

/// N5's path for one machine, in the official client's form.
pub fn machine_cancel_maint(id: i64) -> String {
    op::CANCEL_MACHINE_WINDOWS.path_with(&[&id.to_string()])
}

/// N22's path, in the official client's form.
pub fn machine_create_asks() -> String {
    op::LIST_MACHINE.path.to_owned()
}

/// Where the demo triggers (D1–D3) live: outside `/api/v0/`, so never forwarded.
pub const DEMO_PREFIX: &str = "/_demo";
pub const DEMO_MACHINE_HEALTH: &str = op::DEMO_MACHINE_HEALTH.route();
pub const DEMO_MACHINE_REPORTS: &str = op::DEMO_MACHINE_REPORT.route();
pub const DEMO_MACHINE_EVENTS: &str = op::DEMO_MACHINE_EVENT.route();

/// D1's path for one machine.
pub fn demo_machine_health(id: i64) -> String {
    op::DEMO_MACHINE_HEALTH.path_with(&[&id.to_string()])
}

/// D2's path for one machine.
pub fn demo_machine_reports(id: i64) -> String {
    op::DEMO_MACHINE_REPORT.path_with(&[&id.to_string()])
}

/// D3's path for one machine.
pub fn demo_machine_events(id: i64) -> String {
    op::DEMO_MACHINE_EVENT.path_with(&[&id.to_string()])
}

/// N23's path for one machine, in the official client's form.
pub fn machine_asks(id: i64) -> String {
    op::UNLIST_MACHINE.path_with(&[&id.to_string()])
}

/// N24's path for one machine, in the official client's form.
pub fn machine_reports(id: i64) -> String {
    op::MACHINE_REPORTS.path_with(&[&id.to_string()])
}

/// N35's path for one machine, in the official client's form.
pub fn machine_min_bid(id: i64) -> String {
    op::SET_MIN_BID.path_with(&[&id.to_string()])
}

/// N34's path, `me` as the official client sends it.
pub fn machine_earnings() -> String {
    op::MACHINE_EARNINGS.path_with(&["me"])
}

/// `USER_TEMPLATES` for one user.
pub fn user_templates(user_id: i64) -> String {
    USER_TEMPLATES.replace("{user_id}", &user_id.to_string())
}

/// N10's path, in the official client's form.
pub fn volumes_search() -> String {
    op::SEARCH_VOLUME_OFFERS.path.to_owned()
}

/// `TEAM_ROLE` for one role name, percent-encoded so any name is a single path segment.
pub fn team_role(name: &str) -> String {
    TEAM_ROLE.replace("{name}", &encode_path_segment(name))
}

/// N15's path: the numeric role id, in the official client's form.
pub fn team_role_by_id(role_id: i64) -> String {
    op::UPDATE_ROLE.path_with(&[&role_id.to_string()])
}

/// N16's path: the encoded name, in the official client's form.
pub fn team_role_removal(name: &str) -> String {
    op::REMOVE_ROLE.path_with(&[&encode_path_segment(name)])
}

/// N18's path for one member, in the official client's form.
pub fn team_member(user_id: i64) -> String {
    op::REMOVE_MEMBER.path_with(&[&user_id.to_string()])
}

/// N19's path for one member, in the official client's form.
pub fn team_member_roles(user_id: i64) -> String {
    op::GIVE_MEMBER_ROLE.path_with(&[&user_id.to_string()])
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

/// N26's and N27's path for `user` (an id, or `me`), in the docs' form.
pub fn notification_prefs(user: &str) -> String {
    op::NOTIFICATION_PREFERENCES.path_with(&[user])
}

/// N30's and N31's path for one webhook, in the docs' form.
pub fn webhook(id: i64) -> String {
    op::UPDATE_WEBHOOK.path_with(&[&id.to_string()])
}

/// N32's path for one webhook.
pub fn webhook_rotate_secret(id: i64) -> String {
    op::ROTATE_WEBHOOK_SECRET.path_with(&[&id.to_string()])
}

/// N33's path for one webhook.
pub fn webhook_test(id: i64) -> String {
    op::TEST_WEBHOOK.path_with(&[&id.to_string()])
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
        assert_eq!(machine_reports(7), "/api/v0/machines/7/reports/");
        assert_eq!(machine_min_bid(7), "/api/v0/machines/7/minbid/");
        assert_eq!(machine_earnings(), "/api/v0/users/me/machine-earnings");
    }

    #[test]
    fn template_path_carries_the_user() {
        assert_eq!(user_templates(42), "/api/v0/users/42/templates");
    }

    #[test]
    fn volume_paths_take_the_official_clients_form() {
        assert_eq!(volumes_search(), "/api/v0/volumes/search/");
    }

    #[test]
    fn routes_are_the_tables() {
        assert_eq!(MACHINE_DNOTIFY, "/api/v0/machines/{id}/dnotify");
        assert_eq!(TEAM_ROLE, "/api/v0/team/roles/{name}");
        assert_eq!(USER_TEMPLATES, "/api/v0/users/{user_id}/templates");
    }
}
