//! Volumes: search the hosts' offers of disk space (N10, search volume offers; the search
//! kept in the address), accept one from its row or by its ask id (seed op 4), and the
//! caller's own volumes (N11, list own volumes), each of which can be deleted (N12, delete
//! a volume).
//!
//! The page's parts: [`OfferSearch`] (the offers' table), [`AcceptFields`] (what the
//! accept form holds), [`AcceptForm`], [`VolumeCreated`] (its result) and [`MyVolumes`].

mod mine;
mod offers;

pub use gpudeck_logic::pages::volumes::{filters, rules};

use crate::api::{ApiError, Refusal};
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

const PAGE_LEDE: &str = "Find a host's offer of disk space, accept it to create a volume, and \
    manage your volumes. A volume stays on its host's machine and is mounted by its name into \
    your instances there.";
const ASK_ID_HINT: &str = "The number of the offer (its ask), e.g. 7; Accept on a row fills it in.";
const SIZE_HINT: &str =
    "Whole gigabytes, at least 1; it must fit in the capacity the ask has left.";
const NAME_HINT: &str = "Letters, digits and underscores, up to 64; for you to recognise it.";

type Offers = LocalResource<Result<Vec<VolumeOffer>, ApiError>>;

/// The offer of ask `id`, when the last search found it.
fn offer_in(offers: Offers, id: i64) -> Option<VolumeOffer> {
    with_loaded(offers, |all| all.iter().find(|o| o.id == id).cloned()).flatten()
}

/// What the accept form holds: the texts typed and what the last check found in each.
#[derive(Clone, Copy)]
struct AcceptFields {
    ask_text: RwSignal<String>,
    size_text: RwSignal<String>,
    name_text: RwSignal<String>,
    ask_error: RwSignal<Option<String>>,
    size_error: RwSignal<Option<String>>,
    name_error: RwSignal<Option<String>>,
}

impl AcceptFields {
    fn new() -> Self {
        AcceptFields {
            ask_text: RwSignal::new(String::new()),
            size_text: RwSignal::new(String::new()),
            name_text: RwSignal::new(String::new()),
            ask_error: RwSignal::new(None),
            size_error: RwSignal::new(None),
            name_error: RwSignal::new(None),
        }
    }

    /// A fresh form, so a second click cannot make a second volume from the same ask.
    fn empty(self) {
        self.ask_text.try_set(String::new());
        self.size_text.try_set(String::new());
        self.name_text.try_set(String::new());
    }

    /// The request, checked; `None` with each field's problem set otherwise. A size that
    /// does not fit is caught here when the last search found the offer.
    fn checked(self, offers: Offers) -> Option<Ask> {
        let id = parse_positive_whole("volume ask id", &self.ask_text.get_untracked());
        let size =
            parse_positive_whole("size in GB", &self.size_text.get_untracked()).and_then(|size| {
                match id.as_ref().ok().and_then(|&id| offer_in(offers, id)) {
                    Some(offer) => check_fits(offer.id, size, offer.disk_space).map(|()| size),
                    None => Ok(size),
                }
            });
        let name = check_volume_name(&self.name_text.get_untracked());
        self.ask_error.set(id.as_ref().err().cloned());
        self.size_error.set(size.as_ref().err().cloned());
        self.name_error.set(name.as_ref().err().cloned());
        match (id, size, name) {
            (Ok(id), Ok(size_gb), Ok(name)) => Some(Ask { id, size_gb, name }),
            _ => None,
        }
    }

    /// What the form is about: the offer, and what the size typed costs.
    fn chosen_offer_line(self, offers: Offers) -> Option<String> {
        let offer = parse_positive_whole("", &self.ask_text.get())
            .ok()
            .and_then(|id| offer_in(offers, id))?;
        let size = parse_positive_whole("", &self.size_text.get()).ok();
        let cost = size
            .map(|gb| {
                let monthly = format_usd(monthly_cost(offer.storage_cost, gb));
                format!(" {gb} GB cost {monthly} a month.")
            })
            .unwrap_or_default();
        Some(format!(
            "Offer {} on machine {}{}: {} GB free.{cost}",
            offer.id,
            offer.machine_id,
            offer
                .geolocation
                .as_deref()
                .map(|g| format!(" ({g})"))
                .unwrap_or_default(),
            offer.disk_space.floor(),
        ))
    }
}

#[component]
pub fn VolumesPage() -> impl IntoView {
    let toasts = use_toasts();
    let (filters, set_filters) = use_offer_filters();
    let offers = use_api_resource(move |api| {
        let request = filters.get().request();
        async move { api.search_volume_offers(&request).await }
    });
    let mine = use_api_resource(|api| async move { api.volumes().await });
    let fields = AcceptFields::new();

    let accept = ConfirmedAction::new(
        |api, ask: Ask| async move {
            api.accept_volume_ask(ask.id, ask.size_gb, ask.name.as_deref())
                .await
        },
        move |_, answer| {
            toasts.success(format!("Volume {} created", answer.volume_name));
            fields.empty();
            mine.refetch();
            offers.refetch();
            answer.volume_name
        },
    );

    // A row's Accept: the form filled in with the offer and the size wanted, and the
    // focus on the size, to change it or go on.
    let pick = Callback::new(move |offer: VolumeOffer| {
        accept.clear();
        fields.ask_error.set(None);
        fields.size_error.set(None);
        fields.ask_text.set(offer.id.to_string());
        fields
            .size_text
            .set(filters.get_untracked().size_wanted().to_string());
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
        <Page class="volumes" entry=&gpudeck_pages::VOLUMES lede=PAGE_LEDE>
            <OfferSearch filters=filters set_filters=set_filters offers=offers on_pick=pick />
            <AcceptForm fields=fields offers=offers accept=accept />
            <ActionDialog
                action=accept
                title="Accept this volume ask?"
                confirm_label="Accept and create volume"
            >
                <p>
                    {move || {
                        accept
                            .asked()
                            .map(|ask| {
                                let named = ask
                                    .name
                                    .map(|n| format!(" named {n}"))
                                    .unwrap_or_default();
                                let cost = offer_in(offers, ask.id)
                                    .map(|o| {
                                        format!(
                                            " It costs {} a month.",
                                            format_usd(monthly_cost(o.storage_cost, ask.size_gb)),
                                        )
                                    })
                                    .unwrap_or_default();
                                format!(
                                    "A {} GB volume{named} is created from volume ask {} in your account.{cost}",
                                    ask.size_gb,
                                    ask.id,
                                )
                            })
                    }}
                </p>
            </ActionDialog>
            {accept.failure_view()}
            // The new volume's name, until it is deleted below.
            {move || {
                accept
                    .done()
                    .filter(|name| still_listed(name))
                    .map(|name| view! { <VolumeCreated name=name /> })
            }}

            <MyVolumes volumes=mine on_deleted=Callback::new(move |()| offers.refetch()) />
        </Page>
    }
}

/// The accept form: the ask id, the size and the name, the offer they are about, and the
/// refusals of the last try, each next to the field it concerns.
#[component]
fn AcceptForm(
    fields: AcceptFields,
    offers: Offers,
    accept: ConfirmedAction<Ask, String>,
) -> impl IntoView {
    let check = move || {
        accept.clear();
        if let Some(ask) = fields.checked(offers) {
            accept.ask(ask);
        }
    };
    let refusal_about = move |field: Field| accept.refusal_where(|kind| Field::of(kind) == field);
    let ask_field_error = Signal::derive(move || {
        fields
            .ask_error
            .get()
            .or_else(|| refusal_about(Field::AskId))
    });
    let size_field_error = Signal::derive(move || {
        fields
            .size_error
            .get()
            .or_else(|| refusal_about(Field::Size))
    });
    let form_error = move || refusal_about(Field::Form);
    view! {
        <section class="accept-offer" aria-labelledby="accept-heading">
            <h2 id="accept-heading">"Accept an offer"</h2>
            <NarrowForm on_submit=check>
                <div id=ACCEPT_FORM_ID class="accept-fields">
                    <FormField
                        id="volume-ask-id"
                        label="Volume ask id"
                        hint=ASK_ID_HINT
                        error=ask_field_error
                        class="short-field"
                    >
                        <TextInput kind=TextKind::Whole text=fields.ask_text />
                    </FormField>
                    <FormField
                        id="volume-size"
                        label="Size (GB)"
                        hint=SIZE_HINT
                        error=size_field_error
                        class="short-field"
                    >
                        <TextInput kind=TextKind::Whole text=fields.size_text />
                    </FormField>
                    <FormField
                        id="volume-label"
                        label="Name (optional)"
                        hint=NAME_HINT
                        error=fields.name_error
                    >
                        <TextInput kind=TextKind::Plain text=fields.name_text />
                    </FormField>
                </div>
                <p class="hint" data-testid="chosen-offer">
                    {move || fields.chosen_offer_line(offers)}
                </p>
                <p class="form-error" role="alert" id="volume-form-error">
                    {form_error}
                </p>
                <div class="form-actions">
                    <SubmitButton
                        pending=accept.pending()
                        idle="Accept volume ask…"
                        busy="Accepting…"
                    />
                </div>
            </NarrowForm>
        </section>
    }
}

/// The new volume's name, to copy, and how to mount it.
#[component]
fn VolumeCreated(name: String) -> impl IntoView {
    view! {
        <div class="result volume-created" data-testid="volume-result">
            <h2>"Volume created"</h2>
            <p class="volume-name-line">
                <output class="volume-name" data-testid="volume-name">
                    {name.clone()}
                </output>
                <CopyButton text=name.clone() label=format!("Copy the volume name {name}") />
            </p>
            <p class="hint">
                "Mount it into an instance by this name, e.g. "
                <code>{format!("-v {name}:/data")}</code> " in the instance's Docker options."
            </p>
        </div>
    }
}
