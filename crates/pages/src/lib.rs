//! The console's route table: every page declared once, with its address, its tab title,
//! its navigation entry, the lazy route that names its pack, and the API reads it makes
//! first. The router (`src/app.rs`), the address constants (`src/routes.rs`), the split
//! build's address → pack list (`xtask`), and the whole-app suite's and the bench's list of
//! pages all read this table; none of them reads Rust source as text.
//!
//! Adding a page: an entry here (and in [`PAGES`]), the page's file under `src/pages/`, and
//! its line in the router's `routed_pages!` list, which the compiler holds to this entry.

use gpudeck_wire::reads::{self, Read};

/// One page of the console.
#[derive(Debug, PartialEq, Eq)]
pub struct Page {
    /// The page's address, `/team/roles/:name` for one with a parameter.
    pub address: &'static str,
    /// The lazy route type that carries the page's code in the split build
    /// (`MachinesRoute`); wasm-split names its split `__machines_route_view_<n>`. `None` for
    /// sign-in, which stays in the main module so that the first visit needs no chunk.
    pub route: Option<&'static str>,
    /// Its main heading.
    pub heading: &'static str,
    /// The browser tab's title.
    pub title: &'static str,
    /// Its entry in the side navigation, where it has one.
    pub nav: Option<NavEntry>,
    /// The API reads it makes as it opens, besides the shell's ([`SHELL_READS`]), which
    /// the served page sends before the console's code has arrived.
    pub first_reads: &'static [&'static Read],
    /// Query parameters that change what it reads first: opened with one of them, its
    /// first reads are left to the page (the maintenance page given machine ids reads
    /// only their windows).
    pub reads_depend_on: &'static [&'static str],
    /// An address to open it by: its address with a query or its parameters filled in.
    pub example: &'static str,
    /// A CSS selector for what shows the page is ready for use: its first data row or its
    /// main form, there only once its data has come.
    pub ready: &'static str,
}

/// A link in the side navigation.
#[derive(Debug, PartialEq, Eq)]
pub struct NavEntry {
    pub section: Section,
    pub label: &'static str,
    /// Marked current only on its own address, not on the addresses below it.
    pub exact: bool,
}

/// The side navigation's headed groups, in their order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Machines,
    Account,
    Team,
}

impl Section {
    pub const ALL: [Section; 3] = [Section::Machines, Section::Account, Section::Team];

    pub fn heading(self) -> &'static str {
        match self {
            Section::Machines => "Machines",
            Section::Account => "Account",
            Section::Team => "Team",
        }
    }
}

/// The reads the shell makes on every page: who the key belongs to, and where the console
/// is connected.
pub const SHELL_READS: &[&Read] = &[&reads::CURRENT_USER, &reads::SERVER];

/// The whole fleet: N1 (list machines), then seed op 1 (the windows of those machines).
const FLEET: &[&Read] = &[&reads::MACHINES, &reads::WINDOWS];

pub const SIGN_IN: Page = Page {
    address: "/sign-in",
    route: None,
    heading: "gpudeck",
    title: "Sign in",
    nav: None,
    first_reads: &[],
    reads_depend_on: &[],
    example: "/sign-in",
    ready: "#api-key",
};

pub const MACHINES: Page = Page {
    address: "/machines",
    route: Some("MachinesRoute"),
    heading: "Machines",
    title: "Machines",
    nav: Some(NavEntry {
        section: Section::Machines,
        label: "Machines",
        exact: true,
    }),
    first_reads: FLEET,
    reads_depend_on: &[],
    example: "/machines",
    ready: "main tbody tr:not(.spacer)",
};

pub const MAINTENANCE: Page = Page {
    address: "/machines/maintenance",
    route: Some("MaintenanceRoute"),
    heading: "Maintenance windows",
    title: "Maintenance windows",
    nav: Some(NavEntry {
        section: Section::Machines,
        label: "Maintenance",
        exact: false,
    }),
    first_reads: FLEET,
    // Given machine ids, it reads only their windows.
    reads_depend_on: &["ids"],
    example: "/machines/maintenance",
    ready: "main tbody tr:not(.spacer)",
};

pub const DEFRAG: Page = Page {
    address: "/machines/defrag",
    route: Some("DefragRoute"),
    heading: "Defragment GPU offers",
    title: "Defragment GPU offers",
    nav: Some(NavEntry {
        section: Section::Machines,
        label: "Defragment",
        exact: false,
    }),
    first_reads: &[],
    reads_depend_on: &[],
    example: "/machines/defrag",
    ready: "main form",
};

pub const SCHEDULE: Page = Page {
    address: "/machines/schedule",
    route: Some("ScheduleRoute"),
    heading: "Schedule maintenance",
    title: "Schedule maintenance",
    nav: None,
    first_reads: FLEET,
    reads_depend_on: &[],
    example: "/machines/schedule?ids=1001",
    ready: "main form.schedule-form",
};

pub const ROLLING: Page = Page {
    address: "/machines/rolling",
    route: Some("RollingRoute"),
    heading: "Plan rolling maintenance",
    title: "Plan rolling maintenance",
    nav: None,
    first_reads: FLEET,
    reads_depend_on: &[],
    example: "/machines/rolling?ids=1001-1005",
    ready: "main form.rolling-form",
};

pub const TEMPLATES: Page = Page {
    address: "/templates",
    route: Some("TemplatesRoute"),
    heading: "Templates",
    title: "Templates",
    nav: Some(NavEntry {
        section: Section::Account,
        label: "Templates",
        exact: false,
    }),
    first_reads: &[&reads::TEMPLATE_LIBRARY],
    reads_depend_on: &[],
    example: "/templates",
    ready: "main tbody tr:not(.spacer)",
};

pub const VOLUMES: Page = Page {
    address: "/volumes",
    route: Some("VolumesRoute"),
    heading: "Volumes",
    title: "Volumes",
    nav: Some(NavEntry {
        section: Section::Account,
        label: "Volumes",
        exact: false,
    }),
    first_reads: &[&reads::VOLUME_OFFERS, &reads::VOLUMES],
    // The search form's fields, in the address once changed.
    reads_depend_on: &[
        "size",
        "max_price",
        "min_reliability",
        "location",
        "order",
        "any_host",
    ],
    example: "/volumes",
    ready: ".my-volumes tbody tr:not(.spacer)",
};

pub const SUBACCOUNTS: Page = Page {
    address: "/subaccounts",
    route: Some("SubaccountsRoute"),
    heading: "Subaccounts",
    title: "Subaccounts",
    nav: Some(NavEntry {
        section: Section::Account,
        label: "Subaccounts",
        exact: false,
    }),
    first_reads: &[&reads::SUBACCOUNTS],
    reads_depend_on: &[],
    example: "/subaccounts",
    ready: "main tbody tr:not(.spacer)",
};

pub const NOTIFICATIONS: Page = Page {
    address: "/notifications",
    route: Some("NotificationsRoute"),
    heading: "Notifications",
    title: "Notifications",
    nav: Some(NavEntry {
        section: Section::Account,
        label: "Notifications",
        exact: false,
    }),
    first_reads: &[
        &reads::NOTIFICATION_TYPES,
        &reads::NOTIFICATION_PREFERENCES,
        &reads::WEBHOOKS,
    ],
    reads_depend_on: &[],
    example: "/notifications",
    ready: ".preferences tbody tr:not(.spacer)",
};
pub const TEAM_MEMBERS: Page = Page {
    address: "/team/members",
    route: Some("TeamMembersRoute"),
    heading: "Team members",
    title: "Team members",
    nav: Some(NavEntry {
        section: Section::Team,
        label: "Members",
        exact: false,
    }),
    first_reads: &[
        &reads::TEAM_MEMBERS,
        &reads::TEAM_ROLES,
        &reads::TEAM_INVITES,
    ],
    reads_depend_on: &[],
    example: "/team/members",
    ready: "main tbody tr:not(.spacer)",
};

pub const TEAM_ROLES: Page = Page {
    address: "/team/roles",
    route: Some("TeamRolesRoute"),
    heading: "Team roles",
    title: "Team roles",
    nav: Some(NavEntry {
        section: Section::Team,
        label: "Roles",
        exact: false,
    }),
    first_reads: &[&reads::TEAM_ROLES, &reads::TEAM_MEMBERS],
    reads_depend_on: &[],
    example: "/team/roles",
    ready: "[data-testid=roles-table] tbody tr",
};

pub const NEW_ROLE: Page = Page {
    address: "/team/new-role",
    route: Some("NewRoleRoute"),
    heading: "New role",
    title: "New role",
    nav: None,
    first_reads: &[&reads::TEAM_ROLES],
    reads_depend_on: &[],
    example: "/team/new-role?from=manager",
    ready: "main form.role-form",
};

pub const TEAM_ROLE: Page = Page {
    address: "/team/roles/:name",
    route: Some("TeamRoleRoute"),
    heading: "Team role",
    title: "Team role",
    nav: None,
    first_reads: &[&reads::TEAM_ROLE],
    reads_depend_on: &[],
    example: "/team/roles/owner",
    ready: "[data-testid=role-summary]",
};

pub const EDIT_ROLE: Page = Page {
    address: "/team/roles/:name/edit",
    route: Some("EditRoleRoute"),
    heading: "Edit role",
    title: "Edit role",
    nav: None,
    first_reads: &[&reads::TEAM_ROLES],
    reads_depend_on: &[],
    example: "/team/roles/member/edit",
    ready: "main form.role-form",
};

pub const ACTING_ACCOUNT: Page = Page {
    address: "/acting-account",
    route: Some("ActingAccountRoute"),
    heading: "Acting account",
    title: "Acting account",
    nav: Some(NavEntry {
        section: Section::Team,
        label: "Acting account",
        exact: false,
    }),
    first_reads: &[],
    reads_depend_on: &[],
    example: "/acting-account",
    ready: "main form.add-key",
};

/// One machine's story (fleet-health §1.2's detail view): its findings, renter reports
/// (N24), rentals, offer and windows, and what it earned (N34).
pub const MACHINE_DETAIL: Page = Page {
    address: "/machines/:id",
    route: Some("MachineDetailRoute"),
    heading: "Machine",
    title: "Machine",
    nav: None,
    first_reads: &[
        &reads::MACHINES,
        &reads::WINDOWS,
        &reads::MACHINE_REPORTS,
        &reads::MACHINE_EARNINGS,
    ],
    reads_depend_on: &[],
    example: "/machines/1037",
    ready: "[data-testid=machine-findings]",
};

/// Every page, in the order of the side navigation, then the pages reached from others.
/// A page whose address has a parameter comes after the pages whose addresses it would
/// also serve (`/machines/:id` after `/machines/schedule`): the first that serves wins.
pub const PAGES: &[&Page] = &[
    &SIGN_IN,
    &MACHINES,
    &MAINTENANCE,
    &DEFRAG,
    &TEMPLATES,
    &VOLUMES,
    &SUBACCOUNTS,
    &NOTIFICATIONS,
    &TEAM_MEMBERS,
    &TEAM_ROLES,
    &ACTING_ACCOUNT,
    &SCHEDULE,
    &ROLLING,
    &NEW_ROLE,
    &TEAM_ROLE,
    &EDIT_ROLE,
    &MACHINE_DETAIL,
];

impl Page {
    /// The page's name in tests and reports: its route without `Route`, in snake case
    /// (`team_members`), or `sign_in`.
    pub fn name(&self) -> String {
        match self.route {
            Some(route) => snake_case(route.trim_end_matches("Route")),
            None => "sign_in".to_owned(),
        }
    }

    /// The prefix wasm-split gives the split of the page's lazy route:
    /// `__team_members_route_view_`.
    pub fn split_prefix(&self) -> Option<String> {
        self.route
            .map(|route| format!("__{}_view_", snake_case(route)))
    }

    /// Whether `path` (without its query) is this page's address, a `:parameter` segment
    /// matching any one non-empty segment.
    pub fn serves(&self, path: &str) -> bool {
        let wanted: Vec<&str> = self.address.split('/').collect();
        let given: Vec<&str> = path.split('/').collect();
        wanted.len() == given.len()
            && wanted.iter().zip(&given).all(|(want, give)| {
                if want.starts_with(':') {
                    !give.is_empty()
                } else {
                    want == give
                }
            })
    }

    /// The page whose address serves `path`.
    pub fn at(path: &str) -> Option<&'static Page> {
        PAGES.iter().copied().find(|page| page.serves(path))
    }
}

/// The first reads of `pages`, after the `shell`'s, as `first_reads.js` takes them:
/// `{max_machine_ids, shell: [read], pages: [{address, reads: [read], unless_query}]}`.
/// The split build writes every page's on the served page; sign-in gives the one page's
/// it is about to open.
pub fn first_reads_json(shell: &[&Read], pages: &[&Page]) -> String {
    let pages: Vec<_> = pages
        .iter()
        .map(|page| {
            serde_json::json!({
                "address": page.address,
                "reads": page.first_reads,
                "unless_query": page.reads_depend_on,
            })
        })
        .collect();
    serde_json::json!({
        "max_machine_ids": gpudeck_wire::MAX_MACHINE_IDS,
        "shell": shell,
        "pages": pages,
    })
    .to_string()
}

/// `TeamMembersRoute` → `team_members_route`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether two strings are equal, at compile time: the router's `routed_pages!` holds each
/// lazy route's type to its entry's `route` with it.
pub const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn each_page_has_its_own_address_route_and_example() {
        let addresses: BTreeSet<_> = PAGES.iter().map(|p| p.address).collect();
        let routes: BTreeSet<_> = PAGES.iter().filter_map(|p| p.route).collect();
        let names: BTreeSet<_> = PAGES.iter().map(|p| p.name()).collect();
        assert_eq!(addresses.len(), PAGES.len());
        assert_eq!(
            routes.len(),
            PAGES.len() - 1,
            "only sign-in has no lazy route"
        );
        assert_eq!(names.len(), PAGES.len());
        for page in PAGES {
            let path = page.example.split('?').next().unwrap();
            assert_eq!(
                Page::at(path),
                Some(*page),
                "{} opens another page",
                page.example
            );
            assert!(
                page.route.is_none_or(|r| r.ends_with("Route")),
                "{:?}",
                page.route
            );
        }
    }

    #[test]
    fn addresses_with_parameters_match_one_segment() {
        assert_eq!(Page::at("/team/roles/owner"), Some(&TEAM_ROLE));
        assert_eq!(Page::at("/team/roles/owner/edit"), Some(&EDIT_ROLE));
        assert_eq!(Page::at("/team/roles"), Some(&TEAM_ROLES));
        assert_eq!(Page::at("/team/roles/"), None);
        assert_eq!(Page::at("/machines/"), None);
        assert_eq!(Page::at("/machines/1037"), Some(&MACHINE_DETAIL));
        assert_eq!(Page::at("/machines/schedule"), Some(&SCHEDULE));
        assert_eq!(Page::at("/machines/1037/x"), None);
        assert_eq!(Page::at("/nowhere"), None);
    }

    #[test]
    fn a_page_is_named_after_its_route() {
        assert_eq!(TEAM_MEMBERS.name(), "team_members");
        assert_eq!(SIGN_IN.name(), "sign_in");
        assert_eq!(
            TEAM_MEMBERS.split_prefix().as_deref(),
            Some("__team_members_route_view_")
        );
        assert_eq!(SIGN_IN.split_prefix(), None);
    }

    #[test]
    fn the_navigation_lists_its_sections_in_order() {
        let sections: Vec<Section> = PAGES
            .iter()
            .filter_map(|p| p.nav.as_ref().map(|n| n.section))
            .collect();
        let mut sorted = sections.clone();
        sorted.sort_by_key(|s| Section::ALL.iter().position(|x| x == s));
        assert_eq!(sections, sorted);
    }

    #[test]
    fn first_reads_are_written_as_the_script_takes_them() {
        let json: serde_json::Value =
            serde_json::from_str(&first_reads_json(SHELL_READS, &[&MAINTENANCE])).unwrap();
        assert_eq!(json["max_machine_ids"], 1000);
        assert_eq!(json["shell"][0]["path"], "/api/v0/users/current");
        let page = &json["pages"][0];
        assert_eq!(page["address"], "/machines/maintenance");
        assert_eq!(page["unless_query"], serde_json::json!(["ids"]));
        assert_eq!(
            page["reads"][0],
            serde_json::json!({
                "method": "GET",
                "path": "/api/v0/machines",
                "query": [["owner", "me"]],
                "body": null,
                "gives": "machine_ids",
            })
        );
        assert_eq!(
            page["reads"][1]["query"],
            serde_json::json!([["owner", "me"], ["machine_ids", "{machine_ids}"]])
        );
    }

    #[test]
    fn same_compares_whole_strings() {
        assert!(same("MachinesRoute", "MachinesRoute"));
        assert!(!same("MachinesRoute", "MachineRoute"));
        assert!(!same("A", "B"));
    }
}
