//! Who acts in this tab: the acting account in words, and the other kept keys, each with a
//! button that lets it act. The header, the acting-account page and every page the acting
//! account cannot use show them.

use crate::components::masked_key::mask_key;
use crate::routes::ACTING_ACCOUNT;
use crate::session::{use_session, Session};
pub use gpudeck_logic::components::acting_key::account_words;
use leptos::prelude::*;

/// The acting account in words, following the session.
pub fn acting_account(session: Session) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || {
        session
            .get()
            .map(|s| account_words(&s.user))
            .unwrap_or_default()
    }
}

/// The kept keys that are not acting, each with a button that lets it act (and, with
/// `forget`, one that forgets it).
#[component]
pub fn SwitchOffer(#[prop(optional)] forget: bool) -> impl IntoView {
    let session = use_session();
    let others = move || session.get().map(|s| s.others).unwrap_or_default();
    view! {
        <Show
            when=move || !others().is_empty()
            fallback=move || {
                view! {
                    <p class="empty-state">
                        "No other key is kept in this tab."
                        // On the acting-account page the form to add one follows.
                        {(!forget)
                            .then(|| {
                                view! {
                                    " "
                                    <a href=ACTING_ACCOUNT>"Add another key"</a>
                                    " to act as another account."
                                }
                            })}
                    </p>
                }
            }
        >
            <ul class="kept-keys" data-testid="kept-keys">
                {move || {
                    others()
                        .into_iter()
                        .enumerate()
                        .map(|(index, kept)| {
                            let who = account_words(&kept.user);
                            let forget_label = format!("Forget the key of {who}");
                            view! {
                                <li>
                                    <span class="kept-account">{who.clone()}</span>
                                    " "
                                    <code class="key-text">{mask_key(&kept.api_key)}</code>
                                    <button
                                        type="button"
                                        class="button small primary switch-account"
                                        on:click=move |_| session.switch_to(index)
                                    >
                                        {format!("Act as {who}")}
                                    </button>
                                    {forget
                                        .then(|| {
                                            view! {
                                                <button
                                                    type="button"
                                                    class="button small"
                                                    aria-label=forget_label
                                                    on:click=move |_| session.forget(index)
                                                >
                                                    "Forget"
                                                </button>
                                            }
                                        })}
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </Show>
    }
}
