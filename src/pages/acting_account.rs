//! The acting account: more than one API key in the same tab (a personal key and a team
//! key, say), each checked with `users/current` before it is kept, and a switch between
//! them that needs no new sign-in. Keys stay in sessionStorage with the session.

use crate::api::ApiClient;
use crate::components::acting_key::{account_words, acting_account, SwitchOffer};
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::masked_key::mask_key;
use crate::components::page::Page;
use crate::session::{use_session, KeptKey};
use leptos::prelude::*;

#[component]
pub fn ActingAccountPage() -> impl IntoView {
    let session = use_session();
    let acting = acting_account(session);
    let acting_key = move || {
        session
            .get()
            .map(|s| mask_key(&s.api_key))
            .unwrap_or_default()
    };
    view! {
        <Page
            class="acting-account"
            entry=&gpudeck_pages::ACTING_ACCOUNT
            lede="Keep more than one API key in this tab and choose which one acts. On the public service, team pages need a key made in the team's context; a personal key acts on your personal account. Keys stay in this tab only and are all forgotten when you sign out."
        >
            <section aria-labelledby="acting-heading">
                <h2 id="acting-heading">"Acting now"</h2>
                <p class="acting-now" data-testid="acting-now">
                    {acting}
                    " "
                    <code class="key-text">{acting_key}</code>
                </p>
            </section>
            <section aria-labelledby="kept-heading">
                <h2 id="kept-heading">"Other keys in this tab"</h2>
                <SwitchOffer forget=true />
            </section>
            <AddKeyForm />
        </Page>
    }
}

/// Adds a key after `users/current` accepted it; a refused key is never kept.
#[component]
fn AddKeyForm() -> impl IntoView {
    let session = use_session();
    let key_text = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let added = RwSignal::new(None::<String>);
    let check = Action::new_local(move |key: &String| {
        let base = session
            .get_untracked()
            .map(|s| s.base_url)
            .unwrap_or_default();
        // Its own client: a refusal here says nothing about the acting key.
        let client = ApiClient::new(base, key.clone());
        let key = key.clone();
        async move {
            match client.current_user().await {
                Ok(user) => {
                    added.set(Some(account_words(&user)));
                    key_text.set(String::new());
                    session.keep(KeptKey { api_key: key, user });
                }
                Err(error) => problem.set(Some(format!(
                    "This key was not kept: {}",
                    error.message_with_status()
                ))),
            }
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        added.set(None);
        let key = key_text.get_untracked().trim().to_owned();
        if key.is_empty() {
            problem.set(Some("Enter the API key to add.".into()));
        } else if session.get_untracked().is_some_and(|s| s.holds(&key)) {
            problem.set(Some("This key is already kept in this tab.".into()));
        } else {
            check.dispatch(key);
        }
    };
    let pending = check.pending();
    view! {
        <form class="add-key" on:submit=submit novalidate aria-labelledby="add-key-heading">
            <h2 id="add-key-heading">"Add a key"</h2>
            <FormField
                id="extra-api-key"
                label="API key"
                hint="Checked with the server before it is kept. The acting key does not change until you switch."
                error=problem
            >
                <TextInput kind=TextKind::Secret text=key_text />
            </FormField>
            <p class="form-success" role="status">
                {move || added.get().map(|who| format!("Kept the key of {who}."))}
            </p>
            <div class="form-actions">
                <button type="submit" class="button primary" disabled=pending>
                    {move || if pending.get() { "Checking…" } else { "Add key" }}
                </button>
            </div>
        </form>
    }
}
