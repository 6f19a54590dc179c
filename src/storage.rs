//! The browser's two storages; `None` where the browser refuses them (e.g. some privacy
//! modes), so callers simply keep nothing.

/// This tab's storage: the session, preferences and recent ids live here.
pub fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Storage shared by every tab and kept across restarts: only ids, never keys.
pub fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}
