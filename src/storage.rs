//! The browser's two storages, through one typed helper: a value is kept as JSON under one
//! key. Where the browser refuses a storage (e.g. some privacy modes) nothing is kept and
//! nothing is read.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::marker::PhantomData;

/// This tab's storage: the session, preferences and recent ids live here.
pub fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Storage shared by every tab and kept across restarts: only ids, never keys.
pub fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// A `T` kept as JSON under `key` in one of the two storages.
pub struct Stored<T> {
    storage: fn() -> Option<web_sys::Storage>,
    key: String,
    kind: PhantomData<fn() -> T>,
}

impl<T: Serialize + DeserializeOwned> Stored<T> {
    /// In this tab's `sessionStorage`.
    pub fn in_session(key: impl Into<String>) -> Self {
        Self::new(session, key.into())
    }

    /// In `localStorage`; never for secrets.
    pub fn in_local(key: impl Into<String>) -> Self {
        Self::new(local, key.into())
    }

    fn new(storage: fn() -> Option<web_sys::Storage>, key: String) -> Self {
        Self {
            storage,
            key,
            kind: PhantomData,
        }
    }

    /// The stored value; `None` when there is none, or it no longer reads as a `T`.
    pub fn load(&self) -> Option<T> {
        let json = (self.storage)()?.get_item(&self.key).ok()??;
        serde_json::from_str(&json).ok()
    }

    /// The stored value, removed from the storage: for what is read once.
    pub fn take(&self) -> Option<T> {
        let value = self.load();
        if let Some(storage) = (self.storage)() {
            let _ = storage.remove_item(&self.key);
        }
        value
    }

    /// Keeps `value`, replacing what was there.
    pub fn save(&self, value: &T) {
        if let (Some(storage), Ok(json)) = ((self.storage)(), serde_json::to_string(value)) {
            let _ = storage.set_item(&self.key, &json);
        }
    }
}
