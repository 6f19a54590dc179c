//! The fleet's requests, sent beside sign-in's key check when sign-in opens a page that
//! loads the fleet ([`super::fleet::load_fleet`]: N1, then the windows of its machines),
//! which takes their answers instead of asking again. N1 no longer waits a round trip for
//! `users/current` to answer first, and the windows are on their way while the page is
//! being built (on a slow phone, a few hundred milliseconds).
//!
//! The answers are kept undecoded. Sign-in is part of the main module, which every page
//! downloads first; decoding machines and windows there would put that code in it. The
//! page reads the answers with its own code; sign-in reads only N1's machine ids, with the
//! browser's JSON parser.

use crate::api::{ApiClient, ApiError, InFlight};
use futures::channel::oneshot;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

/// How long a started request stays on offer. The Machines page opens as soon as the key
/// is accepted; an answer nobody took by then is dropped rather than shown later as
/// current.
const OFFERED_FOR_MS: f64 = 10_000.0;

struct Started {
    client: ApiClient,
    at_ms: f64,
    answer: oneshot::Receiver<Result<Unread, ApiError>>,
    abort: Option<web_sys::AbortController>,
    /// Ends once N1 has answered and the windows are asked for (or cannot be): see
    /// [`until_windows_asked`].
    windows_asked: Option<oneshot::Receiver<()>>,
    /// Until the page has read the answers, they are data a person waits for: no other
    /// page's code is preloaded meanwhile.
    _awaited: InFlight,
}

/// N1's answer and, when its machine ids could be read and their windows were given, the
/// ids asked for and seed op 1's answer for them.
pub struct Unread {
    pub machines: String,
    pub windows: Option<(Vec<i64>, String)>,
}

/// The ids of N1's answer, read without the Machines page's decoder: `None` when the answer
/// is not an object whose `machines` all have whole-number ids. The page then reads the
/// answer itself, and asks for the windows after.
fn machine_ids_in(answer: &str) -> Option<Vec<i64>> {
    let parsed = js_sys::JSON::parse(answer).ok()?;
    let machines: js_sys::Array = js_sys::Reflect::get(&parsed, &"machines".into())
        .ok()?
        .dyn_into()
        .ok()?;
    machines
        .iter()
        .map(|machine| {
            let id = js_sys::Reflect::get(&machine, &"id".into())
                .ok()?
                .as_f64()?;
            (id.fract() == 0.0 && id.abs() < 9e15).then_some(id as i64)
        })
        .collect()
}

/// N1, then the windows of its machines, undecoded. A failed windows request is left for
/// the page to send again through its own client, and so are the windows of more machines
/// than one request takes (the requests sent together would put their code in the main
/// module, for the few hosts that large). `windows_asked` is told (or dropped, on every
/// other way out) once the windows request is on its way.
async fn ask_unread(
    api: ApiClient,
    windows_asked: oneshot::Sender<()>,
) -> Result<Unread, ApiError> {
    let machines = api.machines_unread().await?;
    let windows = match machine_ids_in(&machines) {
        Some(ids) if ids.len() <= gpudeck_wire::MAX_MACHINE_IDS => {
            // Telling only wakes the waiter: this task goes on into the request's first
            // poll, which sends it, before the waiter runs.
            let _ = windows_asked.send(());
            api.maintenances_unread(&ids)
                .await
                .ok()
                .map(|answer| (ids, answer))
        }
        _ => None,
    };
    Ok(Unread { machines, windows })
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
    let (tell_windows_asked, windows_asked) = oneshot::channel();
    leptos::task::spawn_local(async move {
        // Nobody waits for it any more when the receiver was dropped.
        let _ = send.send(ask_unread(asking, tell_windows_asked).await);
    });
    let at_ms = js_sys::Date::now();
    let started = Started {
        client: client.clone(),
        at_ms,
        answer,
        abort,
        windows_asked: Some(windows_asked),
        _awaited: InFlight::start(),
    };
    if let Some(earlier) = STARTED.with(|slot| slot.replace(Some(started))) {
        earlier.abandon();
    }
    // Not taken in time (the Machines page never opened): dropped, so that nothing waits
    // for it any more.
    leptos::task::spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(OFFERED_FOR_MS as u32).await;
        let unclaimed =
            STARTED.with(|slot| slot.borrow_mut().take_if(|started| started.at_ms == at_ms));
        if let Some(unclaimed) = unclaimed {
            unclaimed.abandon();
        }
    });
}

/// Waits, at most `patience_ms`, until the started requests have N1's answer and have
/// asked for the windows of its machines. Sign-in waits so before opening the Machines
/// page: building it keeps the browser busy (on a slow phone for 100–150 ms), and an N1
/// answer arriving meanwhile would wait for it, and the windows request with it.
pub async fn until_windows_asked(patience_ms: u32) {
    let asked = STARTED.with_borrow_mut(|slot| slot.as_mut()?.windows_asked.take());
    if let Some(asked) = asked {
        futures::future::select(asked, gloo_timers::future::TimeoutFuture::new(patience_ms)).await;
    }
}

/// Stops a started request: its key was refused.
pub fn abandon() {
    if let Some(started) = STARTED.with(RefCell::take) {
        started.abandon();
    }
}

/// The answers to the requests started for `api`'s account, once they have come, when
/// they are fresh and N1 was answered. Whatever else was started is stopped; nothing is
/// offered twice. A failed request is not offered: the caller sends it again through its
/// own client, which decides what a refusal does.
pub async fn take(api: &ApiClient) -> Option<Unread> {
    let started = STARTED.with(RefCell::take)?;
    let fresh = js_sys::Date::now() - started.at_ms <= OFFERED_FOR_MS;
    if !(fresh && started.client.is_same_account(api)) {
        started.abandon();
        return None;
    }
    started.answer.await.ok()?.ok()
}
