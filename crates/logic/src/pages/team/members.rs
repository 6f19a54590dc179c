//! The team members page's words: how many members hold each role.

use gpudeck_wire::TeamMember;

/// Each role with how many members hold it, in the order the roles first appear.
pub fn role_counts(members: &[TeamMember]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for role in members.iter().flat_map(|m| &m.roles) {
        match counts.iter_mut().find(|(name, _)| name == role) {
            Some((_, count)) => *count += 1,
            None => counts.push((role.clone(), 1)),
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::role_counts;
    use gpudeck_wire::TeamMember;

    const MEMBERS: &str = r#"[
        {"id": 1, "username": "alice", "email": "alice@example.test", "fullname": "Alice Example", "roles": ["owner"]},
        {"id": 3, "username": "carol", "email": "carol@example.test", "fullname": "Zoë Ångström", "roles": ["member"]},
        {"id": 4, "username": "dave", "email": "dave@example.test", "fullname": null, "roles": ["manager"]},
        {"id": 6, "username": "frank", "email": "frank@example.test", "fullname": "Frank <img src=x onerror=alert(1)>", "roles": ["member", "manager"]}
    ]"#;

    #[test]
    fn roles_are_counted_in_order_of_appearance() {
        let members: Vec<TeamMember> = serde_json::from_str(MEMBERS).unwrap();
        assert_eq!(
            role_counts(&members),
            [
                ("owner".to_owned(), 1),
                ("member".to_owned(), 2),
                ("manager".to_owned(), 2)
            ]
        );
    }
}
