//! Every address inside the console that needs no browser to build: the pages' addresses
//! are the route table's (`gpudeck_pages`), which the router serves, so a page moves by
//! changing its entry there. The console's `routes` adds those that percent-encode a name.

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

#[cfg(test)]
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
        let boot = include_str!("../../../boot.js");
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
