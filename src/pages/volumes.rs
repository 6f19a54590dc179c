//! Accepting a volume ask: ask id and size, a confirmation, then the new volume's name,
//! which is how the volume is mounted into an instance.

use crate::api::Refusal;
use crate::components::clipboard::CopyButton;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::id_form::{parse_id, IdField, IdForm};
use crate::components::page::Page;
use crate::components::toasts::use_toasts;
use leptos::prelude::*;

/// A request as confirmed: volume ask id and size in GB.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Ask {
    id: i64,
    size_gb: i64,
}

/// Which part of the form a refusal is about: an unknown ask is the id's fault, too
/// little capacity (a conflict) or too small a size (invalid) the size's; anything else
/// (no permission, a malformed request) concerns the form as a whole.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    AskId,
    Size,
    Form,
}

impl Field {
    fn of(refusal: Option<Refusal>) -> Field {
        match refusal {
            Some(Refusal::NotFound) => Field::AskId,
            Some(Refusal::Conflict | Refusal::Invalid) => Field::Size,
            _ => Field::Form,
        }
    }
}

#[component]
pub fn VolumesPage() -> impl IntoView {
    let toasts = use_toasts();

    let ask_text = RwSignal::new(String::new());
    let size_text = RwSignal::new(String::new());
    let ask_error = RwSignal::new(None::<String>);
    let size_error = RwSignal::new(None::<String>);

    let accept = ConfirmedAction::new(
        |api, ask: Ask| async move { api.accept_volume_ask(ask.id, ask.size_gb).await },
        move |_, answer| {
            toasts.success(format!("Volume {} created", answer.volume_name));
            Ok(answer.volume_name)
        },
    );
    let pending = accept.pending();

    let check = move || {
        accept.clear();
        let id = parse_id("volume ask id", &ask_text.get_untracked());
        let size = parse_id("size in GB", &size_text.get_untracked());
        ask_error.set(id.as_ref().err().cloned());
        size_error.set(size.as_ref().err().cloned());
        if let (Ok(id), Ok(size_gb)) = (id, size) {
            accept.ask(Ask { id, size_gb });
        }
    };
    let refusal_about = move |field: Field| accept.refusal_where(|kind| Field::of(kind) == field);
    let ask_field_error =
        Signal::derive(move || ask_error.get().or_else(|| refusal_about(Field::AskId)));
    let size_field_error =
        Signal::derive(move || size_error.get().or_else(|| refusal_about(Field::Size)));
    let form_error = move || refusal_about(Field::Form);

    view! {
        <Page class="volumes" title="Volumes" lede="Accept a volume ask: a host's offer of disk space. The new volume gets a name you use to mount it into your instances.">
            <IdForm on_submit=check>
                <IdField id="volume-ask-id" label="Volume ask id" hint="The number of the ask, e.g. 7." text=ask_text error=ask_field_error/>
                <IdField id="volume-size" label="Size (GB)" hint="Whole gigabytes, at least 1; it must fit in the capacity the ask has left." text=size_text error=size_field_error/>
                <p class="form-error" role="alert" id="volume-form-error">{form_error}</p>
                <div class="form-actions">
                    <SubmitButton pending=pending idle="Accept volume ask…" busy="Accepting…"/>
                </div>
            </IdForm>
            <ActionDialog action=accept title="Accept this volume ask?" confirm_label="Accept and create volume">
                <p>
                    {move || {
                        let ask = accept.asked().unwrap_or(Ask { id: 0, size_gb: 0 });
                        format!("A {} GB volume is created from volume ask {} in your account.", ask.size_gb, ask.id)
                    }}
                </p>
            </ActionDialog>
            {accept.failure_view()}
            {move || accept.done().map(|name| view! {
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
        </Page>
    }
}
