//! Every address inside the console, as links, redirects and navigations build them: the
//! pages' addresses are the route table's (`gpudeck_pages`), which the router serves, so a
//! page moves by changing its entry there.

pub use gpudeck_logic::routes::*;

/// `/sign-in?next=<here>`: sign-in, then back to `here`.
pub fn sign_in_path(here: &str) -> String {
    format!("{SIGN_IN}?next={}", js_sys::encode_uri_component(here))
}

/// The console's address of the role `name`: any name, unicode or markup included, as
/// one path segment.
pub fn role_path(name: &str) -> String {
    let encoded: String = js_sys::encode_uri_component(name).into();
    format!("{TEAM_ROLES}/{encoded}")
}

/// The editor of the role `name`.
pub fn role_edit_path(name: &str) -> String {
    format!("{}/edit", role_path(name))
}

/// The editor of a new role, starting from a copy of `from` when given.
pub fn new_role_path(from: Option<&str>) -> String {
    match from {
        Some(name) => format!(
            "{NEW_ROLE}?from={}",
            String::from(js_sys::encode_uri_component(name))
        ),
        None => NEW_ROLE.to_owned(),
    }
}

/// The role name from the `:name` segment of [`role_path`]. The router hands the segment
/// over still (partly) percent-encoded; a segment that is not valid encoding is taken as
/// it is.
pub fn role_name_of(segment: &str) -> String {
    js_sys::decode_uri_component(segment)
        .map(String::from)
        .unwrap_or_else(|_| segment.to_owned())
}
