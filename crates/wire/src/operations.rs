//! Every operation of the interface, declared once: its spec name, method, path in the
//! official client's form, permission group, public minimum interval and the official
//! client's command for the same intent. The reference server's rate limits, the console's
//! requests and pacing, and the parity test against the official client read it.

use crate::permissions::PermissionGroup;
use PermissionGroup::*;

/// The official client 1.9.1's command for an operation's intent, or why there is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientCommand {
    /// The command as its usage line writes it.
    Command(&'static str),
    /// The client has no such command; the reason.
    None(&'static str),
}

/// One operation of the interface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Operation {
    /// Its name in the spec: `seed op 2`, `N5`, `N19 give`.
    pub name: &'static str,
    pub method: &'static str,
    /// The path as client 1.9.1 sends it (with its trailing slash wherever the client
    /// puts one, spec neighbours §1.3 rule 5). `{name}` is one encoded segment of any
    /// text; every other `{…}` is a number.
    pub path: &'static str,
    /// The team permission a key needs; `None` for what any key may ask.
    pub permission: Option<PermissionGroup>,
    /// The public service's minimum interval between two calls by one key (spec §1.5), in
    /// seconds; `None` where it gives none.
    pub public_seconds: Option<f64>,
    pub client: ClientCommand,
}

const fn op(
    name: &'static str,
    method: &'static str,
    path: &'static str,
    permission: Option<PermissionGroup>,
    public_seconds: Option<f64>,
    client: ClientCommand,
) -> Operation {
    Operation {
        name,
        method,
        path,
        permission,
        public_seconds,
        client,
    }
}

use ClientCommand::{Command, None as NoCommand};

const NO_BULK: ClientCommand =
    NoCommand("the client acts on one machine per request; the console's batch has no command");

pub const CURRENT_USER: Operation = op(
    "N21",
    "GET",
    "/api/v0/users/current",
    None,
    None,
    NoCommand("the client asks it implicitly, on first use, to choose its views"),
);
pub const SERVER: Operation = op(
    "gpudeck/server",
    "GET",
    "/api/v0/gpudeck/server",
    None,
    None,
    NoCommand("a project rule of the reference server; the public service has no such route"),
);
pub const WINDOWS: Operation = op(
    "seed op 1",
    "GET",
    "/api/v0/machines/maintenances",
    Some(InstanceRead),
    Some(2.0),
    Command("show maints --ids IDS"),
);
pub const DEFRAG_OFFERS: Operation = op(
    "seed op 2",
    "PUT",
    "/api/v0/machines/defrag_offers/",
    Some(MachineWrite),
    Some(2.8),
    Command("defrag machines IDS"),
);
pub const DELETE_TEMPLATE: Operation = op(
    "seed op 3",
    "DELETE",
    "/api/v0/users/{user_id}/templates/",
    Some(InstanceWrite),
    Some(0.9),
    Command("delete template --template-id ID"),
);
/// The alias the official client deletes a template through (seed op 3's intent).
pub const DELETE_TEMPLATE_ALIAS: Operation = op(
    "seed op 3 (alias)",
    "DELETE",
    "/api/v0/template/",
    Some(InstanceWrite),
    Some(2.0),
    Command("delete template --template-id ID"),
);
pub const ACCEPT_VOLUME_ASK: Operation = op(
    "seed op 4",
    "PUT",
    "/api/v0/volumes/",
    Some(InstanceWrite),
    Some(1.0),
    Command("create volume ID --size SIZE"),
);
pub const SUBACCOUNTS: Operation = op(
    "seed op 5",
    "GET",
    "/api/v0/subaccounts",
    Some(UserRead),
    Some(2.1),
    Command("show subaccounts"),
);
pub const TEAM_ROLE: Operation = op(
    "seed op 6",
    "GET",
    "/api/v0/team/roles/{name}/",
    Some(TeamRead),
    Some(2.0),
    Command("show team-role NAME"),
);
pub const TEAM_MEMBERS: Operation = op(
    "seed op 7",
    "GET",
    "/api/v0/team/members/",
    Some(TeamRead),
    Some(2.0),
    Command("show members"),
);
pub const MACHINES: Operation = op(
    "N1",
    "GET",
    "/api/v0/machines",
    Some(MachineRead),
    Some(2.5),
    Command("show machines"),
);
pub const MACHINE: Operation = op(
    "N2",
    "GET",
    "/api/v0/machines/{id}",
    Some(MachineRead),
    Some(1.1),
    Command("show machine ID"),
);
pub const SCHEDULE_WINDOW: Operation = op(
    "N3",
    "PUT",
    "/api/v0/machines/{id}/dnotify/",
    Some(MachineWrite),
    Some(2.5),
    Command("schedule maint ID --sdate START --duration HOURS --maintenance_category CATEGORY"),
);
pub const SCHEDULE_WINDOWS: Operation = op(
    "N4",
    "POST",
    "/api/v0/machines/maintenances/batch",
    Some(MachineWrite),
    Some(2.0),
    NO_BULK,
);
pub const CANCEL_MACHINE_WINDOWS: Operation = op(
    "N5",
    "PUT",
    "/api/v0/machines/{id}/cancel_maint/",
    Some(MachineWrite),
    Some(2.5),
    Command("cancel maint ID"),
);
pub const CANCEL_WINDOW: Operation = op(
    "N6",
    "DELETE",
    "/api/v0/machines/maintenances",
    Some(MachineWrite),
    Some(1.0),
    NoCommand("the client cancels every window of a machine (N5), never one window"),
);
pub const CANCEL_WINDOWS: Operation = op(
    "N7",
    "DELETE",
    "/api/v0/machines/maintenances/batch",
    Some(MachineWrite),
    Some(2.0),
    NO_BULK,
);
pub const SEARCH_TEMPLATES: Operation = op(
    "N8",
    "GET",
    "/api/v0/template/",
    Some(UserRead),
    Some(1.9),
    Command("search templates"),
);
pub const TEMPLATE_LIBRARY: Operation = op(
    "N9",
    "GET",
    "/api/v0/users/{user_id}/templates/",
    Some(InstanceRead),
    Some(1.6),
    NoCommand("the client lists templates only by searching (N8)"),
);
pub const SEARCH_VOLUME_OFFERS: Operation = op(
    "N10",
    "POST",
    "/api/v0/volumes/search/",
    Some(Misc),
    Some(2.0),
    Command("search volumes"),
);
pub const VOLUMES: Operation = op(
    "N11",
    "GET",
    "/api/v0/volumes",
    Some(InstanceRead),
    Some(2.0),
    Command("show volumes"),
);
pub const DELETE_VOLUME: Operation = op(
    "N12",
    "DELETE",
    "/api/v0/volumes/",
    Some(InstanceWrite),
    Some(2.0),
    Command("delete volume ID"),
);
pub const TEAM_ROLES: Operation = op(
    "N13",
    "GET",
    "/api/v0/team/roles-full/",
    Some(TeamRead),
    Some(2.0),
    Command("show team-roles"),
);
pub const CREATE_ROLE: Operation = op(
    "N14",
    "POST",
    "/api/v0/team/roles/",
    Some(TeamWrite),
    Some(2.0),
    Command("create team-role --name NAME --permissions FILE"),
);
pub const UPDATE_ROLE: Operation = op(
    "N15",
    "PUT",
    "/api/v0/team/roles/{role_id}/",
    Some(TeamWrite),
    Some(2.0),
    Command("update team-role ID --name NAME --permissions FILE"),
);
pub const REMOVE_ROLE: Operation = op(
    "N16",
    "DELETE",
    "/api/v0/team/roles/{name}/",
    Some(TeamWrite),
    Some(2.0),
    Command("remove team-role NAME"),
);
pub const INVITE_MEMBER: Operation = op(
    "N17",
    "POST",
    "/api/v0/team/invite/",
    Some(TeamWrite),
    Some(2.0),
    Command("invite member --email EMAIL --role ROLE"),
);
pub const INVITATIONS: Operation = op(
    "N17a",
    "GET",
    "/api/v0/team/invites/",
    Some(TeamRead),
    None,
    NoCommand("a project rule: the public service lists no pending invitations"),
);
pub const REMOVE_MEMBER: Operation = op(
    "N18",
    "DELETE",
    "/api/v0/team/members/{id}/",
    Some(TeamWrite),
    Some(2.0),
    Command("remove member ID"),
);
const MEMBER_ROLES: &str = "/api/v0/team/members/{id}/roles/";
const NO_MEMBER_ROLES: ClientCommand =
    NoCommand("the client changes a member's role only by inviting them again");
pub const GIVE_MEMBER_ROLE: Operation = op(
    "N19 give",
    "POST",
    MEMBER_ROLES,
    Some(TeamWrite),
    Some(2.0),
    NO_MEMBER_ROLES,
);
pub const REPLACE_MEMBER_ROLE: Operation = op(
    "N19 replace",
    "PUT",
    MEMBER_ROLES,
    Some(TeamWrite),
    Some(2.0),
    NO_MEMBER_ROLES,
);
pub const TAKE_MEMBER_ROLE: Operation = op(
    "N19 take",
    "DELETE",
    MEMBER_ROLES,
    Some(TeamWrite),
    Some(2.0),
    NO_MEMBER_ROLES,
);
pub const CREATE_SUBACCOUNT: Operation = op(
    "N20",
    "POST",
    "/api/v0/users/",
    Some(UserWrite),
    Some(3.0),
    Command("create subaccount --email EMAIL --username NAME --password PASSWORD"),
);
pub const LIST_MACHINE: Operation = op(
    "N22",
    "PUT",
    "/api/v0/machines/create_asks/",
    Some(MachineWrite),
    Some(5.0),
    Command("list machine ID"),
);
pub const UNLIST_MACHINE: Operation = op(
    "N23",
    "DELETE",
    "/api/v0/machines/{id}/asks/",
    Some(MachineWrite),
    Some(1.8),
    Command("unlist machine ID"),
);
pub const MACHINE_REPORTS: Operation = op(
    "N24",
    "GET",
    "/api/v0/machines/{id}/reports/",
    Some(MachineRead),
    Some(1.2),
    Command("reports ID"),
);
/// The client fills `{user_id}` with `me` and sends no trailing slash; the console will
/// add one (fleet-health N34), which the reference server answers alike.
pub const MACHINE_EARNINGS: Operation = op(
    "N34",
    "GET",
    "/api/v0/users/{user_id}/machine-earnings",
    Some(BillingRead),
    Some(2.0),
    Command("show earnings"),
);
/// The client's usage line writes `set min_bid`; the docs spell it `set min-bid`.
pub const SET_MIN_BID: Operation = op(
    "N35",
    "PUT",
    "/api/v0/machines/{id}/minbid/",
    Some(MachineWrite),
    Some(1.5),
    Command("set min_bid ID --price PRICE"),
);

/// The public service has no command-line client for notifications and webhooks (spec
/// fleet-health §3.1): its docs use curl.
const NO_NOTIFICATION_COMMAND: ClientCommand =
    NoCommand("client 1.9.1 has no notification or webhook command; the docs use curl");
pub const NOTIFICATION_TYPES: Operation = op(
    "N25",
    "GET",
    "/api/v0/notification-types/",
    Some(UserRead),
    None,
    NO_NOTIFICATION_COMMAND,
);
const NOTIFICATION_PREFS: &str = "/api/v0/users/{user_id}/notification-prefs/";
pub const NOTIFICATION_PREFERENCES: Operation = op(
    "N26",
    "GET",
    NOTIFICATION_PREFS,
    Some(UserRead),
    None,
    NO_NOTIFICATION_COMMAND,
);
pub const CHANGE_NOTIFICATION_PREFERENCES: Operation = op(
    "N27",
    "PUT",
    NOTIFICATION_PREFS,
    Some(UserWrite),
    None,
    NO_NOTIFICATION_COMMAND,
);
pub const WEBHOOKS: Operation = op(
    "N28",
    "GET",
    "/api/v0/webhooks/",
    Some(UserRead),
    Some(2.0),
    NO_NOTIFICATION_COMMAND,
);
pub const CREATE_WEBHOOK: Operation = op(
    "N29",
    "POST",
    "/api/v0/webhooks/",
    Some(UserWrite),
    Some(2.0),
    NO_NOTIFICATION_COMMAND,
);
const WEBHOOK: &str = "/api/v0/webhooks/{id}/";
pub const UPDATE_WEBHOOK: Operation = op(
    "N30",
    "PUT",
    WEBHOOK,
    Some(UserWrite),
    Some(2.0),
    NO_NOTIFICATION_COMMAND,
);
pub const DELETE_WEBHOOK: Operation = op(
    "N31",
    "DELETE",
    WEBHOOK,
    Some(UserWrite),
    Some(2.0),
    NO_NOTIFICATION_COMMAND,
);
pub const ROTATE_WEBHOOK_SECRET: Operation = op(
    "N32",
    "POST",
    "/api/v0/webhooks/{id}/rotate-secret/",
    Some(UserWrite),
    Some(2.0),
    NO_NOTIFICATION_COMMAND,
);
pub const TEST_WEBHOOK: Operation = op(
    "N33",
    "POST",
    "/api/v0/webhooks/{id}/test/",
    Some(UserWrite),
    Some(2.0),
    NO_NOTIFICATION_COMMAND,
);

/// Every operation, in the spec's order.
pub const ALL: [&Operation; 47] = [
    &CURRENT_USER,
    &SERVER,
    &WINDOWS,
    &DEFRAG_OFFERS,
    &DELETE_TEMPLATE,
    &DELETE_TEMPLATE_ALIAS,
    &ACCEPT_VOLUME_ASK,
    &SUBACCOUNTS,
    &TEAM_ROLE,
    &TEAM_MEMBERS,
    &MACHINES,
    &MACHINE,
    &SCHEDULE_WINDOW,
    &SCHEDULE_WINDOWS,
    &CANCEL_MACHINE_WINDOWS,
    &CANCEL_WINDOW,
    &CANCEL_WINDOWS,
    &SEARCH_TEMPLATES,
    &TEMPLATE_LIBRARY,
    &SEARCH_VOLUME_OFFERS,
    &VOLUMES,
    &DELETE_VOLUME,
    &TEAM_ROLES,
    &CREATE_ROLE,
    &UPDATE_ROLE,
    &REMOVE_ROLE,
    &INVITE_MEMBER,
    &INVITATIONS,
    &REMOVE_MEMBER,
    &GIVE_MEMBER_ROLE,
    &REPLACE_MEMBER_ROLE,
    &TAKE_MEMBER_ROLE,
    &CREATE_SUBACCOUNT,
    &LIST_MACHINE,
    &UNLIST_MACHINE,
    &MACHINE_REPORTS,
    &MACHINE_EARNINGS,
    &SET_MIN_BID,
    &NOTIFICATION_TYPES,
    &NOTIFICATION_PREFERENCES,
    &CHANGE_NOTIFICATION_PREFERENCES,
    &WEBHOOKS,
    &CREATE_WEBHOOK,
    &UPDATE_WEBHOOK,
    &DELETE_WEBHOOK,
    &ROTATE_WEBHOOK_SECRET,
    &TEST_WEBHOOK,
];

/// The reference server's demo triggers (fleet-health D1–D3, a project rule): only in demo
/// or test mode, outside `/api/v0/` (so never forwarded), with no rate limit. They are not
/// operations of the interface, so they are not in [`ALL`]: the console never sends them.
const DEMO_TRIGGER: ClientCommand =
    NoCommand("a demo trigger of the reference server; the public service has none");
pub const DEMO_MACHINE_HEALTH: Operation = op(
    "D1",
    "PUT",
    "/_demo/machines/{id}/health",
    Some(MachineWrite),
    None,
    DEMO_TRIGGER,
);
pub const DEMO_MACHINE_REPORT: Operation = op(
    "D2",
    "POST",
    "/_demo/machines/{id}/reports",
    Some(MachineWrite),
    None,
    DEMO_TRIGGER,
);
pub const DEMO_MACHINE_EVENT: Operation = op(
    "D3",
    "POST",
    "/_demo/machines/{id}/events",
    Some(MachineWrite),
    None,
    DEMO_TRIGGER,
);

/// The demo triggers, in the spec's order.
pub const DEMO: [&Operation; 3] = [
    &DEMO_MACHINE_HEALTH,
    &DEMO_MACHINE_REPORT,
    &DEMO_MACHINE_EVENT,
];

fn is_placeholder(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}')
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.trim_end_matches('/').split('/')
}

impl Operation {
    /// Its path as the reference server routes it: without the trailing slash, which the
    /// server trims from every request before routing (spec neighbours §1.2 rule 1).
    pub const fn route(&self) -> &'static str {
        match self.path.as_bytes() {
            [head @ .., b'/'] => match core::str::from_utf8(head) {
                Ok(route) => route,
                Err(_) => panic!("a path is UTF-8"),
            },
            _ => self.path,
        }
    }

    /// Its path with each `{…}` given the next of `values` (already encoded), in order.
    pub fn path_with(&self, values: &[&str]) -> String {
        let mut values = values.iter();
        let filled: Vec<&str> = self
            .path
            .split('/')
            .map(|segment| {
                if is_placeholder(segment) {
                    values
                        .next()
                        .copied()
                        .unwrap_or_else(|| panic!("{} needs a value for {segment}", self.name))
                } else {
                    segment
                }
            })
            .collect();
        assert!(values.next().is_none(), "{}: too many values", self.name);
        filled.join("/")
    }

    /// Whether `method` on the route template `route` (the reference server's, whose
    /// placeholders may be named otherwise and which has no trailing slash) is this
    /// operation.
    pub fn is_route(&self, method: &str, route: &str) -> bool {
        self.method == method
            && segments(self.path).count() == segments(route).count()
            && segments(self.path)
                .zip(segments(route))
                .all(|(mine, theirs)| {
                    mine == theirs || is_placeholder(mine) && is_placeholder(theirs)
                })
    }

    /// Whether `method` on the concrete `path` (no query; a trailing slash or not) is this
    /// operation: `{name}` matches any one segment, `{user_id}` a numeric one or `me` (the
    /// official client's word for the caller), any other `{…}` a numeric one (so seed op 1's
    /// `machines/maintenances` is not N2's `machines/{id}`).
    pub fn is_request(&self, method: &str, path: &str) -> bool {
        self.method == method
            && segments(self.path).count() == segments(path).count()
            && segments(self.path)
                .zip(segments(path))
                .all(|(mine, given)| match mine {
                    "{name}" => !given.is_empty(),
                    "{user_id}" if given == "me" => true,
                    _ if is_placeholder(mine) => {
                        !given.is_empty() && given.bytes().all(|b| b.is_ascii_digit())
                    }
                    _ => mine == given,
                })
    }
}

/// The operation `method` on `path` is, if any.
pub fn of_request(method: &str, path: &str) -> Option<&'static Operation> {
    ALL.into_iter().find(|op| op.is_request(method, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn each_operation_is_declared_once() {
        let names: HashSet<_> = ALL.iter().map(|op| op.name).collect();
        assert_eq!(names.len(), ALL.len());
        let routes: HashSet<_> = ALL
            .iter()
            .map(|op| (op.method, op.path.trim_end_matches('/')))
            .collect();
        assert_eq!(routes.len(), ALL.len());
    }

    #[test]
    fn demo_triggers_are_outside_the_interface_and_need_machine_write() {
        for trigger in DEMO {
            assert!(trigger.path.starts_with("/_demo/machines/{id}/"));
            assert_eq!(trigger.permission, Some(MachineWrite), "{}", trigger.name);
            assert_eq!(trigger.public_seconds, None, "{}", trigger.name);
            assert!(ALL.iter().all(|op| op.name != trigger.name));
            // Never taken for an operation of the interface (rate limits, pacing).
            assert_eq!(of_request(trigger.method, &trigger.path_with(&["7"])), None);
        }
        assert_eq!(
            DEMO_MACHINE_HEALTH.path_with(&["7"]),
            "/_demo/machines/7/health"
        );
        assert_eq!(DEMO_MACHINE_REPORT.route(), "/_demo/machines/{id}/reports");
        assert_eq!(DEMO_MACHINE_EVENT.method, "POST");
    }

    #[test]
    fn methods_are_the_four_and_team_operations_name_their_group() {
        for operation in ALL {
            assert!(
                ["GET", "POST", "PUT", "DELETE"].contains(&operation.method),
                "{}",
                operation.name
            );
            // The server finds the caller's team by the group (spec §1.4).
            if operation.path.starts_with("/api/v0/team/") {
                assert!(operation.permission.is_some(), "{}", operation.name);
            }
        }
    }

    #[test]
    fn the_seed_operations_take_the_official_clients_paths() {
        // Spec neighbours §1.3 rule 5: the trailing slash wherever client 1.9.1 puts one.
        assert_eq!(DEFRAG_OFFERS.path, "/api/v0/machines/defrag_offers/");
        assert_eq!(
            DELETE_TEMPLATE.path_with(&["42"]),
            "/api/v0/users/42/templates/"
        );
        assert_eq!(ACCEPT_VOLUME_ASK.path, "/api/v0/volumes/");
        assert_eq!(TEAM_ROLE.path_with(&["ops"]), "/api/v0/team/roles/ops/");
        assert_eq!(TEAM_MEMBERS.path, "/api/v0/team/members/");
        // The client sends these two without one.
        assert_eq!(WINDOWS.path, "/api/v0/machines/maintenances");
        assert_eq!(SUBACCOUNTS.path, "/api/v0/subaccounts");
    }

    #[test]
    fn routes_are_paths_without_the_trailing_slash() {
        assert_eq!(DEFRAG_OFFERS.route(), "/api/v0/machines/defrag_offers");
        assert_eq!(MACHINES.route(), "/api/v0/machines");
        assert_eq!(UNLIST_MACHINE.route(), "/api/v0/machines/{id}/asks");
    }

    #[test]
    fn paths_are_filled_in_order() {
        assert_eq!(
            SCHEDULE_WINDOW.path_with(&["7"]),
            "/api/v0/machines/7/dnotify/"
        );
        assert_eq!(
            GIVE_MEMBER_ROLE.path_with(&["4"]),
            "/api/v0/team/members/4/roles/"
        );
    }

    #[test]
    fn a_request_is_known_by_its_method_and_path() {
        let name = |method, path| of_request(method, path).map(|op| op.name);
        assert_eq!(name("GET", "/api/v0/machines/7"), Some("N2"));
        assert_eq!(
            name("GET", "/api/v0/machines/maintenances"),
            Some("seed op 1")
        );
        assert_eq!(name("DELETE", "/api/v0/machines/maintenances/"), Some("N6"));
        assert_eq!(name("GET", "/api/v0/team/roles/a%20b"), Some("seed op 6"));
        assert_eq!(name("PUT", "/api/v0/team/roles/12/"), Some("N15"));
        assert_eq!(name("PUT", "/api/v0/team/roles/ops/"), None);
        assert_eq!(name("PUT", "/api/v0/machines/7"), None);
        assert_eq!(name("GET", "/api/v0/machines/7/reports/"), Some("N24"));
        assert_eq!(
            name("GET", "/api/v0/users/me/machine-earnings"),
            Some("N34")
        );
        assert_eq!(
            name("GET", "/api/v0/users/1/machine-earnings/"),
            Some("N34")
        );
        assert_eq!(name("GET", "/api/v0/users/you/machine-earnings"), None);
        assert_eq!(name("GET", "/api/v0/machines/me/reports"), None);
        assert_eq!(name("PUT", "/api/v0/machines/7/minbid/"), Some("N35"));
    }

    #[test]
    fn notification_operations_take_the_docs_paths_and_none_has_a_client_command() {
        assert_eq!(
            NOTIFICATION_PREFERENCES.path_with(&["7"]),
            "/api/v0/users/7/notification-prefs/"
        );
        assert_eq!(TEST_WEBHOOK.path_with(&["3"]), "/api/v0/webhooks/3/test/");
        let name = |method, path| of_request(method, path).map(|op| op.name);
        assert_eq!(name("PUT", "/api/v0/webhooks/3"), Some("N30"));
        assert_eq!(name("DELETE", "/api/v0/webhooks/3/"), Some("N31"));
        assert_eq!(
            name("POST", "/api/v0/webhooks/3/rotate-secret"),
            Some("N32")
        );
        assert_eq!(name("POST", "/api/v0/webhooks/"), Some("N29"));
        for operation in [
            &NOTIFICATION_TYPES,
            &NOTIFICATION_PREFERENCES,
            &CHANGE_NOTIFICATION_PREFERENCES,
            &WEBHOOKS,
            &CREATE_WEBHOOK,
            &UPDATE_WEBHOOK,
            &DELETE_WEBHOOK,
            &ROTATE_WEBHOOK_SECRET,
            &TEST_WEBHOOK,
        ] {
            assert!(
                matches!(operation.client, NoCommand(_)),
                "{}",
                operation.name
            );
        }
        // None published for N25–N27 (spec fleet-health §5): the server leaves them unlimited.
        assert_eq!(NOTIFICATION_TYPES.public_seconds, None);
        assert_eq!(CHANGE_NOTIFICATION_PREFERENCES.public_seconds, None);
        assert_eq!(TEST_WEBHOOK.public_seconds, Some(2.0));
    }

    #[test]
    fn a_route_is_known_whatever_its_placeholders_are_called() {
        assert!(MACHINE.is_route("GET", "/api/v0/machines/{machine_id}"));
        assert!(!MACHINE.is_route("PUT", "/api/v0/machines/{machine_id}"));
        assert!(REMOVE_ROLE.is_route("DELETE", "/api/v0/team/roles/{name}"));
        assert!(!MACHINE.is_route("GET", "/api/v0/machines/maintenances"));
    }
}
