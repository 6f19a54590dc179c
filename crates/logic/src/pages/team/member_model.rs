//! The members page's rules, free of the browser: who the owner is, who holds a role,
//! which N19 (change a member's roles) request a role change takes, and the e-mail rule
//! of N17 (invite member).

use gpudeck_wire::{TeamMember, TeamRoleEntry};

/// The member holding a role N13 (list roles) does not list: N13 never lists the owner
/// role, so that is how the console tells the owner without knowing the role's name.
pub fn owner_id(members: &[TeamMember], assignable: &[TeamRoleEntry]) -> Option<i64> {
    members
        .iter()
        .find(|m| {
            m.roles
                .iter()
                .any(|role| !assignable.iter().any(|r| &r.name == role))
        })
        .map(|m| m.id)
}

/// Who holds `role`, by the name people know them by.
pub fn holders(members: &[TeamMember], role: &str) -> Vec<String> {
    members
        .iter()
        .filter(|m| m.roles.iter().any(|r| r == role))
        .map(display_name)
        .collect()
}

/// The username, else the e-mail, else the user id.
pub fn display_name(member: &TeamMember) -> String {
    [&member.username, &member.email]
        .into_iter()
        .find(|s| !s.is_empty())
        .cloned()
        .unwrap_or_else(|| format!("user #{}", member.id))
}

/// One N19 request for one member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoleChange {
    /// POST `{"role": name}`: the member has no role yet.
    Give { member: i64, role: String },
    /// PUT `{"role_id"}`: the member's single role becomes this one.
    Replace {
        member: i64,
        role_id: i64,
        role: String,
    },
    /// DELETE `{"role": name}`: one of the member's several roles goes.
    Take { member: i64, role: String },
}

impl RoleChange {
    /// The request that gives `member` the role `role`: POST when they have none, PUT
    /// when they have one; `None` when they have several (N19 adds no second role; take
    /// one away first) or already hold it.
    pub fn to_give(member: &TeamMember, role: &TeamRoleEntry) -> Option<RoleChange> {
        if member.roles.contains(&role.name) {
            return None;
        }
        match member.roles.len() {
            0 => Some(RoleChange::Give {
                member: member.id,
                role: role.name.clone(),
            }),
            1 => Some(RoleChange::Replace {
                member: member.id,
                role_id: role.id,
                role: role.name.clone(),
            }),
            _ => None,
        }
    }

    /// The request that takes `role` from `member`: only while they hold others.
    pub fn to_take(member: &TeamMember, role: &str) -> Option<RoleChange> {
        (member.roles.len() > 1 && member.roles.iter().any(|r| r == role)).then(|| {
            RoleChange::Take {
                member: member.id,
                role: role.to_owned(),
            }
        })
    }

    /// What the confirmation says.
    pub fn sentence(&self, who: &str) -> String {
        match self {
            RoleChange::Give { role, .. } => format!("Give {who} the role {role}."),
            RoleChange::Replace { role, .. } => format!("Replace {who}'s role with {role}."),
            RoleChange::Take { role, .. } => format!("Take the role {role} away from {who}."),
        }
    }
}

/// N17's e-mail rule, `^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`, at most 254
/// characters; the sentence to show when it does not hold.
pub fn email_problem(email: &str) -> Option<String> {
    if email.is_empty() {
        return Some("Enter the e-mail address to invite.".into());
    }
    if email.chars().count() > 254 {
        return Some("An e-mail address has at most 254 characters.".into());
    }
    let fits = |part: &str, allowed: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || allowed.contains(c))
    };
    let valid = email.split_once('@').is_some_and(|(local, domain)| {
        let (host, top) = domain.rsplit_once('.').unwrap_or(("", ""));
        fits(local, "._%+-")
            && fits(host, ".-")
            && top.len() >= 2
            && top.chars().all(|c| c.is_ascii_alphabetic())
    });
    (!valid)
        .then(|| "That is not an e-mail address the service accepts, like dana@example.org.".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(id: i64, name: &str, roles: &[&str]) -> TeamMember {
        TeamMember {
            id,
            username: name.into(),
            email: format!("{name}@example.test"),
            fullname: String::new(),
            roles: roles.iter().map(|r| r.to_string()).collect(),
        }
    }

    fn role(id: i64, name: &str) -> TeamRoleEntry {
        TeamRoleEntry {
            id,
            name: name.into(),
            permissions: serde_json::json!({}),
            identifier: None,
        }
    }

    #[test]
    fn the_owner_holds_a_role_n13_does_not_list() {
        let members = [
            member(3, "carol", &["member"]),
            member(1, "alice", &["boss"]),
            member(4, "dave", &[]),
        ];
        let roles = [role(2, "manager"), role(3, "member")];
        assert_eq!(owner_id(&members, &roles), Some(1));
        assert_eq!(owner_id(&members[..1], &roles), None);
    }

    #[test]
    fn holders_are_named() {
        let members = [
            member(3, "carol", &["member"]),
            member(6, "", &["member", "manager"]),
        ];
        assert_eq!(holders(&members, "member"), ["carol", "@example.test"]);
        let nameless = TeamMember {
            email: String::new(),
            ..member(9, "", &[])
        };
        assert_eq!(display_name(&nameless), "user #9");
    }

    #[test]
    fn role_changes_pick_the_method_n19_takes() {
        let auditor = role(12, "auditor");
        assert_eq!(
            RoleChange::to_give(&member(4, "dave", &[]), &auditor),
            Some(RoleChange::Give {
                member: 4,
                role: "auditor".into()
            })
        );
        assert_eq!(
            RoleChange::to_give(&member(4, "dave", &["manager"]), &auditor),
            Some(RoleChange::Replace {
                member: 4,
                role_id: 12,
                role: "auditor".into()
            })
        );
        assert_eq!(
            RoleChange::to_give(&member(6, "frank", &["member", "manager"]), &auditor),
            None
        );
        assert_eq!(
            RoleChange::to_give(&member(4, "dave", &["auditor"]), &auditor),
            None
        );
        assert_eq!(
            RoleChange::to_take(&member(6, "frank", &["member", "manager"]), "member"),
            Some(RoleChange::Take {
                member: 6,
                role: "member".into()
            })
        );
        assert_eq!(
            RoleChange::to_take(&member(4, "dave", &["manager"]), "manager"),
            None
        );
        assert_eq!(
            RoleChange::Take {
                member: 6,
                role: "member".into()
            }
            .sentence("frank"),
            "Take the role member away from frank."
        );
    }

    #[test]
    fn e_mail_addresses_follow_the_services_rule() {
        for good in ["dana@example.org", "a+b@x.co", "a.b_c%d-e@sub.x-y.com"] {
            assert_eq!(email_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "dana",
            "dana@",
            "@x.org",
            "dana@x",
            "dana@x.c",
            "da na@x.org",
            "a@b@x.org",
            "dana@x.o1",
            "dana@.org",
        ] {
            assert!(email_problem(bad).is_some(), "{bad}");
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert!(email_problem(&long).unwrap().contains("254"));
    }
}
