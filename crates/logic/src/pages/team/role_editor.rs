//! The role editor's rules: the name a copy of a role gets.

use gpudeck_wire::TeamRoleEntry;

/// `manager copy`, or `manager copy 2`, … : a name no role has yet.
pub fn copy_name(name: &str, roles: &[TeamRoleEntry]) -> String {
    let taken = |candidate: &str| roles.iter().any(|r| r.name == candidate);
    let base: String = format!("{name} copy").chars().take(44).collect();
    (1..)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base} {n}")
            }
        })
        .find(|candidate| !taken(candidate))
        .unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::copy_name;
    use gpudeck_wire::TeamRoleEntry;

    #[test]
    fn a_copy_gets_a_name_no_role_has() {
        let role = |name: &str| TeamRoleEntry {
            id: 1,
            name: name.into(),
            permissions: serde_json::json!({}),
            identifier: None,
        };
        assert_eq!(copy_name("manager", &[role("manager")]), "manager copy");
        assert_eq!(
            copy_name("manager", &[role("manager"), role("manager copy")]),
            "manager copy 2"
        );
        assert!(copy_name(&"x".repeat(50), &[]).chars().count() <= 50);
    }
}
