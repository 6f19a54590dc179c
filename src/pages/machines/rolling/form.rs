//! The settings form: what "Plan" puts in the address.

use super::contract_safe::{Mode, WINDOW_IS_A_NOTIFICATION};
use super::rules::{CapKind, Input, RollingInputs};
use super::state::PlanState;
use crate::components::category_field::CategoryField;
use crate::components::form_field::{problem_for, FormField, TextInput, TextKind};
use crate::components::time::UtcToggle;
use crate::routes::rolling_path;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The settings as typed, sent to the address by "Plan": the address holds the plan asked.
#[component]
pub(super) fn SettingsForm(state: PlanState) -> impl IntoView {
    let navigate = use_navigate();
    let start = state.asked.get_untracked();
    let ids = RwSignal::new(start.ids.clone());
    let from = RwSignal::new(start.from.clone());
    let until = RwSignal::new(start.until.clone());
    let hours = RwSignal::new(start.hours.clone());
    let cap = RwSignal::new(start.cap.clone());
    let cap_kind = RwSignal::new(start.cap_kind);
    let category = RwSignal::new(start.category.clone());
    let first = RwSignal::new(start.first.clone());
    let last = RwSignal::new(start.last.clone());
    let mode = RwSignal::new(start.mode);
    let submitted = RwSignal::new(!start.from.is_empty() || !start.until.is_empty());

    // A fresh form is not wrong yet: its problems show once it is sent.
    let problems = Signal::derive(move || {
        if !submitted.get() {
            return Vec::new();
        }
        state
            .settings
            .with(|s| s.as_ref().err().cloned().unwrap_or_default())
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        submitted.set(true);
        let inputs = RollingInputs {
            ids: ids.get_untracked(),
            from: from.get_untracked(),
            until: until.get_untracked(),
            hours: hours.get_untracked(),
            cap: cap.get_untracked(),
            cap_kind: cap_kind.get_untracked(),
            category: category.get_untracked(),
            first: first.get_untracked(),
            last: last.get_untracked(),
            mode: mode.get_untracked(),
        };
        navigate(&rolling_path(&inputs.query()), Default::default());
    };
    let utc = state.utc;
    let zone = move || {
        if utc.get() {
            "(UTC)"
        } else {
            "(your time zone)"
        }
    };
    view! {
        <form class="rolling-form" on:submit=submit novalidate>
            <ModeChoice mode=mode />
            <FormField
                id="rolling-machines"
                label="Machines"
                hint="Ids or ranges, e.g. 1001-1020, 1042."
                error=problem_for(problems, Input::Machines)
            >
                <TextInput kind=TextKind::Plain text=ids />
            </FormField>
            <FormField
                id="rolling-from"
                label=view! {
                    "Earliest start "
                    <span class="zone">{zone}</span>
                }
                error=problem_for(problems, Input::From)
                beside=|| view! { <UtcToggle /> }
            >
                <input
                    type="datetime-local"
                    prop:value=from
                    on:input=move |ev| from.set(event_target_value(&ev))
                />
            </FormField>
            <FormField
                id="rolling-until"
                label=view! {
                    "Deadline "
                    <span class="zone">{zone}</span>
                }
                error=problem_for(problems, Input::Until)
            >
                <input
                    type="datetime-local"
                    prop:value=until
                    on:input=move |ev| until.set(event_target_value(&ev))
                />
            </FormField>
            <FormField
                id="rolling-hours"
                label="Duration per machine (whole hours)"
                error=problem_for(problems, Input::Hours)
            >
                <TextInput kind=TextKind::Whole text=hours />
            </FormField>
            // What the cap counts is a unit of the cap, not a field of its own.
            <FormField
                id="rolling-cap"
                label="At most down at once"
                error=problem_for(problems, Input::Cap)
                class="field with-unit"
                beside=move || {
                    view! {
                        <select
                            id="rolling-cap-kind"
                            aria-label="What the cap counts"
                            prop:value=move || cap_kind.get().key()
                            on:change=move |ev| {
                                cap_kind.set(CapKind::from_key(&event_target_value(&ev)))
                            }
                        >
                            <option value="machines">"machines"</option>
                            <option value="gpus">"GPUs"</option>
                        </select>
                    }
                }
            >
                <TextInput kind=TextKind::Whole text=cap />
            </FormField>
            <CategoryField id="rolling-category" category=category />
            <FormField
                id="rolling-first"
                label="Pinned first (optional)"
                hint="Machines that go down before all others."
                error=problem_for(problems, Input::Pins)
            >
                <TextInput kind=TextKind::Plain text=first />
            </FormField>
            <FormField
                id="rolling-last"
                label="Pinned last (optional)"
                hint="Machines that go down after all others."
            >
                <TextInput kind=TextKind::Plain text=last />
            </FormField>
            <div class="form-actions">
                <button type="submit" class="button primary">
                    "Plan"
                </button>
            </div>
        </form>
    }
}

/// The choice between waiting for rentals to end and notifying renters now, with the
/// hosting guide's words on what a window does not do.
#[component]
fn ModeChoice(mode: RwSignal<Mode>) -> impl IntoView {
    let option = move |choice: Mode| {
        view! {
            <label class="choice">
                <input
                    type="radio"
                    name="rolling-mode"
                    value=choice.key()
                    prop:checked=move || mode.get() == choice
                    on:change=move |_| mode.set(choice)
                />
                {format!(" {}", choice.label())}
            </label>
        }
    };
    view! {
        <fieldset class="mode-choice" aria-describedby="rolling-mode-hint">
            <legend>"Running rentals"</legend>
            {option(Mode::ContractSafe)}
            {option(Mode::NotifyNow)}
            <p class="hint" id="rolling-mode-hint">
                {move || mode.get().hint()}
                " "
                {WINDOW_IS_A_NOTIFICATION}
            </p>
        </fieldset>
    }
}
