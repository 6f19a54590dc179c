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

pub use parts::PART;

use crate::components::data_table::{Column, DataTable, RowFilter};
use crate::components::item_results::{RunProgress, RunProgressBar};
use crate::components::occupancy::{OccupancyLegend, OccupancyStrip};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::session_reads::use_session_reads;
use crate::components::time::{format_absolute, stage_and_distance, use_clock, use_utc};
use crate::components::words::counted;
use crate::domain::fleet::{load_fleet, Fleet};
use crate::domain::health::{FleetHealth, MachineHealth, Remedy, Rule};
use crate::routes::{machine_path, with_machine_ids, MACHINES, MAINTENANCE, ROLLING, SCHEDULE};
use bulk_actions::{cancel_action, defrag_action};
use gpudeck_wire::{Machine, MaintenanceWindow};
use health::{health_column, scope_filter, within, HealthSummary, Scope};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use offers::{OfferAction, OfferActions};
use std::collections::{BTreeSet, HashMap};

/// One row: a machine, its next window (the ongoing or soonest one), how many are active,
/// and its health findings.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetRow {
    pub machine: Machine,
    pub next: Option<(f64, f64)>,
    pub active: usize,
    pub health: MachineHealth,
}

/// The rows of the table, in the machines' order, each with its findings in `health`.
pub fn fleet_rows(
    machines: &[Machine],
    windows: &[MaintenanceWindow],
    health: &FleetHealth,
) -> Vec<FleetRow> {
    let mut by_machine: HashMap<i64, Vec<&MaintenanceWindow>> = HashMap::new();
    for window in windows {
        by_machine
            .entry(window.machine_id)
            .or_default()
            .push(window);
    }
    machines
        .iter()
        .map(|machine| {
            let own = by_machine
                .get(&machine.id)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            let next = own
                .iter()
                .min_by(|a, b| a.start_time.total_cmp(&b.start_time))
                .map(|w| (w.start_time, w.end_time));
            FleetRow {
                machine: machine.clone(),
                next,
                active: own.len(),
                health: health.of(machine.id).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

/// `Upcoming · in 3 h`, `Ongoing · 2 h left`, or `None`.
pub fn next_window_text(now: f64, next: Option<(f64, f64)>) -> String {
    next.map_or_else(
        || "None".into(),
        |(start, end)| stage_and_distance(now, start, end),
    )
}

/// `RTX 4090 × 8`.
pub fn gpus_text(machine: &Machine) -> String {
    format!("{} × {}", machine.gpu_name, machine.num_gpus)
}

/// The selected ids, as numbers in order.
fn ids_of(selected: &BTreeSet<String>) -> Vec<i64> {
    let mut ids: Vec<i64> = selected.iter().filter_map(|k| k.parse().ok()).collect();
    ids.sort_unstable();
    ids
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

/// Each of `ids` with its GPU occupancy as loaded, for defrag's before-and-after view.
fn occupancy_before(fleet: &Fleet, ids: &[i64]) -> Vec<(i64, String)> {
    let before: HashMap<i64, &str> = fleet
        .machines
        .iter()
        .map(|m| (m.id, m.gpu_occupancy.as_str()))
        .collect();
    ids.iter()
        .map(|&id| (id, before.get(&id).copied().unwrap_or_default().to_owned()))
        .collect()
}

/// What the selection bar says before its buttons.
fn selection_words(selected: usize) -> String {
    match selected {
        0 => "Select machines in the table to act on them:".to_owned(),
        1 => "With the 1 selected machine:".to_owned(),
        n => format!("With the {n} selected machines:"),
    }
}

#[component]
pub fn MachinesPage() -> impl IntoView {
    let utc = use_utc();
    let navigate = use_navigate();
    let now = use_clock();

    let data = use_api_resource(load_fleet);
    let selected = RwSignal::new(BTreeSet::<String>::new());
    let selected_ids = Signal::derive(move || selected.with(ids_of));
    let none_selected = Signal::derive(move || selected.with(BTreeSet::is_empty));
    let selected_machines = Signal::derive(move || {
        let ids = selected_ids.get();
        with_loaded(data, |fleet| machines_among(fleet, &ids)).unwrap_or_default()
    });

    let go_with_selection = move |path: &'static str| {
        let navigate = navigate.clone();
        move |_| {
            let ids = selected_ids.get_untracked();
            navigate(&with_machine_ids(path, &ids), Default::default());
        }
    };

    let defrag = defrag_action(data);
    let cancel_progress = RunProgress::new();
    let cancel_all = cancel_action(data, cancel_progress);
    let offers = OfferActions::new(move || data.refetch());
    crate::split::preload_part(PART);

    let ask_defrag = move |_| {
        let ids = selected_ids.get_untracked();
        let before = with_loaded(data, |fleet| occupancy_before(fleet, &ids)).unwrap_or_default();
        defrag.ask(before);
    };
    let ask_cancel = move |_| cancel_all.ask(selected_ids.get_untracked());

    let show_maintenance = go_with_selection(MAINTENANCE);
    let schedule = go_with_selection(SCHEDULE);
    let rolling = go_with_selection(ROLLING);

    // The fleet-health summary's rule filter and the machines the address limits the page
    // to, and the summary's remedies on the machines a rule holds.
    let scope = Scope::from_address();
    let reads = use_session_reads();
    let navigate_to = use_navigate();
    let act = Callback::new(move |(rule, remedy, ids): (Rule, Remedy, Vec<i64>)| {
        let select = |action: OfferAction| {
            selected.set(ids.iter().map(i64::to_string).collect());
            offers.open_action(action);
        };
        match remedy {
            // Back on the market after maintenance: the kept terms, one confirmation.
            Remedy::ListAgain if rule == Rule::UnlistedAfterMaintenance => {
                selected.set(ids.iter().map(i64::to_string).collect());
                let machines =
                    with_loaded(data, |fleet| machines_among(fleet, &ids)).unwrap_or_default();
                offers.relist_as_kept(&machines);
            }
            Remedy::ListAgain => select(OfferAction::Relist),
            Remedy::EndOffers => select(OfferAction::EndOffers),
            Remedy::ScheduleMaintenance => {
                navigate_to(&with_machine_ids(SCHEDULE, &ids), Default::default())
            }
            Remedy::ShowMaintenance => {
                navigate_to(&with_machine_ids(MAINTENANCE, &ids), Default::default())
            }
            Remedy::ReadAgain => data.refetch(),
            Remedy::Reports => {}
        }
    });

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
                        <div
                            class="selection-actions"
                            class:with-selection=move || !none_selected.get()
                            role="group"
                            aria-label="With the selected machines"
                        >
                            <span class="selection-label">
                                {move || selection_words(selected.with(BTreeSet::len))}
                            </span>
                            <button
                                type="button"
                                class="button"
                                data-action="show"
                                disabled=none_selected
                                on:click=show_maintenance.clone()
                            >
                                "Show maintenance"
                            </button>
                            <button
                                type="button"
                                class="button primary"
                                data-action="schedule"
                                disabled=none_selected
                                on:click=schedule.clone()
                            >
                                "Schedule maintenance…"
                            </button>
                            <button
                                type="button"
                                class="button"
                                data-action="rolling"
                                disabled=none_selected
                                on:click=rolling.clone()
                            >
                                "Plan rolling maintenance…"
                            </button>
                            <button
                                type="button"
                                class="button"
                                data-action="defrag"
                                disabled=move || none_selected.get() || defrag.pending().get()
                                on:click=ask_defrag
                            >
                                {move || {
                                    if defrag.pending().get() {
                                        "Defragmenting…"
                                    } else {
                                        "Defragment…"
                                    }
                                }}
                            </button>
                            <button
                                type="button"
                                class="button danger"
                                data-action="cancel"
                                disabled=move || none_selected.get() || cancel_all.pending().get()
                                on:click=ask_cancel
                            >
                                {move || {
                                    if cancel_all.pending().get() {
                                        "Cancelling…"
                                    } else {
                                        "Cancel maintenance…"
                                    }
                                }}
                            </button>
                            // The offers' actions on a row of their own, so that each row fits a laptop.
                            <span class="selection-label">"Their offers:"</span>
                            {offers.buttons(none_selected)}
                        </div>
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
        />
    }
}

/// The table's columns. With the Health column they need more than a laptop's 1,046 px
/// (about 1,155 px with 8-GPU strips), so the width policy folds, when the box is too
/// narrow, first the count of active windows (Next window says the soonest), then the
/// rentals running (the occupancy strip shows them), then reliability (Health says when it
/// nears the gate), then the GPU model; what the host acts on stays.
fn columns(now: Signal<f64>) -> Vec<Column<FleetRow>> {
    vec![
        Column::whole("id", "Id", |r: &FleetRow| r.machine.id).with_cell(|r| {
            view! { <a href=machine_path(r.machine.id)>{r.machine.id}</a> }.into_any()
        }),
        Column::text("hostname", "Hostname", |r: &FleetRow| r.machine.hostname.clone()),
        Column::text("gpus", "GPUs", |r: &FleetRow| gpus_text(&r.machine)).folds(4),
        Column::text("occupancy", "Occupancy", |r: &FleetRow| r.machine.gpu_occupancy.clone())
            .with_cell(|r| view! { <OccupancyStrip occupancy=r.machine.gpu_occupancy.clone()/> }.into_any()),
        listing::listing_column(now),
        Column::whole("rentals", "Rentals running", |r: &FleetRow| r.machine.current_rentals_running).folds(2),
        Column::number("reliability", "Reliability", |r: &FleetRow| r.machine.reliability2, |r| {
            format!("{:.1} %", r.machine.reliability2 * 100.0)
        })
        .folds(3),
        Column::number(
            "next",
            "Next window",
            |r: &FleetRow| r.next.map_or(f64::INFINITY, |(start, _)| start),
            move |r| next_window_text(now.get_untracked(), r.next),
        )
        .with_cell(move |r| {
            let next = r.next;
            let ongoing = move || next.is_some_and(|(start, _)| start <= now.get());
            view! {
                <span class="next-window" class:ongoing=ongoing>{move || next_window_text(now.get(), next)}</span>
            }
            .into_any()
        }),
        Column::whole("windows", "Active windows", |r: &FleetRow| r.active as i64).folds(1),
        health_column(),
    ]
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn machine(id: i64) -> Machine {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": id, "hostname": format!("host-{id}"), "gpu_name": "RTX 4090",
            "cpu_name": "EPYC", "driver_version": "550", "num_gpus": 4, "cpu_cores": 32,
            "current_rentals_running": 1, "gpu_ram": 24000.0, "cpu_ram": 128000.0,
            "disk_space": 2000.0, "listed": true, "verification": "verified",
            "reliability2": 0.99, "gpu_occupancy": "D x x x", "geolocation": null,
            "public_ipaddr": null, "timeout": 0.0, "listed_gpu_cost": 0.4,
            "min_bid_price": 0.2, "earn_day": 10.0
        }))
        .unwrap()
    }

    fn window(id: i64, machine_id: i64, start: f64, hours: i64) -> MaintenanceWindow {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": machine_id, "start_time": start, "duration_hours": hours,
            "maintenance_category": "disk", "created_at": 0.0,
            "end_time": start + hours as f64 * 3600.0,
        }))
        .unwrap()
    }

    #[test]
    fn each_machine_gets_its_soonest_window_and_its_count() {
        let now = 1_800_000_000.0;
        let windows = [
            window(1, 2, now + 7200.0, 1),
            window(2, 2, now - 3600.0, 3),
            window(3, 3, now + 3600.0, 1),
        ];
        let machines = [machine(1), machine(2), machine(3)];
        let health = FleetHealth::judge(&machines, &windows, None, now);
        let rows = fleet_rows(&machines, &windows, &health);
        assert_eq!(rows.iter().map(|r| r.active).collect::<Vec<_>>(), [0, 2, 1]);
        assert_eq!(rows[0].next, None);
        assert_eq!(rows[1].next, Some((now - 3600.0, now + 7200.0)));
        assert_eq!(next_window_text(now, rows[0].next), "None");
        assert_eq!(next_window_text(now, rows[1].next), "Ongoing · 2 h left");
        assert_eq!(next_window_text(now, rows[2].next), "Upcoming · in 1 h");
        assert_eq!(gpus_text(&rows[0].machine), "RTX 4090 × 4");
    }
}
