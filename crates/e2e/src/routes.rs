//! Every page of the console, for the whole-app tests (`tests/routes.rs` opens each cold
//! by its address) and the bench (`felt` times each). A new page needs a line here.

/// A page of the console, as a person opens it by its address.
pub struct Route {
    /// Names a test's browser session (`cold_machines`).
    pub name: &'static str,
    pub path: &'static str,
    /// The text of its `main h1`.
    pub heading: &'static str,
    /// The browser tab's title.
    pub title: &'static str,
    /// A CSS selector for what shows the page is ready for use: its first data row or
    /// its main form, there only once the page's data has come (where it needs any).
    pub content: &'static str,
}

pub const ROUTES: &[Route] = &[
    Route {
        name: "cold_sign_in",
        path: "/sign-in",
        heading: "gpudeck",
        title: "Sign in · gpudeck",
        content: "#api-key",
    },
    Route {
        name: "cold_machines",
        path: "/machines",
        heading: "Machines",
        title: "Machines · gpudeck",
        content: "main tbody tr:not(.spacer)",
    },
    Route {
        name: "cold_schedule",
        path: "/machines/schedule?ids=1001",
        heading: "Schedule maintenance",
        title: "Schedule maintenance · gpudeck",
        content: "main form.schedule-form",
    },
    Route {
        name: "cold_rolling",
        path: "/machines/rolling?ids=1001-1005",
        heading: "Plan rolling maintenance",
        title: "Plan rolling maintenance · gpudeck",
        content: "main form.rolling-form",
    },
    Route {
        name: "cold_maintenance",
        path: "/machines/maintenance",
        heading: "Maintenance windows",
        title: "Maintenance windows · gpudeck",
        content: "main tbody tr:not(.spacer)",
    },
    Route {
        name: "cold_defrag",
        path: "/machines/defrag",
        heading: "Defragment GPU offers",
        title: "Defragment GPU offers · gpudeck",
        content: "main form",
    },
    Route {
        name: "cold_templates",
        path: "/templates",
        heading: "Templates",
        title: "Templates · gpudeck",
        content: "main tbody tr:not(.spacer)",
    },
    Route {
        name: "cold_volumes",
        path: "/volumes",
        heading: "Volumes",
        title: "Volumes · gpudeck",
        content: ".my-volumes tbody tr:not(.spacer)",
    },
    Route {
        name: "cold_subaccounts",
        path: "/subaccounts",
        heading: "Subaccounts",
        title: "Subaccounts · gpudeck",
        content: "main tbody tr:not(.spacer)",
    },
    Route {
        name: "cold_team_members",
        path: "/team/members",
        heading: "Team members",
        title: "Team members · gpudeck",
        content: "main tbody tr:not(.spacer)",
    },
    Route {
        name: "cold_team_roles",
        path: "/team/roles",
        heading: "Team roles",
        title: "Team roles · gpudeck",
        content: "[data-testid=roles-table] tbody tr",
    },
    Route {
        name: "cold_new_role",
        path: "/team/new-role?from=manager",
        heading: "New role",
        title: "New role · gpudeck",
        content: "main form.role-form",
    },
    Route {
        name: "cold_team_role",
        path: "/team/roles/owner",
        heading: "Team role",
        title: "Team role · gpudeck",
        content: "[data-testid=role-summary]",
    },
    Route {
        name: "cold_edit_role",
        path: "/team/roles/member/edit",
        heading: "Edit role",
        title: "Edit role · gpudeck",
        content: "main form.role-form",
    },
    Route {
        name: "cold_acting_account",
        path: "/acting-account",
        heading: "Acting account",
        title: "Acting account · gpudeck",
        content: "main form.add-key",
    },
];
