//! Accepting a volume ask: ask id and size, a confirmation, then the new volume's name,
//! which is how the volume is mounted into an instance.

use crate::api::{use_api, ApiError};
use crate::components::clipboard::CopyButton;
use crate::components::confirm::ConfirmDialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::id_form::{is_refusal, parse_id, IdField};
use crate::components::toasts::use_toasts;
use leptos::prelude::*;

/// A request as confirmed: volume ask id and size in GB.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Ask {
    id: i64,
    size_gb: i64,
}

/// Which field a refusal is about, from its status: an unknown ask is the id's fault,
/// too little capacity (409) or too small a size (422) the size's; anything else (no
/// permission, malformed request) concerns the form as a whole.
#[derive(Clone, PartialEq, Debug)]
enum Refusal {
    AskId(String),
    Size(String),
    Form(String),
}

impl Refusal {
    fn of(error: &ApiError) -> Self {
        let message = error.message();
        match error.status() {
            Some(404) => Refusal::AskId(message),
            Some(409 | 422) => Refusal::Size(message),
            _ => Refusal::Form(message),
        }
    }
}

#[component]
pub fn VolumesPage() -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();

    let ask_text = RwSignal::new(String::new());
    let size_text = RwSignal::new(String::new());
    let ask_error = RwSignal::new(None::<String>);
    let size_error = RwSignal::new(None::<String>);
    let refusal = RwSignal::new(None::<Refusal>);
    let failure = RwSignal::new(None::<ApiError>);
    let created = RwSignal::new(None::<String>);
    let confirming = RwSignal::new(false);
    let to_accept = RwSignal::new(Ask { id: 0, size_gb: 0 });

    let accept = Action::new_local(move |ask: &Ask| {
        let api = api.clone();
        let ask = *ask;
        async move {
            match api.accept_volume_ask(ask.id, ask.size_gb).await {
                Ok(answer) => {
                    toasts.success(format!("Volume {} created", answer.volume_name));
                    created.try_set(Some(answer.volume_name));
                }
                Err(ApiError::Aborted) => {}
                Err(error) if is_refusal(&error) => {
                    refusal.try_set(Some(Refusal::of(&error)));
                }
                Err(error) => {
                    failure.try_set(Some(error));
                }
            }
        }
    });
    let pending = accept.pending();

    let check = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        refusal.set(None);
        failure.set(None);
        let id = parse_id("volume ask id", &ask_text.get_untracked());
        let size = parse_id("size in GB", &size_text.get_untracked());
        ask_error.set(id.as_ref().err().cloned());
        size_error.set(size.as_ref().err().cloned());
        if let (Ok(id), Ok(size_gb)) = (id, size) {
            to_accept.set(Ask { id, size_gb });
            confirming.set(true);
        }
    };
    let send = move || {
        if !accept.pending().get_untracked() {
            refusal.set(None);
            failure.set(None);
            created.set(None);
            accept.dispatch(to_accept.get_untracked());
        }
    };
    let ask_field_error = Signal::derive(move || {
        ask_error.get().or_else(|| match refusal.get() {
            Some(Refusal::AskId(message)) => Some(message),
            _ => None,
        })
    });
    let size_field_error = Signal::derive(move || {
        size_error.get().or_else(|| match refusal.get() {
            Some(Refusal::Size(message)) => Some(message),
            _ => None,
        })
    });
    let form_error = move || match refusal.get() {
        Some(Refusal::Form(message)) => Some(message),
        _ => None,
    };

    view! {
        <section class="volumes">
            <h1>"Volumes"</h1>
            <p class="lede">"Accept a volume ask: a host's offer of disk space. The new volume gets a name you use to mount it into your instances."</p>
            <form class="id-form" on:submit=check novalidate>
                <IdField
                    id="volume-ask-id"
                    label="Volume ask id"
                    hint="The number of the ask, e.g. 7."
                    text=ask_text
                    error=ask_field_error
                />
                <IdField
                    id="volume-size"
                    label="Size (GB)"
                    hint="Whole gigabytes, at least 1; it must fit in the capacity the ask has left."
                    text=size_text
                    error=size_field_error
                />
                <p class="form-error" role="alert" id="volume-form-error">{form_error}</p>
                <div class="form-actions">
                    <button type="submit" class="button primary" disabled=pending>
                        {move || if pending.get() { "Accepting…" } else { "Accept volume ask…" }}
                    </button>
                </div>
            </form>
            <ConfirmDialog
                open=confirming
                title="Accept this volume ask?"
                confirm_label="Accept and create volume"
                on_confirm=Callback::new(move |_| send())
            >
                <p>
                    {move || {
                        let ask = to_accept.get();
                        format!("A {} GB volume is created from volume ask {} in your account.", ask.size_gb, ask.id)
                    }}
                </p>
            </ConfirmDialog>
            {move || failure.get().map(|error| view! {
                <ErrorPanel error=error on_retry=Callback::new(move |_| send())/>
            })}
            {move || created.get().map(|name| view! {
                <div class="result volume-created" data-testid="volume-result">
                    <h2>"Volume created"</h2>
                    <p class="volume-name-line">
                        <output class="volume-name" data-testid="volume-name">{name.clone()}</output>
                        <CopyButton text=name.clone() label=format!("Copy the volume name {name}")/>
                    </p>
                    <p class="hint">
                        "Mount it into an instance by this name, e.g. "
                        <code>{format!("-v {name}:/data")}</code>
                        " in the instance's Docker options."
                    </p>
                </div>
            })}
        </section>
    }
}
