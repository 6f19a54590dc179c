//! Every address inside the console: the router serves these, and links, redirects and
//! navigations build them here, so a page moves by changing one line.

use gpudeck_wire::machine_ids::format_machine_ids;

pub const SIGN_IN: &str = "/sign-in";
pub const MACHINES: &str = "/machines";
pub const MAINTENANCE: &str = "/machines/maintenance";
pub const DEFRAG: &str = "/machines/defrag";
pub const SCHEDULE: &str = "/machines/schedule";
pub const ROLLING: &str = "/machines/rolling";
pub const TEMPLATES: &str = "/templates";
pub const VOLUMES: &str = "/volumes";
pub const SUBACCOUNTS: &str = "/subaccounts";
pub const TEAM_MEMBERS: &str = "/team/members";
pub const TEAM_ROLES: &str = "/team/roles";
pub const NEW_ROLE: &str = "/team/new-role";
/// The page that keeps more than one key in a tab and switches between them.
pub const ACTING_ACCOUNT: &str = "/acting-account";

/// Where a person lands after signing in when they did not ask for a page.
pub const HOME: &str = MACHINES;

/// `/sign-in?next=<here>`: sign-in, then back to `here`.
pub fn sign_in_path(here: &str) -> String {
    format!("{SIGN_IN}?next={}", js_sys::encode_uri_component(here))
}

/// Whether the page at `address` (a path and its query) asks first for the whole fleet,
/// N1 and the windows of its machines: the machines pages but Defragment (and `/`, which
/// opens the Machines page), and the maintenance page only when it is not given machine
/// ids (it then asks for their windows alone).
pub fn loads_the_fleet_first(address: &str) -> bool {
    let (path, query) = address.split_once('?').unwrap_or((address, ""));
    match path {
        "/" | MACHINES | SCHEDULE | ROLLING => true,
        MAINTENANCE => !query.split('&').any(|pair| pair.starts_with("ids=")),
        _ => false,
    }
}

/// A machines page (`MAINTENANCE`, `SCHEDULE`, ...) for the machines `ids`.
pub fn with_machine_ids(page: &str, ids: &[i64]) -> String {
    format!("{page}?ids={}", format_machine_ids(ids))
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
    use std::collections::BTreeSet;

    /// Leptos' `path!` takes only literals, so the router in `app.rs` writes the addresses
    /// again; this keeps the two lists the same.
    #[test]
    fn the_router_serves_exactly_the_addresses_built_here() {
        let app = include_str!("app.rs");
        let routed: BTreeSet<String> = app
            .split("path!(\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .filter(|path| !path.is_empty())
            .map(|path| format!("/{}", path.trim_start_matches('/')))
            .collect();
        let role = format!("{TEAM_ROLES}/:name");
        let built: BTreeSet<String> = [
            SIGN_IN,
            MACHINES,
            MAINTENANCE,
            DEFRAG,
            SCHEDULE,
            ROLLING,
            TEMPLATES,
            VOLUMES,
            SUBACCOUNTS,
            TEAM_MEMBERS,
            TEAM_ROLES,
            NEW_ROLE,
            &role,
            &format!("{role}/edit"),
            ACTING_ACCOUNT,
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        assert_eq!(routed, built);
    }

    /// `page!(Route at ADDRESS, ...)` names the address sign-in readies a page's code for:
    /// it must be the address the router serves that page at.
    #[test]
    fn each_lazy_page_is_known_by_the_address_it_is_served_at() {
        let constants = [
            ("MACHINES", MACHINES),
            ("ROLLING", ROLLING),
            ("SCHEDULE", SCHEDULE),
            ("MAINTENANCE", MAINTENANCE),
            ("DEFRAG", DEFRAG),
            ("TEMPLATES", TEMPLATES),
            ("VOLUMES", VOLUMES),
            ("SUBACCOUNTS", SUBACCOUNTS),
            ("TEAM_MEMBERS", TEAM_MEMBERS),
            ("TEAM_ROLES", TEAM_ROLES),
            ("NEW_ROLE", NEW_ROLE),
            ("ACTING_ACCOUNT", ACTING_ACCOUNT),
        ];
        let mut named = 0;
        for line in include_str!("app.rs").lines() {
            let Some((_, lazy)) = line.split_once("view=page!(") else {
                continue;
            };
            let served = line
                .split("path!(\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .map(|path| format!("/{path}"))
                .expect("a lazy route has a path");
            let Some(address) = lazy.split(',').next().and_then(|r| r.split(" at ").nth(1)) else {
                assert!(
                    served.contains(':'),
                    "{served} has no parameter: name its address"
                );
                continue;
            };
            let value = constants
                .iter()
                .find(|(name, _)| *name == address)
                .unwrap_or_else(|| panic!("{address} is not an address of this module"))
                .1;
            assert_eq!(value, served, "page! at {address}");
            named += 1;
        }
        assert_eq!(named, constants.len());
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
    fn the_pages_that_load_the_fleet_first_are_known_by_their_address() {
        for address in [
            "/machines",
            "/machines?sort=id",
            "/machines/schedule?ids=1001",
            "/machines/rolling?ids=1001-1005",
            "/machines/maintenance",
            "/machines/maintenance?sort=start",
            "/",
        ] {
            assert!(loads_the_fleet_first(address), "{address}");
        }
        for address in [
            "/machines/maintenance?ids=1001",
            "/machines/maintenance?sort=start&ids=7",
            "/machines/defrag",
            "/machines/schedule-x",
            "/templates",
            "/machines/",
        ] {
            assert!(!loads_the_fleet_first(address), "{address}");
        }
    }

    #[test]
    fn machine_pages_carry_their_ids_compactly() {
        assert_eq!(
            with_machine_ids(MAINTENANCE, &[1001, 1002, 1003, 1042]),
            "/machines/maintenance?ids=1001-1003,1042"
        );
        assert_eq!(rolling_path("ids=7"), "/machines/rolling?ids=7");
    }
}
