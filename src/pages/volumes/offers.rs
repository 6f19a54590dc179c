//! The offer search: its form, kept in the address, and the offers it finds, each with
//! what the size wanted costs a month and an Accept that fills in the accept form.

use super::filters::{
    monthly_cost, FilterProblems, FilterText, OfferFilters, OfferOrder, ANY_HOST, LOCATION,
    MAX_PRICE, MIN_RELIABILITY, ORDER, SIZE,
};
use crate::api::ApiError;
use crate::components::data_table::{Column, DataTable};
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::money::{format_usd, format_usd_rate};
use crate::components::resource_view::ResourceView;
use crate::components::time::format_span;
use gpudeck_wire::VolumeOffer;
use leptos::prelude::*;
use leptos_router::hooks::{query_signal_with_options, use_query_map};
use leptos_router::NavigateOptions;

type SetFilters = Callback<OfferFilters>;

/// The search in the address, and a way to change it whole: one history entry per
/// search, so Back returns to the one before.
pub fn use_offer_filters() -> (Memo<OfferFilters>, SetFilters) {
    let query = use_query_map();
    let filters = Memo::new(move |_| query.with(|q| OfferFilters::from_query(|key| q.get(key))));
    let options = NavigateOptions {
        scroll: false,
        ..Default::default()
    };
    // Setters called together make one navigation.
    let setters = [SIZE, MAX_PRICE, MIN_RELIABILITY, LOCATION, ORDER, ANY_HOST].map(|key| {
        (
            key,
            query_signal_with_options::<String>(key, options.clone()).1,
        )
    });
    let set = Callback::new(move |wanted: OfferFilters| {
        for (key, value) in wanted.to_query() {
            if let Some((_, setter)) = setters.iter().find(|(k, _)| *k == key) {
                setter.set(value);
            }
        }
    });
    (filters, set)
}

/// `97.5 %`.
fn percent(fraction: f64) -> String {
    format!("{:.1} %", fraction * 100.0)
}

fn offer_columns(size_gb: i64, on_pick: Callback<VolumeOffer>) -> Vec<Column<VolumeOffer>> {
    vec![
        Column::whole("offer", "Offer", |o: &VolumeOffer| o.id),
        Column::whole("machine", "Machine", |o: &VolumeOffer| o.machine_id),
        Column::text("location", "Location", |o: &VolumeOffer| {
            o.geolocation.clone().unwrap_or_else(|| "—".into())
        }),
        Column::number(
            "free",
            "Free (GB)",
            |o: &VolumeOffer| o.disk_space,
            |o| o.disk_space.floor().to_string(),
        ),
        Column::number(
            "price",
            "$/GB/month",
            |o: &VolumeOffer| o.storage_cost,
            |o| format_usd_rate(o.storage_cost),
        ),
        Column::number(
            "monthly",
            "Monthly cost",
            move |o: &VolumeOffer| monthly_cost(o.storage_cost, size_gb),
            move |o| format_usd(monthly_cost(o.storage_cost, size_gb)),
        ),
        Column::number(
            "reliability",
            "Reliability",
            |o: &VolumeOffer| o.reliability,
            |o| percent(o.reliability),
        ),
        Column::text("disk", "Disk", |o: &VolumeOffer| o.disk_name.clone()),
        Column::number(
            "left",
            "Time left",
            |o: &VolumeOffer| o.duration,
            |o| format_span(o.duration),
        ),
        Column::text("verification", "Host", |o: &VolumeOffer| {
            o.verification.clone()
        }),
        Column::actions(move |o: &VolumeOffer| {
            let offer = o.clone();
            let label = format!("Accept offer {} on machine {}", o.id, o.machine_id);
            view! {
                <button type="button" class="button small" aria-label=label on:click=move |_| on_pick.run(offer.clone())>
                    "Accept…"
                </button>
            }
            .into_any()
        }),
    ]
}

#[component]
pub fn OfferSearch(
    filters: Memo<OfferFilters>,
    set_filters: SetFilters,
    offers: LocalResource<Result<Vec<VolumeOffer>, ApiError>>,
    on_pick: Callback<VolumeOffer>,
) -> impl IntoView {
    let size = RwSignal::new(String::new());
    let max_price = RwSignal::new(String::new());
    let min_reliability = RwSignal::new(String::new());
    let location = RwSignal::new(String::new());
    let problems = RwSignal::new(FilterProblems::default());
    // The form shows the search in the address, also after Back, Forward or a link.
    Effect::new(move |_| {
        let now = filters.get();
        let text = FilterText::of(&now);
        size.set(text.size);
        max_price.set(text.max_price);
        min_reliability.set(text.min_reliability);
        location.set(now.location);
        problems.set(FilterProblems::default());
    });
    let typed = move || FilterText {
        size: size.get_untracked(),
        max_price: max_price.get_untracked(),
        min_reliability: min_reliability.get_untracked(),
    };

    let search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match typed().read() {
            Ok((size_gb, max_price, min_reliability)) => {
                problems.set(FilterProblems::default());
                let wanted = OfferFilters {
                    size_gb,
                    max_price,
                    min_reliability,
                    location: location.get_untracked().trim().to_owned(),
                    ..filters.get_untracked()
                };
                if wanted == filters.get_untracked() {
                    offers.refetch();
                } else {
                    set_filters.run(wanted);
                }
            }
            Err(found) => problems.set(found),
        }
    };
    // The order and the host choice cannot be wrong: they apply at once.
    let change = move |edit: fn(&mut OfferFilters, String), value: String| {
        let mut wanted = filters.get_untracked();
        edit(&mut wanted, value);
        set_filters.run(wanted);
    };
    view! {
        <section class="offer-search" aria-labelledby="offers-heading">
            <h2 id="offers-heading">"Offers"</h2>
            <form
                class="search-form"
                role="search"
                aria-label="Search volume offers"
                on:submit=search
                novalidate
            >
                <div class="search-fields">
                    <FormField
                        id="offer-size"
                        label="Size wanted (GB)"
                        hint="Offers with less free space are left out; 10 GB when empty."
                        error=Signal::derive(move || problems.with(|p| p.size.clone()))
                    >
                        <TextInput kind=TextKind::Whole text=size />
                    </FormField>
                    <FormField
                        id="offer-max-price"
                        label="Highest $/GB/month"
                        error=Signal::derive(move || problems.with(|p| p.max_price.clone()))
                    >
                        <TextInput kind=TextKind::Decimal text=max_price />
                    </FormField>
                    <FormField
                        id="offer-min-reliability"
                        label="Lowest reliability (%)"
                        error=Signal::derive(move || problems.with(|p| p.min_reliability.clone()))
                    >
                        <TextInput kind=TextKind::Decimal text=min_reliability />
                    </FormField>
                    <FormField
                        id="offer-location"
                        label="Location"
                        hint="Part of the place, e.g. Sweden or SE."
                    >
                        <TextInput kind=TextKind::Plain text=location />
                    </FormField>
                    <FormField id="offer-order" label="Sort by">
                        <select
                            prop:value=move || filters.get().order.param()
                            on:change=move |ev| change(
                                |f, v| f.order = OfferOrder::from_param(&v).unwrap_or_default(),
                                event_target_value(&ev),
                            )
                        >
                            {OfferOrder::ALL
                                .into_iter()
                                .map(|o| view! { <option value=o.param()>{o.label()}</option> })
                                .collect_view()}
                        </select>
                    </FormField>
                </div>
                <div class="form-actions">
                    <button type="submit" class="button primary">
                        "Search"
                    </button>
                    <label class="toggle">
                        <input
                            type="checkbox"
                            prop:checked=move || filters.get().any_host
                            on:change=move |ev| change(
                                |f, v| f.any_host = v == "true",
                                event_target_checked(&ev).to_string(),
                            )
                        />
                        " Include unverified and external hosts"
                    </label>
                </div>
            </form>
            <FoundOffers filters=filters offers=offers on_pick=on_pick />
        </section>
    }
}

/// The offers found, narrowed by the location without searching again.
#[component]
fn FoundOffers(
    filters: Memo<OfferFilters>,
    offers: LocalResource<Result<Vec<VolumeOffer>, ApiError>>,
    on_pick: Callback<VolumeOffer>,
) -> impl IntoView {
    ResourceView::new(offers, "Searching offers…")
        .show(move |found: Vec<VolumeOffer>| {
            let size_gb = filters.get_untracked().size_wanted();
            let rows = Signal::derive(move || {
                let filters = filters.get();
                found.iter().filter(|o| filters.in_location(o)).cloned().collect::<Vec<_>>()
            });
            // The location narrows the offers found without searching again.
            view! {
                <p class="hint" data-testid="offer-pricing">
                    {format!("Monthly cost is for the {size_gb} GB wanted.")}
                </p>
                <DataTable
                    rows=rows
                    columns=offer_columns(size_gb, on_pick)
                    row_key=|o: &VolumeOffer| o.id.to_string()
                    empty="No offer matches this search. Widen it: a smaller size, a higher price, a lower reliability or another location."
                    csv_name="volume-offers"
                    caption="Volume offers"
                />
            }
        })
}
