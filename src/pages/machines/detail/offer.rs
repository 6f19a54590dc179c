//! The machine's rentals and offer (§1.7: listed or not, until when, when its rentals
//! end, its prices), with the Machines page's offer actions on it alone, and its active
//! maintenance windows (seed op 1).

use super::super::offers::OfferActions;
use super::super::parts::offer_panel;
use super::findings::OFFER_SECTION;
use crate::components::money::format_usd_rate;
use crate::components::time::{format_absolute, format_span, stage_and_distance, use_utc, Time};
use crate::domain::listing::{listing_text, rentals_end_text, Listing, RentalsEnd, Stage};
use crate::routes::{with_machine_ids, MAINTENANCE, SCHEDULE};
use gpudeck_wire::{Machine, MaintenanceWindow};
use leptos::prelude::*;

#[component]
pub fn RentalsAndOffer(
    machine: Machine,
    /// When the machine was read.
    at: f64,
    offers: OfferActions,
    /// The machine, as the offer forms take their machines.
    selected: Signal<Vec<Machine>>,
) -> impl IntoView {
    let utc = use_utc().get_untracked();
    let time = move |t: f64| format_absolute(t, utc);
    let price = |p: Option<f64>| {
        p.map_or_else(
            || "not set".to_owned(),
            |p| format!("{} per GPU-hour", format_usd_rate(p)),
        )
    };
    let rolling = machine.duration.map_or_else(
        || "no (or not said)".to_owned(),
        |d| format!("yes, {}", format_span(d)),
    );
    let facts = [
        ("Stage", Stage::of(&machine, at).sentence(time)),
        ("Listed", listing_text(Listing::of(&machine, at), time)),
        (
            "Rentals running",
            machine.current_rentals_running.to_string(),
        ),
        (
            "Rentals end",
            rentals_end_text(RentalsEnd::of(&machine), time),
        ),
        ("On-demand price", price(machine.listed_gpu_cost)),
        ("Interruptible floor", price(machine.min_bid_price)),
        ("Rolling offer", rolling),
    ]
    .into_iter()
    .map(|(name, value)| {
        view! {
            <dt>{name}</dt>
            <dd>{value}</dd>
        }
    })
    .collect_view();
    view! {
        <section
            class="machine-offer"
            id=OFFER_SECTION
            aria-labelledby="machine-offer-title"
            data-testid="machine-offer"
        >
            <h2 id="machine-offer-title">"Rentals and offer"</h2>
            <dl class="facts">{facts}</dl>
            <div class="selection-actions" role="group" aria-label="Its offer">
                {offers.buttons(Signal::stored(false))}
            </div>
            {offer_panel(offers, selected)}
        </section>
    }
}

#[component]
pub fn Windows(id: i64, windows: Vec<MaintenanceWindow>, now: f64) -> impl IntoView {
    let list = if windows.is_empty() {
        view! { <p class="empty-state">"No maintenance window is scheduled or under way."</p> }
            .into_any()
    } else {
        let items = windows
            .into_iter()
            .map(|w| {
                let reason = w
                    .maintenance_reason
                    .clone()
                    .filter(|r| !r.trim().is_empty());
                view! {
                    <li class="window">
                        <strong>{w.maintenance_category.label().to_owned()}</strong>
                        ": "
                        <Time unix_seconds=w.start_time />
                        {format!(
                            " for {} h ({})",
                            w.duration_hours,
                            stage_and_distance(now, w.start_time, w.end_time),
                        )}
                        {reason.map(|r| format!(". {r}"))}
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="windows">{items}</ul> }.into_any()
    };
    view! {
        <section
            class="machine-windows"
            aria-labelledby="machine-windows-title"
            data-testid="machine-windows"
        >
            <h2 id="machine-windows-title">"Maintenance windows"</h2>
            {list}
            <div class="form-actions">
                <a class="button primary" href=with_machine_ids(SCHEDULE, &[id])>
                    "Schedule maintenance…"
                </a>
                <a class="button" href=with_machine_ids(MAINTENANCE, &[id])>
                    "Show maintenance"
                </a>
            </div>
        </section>
    }
}
