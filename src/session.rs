//! The signed-in session: API key, REST base URL and who the key belongs to.
//!
//! It lives in `sessionStorage` only, so it ends with the tab and never reaches
//! `localStorage`, the URL or a log. [`Session`] is the reactive handle the pages share.
//!
//! A person may keep more than one key in the tab (a personal key and a team key, say):
//! one acts, the others wait in [`SessionData::others`] until switched to.

use crate::storage::Stored;
pub use gpudeck_logic::session::*;
use gpudeck_wire::CurrentUser;
use leptos::prelude::*;

/// A sentence for the next page load of this tab (why another key acts now).
const NOTICE_KEY: &str = "gpudeck.notice";

/// Keeps `text` to be shown once after the page loads again.
pub fn leave_notice_for_next_load(text: &str) {
    Stored::<String>::in_session(NOTICE_KEY).save(&text.to_owned());
}

/// The sentence [`leave_notice_for_next_load`] kept, once.
pub fn take_notice_from_last_load() -> Option<String> {
    Stored::<String>::in_session(NOTICE_KEY).take()
}

// Hand-written so that a stray `{:?}` can never print a key.

/// What [`Session::give_way_after_refusal`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum AfterRefusal {
    /// Another kept key acts now.
    Switched { refused: String, acting: String },
    /// No key was left.
    SignedOut,
    /// The refused key no longer acts: an earlier refusal was handled.
    AlreadyHandled,
}

/// A message for the sign-in page, e.g. why the last session ended. Not stored anywhere.
#[derive(Clone, Copy)]
pub struct SignInNotice(pub RwSignal<Option<String>>);

/// The current session, shared through context by [`provide_session`].
#[derive(Clone, Copy)]
pub struct Session {
    data: RwSignal<Option<SessionData>>,
    /// Set by [`Session::begin`]: `users/current` has just answered for the acting key, so
    /// the shell need not ask again (see [`Session::take_user_just_checked`]).
    user_just_checked: StoredValue<bool>,
}

impl Session {
    pub fn get(&self) -> Option<SessionData> {
        self.data.get()
    }

    pub fn get_untracked(&self) -> Option<SessionData> {
        self.data.get_untracked()
    }

    pub fn is_signed_in(&self) -> bool {
        self.data.with(Option::is_some)
    }

    /// Starts the session sign-in has just checked with `users/current`.
    pub fn begin(&self, data: SessionData) {
        self.user_just_checked.set_value(true);
        self.sign_in(data);
    }

    /// Whether the session began on this page load, its user fresh from the server; once.
    /// A session read from the tab's storage is not: the shell refreshes its user.
    pub fn take_user_just_checked(&self) -> bool {
        self.user_just_checked
            .try_update_value(std::mem::take)
            .unwrap_or(false)
    }

    /// Stores a session that the server has just accepted.
    pub fn sign_in(&self, data: SessionData) {
        stored().save(&data);
        self.data.set(Some(data));
    }

    /// Replaces who `key` belongs to with a fresher copy from the server, if `key` still
    /// acts (see [`SessionData::update_user`]).
    pub fn update_user(&self, key: &str, user: CurrentUser) {
        if let Some(mut data) = self.get_untracked() {
            if data.update_user(key, user) {
                self.sign_in(data);
            }
        }
    }

    /// Keeps another key, already checked with `users/current`, without letting it act.
    pub fn keep(&self, key: KeptKey) {
        if let Some(mut data) = self.get_untracked() {
            if !data.holds(&key.api_key) {
                data.others.push(key);
                self.sign_in(data);
            }
        }
    }

    /// Lets the kept key at `index` act, then loads the page again so that every request
    /// goes out with it and no page shows the other account's data.
    pub fn switch_to(&self, index: usize) {
        if let Some(mut data) = self.get_untracked() {
            data.switch_to(index);
            self.sign_in(data);
            reload_page();
        }
    }

    /// After the server refused the acting key: the next kept key acts (the caller then
    /// loads the page again, as a switch does), or, with none kept, the person is signed
    /// out. Says which happened.
    ///
    /// Several requests may fail with the same key at once: only the first refusal of the
    /// key that still acts counts, the others change nothing.
    pub fn give_way_after_refusal(&self, refused_key: &str) -> AfterRefusal {
        let Some(mut data) = self.get_untracked() else {
            return AfterRefusal::SignedOut;
        };
        if data.api_key != refused_key {
            return AfterRefusal::AlreadyHandled;
        }
        let refused = data.user.username.clone();
        if !data.drop_acting_key() {
            self.sign_out();
            return AfterRefusal::SignedOut;
        }
        let acting = data.user.username.clone();
        self.sign_in(data);
        AfterRefusal::Switched { refused, acting }
    }

    /// Forgets one waiting key.
    pub fn forget(&self, index: usize) {
        if let Some(mut data) = self.get_untracked() {
            if index < data.others.len() {
                data.others.remove(index);
                self.sign_in(data);
            }
        }
    }

    /// Forgets every key and everything else this tab kept (preferences, recent ids):
    /// the next person at this browser starts clean.
    pub fn sign_out(&self) {
        crate::api::first_reads::abandon();
        if let Some(storage) = crate::storage::session() {
            let _ = storage.clear();
        }
        self.data.set(None);
    }
}

/// Loads the page again, so that every request goes out with the key now acting and no
/// page shows the other account's data.
pub fn reload_page() {
    if let Some(window) = web_sys::window() {
        let _ = window.location().reload();
    }
}

/// Reads any stored session and shares it, and the sign-in page's notice, with every
/// component below.
pub fn provide_session() -> Session {
    let session = Session {
        data: RwSignal::new(stored().load()),
        user_just_checked: StoredValue::new(false),
    };
    provide_context(session);
    provide_context(SignInNotice(RwSignal::new(None)));
    session
}

pub fn use_session() -> Session {
    expect_context::<Session>()
}

fn stored() -> Stored<SessionData> {
    Stored::in_session(STORAGE_KEY)
}

/// The console's own origin, the default REST base URL.
pub fn own_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// Checks and normalises a base URL typed by a person: empty means the console's origin;
/// otherwise an absolute `http(s)://` URL without query or fragment.
pub fn normalise_base_url(input: &str) -> Result<String, String> {
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Ok(own_origin());
    }
    let url = web_sys::Url::new(trimmed)
        .map_err(|_| format!("\"{trimmed}\" is not a URL; write it like https://host:port"))?;
    if url.protocol() != "http:" && url.protocol() != "https:" {
        return Err("the base URL must start with http:// or https://".into());
    }
    if !url.search().is_empty() || !url.hash().is_empty() || !url.username().is_empty() {
        return Err("the base URL must not carry a query, a fragment or credentials".into());
    }
    Ok(trimmed.trim_end_matches('/').to_owned())
}
