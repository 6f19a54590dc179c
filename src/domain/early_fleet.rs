//! The fleet's first request, sent beside sign-in's key check. Signing in opens the
//! Machines page, which loads the fleet: N1, then the windows of its machines. Sent when
//! the form is, N1 no longer waits for `users/current` to answer first: on a phone
//! network, one round trip less before the first row.
//!
//! Only N1's undecoded answer is kept. Sign-in is part of the main module, which every
//! page downloads first; decoding machines there would put that code in it. The Machines
//! page reads the answer with its own code.

use super::fleet::{load_fleet, load_windows_of, Fleet};
use crate::api::{ApiClient, ApiError};
use futures::channel::oneshot;
use std::cell::RefCell;

/// How long a started request stays on offer. The Machines page opens as soon as the key
/// is accepted; an answer nobody took by then is dropped rather than shown later as
/// current.
const OFFERED_FOR_MS: f64 = 10_000.0;

struct Started {
    client: ApiClient,
    at_ms: f64,
    answer: oneshot::Receiver<Result<String, ApiError>>,
    abort: Option<web_sys::AbortController>,
}

impl Started {
    fn abandon(self) {
        if let Some(abort) = self.abort {
            abort.abort();
        }
    }
}

thread_local! {
    static STARTED: RefCell<Option<Started>> = const { RefCell::new(None) };
}

/// Asks for the machines of `client`'s account: the key being signed in with, before it
/// is known to be accepted.
pub fn start(client: &ApiClient) {
    let abort = web_sys::AbortController::new().ok();
    let asking = client
        .clone()
        .with_abort_signal(abort.as_ref().map(web_sys::AbortController::signal));
    let (send, answer) = oneshot::channel();
    leptos::task::spawn_local(async move {
        // Nobody waits for it any more when the receiver was dropped.
        let _ = send.send(asking.machines_unread().await);
    });
    let started = Started {
        client: client.clone(),
        at_ms: js_sys::Date::now(),
        answer,
        abort,
    };
    if let Some(earlier) = STARTED.with(|slot| slot.replace(Some(started))) {
        earlier.abandon();
    }
}

/// Stops a started request: its key was refused.
pub fn abandon() {
    if let Some(started) = STARTED.with(RefCell::take) {
        started.abandon();
    }
}

/// The fleet, as [`load_fleet`] gives it, with N1's answer from the request sign-in sent
/// for the same account when there is one. A started request that failed is sent again
/// through `api`, so that the page's own client decides what a refusal does.
pub async fn take_or_load(api: ApiClient) -> Result<Fleet, ApiError> {
    let started = STARTED.with(RefCell::take);
    if let Some(started) = started {
        let fresh = js_sys::Date::now() - started.at_ms <= OFFERED_FOR_MS;
        if fresh && started.client.is_same_account(&api) {
            if let Ok(Ok(answer)) = started.answer.await {
                let machines = api.machines_from(&answer)?;
                return load_windows_of(api, machines).await;
            }
        } else {
            started.abandon();
        }
    }
    load_fleet(api).await
}
