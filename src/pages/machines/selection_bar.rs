//! What the Machines page does with the selected machines: a bar of buttons (on a phone it
//! appears only once a machine is selected) that opens the maintenance pages with the
//! selection, asks to defragment or cancel their windows, and acts on their offers.

use super::bulk_actions::{CancelAction, DefragAction, FleetResource};
use super::offers::OfferActions;
use crate::components::resource_view::with_loaded;
use crate::domain::fleet::Fleet;
use crate::routes::{with_machine_ids, MAINTENANCE, ROLLING, SCHEDULE};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use std::collections::{BTreeSet, HashMap};

/// The bar. Every button but the offers' waits for a selection; defragmenting and
/// cancelling also wait for their last run to end.
#[component]
pub fn SelectionBar(
    data: FleetResource,
    selected: RwSignal<BTreeSet<String>>,
    defrag: DefragAction,
    cancel_all: CancelAction,
    offers: OfferActions,
) -> impl IntoView {
    let navigate = use_navigate();
    let selected_ids = Signal::derive(move || selected.with(ids_of));
    let none_selected = Signal::derive(move || selected.with(BTreeSet::is_empty));
    let go_with_selection = move |path: &'static str| {
        let navigate = navigate.clone();
        move |_| {
            navigate(
                &with_machine_ids(path, &selected_ids.get_untracked()),
                Default::default(),
            )
        }
    };
    let ask_defrag = move |_| {
        let ids = selected_ids.get_untracked();
        let before = with_loaded(data, |fleet| occupancy_before(fleet, &ids)).unwrap_or_default();
        defrag.ask(before);
    };
    let ask_cancel = move |_| cancel_all.ask(selected_ids.get_untracked());
    let pending_label = |pending: Signal<bool>, busy: &'static str, idle: &'static str| {
        move || if pending.get() { busy } else { idle }
    };

    view! {
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
                on:click=go_with_selection(MAINTENANCE)
            >
                "Show maintenance"
            </button>
            <button
                type="button"
                class="button primary"
                data-action="schedule"
                disabled=none_selected
                on:click=go_with_selection(SCHEDULE)
            >
                "Schedule maintenance…"
            </button>
            <button
                type="button"
                class="button"
                data-action="rolling"
                disabled=none_selected
                on:click=go_with_selection(ROLLING)
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
                {pending_label(defrag.pending(), "Defragmenting…", "Defragment…")}
            </button>
            <button
                type="button"
                class="button danger"
                data-action="cancel"
                disabled=move || none_selected.get() || cancel_all.pending().get()
                on:click=ask_cancel
            >
                {pending_label(cancel_all.pending(), "Cancelling…", "Cancel maintenance…")}
            </button>
            // The offers' actions on a row of their own, so that each row fits a laptop.
            <span class="selection-label">"Their offers:"</span>
            {offers.buttons(none_selected)}
        </div>
    }
}

/// The selected ids, as numbers in order.
pub fn ids_of(selected: &BTreeSet<String>) -> Vec<i64> {
    let mut ids: Vec<i64> = selected.iter().filter_map(|k| k.parse().ok()).collect();
    ids.sort_unstable();
    ids
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
