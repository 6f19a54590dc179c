//! The machines area's landing page: every machine of the host (N1, list machines) with its
//! GPUs' occupancy, its listing and rentals (§1.7) and its next maintenance window (seed op
//! 1, list maintenance windows), in a table whose selection can be shown on the maintenance
//! page, scheduled, defragmented, have its windows cancelled, or have its offers ended,
//! withdrawn or renewed ([`offers`]).

mod bulk_actions;
pub mod defrag;
pub mod detail;
pub mod health;
pub mod listing;
pub mod maintenance;
pub mod offers;
mod parts;
pub mod rehearsal;
pub mod rolling;
pub mod schedule;
mod selection_bar;

pub use parts::PART;

use crate::components::data_table::{Column, DataTable, RowFilter};
use crate::components::item_results::{RunProgress, RunProgressBar};
use crate::components::occupancy::{OccupancyLegend, OccupancyStrip};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::session_reads::use_session_reads;
use crate::components::time::{format_absolute, stage_and_distance_parts, use_clock, use_utc};
use crate::components::words::counted;
use crate::domain::fleet::{load_fleet, Fleet};
use crate::domain::health::{FleetHealth, Remedy, Rule};
use crate::routes::{machine_path, with_machine_ids, MACHINES, MAINTENANCE, SCHEDULE};
use bulk_actions::{cancel_action, defrag_action, FleetResource};
pub use gpudeck_logic::pages::machines::*;
use gpudeck_wire::Machine;
use health::{health_column, scope_filter, within, HealthSummary, Scope};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use offers::{OfferAction, OfferActions};
use selection_bar::{ids_of, SelectionBar};
use std::collections::BTreeSet;

/// The Next window column's text (searched and exported): the next window and how many
/// more there are.
fn next_column_text(now: f64, row: &FleetRow) -> String {
    let next = next_window_text(now, row.next);
    match more_windows_text(row.active) {
        Some(more) => format!("{next} {more}"),
        None => next,
    }
}

/// The Next window cell: the stage and the distance, which may each take a line of a
/// two-line row, and how many more windows the machine has.
fn next_window_cell(now: Signal<f64>, row: &FleetRow) -> AnyView {
    let Some((start, end)) = row.next else {
        return view! { <span class="next-window">"None"</span> }.into_any();
    };
    let parts = move || stage_and_distance_parts(now.get(), start, end);
    let ongoing = move || start <= now.get();
    let more = more_windows_text(row.active).map(|more| {
        let others = row.active - 1;
        let said = format!("{others} more window{}", if others == 1 { "" } else { "s" });
        let title = said.clone();
        view! {
            " "
            <span class="more-windows" title=title>
                <span aria-hidden="true">{more}</span>
                <span class="visually-hidden">{format!("and {said}")}</span>
            </span>
        }
    });
    view! {
        <span class="next-window" class:ongoing=ongoing>
            <span class="stage">{move || format!("{} ·", parts().0)}</span>
            " "
            // The count stays on the distance's line: a row never takes a third.
            <span class="distance">{move || parts().1}{more}</span>
        </span>
    }
    .into_any()
}

const LEDE: &str =
    "Your machines: their GPUs as they are rented now, their offers and their maintenance. \
    Select machines to show, schedule or cancel their maintenance, to defragment their GPU \
    offers, or to end, withdraw or renew their offers.";

/// The loaded machines whose ids are among `ids` (sorted).
fn machines_among(fleet: &Fleet, ids: &[i64]) -> Vec<Machine> {
    fleet
        .machines
        .iter()
        .filter(|m| ids.binary_search(&m.id).is_ok())
        .cloned()
        .collect()
}

#[component]
pub fn MachinesPage() -> impl IntoView {
    let utc = use_utc();
    let now = use_clock();

    let data = use_api_resource(load_fleet);
    let selected = RwSignal::new(BTreeSet::<String>::new());
    let selected_machines = Signal::derive(move || {
        let ids = selected.with(ids_of);
        with_loaded(data, |fleet| machines_among(fleet, &ids)).unwrap_or_default()
    });

    let defrag = defrag_action(data);
    let cancel_progress = RunProgress::new();
    let cancel_all = cancel_action(data, cancel_progress);
    let offers = OfferActions::new(move || data.refetch());
    crate::split::preload_part(PART);

    // The fleet-health summary's rule filter and the machines the address limits the page
    // to, and the summary's remedies on the machines a rule holds.
    let scope = Scope::from_address();
    let reads = use_session_reads();
    let act = remedies(data, selected, offers);

    view! {
        <Page class="machines" entry=&gpudeck_pages::MACHINES lede=LEDE>
            {ResourceView::new(data, "Loading your machines…")
                .with_reload_button()
                .empty_when(|f: &Fleet| f.machines.is_empty(), "You have no machines yet.")
                .show(move |fleet| {
                    let among = scope.ids();
                    let health = within(reads.judge(&fleet), among.as_deref());
                    view! {
                        <p class="hint">
                            {format!(
                                "{} machines, loaded {}",
                                fleet.machines.len(),
                                format_absolute(fleet.at, utc.get_untracked()),
                            )}
                        </p>
                        {among.map(|ids| scope_note(&ids))}
                        <HealthSummary health=health.clone() scope=scope act=act />
                        <SelectionBar data selected defrag cancel_all offers />
                        {parts::offer_panel(offers, selected_machines)}
                        <RunProgressBar
                            progress=cancel_progress
                            running=cancel_all.pending()
                            done_verb="Cancelled"
                            id="cancel-progress"
                        />
                        {defrag.failure_view()}
                        {cancel_all.failure_view()}
                        {parts::defrag_result(defrag)}
                        {parts::cancel_result(cancel_all)}
                        {fleet_table(&fleet, &health, now.into(), selected, scope_filter(scope))}
                    }
                })}
            {parts::confirmations(defrag, cancel_all, data)}
        </Page>
    }
}

/// What the health summary's remedy buttons do with the machines a rule holds: select them
/// and open the offer action, or go to the maintenance pages with them.
fn remedies(
    data: FleetResource,
    selected: RwSignal<BTreeSet<String>>,
    offers: OfferActions,
) -> Callback<(Rule, Remedy, Vec<i64>)> {
    let navigate = use_navigate();
    Callback::new(move |(rule, remedy, ids): (Rule, Remedy, Vec<i64>)| {
        let select = |ids: &[i64]| selected.set(ids.iter().map(i64::to_string).collect());
        match remedy {
            // Back on the market after maintenance: the kept terms, one confirmation.
            Remedy::ListAgain if rule == Rule::UnlistedAfterMaintenance => {
                select(&ids);
                let machines =
                    with_loaded(data, |fleet| machines_among(fleet, &ids)).unwrap_or_default();
                offers.relist_as_kept(&machines);
            }
            Remedy::ListAgain => {
                select(&ids);
                offers.open_action(OfferAction::Relist);
            }
            Remedy::EndOffers => {
                select(&ids);
                offers.open_action(OfferAction::EndOffers);
            }
            Remedy::ScheduleMaintenance => {
                navigate(&with_machine_ids(SCHEDULE, &ids), Default::default())
            }
            Remedy::ShowMaintenance => {
                navigate(&with_machine_ids(MAINTENANCE, &ids), Default::default())
            }
            Remedy::ReadAgain => data.refetch(),
            Remedy::Reports => {}
        }
    })
}

/// Says that the address limits the page to some machines, with the way back to all.
fn scope_note(ids: &[i64]) -> impl IntoView {
    view! {
        <p class="scope-note" role="status">
            {format!(
                "Only {} from this page's address. ",
                counted(ids.len() as i64, "machine", "machines"),
            )}
            <a href=MACHINES>"Show every machine"</a>
        </p>
    }
}

/// On a phone, a machine's card in two lines until opened: its id and hostname, then its
/// occupancy and worst finding (issue 55), so that a fleet of 120 is a short scroll.
const ON_CARD: &[&str] = &["id", "hostname", "occupancy", "health"];

/// The fleet's table with the legend of its occupancy strips: what the page paints once the
/// fleet has loaded, and what [`rehearsal`] builds off-screen before it is needed.
fn fleet_table(
    fleet: &Fleet,
    health: &FleetHealth,
    now: Signal<f64>,
    selected: RwSignal<BTreeSet<String>>,
    keep: Signal<Option<RowFilter<FleetRow>>>,
) -> impl IntoView {
    view! {
        <OccupancyLegend />
        <DataTable
            rows=fleet_rows(&fleet.machines, &fleet.windows, health)
            columns=columns(now)
            row_key=|r: &FleetRow| r.machine.id.to_string()
            empty="You have no machines yet."
            csv_name="machines"
            caption="Your machines"
            selection=selected
            also_filter=keep
            on_card=ON_CARD
            wrap_first=true
        />
    }
}

/// The table's columns. With the Health column they need more than a laptop's 1,046 px
/// on one line, so the table's rows take two lines there (`wrap_first`), and every column
/// stays in view. On a narrower box the width policy folds, first the rentals running
/// (the occupancy strip shows them), then reliability (Health says when it nears the
/// gate), then the GPU model; what the host acts on stays.
fn columns(now: Signal<f64>) -> Vec<Column<FleetRow>> {
    vec![
        Column::whole("id", "Id", |r: &FleetRow| r.machine.id).with_cell(|r| {
            view! { <a href=machine_path(r.machine.id)>{r.machine.id}</a> }.into_any()
        }),
        Column::text("hostname", "Hostname", |r: &FleetRow| {
            r.machine.hostname.clone()
        }),
        Column::text("gpus", "GPUs", |r: &FleetRow| gpus_text(&r.machine))
            .with_cell(|r| {
                // A two-line row breaks between the model and the count only.
                view! {
                    <span class="gpu-model">{r.machine.gpu_name.clone()}</span>
                    " "
                    <span class="gpu-count">{gpu_count_text(&r.machine)}</span>
                }
                .into_any()
            })
            .folds(3),
        Column::text("occupancy", "Occupancy", |r: &FleetRow| {
            r.machine.gpu_occupancy.clone()
        })
        .with_cell(|r| {
            view! { <OccupancyStrip occupancy=r.machine.gpu_occupancy.clone()/> }.into_any()
        }),
        listing::listing_column(now),
        Column::whole("rentals", "Rentals running", |r: &FleetRow| {
            r.machine.current_rentals_running
        })
        .folds(1),
        Column::number(
            "reliability",
            "Reliability",
            |r: &FleetRow| r.machine.reliability2,
            |r| format!("{:.1} %", r.machine.reliability2 * 100.0),
        )
        .folds(2),
        Column::number(
            "next",
            "Next window",
            |r: &FleetRow| r.next.map_or(f64::INFINITY, |(start, _)| start),
            move |r| next_column_text(now.get_untracked(), r),
        )
        .with_cell(move |r| next_window_cell(now, r)),
        health_column(),
    ]
}
