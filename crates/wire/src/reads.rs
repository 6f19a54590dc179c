//! The reads the console's pages make as they open, each written once, in the form both
//! the console's API client and the served page's script (`first_reads.js`) send it: the
//! served page sends them before the console's code has arrived, and the client takes
//! their answers instead of asking again, which works only if the two send the very same
//! request. The route table (`gpudeck_pages`) lists which page makes which.

use crate::operations as op;
use serde::Serialize;

/// One API read, with placeholders: in `path`, `{user_id}` (the signed-in user's id) and
/// `{name}` or `{id}` (the address's segment of that name, encoded); in a query value,
/// `{machine_ids}` (a JSON list of machine ids), `{id}`, and `{days_ago_N}` (the UTC day
/// index of today less N, as [`crate::earnings::day_of`] counts it).
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Read {
    pub method: &'static str,
    pub path: &'static str,
    pub query: &'static [(&'static str, &'static str)],
    /// A JSON body, for a read sent as a POST (N10 (search volume offers)).
    pub body: Option<&'static str>,
    /// What its answer gives the reads after it: `machine_ids`, the ids of N1's machines.
    pub gives: Option<&'static str>,
}

/// The placeholder of a machine id list, filled from the answer of a read that gives it.
pub const MACHINE_IDS: &str = "{machine_ids}";

impl Read {
    const fn get(path: &'static str, query: &'static [(&'static str, &'static str)]) -> Self {
        Read {
            method: "GET",
            path,
            query,
            body: None,
            gives: None,
        }
    }

    /// Its path with `{placeholder}` given `value` (already encoded).
    pub fn path_with(&self, placeholder: &str, value: &str) -> String {
        self.path.replace(&format!("{{{placeholder}}}"), value)
    }

    /// Its query with [`MACHINE_IDS`] given `ids`.
    pub fn query_with_machine_ids(&self, ids: &str) -> Vec<(&'static str, String)> {
        self.query
            .iter()
            .map(|&(name, value)| {
                let value = if value == MACHINE_IDS { ids } else { value };
                (name, value.to_owned())
            })
            .collect()
    }
}

/// `GET /users/current`: who the key belongs to.
pub const CURRENT_USER: Read = Read::get(op::CURRENT_USER.path, &[]);
/// `GET /gpudeck/server` (a project rule): which server answers.
pub const SERVER: Read = Read::get(op::SERVER.path, &[]);
/// N1 (list machines): every machine of the caller.
pub const MACHINES: Read = Read {
    gives: Some("machine_ids"),
    ..Read::get(op::MACHINES.path, &[("owner", "me")])
};
/// Seed op 1 (the windows of machines), for the machines N1 gave; the official client's
/// JSON list in the query.
pub const WINDOWS: Read = Read::get(
    op::WINDOWS.path,
    &[("owner", "me"), ("machine_ids", MACHINE_IDS)],
);
/// N9 (the caller's templates), with the generated reference's trailing slash.
pub const TEMPLATE_LIBRARY: Read = Read::get(op::TEMPLATE_LIBRARY.path, &[]);
/// N10 (search volume offers) with the volumes page's search when its address has none:
/// the most reliable first, priced for its default size, from verified internal hosts with
/// space.
pub const VOLUME_OFFERS: Read = Read {
    method: "POST",
    path: op::SEARCH_VOLUME_OFFERS.path,
    query: &[],
    body: Some(
        r#"{"order":[["reliability","desc"]],"allocated_storage":10.0,"disk_space":{"gte":1},"external":{"eq":false},"verified":{"eq":true}}"#,
    ),
    gives: None,
};
/// N11 (the caller's volumes).
pub const VOLUMES: Read = Read::get(op::VOLUMES.path, &[("owner", "me"), ("type", "all_volume")]);
/// Seed op 5 (`GET /subaccounts`).
pub const SUBACCOUNTS: Read = Read::get(op::SUBACCOUNTS.path, &[("owner", "me")]);
/// Seed op 7 (`GET /team/members/`).
pub const TEAM_MEMBERS: Read = Read::get(op::TEAM_MEMBERS.path, &[]);
/// N13 (every assignable role), with its trailing slash.
pub const TEAM_ROLES: Read = Read::get(op::TEAM_ROLES.path, &[]);
/// The invitations not yet accepted, with the trailing slash.
pub const TEAM_INVITES: Read = Read::get(op::INVITATIONS.path, &[]);
/// Seed op 6 (`GET /team/roles/{name}/`): one role.
pub const TEAM_ROLE: Read = Read::get(op::TEAM_ROLE.path, &[]);
/// N25 (the notification types offered to the caller).
pub const NOTIFICATION_TYPES: Read = Read::get(op::NOTIFICATION_TYPES.path, &[]);
/// N26 (the caller's notification preferences), by the caller's numeric id.
pub const NOTIFICATION_PREFERENCES: Read = Read::get(op::NOTIFICATION_PREFERENCES.path, &[]);
/// N28 (the caller's webhooks).
pub const WEBHOOKS: Read = Read::get(op::WEBHOOKS.path, &[]);

/// How many whole UTC days before today a machine's page reads its earnings for.
pub const MACHINE_EARNINGS_DAYS: i64 = 30;
/// N24 (a machine's renter reports) for the machine of the address's `:id`, with no body.
pub const MACHINE_REPORTS: Read = Read::get(op::MACHINE_REPORTS.path, &[]);
/// N34 (machine earnings) of the machine of the address's `:id`, the
/// [`MACHINE_EARNINGS_DAYS`] whole days before today: `me` and the route table's trailing
/// slash, as the console sends it (fleet-health §4).
pub const MACHINE_EARNINGS: Read = Read::get(
    "/api/v0/users/me/machine-earnings/",
    &[
        ("owner", "me"),
        ("sday", "{days_ago_30}"),
        ("eday", "{days_ago_1}"),
        ("machid", "{id}"),
    ],
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths;

    #[test]
    fn reads_agree_with_the_paths_of_the_interface() {
        // N9 with the generated reference's trailing slash.
        assert_eq!(
            TEMPLATE_LIBRARY.path_with("user_id", "42"),
            format!("{}/", paths::user_templates(42))
        );
        assert_eq!(VOLUME_OFFERS.path, paths::volumes_search());
        assert_eq!(
            TEAM_ROLE.path_with("name", &paths::encode_path_segment("a/b")),
            format!("{}/", paths::team_role("a/b"))
        );
        assert_eq!(TEAM_MEMBERS.path, format!("{}/", paths::TEAM_MEMBERS));
        assert_eq!(TEAM_ROLES.path, format!("{}/", paths::TEAM_ROLES_FULL));
        assert_eq!(TEAM_INVITES.path, format!("{}/", paths::TEAM_INVITES));
        assert_eq!(
            NOTIFICATION_PREFERENCES.path_with("user_id", "42"),
            "/api/v0/users/42/notification-prefs/"
        );
    }

    #[test]
    fn a_machines_earnings_are_read_for_the_days_before_today() {
        assert_eq!(
            MACHINE_EARNINGS.path,
            format!("{}/", op::MACHINE_EARNINGS.path_with(&["me"]))
        );
        let days: Vec<&str> = MACHINE_EARNINGS.query[1..3].iter().map(|q| q.1).collect();
        assert_eq!(
            days,
            [
                format!("{{days_ago_{MACHINE_EARNINGS_DAYS}}}"),
                "{days_ago_1}".to_owned()
            ]
        );
        assert_eq!(
            MACHINE_REPORTS.path_with("id", "1058"),
            "/api/v0/machines/1058/reports/"
        );
    }

    #[test]
    fn the_windows_read_takes_the_ids_n1_gives() {
        assert_eq!(
            WINDOWS.query_with_machine_ids("[1,2]"),
            vec![
                ("owner", "me".to_owned()),
                ("machine_ids", "[1,2]".to_owned())
            ]
        );
        assert_eq!(MACHINES.gives, Some("machine_ids"));
    }
}
