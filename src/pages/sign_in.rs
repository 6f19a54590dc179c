//! Sign-in: an API key and an optional REST base URL, checked against `users/current`
//! before anything is stored.

use crate::api::ApiClient;
use crate::components::page::set_document_title;
use crate::session::{normalise_base_url, safe_next, use_session, SessionData, SignInNotice};
use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::hooks::{use_navigate, use_query_map};

#[component]
pub fn SignInPage() -> impl IntoView {
    set_document_title("Sign in");
    let session = use_session();
    let notice = expect_context::<SignInNotice>();
    let query = use_query_map();
    let next = move || safe_next(query.with(|q| q.get("next")));

    let api_key = RwSignal::new(String::new());
    let base_url = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);

    let navigate = use_navigate();
    let sign_in = Action::new_local(move |(key, base): &(String, String)| {
        let client = ApiClient::new(base.clone(), key.clone());
        let (key, base) = (key.clone(), base.clone());
        let navigate = navigate.clone();
        async move {
            match client.current_user().await {
                Ok(user) => {
                    notice.0.set(None);
                    session.sign_in(SessionData {
                        api_key: key,
                        base_url: base,
                        user,
                        others: Vec::new(),
                    });
                    navigate(&next(), Default::default());
                }
                // The server's own words when it sent some, with the status for context.
                Err(failure) => error.set(Some(failure.message_with_status())),
            }
        }
    });

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        error.set(None);
        let key = api_key.get_untracked().trim().to_owned();
        if key.is_empty() {
            error.set(Some("Enter your API key.".into()));
            return;
        }
        match normalise_base_url(&base_url.get_untracked()) {
            Ok(base) => {
                sign_in.dispatch((key, base));
            }
            Err(problem) => error.set(Some(problem)),
        }
    };
    let pending = sign_in.pending();

    view! {
        <Show when=move || !session.is_signed_in() fallback=move || view! { <Redirect path=next()/> }>
            <main class="sign-in" id="main">
                <h1>"gpudeck"</h1>
                <p class="lede">"Admin console for your GPU marketplace account."</p>
                {move || notice.0.get().map(|text| view! { <p class="notice" role="status">{text}</p> })}
                <form on:submit=on_submit novalidate>
                    <label for="api-key">"API key"</label>
                    <input
                        id="api-key"
                        name="api-key"
                        type="password"
                        autocomplete="current-password"
                        spellcheck="false"
                        required
                        aria-invalid=move || error.get().is_some().to_string()
                        aria-describedby="sign-in-error"
                        prop:value=api_key
                        on:input=move |ev| api_key.set(event_target_value(&ev))
                    />
                    <label for="base-url">"REST base URL " <span class="hint">"(optional)"</span></label>
                    <input
                        id="base-url"
                        name="base-url"
                        type="url"
                        inputmode="url"
                        placeholder=crate::session::own_origin()
                        prop:value=base_url
                        on:input=move |ev| base_url.set(event_target_value(&ev))
                    />
                    <p class="hint">
                        "Leave empty to use this console's own server. The key stays in this tab only and is forgotten when you sign out or close it."
                    </p>
                    <p id="sign-in-error" class="form-error" role="alert">
                        {move || error.get()}
                    </p>
                    <button class="button primary" type="submit" disabled=pending>
                        {move || if pending.get() { "Signing in…" } else { "Sign in" }}
                    </button>
                </form>
            </main>
        </Show>
    }
}
