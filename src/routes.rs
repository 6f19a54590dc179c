//! Addresses inside the console that more than one module needs.

/// Where a person lands after signing in when they did not ask for a page.
pub const HOME: &str = "/machines";

/// `/sign-in?next=<here>`: sign-in, then back to `here`.
pub fn sign_in_path(here: &str) -> String {
    format!("/sign-in?next={}", js_sys::encode_uri_component(here))
}

/// The page that keeps more than one key in a tab and switches between them.
pub const ACTING_ACCOUNT: &str = "/acting-account";
