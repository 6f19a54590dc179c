//! Every address inside the console, as links, redirects and navigations build them: the
//! pages' addresses are the route table's (`gpudeck_pages`), which the router serves, so a
//! page moves by changing its entry there.

use crate::domain::health::Rule;
use gpudeck_pages as table;
use gpudeck_wire::machine_ids::format_machine_ids;

pub const SIGN_IN: &str = table::SIGN_IN.address;
pub const MACHINES: &str = table::MACHINES.address;
pub const MAINTENANCE: &str = table::MAINTENANCE.address;
pub const DEFRAG: &str = table::DEFRAG.address;
pub const SCHEDULE: &str = table::SCHEDULE.address;
pub const ROLLING: &str = table::ROLLING.address;
pub const TEMPLATES: &str = table::TEMPLATES.address;
pub const VOLUMES: &str = table::VOLUMES.address;
pub const SUBACCOUNTS: &str = table::SUBACCOUNTS.address;
pub const NOTIFICATIONS: &str = table::NOTIFICATIONS.address;
pub const TEAM_MEMBERS: &str = table::TEAM_MEMBERS.address;
pub const TEAM_ROLES: &str = table::TEAM_ROLES.address;
pub const NEW_ROLE: &str = table::NEW_ROLE.address;
/// The page that keeps more than one key in a tab and switches between them.
pub const ACTING_ACCOUNT: &str = table::ACTING_ACCOUNT.address;

/// The console's address of machine `id`'s detail page.
pub fn machine_path(id: i64) -> String {
    table::MACHINE_DETAIL
        .address
        .replace(":id", &id.to_string())
}

/// Where a person lands after signing in when they did not ask for a page.
pub const HOME: &str = MACHINES;

/// `/sign-in?next=<here>`: sign-in, then back to `here`.
pub fn sign_in_path(here: &str) -> String {
    format!("{SIGN_IN}?next={}", js_sys::encode_uri_component(here))
}

/// A machines page (`MAINTENANCE`, `SCHEDULE`, ...) for the machines `ids`.
pub fn with_machine_ids(page: &str, ids: &[i64]) -> String {
    format!("{page}?ids={}", format_machine_ids(ids))
}

/// The Machines page limited to the machines `ids` and filtered by the fleet-health
/// rule `rule` (for example, the machines a plan took down that are back from maintenance
/// and not listed).
pub fn machines_held_by(rule: Rule, ids: &[i64]) -> String {
    format!(
        "{MACHINES}?ids={}&health={}",
        format_machine_ids(ids),
        rule.key()
    )
}

/// The rolling planner with its inputs as a query (without `?`).
pub fn rolling_path(query: &str) -> String {
    format!("{ROLLING}?{query}")
}

/// The console's address of the role `name`: any name, unicode or markup included, as
/// one path segment.
pub fn role_path(name: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(name).into();
    format!("{TEAM_ROLES}/{encoded}")
}

/// The editor of the role `name`.
pub fn role_edit_path(name: &str) -> String {
    format!("{}/edit", role_path(name))
}

/// The editor of a new role, starting from a copy of `from` when given.
pub fn new_role_path(from: Option<&str>) -> String {
    match from {
        Some(name) => format!(
            "{NEW_ROLE}?from={}",
            String::from(js_sys::encode_uri_component(name))
        ),
        None => NEW_ROLE.to_owned(),
    }
}

/// The role name from the `:name` segment of [`role_path`]. The router hands the segment
/// over still (partly) percent-encoded; a segment that is not valid encoding is taken as
/// it is.
pub fn role_name_of(segment: &str) -> String {
    js_sys::decode_uri_component(segment)
        .map(String::from)
        .unwrap_or_else(|_| segment.to_owned())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// `role_path` builds the addresses the table's role pages are served at.
    #[test]
    fn role_addresses_are_the_table_role_pages() {
        assert!(table::TEAM_ROLE.serves("/team/roles/owner"));
        assert!(table::EDIT_ROLE.serves("/team/roles/owner/edit"));
        assert_eq!(table::TEAM_ROLE.address, format!("{TEAM_ROLES}/:name"));
    }

    /// boot.js fetches the pack of the page sign-in goes to beside the main module; without
    /// a `next` address, that is this one.
    #[test]
    fn boot_js_knows_the_home_page() {
        let boot = include_str!("../boot.js");
        assert!(
            boot.contains(&format!(r#".get("next") || "{HOME}""#)),
            "boot.js does not open {HOME} after a sign-in without `next`"
        );
    }

    #[test]
    fn a_machines_address_is_its_detail_page() {
        assert_eq!(machine_path(1037), "/machines/1037");
        assert_eq!(
            table::Page::at(&machine_path(1037)),
            Some(&table::MACHINE_DETAIL)
        );
    }

    #[test]
    fn machine_pages_carry_their_ids_compactly() {
        assert_eq!(
            with_machine_ids(MAINTENANCE, &[1001, 1002, 1003, 1042]),
            "/machines/maintenance?ids=1001-1003,1042"
        );
        assert_eq!(rolling_path("ids=7"), "/machines/rolling?ids=7");
        assert_eq!(
            machines_held_by(Rule::UnlistedAfterMaintenance, &[1001, 1002, 1003, 1007]),
            "/machines?ids=1001-1003,1007&health=maintained-not-listed"
        );
    }
}
