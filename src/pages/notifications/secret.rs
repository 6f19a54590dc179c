//! A webhook's signing secret, shown once (N29, N32): in a dialog with a copy button and
//! the docs' warning, kept only in this dialog's signal, and dropped when it closes. Never
//! in storage, an address, a log or a toast.

use crate::components::clipboard::CopyButton;
use crate::components::confirm::ConfirmDialog;
use leptos::prelude::*;

/// What the last N29 or N32 returned for one webhook. `secret` is `None` when a 2xx
/// answer carried none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownSecret {
    pub webhook_id: i64,
    pub secret: Option<String>,
}

#[component]
pub fn SecretDialog(shown: RwSignal<Option<ShownSecret>>) -> impl IntoView {
    let open = RwSignal::new(false);
    // Opens when a secret arrives; closing, whichever way, forgets it.
    Effect::new(move |_| open.set(shown.with(Option::is_some)));
    Effect::new(move |was_open: Option<bool>| {
        let is_open = open.get();
        if was_open == Some(true) && !is_open {
            shown.set(None);
        }
        is_open
    });
    view! {
        <ConfirmDialog
            open=open
            title="Store this secret now"
            confirm_label="I have stored it"
            on_confirm=Callback::new(move |_| shown.set(None))
        >
            {move || {
                shown
                    .get()
                    .map(|ShownSecret { webhook_id, secret }| match secret {
                        Some(secret) => {
                            let shown_text = secret.clone();
                            view! {
                                <p>
                                    "The signing secret of webhook " {webhook_id}
                                    ". Store it immediately: you will not see it again. Your receiver checks each delivery's X-Vast-Signature-256 with it."
                                </p>
                                <p class="secret-line">
                                    <code class="secret" data-testid="webhook-secret">
                                        {shown_text}
                                    </code>
                                    <CopyButton
                                        text=secret
                                        label=format!("Copy the secret of webhook {webhook_id}")
                                    />
                                </p>
                            }
                                .into_any()
                        }
                        None => {
                            view! {
                                <p data-testid="webhook-no-secret">
                                    "The answer for webhook " {webhook_id}
                                    " carried no secret. Rotate its secret to get one."
                                </p>
                            }
                                .into_any()
                        }
                    })
            }}
        </ConfirmDialog>
    }
}
