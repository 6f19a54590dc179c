//! The public service's rate limits as it answers them (spec neighbours §1.5): one table,
//! which the reference server enforces with `--public-rate-limits` and the console paces
//! itself by.

use crate::paths;

/// One operation's minimum interval between two calls by one key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PublicInterval {
    /// The operation's name in the spec, e.g. `N5`.
    pub operation: &'static str,
    pub method: &'static str,
    /// The path as [`paths`] writes it; `{…}` stands for one segment.
    pub path: &'static str,
    pub seconds: f64,
}

const fn every(
    operation: &'static str,
    method: &'static str,
    path: &'static str,
    seconds: f64,
) -> PublicInterval {
    PublicInterval {
        operation,
        method,
        path,
        seconds,
    }
}

/// The generated reference's value, the docs' where it gives none. Operations not listed
/// are not limited by the server and paced by the console only after a 429.
pub const PUBLIC_INTERVALS: [PublicInterval; 24] = [
    every("N1", "GET", paths::MACHINES, 2.5),
    every("N2", "GET", paths::MACHINE, 1.1),
    every("N3", "PUT", paths::MACHINE_DNOTIFY, 2.5),
    every("N4", "POST", paths::MAINTENANCES_BATCH, 2.0),
    every("N5", "PUT", paths::MACHINE_CANCEL_MAINT, 2.5),
    every("N6", "DELETE", paths::MAINTENANCES, 1.0),
    every("N7", "DELETE", paths::MAINTENANCES_BATCH, 2.0),
    every("N8", "GET", paths::TEMPLATE_ALIAS, 1.9),
    every("N9", "GET", paths::USER_TEMPLATES, 1.6),
    every("N10", "POST", paths::VOLUMES_SEARCH, 2.0),
    every("N11", "GET", paths::VOLUMES, 2.0),
    every("N12", "DELETE", paths::VOLUMES, 5.5),
    every("N13", "GET", paths::TEAM_ROLES_FULL, 2.0),
    every("N14", "POST", paths::TEAM_ROLES, 2.0),
    every("N15", "PUT", paths::TEAM_ROLE, 2.0),
    every("N16", "DELETE", paths::TEAM_ROLE, 2.0),
    every("N17", "POST", paths::TEAM_INVITE, 2.0),
    every("N18", "DELETE", paths::TEAM_MEMBER, 3.0),
    every("N19", "POST", paths::TEAM_MEMBER_ROLES, 2.0),
    every("N19", "PUT", paths::TEAM_MEMBER_ROLES, 2.0),
    every("N19", "DELETE", paths::TEAM_MEMBER_ROLES, 2.0),
    every("N20", "POST", paths::USERS, 3.0),
    every("N22", "PUT", paths::MACHINE_CREATE_ASKS, 5.0),
    every("N23", "DELETE", paths::MACHINE_ASKS, 1.8),
];
