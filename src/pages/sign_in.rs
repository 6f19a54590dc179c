//! Sign-in: an API key and an optional REST base URL, checked against `users/current`
//! before anything is stored.
//!
//! The form's markup is the served page's (see [`crate::served_sign_in`]): a person types
//! into it before the console's code has arrived, and this page takes it over as it is,
//! with what was typed, the focus, and an Enter already pressed. After signing out, the
//! page builds the same form from the same markup.

use crate::api::{first_reads, ApiClient};
use crate::components::page::set_document_title;
use crate::served_sign_in::{self, LIVE, SUBMITTED};
use crate::session::{normalise_base_url, safe_next, use_session, SessionData, SignInNotice};
use leptos::html::Div;
use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::hooks::{use_navigate, use_query_map};
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{HtmlButtonElement, HtmlElement, HtmlInputElement};

/// The longest an accepted key waits for the first reads of the page signed in to to be
/// sent before that page opens: the windows of the fleet wait for N1 (list machines),
/// which leaves with the key check and usually answers right after it. Waiting longer
/// than the page takes to build (on a slow phone about 150 ms) would lose more than it
/// saves.
const FIRST_READS_PATIENCE_MS: u32 = 200;

#[component]
pub fn SignInPage() -> impl IntoView {
    set_document_title(gpudeck_pages::SIGN_IN.title);
    let session = use_session();
    let query = use_query_map();
    let next = move || safe_next(query.with(|q| q.get("next")));
    view! {
        <Show
            when=move || !session.is_signed_in()
            fallback=move || view! { <Redirect path=next() /> }
        >
            <SignInForm />
        </Show>
    }
}

/// The form's parts the page reads and writes.
struct FormParts {
    page: HtmlElement,
    form: HtmlElement,
    key: HtmlInputElement,
    base_url: HtmlInputElement,
    notice: HtmlElement,
    error: HtmlElement,
    button: HtmlButtonElement,
}

impl FormParts {
    fn of(page: HtmlElement) -> Self {
        let part = |selector: &str| {
            page.query_selector(selector)
                .ok()
                .flatten()
                .unwrap_or_else(|| panic!("the sign-in markup has {selector}"))
        };
        Self {
            form: part("form").unchecked_into(),
            key: part("#api-key").unchecked_into(),
            base_url: part("#base-url").unchecked_into(),
            notice: part(".notice").unchecked_into(),
            error: part("#api-key-error").unchecked_into(),
            // The served page's minifier drops `type="submit"`, the default.
            button: part("form button").unchecked_into(),
            page,
        }
    }
}

#[component]
fn SignInForm() -> impl IntoView {
    let session = use_session();
    let notice = expect_context::<SignInNotice>();
    let query = use_query_map();
    let error = RwSignal::new(None::<String>);

    let navigate = use_navigate();
    let sign_in = Action::new_local(move |(key, base): &(String, String)| {
        let client = ApiClient::new(base.clone(), key.clone());
        let (key, base) = (key.clone(), base.clone());
        let navigate = navigate.clone();
        let next = safe_next(query.with_untracked(|q| q.get("next")));
        async move {
            // The page's first reads leave beside the key check, from a task that runs
            // once this one waits on the check: so the check is sent first.
            let (tell_sent, all_sent) = futures::channel::oneshot::channel::<()>();
            let (reader, opening) = (client.clone(), next.clone());
            leptos::task::spawn_local(async move {
                first_reads::start(&reader, &opening).await;
                let _ = tell_sent.send(());
            });
            match client.current_user().await {
                Ok(user) => {
                    // Building the page keeps the browser busy (on a slow phone for
                    // 100–150 ms): an N1 answer arriving meanwhile would wait, and the
                    // windows request with it.
                    let patience = gloo_timers::future::TimeoutFuture::new(FIRST_READS_PATIENCE_MS);
                    futures::future::select(all_sent, patience).await;
                    notice.0.set(None);
                    session.begin(SessionData {
                        api_key: key,
                        base_url: base,
                        user,
                        others: Vec::new(),
                    });
                    navigate(&next, Default::default());
                }
                // The server's own words when it sent some, with the status for context.
                Err(failure) => {
                    first_reads::abandon();
                    error.set(Some(failure.message_with_status()));
                }
            }
        }
    });
    let pending = sign_in.pending();

    let served = served_sign_in::take_served();
    let adopted = served.is_some();
    let parts = std::rc::Rc::new(FormParts::of(served.unwrap_or_else(served_sign_in::build)));
    parts
        .base_url
        .set_placeholder(&crate::session::own_origin());
    parts.page.set_hidden(false);
    parts.page.set_attribute(LIVE, "").expect("an attribute");

    let submit = {
        let parts = parts.clone();
        move || {
            error.set(None);
            let key = parts.key.value().trim().to_owned();
            if key.is_empty() {
                error.set(Some("Enter your API key.".into()));
                return;
            }
            match normalise_base_url(&parts.base_url.value()) {
                Ok(base) => {
                    sign_in.dispatch((key, base));
                }
                Err(problem) => error.set(Some(problem)),
            }
        }
    };
    let on_submit = {
        let submit = submit.clone();
        Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            submit();
        })
    };
    parts
        .form
        .add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref())
        .expect("a submit listener");

    {
        let parts = parts.clone();
        Effect::new(move |_| {
            let problem = error.get();
            parts.error.set_text_content(problem.as_deref());
            let invalid = problem.is_some().to_string();
            let _ = parts.key.set_attribute("aria-invalid", &invalid);
        });
    }
    {
        let parts = parts.clone();
        Effect::new(move |_| {
            let busy = pending.get();
            parts.button.set_disabled(busy);
            parts
                .button
                .set_text_content(Some(if busy { "Signing in…" } else { "Sign in" }));
        });
    }
    {
        let parts = parts.clone();
        Effect::new(move |_| {
            let text = notice.0.get();
            parts.notice.set_hidden(text.is_none());
            parts.notice.set_text_content(text.as_deref());
        });
    }

    // Enter pressed before the console's code ran: sign in now with what was typed.
    if parts.page.has_attribute(SUBMITTED) {
        let _ = parts.page.remove_attribute(SUBMITTED);
        submit();
    }

    // The served form stays where the page has it; a new one goes into this page's slot.
    let slot = NodeRef::<Div>::new();
    if !adopted {
        let page = SendWrapper::new(parts.page.clone());
        slot.on_load(move |slot| {
            let _ = slot.append_child(&page);
        });
    }
    // The link stays free for the key check and the page signed in to, whose code is
    // made ready while the person types; the Machines page's table is then built once,
    // off-screen, so that its code is compiled before Enter (see `rehearsal`).
    let preload_hold = crate::split::hold_preloads();
    let next = safe_next(query.with_untracked(|q| q.get("next")));
    let waiting = Signal::derive(move || !pending.get());
    let form = Owner::current().map(|owner| owner.downgrade());
    leptos::task::spawn_local(async move {
        let page = next.split('?').next().unwrap_or_default();
        crate::split::ready_page_at(page, form, waiting).await;
    });
    let taken = SendWrapper::new((parts, on_submit, preload_hold));
    on_cleanup(move || {
        let (parts, on_submit, _preload_hold) = taken.take();
        let _ = parts
            .form
            .remove_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref());
        parts.page.remove();
    });
    view! { <div class="sign-in-slot" node_ref=slot></div> }
}
