//! Who acts in this tab: the acting account in words, and the other kept keys, each with a
//! button that lets it act. The header, the acting-account page and every page the acting
//! account cannot use show them.

use crate::components::masked_key::mask_key;
use crate::routes::ACTING_ACCOUNT;
use crate::session::{use_session, Session};
use gpudeck_wire::CurrentUser;
use leptos::prelude::*;

/// `alice (alice@example.test)`, as `users/current` reports the account.
pub fn account_words(user: &CurrentUser) -> String {
    match (user.username.is_empty(), user.email.is_empty()) {
        (false, false) => format!("{} ({})", user.username, user.email),
        (false, true) => user.username.clone(),
        (true, false) => user.email.clone(),
        (true, true) => format!("user #{}", user.id),
    }
}

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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::account_words;
    use gpudeck_wire::CurrentUser;

    #[test]
    fn accounts_are_named_as_users_current_reports_them() {
        let user = |username: &str, email: &str| CurrentUser {
            id: 4,
            username: username.into(),
            email: email.into(),
            ..Default::default()
        };
        assert_eq!(
            account_words(&user("dave", "dave@x.test")),
            "dave (dave@x.test)"
        );
        assert_eq!(account_words(&user("", "dave@x.test")), "dave@x.test");
        assert_eq!(account_words(&user("", "")), "user #4");
    }
}
