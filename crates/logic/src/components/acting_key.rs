//! How the account acting is named.

use gpudeck_wire::CurrentUser;

/// `alice (alice@example.test)`, as `users/current` reports the account.
pub fn account_words(user: &CurrentUser) -> String {
    match (user.username.is_empty(), user.email.is_empty()) {
        (false, false) => format!("{} ({})", user.username, user.email),
        (false, true) => user.username.clone(),
        (true, false) => user.email.clone(),
        (true, true) => format!("user #{}", user.id),
    }
}

#[cfg(test)]
mod tests {
    use super::account_words;
    use gpudeck_wire::CurrentUser;

    #[test]
    fn accounts_are_named_as_users_current_reports_them() {
        let user = |username: &str, email: &str| CurrentUser {
            id: 4,
            username: username.into(),
            email: email.into(),
            ..Default::default()
        };
        assert_eq!(
            account_words(&user("dave", "dave@x.test")),
            "dave (dave@x.test)"
        );
        assert_eq!(account_words(&user("", "dave@x.test")), "dave@x.test");
        assert_eq!(account_words(&user("", "")), "user #4");
    }
}
