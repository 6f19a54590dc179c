//! "List again…": N22 (list machine) on each selected machine with its kept terms (as N1
//! (list machines) gives them: `listed_gpu_cost`, `listed_min_gpu_count`, …), a new offer
//! end date or a rolling duration, and optionally a new on-demand price and minimum GPUs.
//! Every term N1 gives is sent at its current value (§1.3 rule 8), never `null`.

use super::rules::ResultKind;
use super::rules::{check_relist, relist_line, relist_result};
use super::rules::{DurationUnit, OfferResult, RelistField, RelistForm, RelistPlan, Reread};
use super::run::{send_planned, OfferRun, OfferRunView, OfferSend};
use super::PreviewOrHint;
use crate::api::{ApiClient, ApiError};
use crate::components::confirmed_action::{ActionDialog, SubmitButton};
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::time::{
    format_absolute, now_seconds, start_seconds, use_clock, use_utc, zone_words, UtcToggle,
};
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::bulk::{PacedAction, Sorted};
use gpudeck_wire::{ListMachineResponse, Machine};
use leptos::prelude::*;

/// The form's fields, its problems and the run, kept by the page.
#[derive(Clone, Copy)]
pub struct RelistState {
    end_text: RwSignal<String>,
    duration: RwSignal<String>,
    unit: RwSignal<DurationUnit>,
    price: RwSignal<String>,
    min_chunk: RwSignal<String>,
    problems: RwSignal<Vec<(RelistField, String)>>,
    run: OfferRun<RelistPlan>,
}

impl RelistState {
    pub fn new(reload: impl Fn() + 'static) -> Self {
        Self {
            end_text: RwSignal::new(String::new()),
            duration: RwSignal::new(String::new()),
            unit: RwSignal::new(DurationUnit::Days),
            price: RwSignal::new(String::new()),
            min_chunk: RwSignal::new(String::new()),
            problems: RwSignal::new(Vec::new()),
            run: OfferRun::new(reload),
        }
    }

    pub fn pending(self) -> bool {
        self.run.pending()
    }

    /// Asks to list `machines` again on their kept terms, nothing typed: the confirmation
    /// opens at once (a problem, such as a machine without a price, shows on the form).
    pub fn ask_kept(self, machines: &[Machine]) {
        match check_relist(machines, &RelistForm::as_kept(), now_seconds()) {
            Ok(plan) => {
                self.problems.set(Vec::new());
                self.run.action.ask(plan);
            }
            Err(found) => self.problems.set(found),
        }
    }

    /// The form as typed, its end date read in UTC or the browser's zone.
    fn form(self, utc: bool) -> RelistForm {
        let end_text = self.end_text.get();
        RelistForm {
            end: start_seconds(&end_text, utc),
            end_given: !end_text.trim().is_empty(),
            duration: self.duration.get(),
            unit: self.unit.get(),
            price: self.price.get(),
            min_chunk: self.min_chunk.get(),
        }
    }

    /// What is wrong with `field`, every problem in one line.
    fn problem_for(self, field: RelistField) -> Signal<Option<String>> {
        let problems = self.problems;
        Signal::derive(move || {
            let said = problems.with(|p| {
                p.iter()
                    .filter(|(f, _)| *f == field)
                    .map(|(_, m)| m.clone())
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            Some(said).filter(|said| !said.is_empty())
        })
    }
}

/// One N22 for each machine, with its kept terms and what changes.
impl OfferSend for RelistPlan {
    type Answer = ListMachineResponse;

    fn machine_ids(&self) -> Vec<i64> {
        self.requests.iter().map(|r| r.machine_id).collect()
    }

    async fn send(&self, api: ApiClient, id: i64) -> Result<ListMachineResponse, ApiError> {
        send_planned(api, id, self.sent_to(id).map(|r| &r.request)).await
    }

    fn result(
        &self,
        id: i64,
        answer: Sorted<ListMachineResponse>,
        reread: Reread<'_>,
        now: f64,
        time: &impl Fn(f64) -> String,
    ) -> OfferResult {
        match self.sent_to(id) {
            Some(sent) => relist_result(sent, answer, reread, now, time),
            None => OfferResult {
                machine_id: id,
                outcome: ResultKind::Refused,
                text: "not sent: it was not in the plan".into(),
            },
        }
    }
}

/// What listing again does, above the form.
const RELIST_HINT: &str =
    "Each machine is listed again with its terms as the machine list shows them. Give an \
    offer end date or a rolling duration, or neither: a machine not listed is then listed \
    open-ended, and a listed one keeps its offer end. Give a new price or minimum only to \
    change them.";

#[component]
pub fn RelistPanel(state: RelistState, machines: Signal<Vec<Machine>>) -> impl IntoView {
    let utc = use_utc();
    let now = use_clock();
    let action = state.run.action;
    let time = move |t: f64| format_absolute(t, utc.get());
    let preview = Signal::derive(move || {
        let form = state.form(utc.get());
        machines.with(|ms| match check_relist(ms, &form, now.get()) {
            Ok(plan) => ms
                .iter()
                .map(|m| relist_line(m, &plan.terms, now.get(), &time))
                .collect(),
            Err(_) => Vec::new(),
        })
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let form = state.form(utc.get_untracked());
        match check_relist(&machines.get_untracked(), &form, now_seconds()) {
            Ok(plan) => {
                state.problems.set(Vec::new());
                action.ask(plan);
            }
            Err(found) => state.problems.set(found),
        }
    };
    let zone = move || zone_words(utc.get());
    let asked_ids = move || {
        action
            .asked()
            .map_or_else(Vec::new, |plan| plan.machine_ids())
    };
    view! {
        <p class="hint">{RELIST_HINT}</p>
        <form class="offer-form" on:submit=submit novalidate>
            <p class="form-error" role="alert" id="relist-error">
                {move || state.problem_for(RelistField::Machines).get()}
            </p>
            <div class="offer-fields">
                <FormField
                    id="relist-end"
                    label=view! {
                        "Offer end date "
                        <span class="zone">{move || format!("({})", zone())}</span>
                    }
                    error=state.problem_for(RelistField::End)
                    beside=|| view! { <UtcToggle /> }
                >
                    <input
                        type="datetime-local"
                        prop:value=state.end_text
                        on:input=move |ev| state.end_text.set(event_target_value(&ev))
                    />
                </FormField>
                <FormField
                    id="relist-duration"
                    label="Or rolling: always this far ahead"
                    error=state.problem_for(RelistField::Duration)
                    beside=move || {
                        view! {
                            <select
                                aria-label="Unit of the rolling duration"
                                class="duration-unit"
                                prop:value=move || state.unit.get().key()
                                on:change=move |ev| {
                                    state.unit.set(DurationUnit::from_key(&event_target_value(&ev)))
                                }
                            >
                                <option value="days">"days"</option>
                                <option value="weeks">"weeks"</option>
                            </select>
                        }
                    }
                >
                    <TextInput kind=TextKind::Whole text=state.duration />
                </FormField>
                <FormField
                    id="relist-price"
                    label="New on-demand price, $/GPU-hour (optional)"
                    error=state.problem_for(RelistField::Price)
                >
                    <TextInput kind=TextKind::Decimal text=state.price />
                </FormField>
                <FormField
                    id="relist-min-chunk"
                    label="New minimum GPUs a rental (optional)"
                    error=state.problem_for(RelistField::MinChunk)
                    hint="1 or a power of two up to the machine's GPUs."
                >
                    <TextInput kind=TextKind::Whole text=state.min_chunk />
                </FormField>
            </div>
            <PreviewOrHint
                lines=preview
                label="What listing again changes"
                hint="Fix the fields above to see what changes on each selected machine."
            />
            <div class="form-actions">
                <SubmitButton
                    pending=action.pending()
                    idle="List these machines again…"
                    busy="Listing…"
                />
            </div>
        </form>
        <OfferRunView run=state.run id="relist-progress" heading="Listed again" />
        <ActionDialog action=action title="List these machines again?" confirm_label="List them">
            <p>
                {move || format!("{}: ", counted(asked_ids().len() as i64, "machine", "machines"))}
                <strong class="id-list">{move || named_in_confirmation(&asked_ids())}</strong>
            </p>
            <p>"New renters can rent them at once, on the terms shown."</p>
            {move || {
                PacedAction::ListEachOffer
                    .duration_sentence(asked_ids().len())
                    .map(|takes| {
                        view! { <p data-testid="paced-duration">{format!("{takes}.")}</p> }
                    })
            }}
        </ActionDialog>
    }
}
