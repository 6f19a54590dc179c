//! The typed fetch layer: one client, one async function per operation, one error type.
//!
//! Pages call [`use_api`] and the functions in [`operations`]; they never build URLs or
//! parse JSON themselves. The requests' forms, the error type, pacing and when to send
//! again need no browser: they are `gpudeck_logic::api`'s, re-exported here.

mod client;
pub mod first_reads;
pub mod operations;

pub use gpudeck_logic::api::{pacing, requests};

pub use client::{
    backoff_ms, ApiClient, MachinesHook, UnauthorisedHook, WaitHook, MAX_GET_ATTEMPTS,
};
pub use gpudeck_logic::api::in_flight::InFlight;
pub use gpudeck_logic::api::{
    long_limit, may_send_again, retry_after_seconds, LongLimit, MAX_RATE_LIMIT_RETRIES,
    MAX_RETRY_AFTER_SECONDS,
};
pub use gpudeck_logic::api::{ApiError, Outcome, Refusal};

use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// The client of the signed-in session, as the page shell provides it: base URL, key and
/// what a 401 does. Pages take their own copy with [`use_api`].
#[derive(Clone, Copy)]
struct ShellClient(StoredValue<ApiClient, LocalStorage>);

/// Shares `client` with every page below; the page shell calls it once per session.
pub fn provide_api(client: ApiClient) {
    provide_context(ShellClient(StoredValue::new_local(client)));
}

/// The shell's client, bound to the calling page: requests still in flight when the page
/// is left are aborted. A 401 does what the shell said (sign-out and a detour through
/// sign-in, to come back here afterwards).
pub fn use_api() -> ApiClient {
    let client = expect_context::<ShellClient>().0.get_value();

    let controller = web_sys::AbortController::new().ok();
    let signal = controller.as_ref().map(|c| c.signal());
    let controller = SendWrapper::new(controller);
    on_cleanup(move || {
        if let Some(controller) = controller.take() {
            controller.abort();
        }
    });
    client.with_abort_signal(signal)
}

/// Whether any API request is on its way, or answered and not yet read, or started before
/// the console's code had arrived and not yet taken.
pub fn any_in_flight() -> bool {
    gpudeck_logic::api::in_flight::any_counted() || first_reads::any_on_offer()
}
