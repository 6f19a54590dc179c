//! The typed fetch layer: one client, one async function per operation, one error type.
//!
//! Pages call [`use_api`] and the functions in [`operations`]; they never build URLs or
//! parse JSON themselves.

mod client;
mod error;
pub mod operations;

pub use client::{backoff_ms, ApiClient, MAX_GET_ATTEMPTS};
pub use error::ApiError;

use crate::app::SignInNotice;
use crate::session::{use_session, SessionData};
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::rc::Rc;

/// A client for the signed-in session, bound to the calling page: requests still in
/// flight when the page is left are aborted, and a 401 signs the user out and sends them
/// to sign-in, to come back here afterwards.
pub fn use_api() -> ApiClient {
    let session = use_session();
    let notice = expect_context::<SignInNotice>();

    let controller = web_sys::AbortController::new().ok();
    let signal = controller.as_ref().map(|c| c.signal());
    let controller = SendWrapper::new(controller);
    on_cleanup(move || {
        if let Some(controller) = controller.take() {
            controller.abort();
        }
    });

    // Signing out is enough: the page shell then sends the person through sign-in and
    // back to the page they were on.
    let on_unauthorised = Rc::new(move |error: &ApiError| {
        notice.0.set(Some(format!(
            "Your session ended: the server refused the API key ({}). Sign in again to continue.",
            error.message()
        )));
        session.sign_out();
    });

    let SessionData {
        api_key, base_url, ..
    } = session.get_untracked().unwrap_or_else(|| SessionData {
        api_key: String::new(),
        base_url: crate::session::own_origin(),
        user: Default::default(),
    });
    ApiClient::new(base_url, api_key)
        .with_abort_signal(signal)
        .on_unauthorised(on_unauthorised)
}
