//! A role in plain words: what it can do, what it cannot, and its narrower grants.

use gpudeck_wire::permissions::Constraint;
use gpudeck_wire::{PermissionGroup, Permissions};
use serde_json::Value;

/// What a group lets a key do, in plain words.
pub fn group_words(group: PermissionGroup) -> &'static str {
    match group {
        PermissionGroup::InstanceRead => "see instances",
        PermissionGroup::InstanceWrite => "create, change and destroy instances",
        PermissionGroup::UserRead => "see account details",
        PermissionGroup::UserWrite => "change account details and create subaccounts",
        PermissionGroup::BillingRead => "see billing",
        PermissionGroup::BillingWrite => "change billing",
        PermissionGroup::MachineRead => "see hosted machines",
        PermissionGroup::MachineWrite => "change hosted machines and their maintenance",
        PermissionGroup::Misc => "use general operations such as searching offers",
        PermissionGroup::TeamRead => "see the team's roles and members",
        PermissionGroup::TeamWrite => "manage the team's roles and members",
    }
}

/// A role in plain words: what it can do, what it cannot, and its narrower grants.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoleSummary {
    pub can: Vec<String>,
    pub cannot: Vec<String>,
    pub limited: Vec<String>,
    pub unrecognised: usize,
}

impl RoleSummary {
    pub fn of(permissions: &Value) -> Self {
        let read = Permissions::read(permissions);
        let mut summary = RoleSummary::default();
        for group in PermissionGroup::ALL {
            let words = group_words(group);
            match read.group(group).map(|grant| grant.constraints()) {
                Some(constraints) if constraints.is_empty() => summary.can.push(words.to_owned()),
                Some(constraints) => summary
                    .limited
                    .push(format!("{words} only where {}", written(&constraints))),
                None => summary.cannot.push(words.to_owned()),
            }
        }
        for route in &read.routes {
            let name = &route.name;
            summary.limited.push(if route.entry.constraints.is_empty() {
                format!("use the route {name}")
            } else {
                format!(
                    "use the route {name} only where {}",
                    written(&route.entry.constraints)
                )
            });
        }
        summary.unrecognised = read.unrecognised.len();
        summary
    }
}

fn written(constraints: &[Constraint]) -> String {
    constraints
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_summary_says_what_the_role_can_and_cannot_do() {
        let summary = RoleSummary::of(&json!({
            "api": {"instance_read": {}, "machine_read": {"constraints": {"id": {"gte": 1000}}}},
            "api.instance.request_logs": {"constraints": {"id": {"eq": 1227}}},
            "ui": {}
        }));
        assert_eq!(summary.can, ["see instances"]);
        assert_eq!(summary.cannot.len(), 9);
        assert_eq!(
            summary.limited,
            [
                "see hosted machines only where id ≥ 1000",
                "use the route api.instance.request_logs only where id = 1227",
            ]
        );
        assert_eq!(summary.unrecognised, 1);
    }
}
