//! The session's data, free of the browser: the acting key with the account it belongs to,
//! the keys kept beside it, switching between them, and where to go after signing in.

use gpudeck_wire::CurrentUser;
use serde::{Deserialize, Serialize};

pub const STORAGE_KEY: &str = "gpudeck.session";

#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionData {
    pub api_key: String,
    /// Without a trailing slash, e.g. `https://console.example` or the console's origin.
    pub base_url: String,
    pub user: CurrentUser,
    /// The other keys kept in this tab, each checked with `users/current` when added.
    #[serde(default)]
    pub others: Vec<KeptKey>,
}

/// A key kept in the tab but not acting, with the account it acts as.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptKey {
    pub api_key: String,
    pub user: CurrentUser,
}

impl std::fmt::Debug for SessionData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionData")
            .field("api_key", &"<redacted>")
            .field("base_url", &self.base_url)
            .field("user", &self.user)
            .field("others", &self.others)
            .finish()
    }
}

impl std::fmt::Debug for KeptKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptKey")
            .field("api_key", &"<redacted>")
            .field("user", &self.user)
            .finish()
    }
}

impl SessionData {
    /// Whether `key` is already kept, acting or not.
    pub fn holds(&self, key: &str) -> bool {
        self.api_key == key || self.others.iter().any(|k| k.api_key == key)
    }

    /// Drops the acting key (the server refused it) and lets the first kept key act.
    /// False when no other key is kept: then nothing is left to act with.
    pub fn drop_acting_key(&mut self) -> bool {
        if self.others.is_empty() {
            return false;
        }
        let next = self.others.remove(0);
        self.api_key = next.api_key;
        self.user = next.user;
        true
    }

    /// Takes `user` as who `key` belongs to, if `key` still acts: an answer for a key
    /// switched away while it was on its way must not name the key that acts now. True
    /// when something changed.
    pub fn update_user(&mut self, key: &str, user: CurrentUser) -> bool {
        if self.api_key != key || self.user == user {
            return false;
        }
        self.user = user;
        true
    }

    /// Makes the kept key at `index` act; the one acting so far waits in its place.
    pub fn switch_to(&mut self, index: usize) {
        if let Some(kept) = self.others.get_mut(index) {
            std::mem::swap(&mut self.api_key, &mut kept.api_key);
            std::mem::swap(&mut self.user, &mut kept.user);
        }
    }
}

/// Where to go after signing in: only paths inside the console, so a crafted link can
/// not send a person elsewhere.
pub fn safe_next(next: Option<String>) -> String {
    match next {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') => {
            path
        }
        _ => crate::routes::HOME.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{safe_next, KeptKey, SessionData};
    use gpudeck_wire::CurrentUser;

    fn user(id: i64, name: &str) -> CurrentUser {
        CurrentUser {
            id,
            username: name.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_user_answered_for_a_key_no_longer_acting_changes_nothing() {
        let mut data = SessionData {
            api_key: "dave-key".into(),
            base_url: "http://x".into(),
            user: user(4, "dave"),
            others: vec![KeptKey {
                api_key: "alice-key".into(),
                user: user(1, "alice"),
            }],
        };
        // alice's `users/current`, sent before the switch to dave, answered after it.
        assert!(!data.update_user("alice-key", user(1, "alice")));
        assert_eq!(data.user.username, "dave");
        assert!(!data.update_user("dave-key", user(4, "dave")));
        let mut richer = user(4, "dave");
        richer.balance = 5.0;
        assert!(data.update_user("dave-key", richer.clone()));
        assert_eq!(data.user, richer);
    }

    #[test]
    fn switching_swaps_the_acting_key_with_a_kept_one() {
        let mut data = SessionData {
            api_key: "alice-key".into(),
            base_url: "http://x".into(),
            user: user(1, "alice"),
            others: vec![KeptKey {
                api_key: "dave-key".into(),
                user: user(4, "dave"),
            }],
        };
        assert!(data.holds("dave-key") && data.holds("alice-key") && !data.holds("x"));
        data.switch_to(0);
        assert_eq!((data.api_key.as_str(), data.user.id), ("dave-key", 4));
        assert_eq!(data.others[0].api_key, "alice-key");
        data.switch_to(5);
        assert_eq!(data.user.id, 4);
        let written = format!("{data:?}");
        assert!(!written.contains("-key"), "{written}");
    }

    #[test]
    fn a_refused_key_gives_way_to_the_first_kept_one() {
        let mut data = SessionData {
            api_key: "dave-team-key".into(),
            base_url: "http://x".into(),
            user: user(4, "dave"),
            others: vec![
                KeptKey {
                    api_key: "alice-key".into(),
                    user: user(1, "alice"),
                },
                KeptKey {
                    api_key: "bob-key".into(),
                    user: user(2, "bob"),
                },
            ],
        };
        assert!(data.drop_acting_key());
        assert_eq!((data.api_key.as_str(), data.user.id), ("alice-key", 1));
        assert!(!data.holds("dave-team-key"));
        assert_eq!(data.others.len(), 1);
        assert!(data.drop_acting_key());
        assert_eq!(data.user.id, 2);
        assert!(!data.drop_acting_key(), "nothing left to act with");
        assert_eq!(data.api_key, "bob-key");
    }

    #[test]
    fn next_stays_inside_the_console() {
        assert_eq!(safe_next(Some("/templates?x=1".into())), "/templates?x=1");
        assert_eq!(safe_next(Some("//evil.test".into())), "/machines");
        assert_eq!(safe_next(Some("https://evil.test".into())), "/machines");
        assert_eq!(safe_next(Some("/\\evil.test".into())), "/machines");
        assert_eq!(safe_next(None), "/machines");
    }
}
