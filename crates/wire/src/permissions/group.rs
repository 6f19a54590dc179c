//! The eleven permission groups and how the grid lays them out (area × access).

use std::fmt;

/// The permission groups of the public service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PermissionGroup {
    InstanceRead,
    InstanceWrite,
    UserRead,
    UserWrite,
    BillingRead,
    BillingWrite,
    MachineRead,
    MachineWrite,
    Misc,
    TeamRead,
    TeamWrite,
}

/// Read or write access within an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// `misc` has no read/write split.
    Any,
}

impl PermissionGroup {
    pub const ALL: [PermissionGroup; 11] = [
        PermissionGroup::InstanceRead,
        PermissionGroup::InstanceWrite,
        PermissionGroup::UserRead,
        PermissionGroup::UserWrite,
        PermissionGroup::BillingRead,
        PermissionGroup::BillingWrite,
        PermissionGroup::MachineRead,
        PermissionGroup::MachineWrite,
        PermissionGroup::Misc,
        PermissionGroup::TeamRead,
        PermissionGroup::TeamWrite,
    ];

    /// The areas in display order.
    pub const AREAS: [&'static str; 6] = ["instance", "user", "billing", "machine", "team", "misc"];

    pub fn as_str(self) -> &'static str {
        match self {
            PermissionGroup::InstanceRead => "instance_read",
            PermissionGroup::InstanceWrite => "instance_write",
            PermissionGroup::UserRead => "user_read",
            PermissionGroup::UserWrite => "user_write",
            PermissionGroup::BillingRead => "billing_read",
            PermissionGroup::BillingWrite => "billing_write",
            PermissionGroup::MachineRead => "machine_read",
            PermissionGroup::MachineWrite => "machine_write",
            PermissionGroup::Misc => "misc",
            PermissionGroup::TeamRead => "team_read",
            PermissionGroup::TeamWrite => "team_write",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|group| group.as_str() == name)
    }

    /// `instance`, `user`, `billing`, `machine`, `team` or `misc`.
    pub fn area(self) -> &'static str {
        self.as_str().split('_').next().unwrap_or("misc")
    }

    pub fn access(self) -> Access {
        match self.as_str().rsplit('_').next() {
            Some("read") => Access::Read,
            Some("write") => Access::Write,
            _ => Access::Any,
        }
    }

    /// The group of `area` with `access`, if the public service has one.
    pub fn of(area: &str, access: Access) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|group| group.area() == area && group.access() == access)
    }
}

impl fmt::Display for PermissionGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_split_into_area_and_access() {
        assert_eq!(PermissionGroup::MachineWrite.area(), "machine");
        assert_eq!(PermissionGroup::MachineWrite.access(), Access::Write);
        assert_eq!(PermissionGroup::Misc.access(), Access::Any);
        assert_eq!(
            PermissionGroup::of("team", Access::Read),
            Some(PermissionGroup::TeamRead)
        );
        assert_eq!(PermissionGroup::of("misc", Access::Read), None);
        for area in PermissionGroup::AREAS {
            assert!(PermissionGroup::ALL.iter().any(|g| g.area() == area));
        }
        for group in PermissionGroup::ALL {
            assert_eq!(PermissionGroup::parse(group.as_str()), Some(group));
        }
    }
}
