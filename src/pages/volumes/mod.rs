//! Volumes: search the hosts' offers of disk space (N10, the search kept in the address),
//! accept one from its row or by its ask id (seed op 4), and the caller's own volumes
//! (N11), each of which can be deleted (N12).

pub mod filters;
mod mine;
mod offers;
pub mod rules;

use crate::api::Refusal;
use crate::components::clipboard::CopyButton;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::form_field::{parse_positive_whole, FormField, TextInput, TextKind};
use crate::components::money::format_usd;
use crate::components::narrow_form::NarrowForm;
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded};
use crate::components::toasts::use_toasts;
use filters::monthly_cost;
use gpudeck_wire::VolumeOffer;
use leptos::prelude::*;
use mine::MyVolumes;
use offers::{use_offer_filters, OfferSearch};
use rules::{check_fits, check_volume_name, volume_name};

/// A request as confirmed: volume ask id, size in GB and the optional name.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Ask {
    id: i64,
    size_gb: i64,
    name: Option<String>,
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
    fn of(refusal: Refusal) -> Field {
        match refusal {
            Refusal::NotFound => Field::AskId,
            Refusal::Conflict | Refusal::Invalid => Field::Size,
            _ => Field::Form,
        }
    }
}

/// Where the accept form is, for a row's Accept to bring it into view.
const ACCEPT_FORM_ID: &str = "accept-volume";

#[component]
pub fn VolumesPage() -> impl IntoView {
    let toasts = use_toasts();
    let (filters, set_filters) = use_offer_filters();
    let offers = use_api_resource(move |api| {
        let request = filters.get().request();
        async move { api.search_volume_offers(&request).await }
    });
    let mine = use_api_resource(|api| async move { api.volumes().await });

    let ask_text = RwSignal::new(String::new());
    let size_text = RwSignal::new(String::new());
    let name_text = RwSignal::new(String::new());
    let ask_error = RwSignal::new(None::<String>);
    let size_error = RwSignal::new(None::<String>);
    let name_error = RwSignal::new(None::<String>);

    // The offer the form is about, when the last search found it.
    let offer_of = move |id: i64| -> Option<VolumeOffer> {
        with_loaded(offers, |all| all.iter().find(|o| o.id == id).cloned()).flatten()
    };
    let chosen_offer = Signal::derive(move || {
        parse_positive_whole("", &ask_text.get())
            .ok()
            .and_then(offer_of)
    });

    let accept = ConfirmedAction::new(
        |api, ask: Ask| async move {
            api.accept_volume_ask(ask.id, ask.size_gb, ask.name.as_deref())
                .await
        },
        move |_, answer| {
            toasts.success(format!("Volume {} created", answer.volume_name));
            // A fresh form, so a second click cannot make a second volume from the same ask.
            ask_text.try_set(String::new());
            size_text.try_set(String::new());
            name_text.try_set(String::new());
            mine.refetch();
            offers.refetch();
            answer.volume_name
        },
    );
    let pending = accept.pending();

    let check = move || {
        accept.clear();
        let id = parse_positive_whole("volume ask id", &ask_text.get_untracked());
        let size = parse_positive_whole("size in GB", &size_text.get_untracked()).and_then(
            |size| match id.as_ref().ok().and_then(|&id| offer_of(id)) {
                Some(offer) => check_fits(offer.id, size, offer.disk_space).map(|()| size),
                None => Ok(size),
            },
        );
        let name = check_volume_name(&name_text.get_untracked());
        ask_error.set(id.as_ref().err().cloned());
        size_error.set(size.as_ref().err().cloned());
        name_error.set(name.as_ref().err().cloned());
        if let (Ok(id), Ok(size_gb), Ok(name)) = (id, size, name) {
            accept.ask(Ask { id, size_gb, name });
        }
    };
    let refusal_about = move |field: Field| accept.refusal_where(|kind| Field::of(kind) == field);
    let ask_field_error =
        Signal::derive(move || ask_error.get().or_else(|| refusal_about(Field::AskId)));
    let size_field_error =
        Signal::derive(move || size_error.get().or_else(|| refusal_about(Field::Size)));
    let form_error = move || refusal_about(Field::Form);

    // A row's Accept: the form filled in with the offer and the size wanted, and the
    // focus on the size, to change it or go on.
    let pick = Callback::new(move |offer: VolumeOffer| {
        accept.clear();
        ask_error.set(None);
        size_error.set(None);
        ask_text.set(offer.id.to_string());
        size_text.set(filters.get_untracked().size_wanted().to_string());
        if let Some(field) = document().get_element_by_id("volume-size") {
            field.scroll_into_view();
            if let Ok(field) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(field) {
                let _ = field.focus();
            }
        }
    });

    let still_listed = move |name: &String| match mine.get() {
        Some(Ok(volumes)) => volumes.iter().any(|v| &volume_name(v.id) == name),
        _ => true,
    };

    view! {
        <Page class="volumes" title="Volumes" lede="Find a host's offer of disk space, accept it to create a volume, and manage your volumes. A volume stays on its host's machine and is mounted by its name into your instances there.">
            <OfferSearch filters=filters set_filters=set_filters offers=offers on_pick=pick/>

            <section class="accept-offer" aria-labelledby="accept-heading">
                <h2 id="accept-heading">"Accept an offer"</h2>
                <NarrowForm on_submit=check>
                    <div id=ACCEPT_FORM_ID class="accept-fields">
                        <FormField id="volume-ask-id" label="Volume ask id" hint="The number of the offer (its ask), e.g. 7; Accept on a row fills it in." error=ask_field_error class="short-field">
                            <TextInput kind=TextKind::Whole text=ask_text/>
                        </FormField>
                        <FormField id="volume-size" label="Size (GB)" hint="Whole gigabytes, at least 1; it must fit in the capacity the ask has left." error=size_field_error class="short-field">
                            <TextInput kind=TextKind::Whole text=size_text/>
                        </FormField>
                        <FormField id="volume-label" label="Name (optional)" hint="Letters, digits and underscores, up to 64; for you to recognise it." error=name_error>
                            <TextInput kind=TextKind::Plain text=name_text/>
                        </FormField>
                    </div>
                    <p class="hint" data-testid="chosen-offer">{move || chosen_offer.get().map(|offer| {
                        let size = parse_positive_whole("", &size_text.get()).ok();
                        let cost = size.map(|gb| format!(" {} GB cost {} a month.", gb, format_usd(monthly_cost(offer.storage_cost, gb)))).unwrap_or_default();
                        format!(
                            "Offer {} on machine {}{}: {} GB free.{cost}",
                            offer.id,
                            offer.machine_id,
                            offer.geolocation.as_deref().map(|g| format!(" ({g})")).unwrap_or_default(),
                            offer.disk_space.floor(),
                        )
                    })}</p>
                    <p class="form-error" role="alert" id="volume-form-error">{form_error}</p>
                    <div class="form-actions">
                        <SubmitButton pending=pending idle="Accept volume ask…" busy="Accepting…"/>
                    </div>
                </NarrowForm>
            </section>
            <ActionDialog action=accept title="Accept this volume ask?" confirm_label="Accept and create volume">
                <p>
                    {move || accept.asked().map(|ask| {
                        let named = ask.name.map(|n| format!(" named {n}")).unwrap_or_default();
                        let cost = offer_of(ask.id)
                            .map(|o| format!(" It costs {} a month.", format_usd(monthly_cost(o.storage_cost, ask.size_gb))))
                            .unwrap_or_default();
                        format!("A {} GB volume{named} is created from volume ask {} in your account.{cost}", ask.size_gb, ask.id)
                    })}
                </p>
            </ActionDialog>
            {accept.failure_view()}
            // The new volume's name, until it is deleted below.
            {move || accept.done().filter(|name| still_listed(name)).map(|name| view! {
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

            <MyVolumes volumes=mine on_deleted=Callback::new(move |()| offers.refetch())/>
        </Page>
    }
}
