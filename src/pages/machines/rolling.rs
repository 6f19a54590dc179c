//! Planning rolling maintenance for a selection of machines (`/machines/rolling?ids=…`):
//! the planner proposes a start for each machine so that no more than a cap is down at
//! once, around the windows they already have; a person may move any start (the plan is
//! checked again at once) and schedules it, one N4 (schedule many) request per distinct
//! start.
//!
//! The contract-safe mode, the default, honours every rental contract (§1.7): a machine
//! goes down only after its rentals end, and before the windows are sent each offer is
//! made to end no later than its window's start (N22 (list machine)), so that no new
//! rental crosses it. "Notify renters now" plans straight through rentals, for unplanned
//! work: a window only tells the renters.
//!
//! Everything asked for lives in the address; the plan itself, with the hand edits and
//! what is scheduled, is kept in this tab's storage until all of it is scheduled.

use crate::api::ApiClient;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::data_table::{Column, DataTable};
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::item_results::{ItemResults, RunProgress, RunProgressBar};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::time::{
    datetime_local_value, format_absolute, now_seconds, start_seconds, use_utc, UtcToggle,
};
use crate::components::timeline::{category_key, MaintenanceTimeline};
use crate::components::toasts::use_toasts;
use crate::components::words::counted;
use crate::domain::bulk::PacedAction;
use crate::domain::contract_safe::{
    steps_left, Mode, OfferOutcome, OfferResult, OfferStep, WINDOW_IS_A_NOTIFICATION,
    WINDOW_NOT_SENT,
};
use crate::domain::fleet::{end_offers, load_fleet, rolling_among, schedule_windows, Fleet};
use crate::domain::form_problem::said_for;
use crate::domain::rolling::{
    check_inputs, request_of, unsure_words, Asked, CapKind, Input, Problem, RollingInputs,
    SavedPlan, Settings,
};
use crate::domain::schedule::{ItemOutcome, ItemResult};
use crate::routes::{rolling_path, with_machine_ids, MAINTENANCE};
use crate::storage::Stored;
use gpudeck_fleet_plan::{batches, check_plan, plan, Placement, Plan, Review, Violation};
use gpudeck_wire::maintenance::MAX_DURATION_HOURS;
use gpudeck_wire::{Machine, MaintenanceCategory, MaintenanceWindow};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use std::collections::{BTreeSet, HashMap};

/// Where the plan is kept in this tab until it is scheduled.
const STORAGE_KEY: &str = "gpudeck.rolling-plan";

fn kept() -> Stored<SavedPlan> {
    Stored::in_session(STORAGE_KEY)
}

/// One row of the plan's table.
#[derive(Clone, Debug, PartialEq)]
struct PlanRow {
    machine_id: i64,
    hostname: String,
    gpus: i64,
    start: i64,
    end: i64,
    rentals: i64,
    scheduled: bool,
    problems: Vec<String>,
}

/// A broken rule in words; times as the console shows them.
fn violation_text(violation: &Violation, utc: bool) -> String {
    let at = |t: i64| format_absolute(t as f64, utc);
    match violation {
        Violation::DurationInvalid => {
            format!("The duration must be 1 to {MAX_DURATION_HOURS} whole hours.")
        }
        Violation::CapExceeded {
            span,
            machines_down,
            gpus_down,
        } => format!(
            "From {} to {}, {machines_down} machines ({gpus_down} GPUs) are down: more than the cap.",
            at(span.start),
            at(span.end)
        ),
        Violation::OverlapsExisting {
            machine_id,
            existing,
            ..
        } => format!(
            "Machine {machine_id}: its window overlaps its existing window from {} to {}.",
            at(existing.start),
            at(existing.end)
        ),
        Violation::OutOfRange { machine_id, window } => format!(
            "Machine {machine_id}: its window from {} to {} is not between the earliest start and the deadline.",
            at(window.start),
            at(window.end)
        ),
        Violation::StartsTooEarly {
            machine_id,
            window,
            not_before,
        } => format!(
            "Machine {machine_id}: its window starts at {}, before {}, the earliest it may go down.",
            at(window.start),
            at(*not_before)
        ),
        Violation::UnknownMachine { machine_id } => {
            format!("Machine {machine_id} is not one of the machines planned.")
        }
        Violation::PlacedTwice { machine_id } => {
            format!("Machine {machine_id} is planned twice.")
        }
    }
}

fn machine_of(violation: &Violation) -> Option<i64> {
    match violation {
        Violation::OverlapsExisting { machine_id, .. }
        | Violation::OutOfRange { machine_id, .. }
        | Violation::StartsTooEarly { machine_id, .. }
        | Violation::UnknownMachine { machine_id }
        | Violation::PlacedTwice { machine_id } => Some(*machine_id),
        Violation::DurationInvalid | Violation::CapExceeded { .. } => None,
    }
}

#[component]
pub fn RollingPage() -> impl IntoView {
    let data = use_api_resource(load_fleet);
    view! {
        <Page
            class="rolling"
            entry=&gpudeck_pages::ROLLING
            lede="Take a set of machines down for maintenance one group after another: the planner proposes when each goes down so that no more than you allow are down at once, around the windows they already have, with the busiest machines last."
        >
            {ResourceView::new(data, "Loading your machines…")
                .show(move |fleet| view! { <Planner fleet=fleet /> })}
        </Page>
    }
}

/// What the planner's parts share: the loaded fleet, what the address asks, the checked
/// settings, the planner's request and proposal, and the plan in use with its review.
#[derive(Clone, Copy)]
struct PlanState {
    fleet: StoredValue<Fleet>,
    utc: RwSignal<bool>,
    now: f64,
    asked: Memo<RollingInputs>,
    settings: Memo<Result<Settings, Vec<Problem>>>,
    request: Memo<Option<Asked>>,
    proposal: Memo<Option<Plan>>,
    saved: RwSignal<SavedPlan>,
    review: Memo<Option<Review>>,
}

impl PlanState {
    /// The state for `fleet`, the plan kept in this tab's storage while not all scheduled.
    fn new(fleet: Fleet) -> Self {
        let utc = use_utc();
        let query = use_query_map();
        let fleet = StoredValue::new(fleet);
        let now = now_seconds();
        let asked =
            Memo::new(move |_| query.with(|q| RollingInputs::from_params(|name| q.get(name))));
        let settings = Memo::new(move |_| {
            let inputs = asked.get();
            let utc = utc.get();
            check_inputs(
                &inputs,
                start_seconds(&inputs.from, utc),
                start_seconds(&inputs.until, utc),
                now,
            )
        });
        let request = Memo::new(move |_| {
            let settings = settings.get().ok()?;
            Some(fleet.with_value(|f| request_of(&settings, &f.machines, &f.windows)))
        });
        let proposal = Memo::new(move |_| request.with(|r| r.as_ref().map(|a| plan(&a.request))));
        let saved = RwSignal::new(SavedPlan::default());
        let review = Memo::new(move |_| {
            request.with(|r| {
                r.as_ref()
                    .map(|a| saved.with(|s| check_plan(&a.request, &s.placements())))
            })
        });
        let state = Self {
            fleet,
            utc,
            now,
            asked,
            settings,
            request,
            proposal,
            saved,
            review,
        };
        state.keep_the_plan();
        state
    }

    /// The plan in use is the one kept for this address, else the planner's; it is kept
    /// until every machine is scheduled.
    fn keep_the_plan(self) {
        let Self {
            asked,
            proposal,
            saved,
            ..
        } = self;
        Effect::new(move |_| {
            let key = asked.with(RollingInputs::query);
            let next = match proposal.get() {
                None => SavedPlan::default(),
                Some(proposed) => kept()
                    .load()
                    .filter(|s| s.query == key)
                    .unwrap_or_else(|| SavedPlan::new(key, &proposed.placements)),
            };
            saved.set(next);
        });
        Effect::new(move |_| {
            saved.with(|s| {
                if s.is_finished() {
                    kept().take();
                } else if !s.starts.is_empty() {
                    kept().save(s);
                }
            })
        });
    }

    fn duration(self) -> u32 {
        self.settings
            .with(|s| s.as_ref().map_or(1, |s| s.duration_hours))
    }

    fn category(self) -> MaintenanceCategory {
        self.settings.with(|s| {
            s.as_ref()
                .map_or(MaintenanceCategory::Other, |s| s.category.clone())
        })
    }

    fn mode(self) -> Mode {
        self.asked.with(|a| a.mode)
    }

    /// Each machine not scheduled yet with what a contract-safe plan does to its offer
    /// first, in plan order; empty when the plan notifies renters now.
    fn offer_steps(self) -> Vec<(i64, OfferStep)> {
        if self.mode() != Mode::ContractSafe {
            return Vec::new();
        }
        let now = self.now;
        self.fleet.with_value(|f| {
            self.saved.with(|s| {
                s.remaining()
                    .into_iter()
                    .filter_map(|p| {
                        let machine = f.machines.iter().find(|m| m.id == p.machine_id)?;
                        Some((p.machine_id, OfferStep::of(machine, p.start, now)))
                    })
                    .collect()
            })
        })
    }

    /// What the next run sends: the offers to end first and the windows.
    fn next_run(self) -> Sent {
        let steps = self.offer_steps();
        let windows = self.saved.with(SavedPlan::remaining);
        let ended = self.saved.with(|s| s.offers_ended.clone());
        let (offers, _) = steps_left(&steps, &ended);
        let start_of = |id: i64| windows.iter().find(|p| p.machine_id == id).map(|p| p.start);
        let seemed_in_time = steps
            .iter()
            .filter(|(id, _)| !ended.contains(id))
            .filter_map(|&(id, step)| match step {
                OfferStep::EndsInTime(end) => Some((id, end, start_of(id)?)),
                _ => None,
            })
            .collect();
        Sent {
            offers,
            seemed_in_time,
            windows,
        }
    }
}

/// What one run sends: the offers to end (machine, N22 end date), then the windows of the
/// machines whose offer step is done or not needed.
#[derive(Debug, Clone, PartialEq)]
struct Sent {
    offers: Vec<(i64, f64)>,
    /// Offers that seemed to end in time (machine, end date, window start): checked again
    /// when sent, since a rolling one does not.
    seemed_in_time: Vec<(i64, f64, i64)>,
    windows: Vec<Placement>,
}

impl Sent {
    /// The windows as N4 takes them: one start and its machines each.
    fn batches(&self) -> Vec<(f64, Vec<i64>)> {
        batches(&self.windows)
            .into_iter()
            .map(|b| (b.start as f64, b.machine_ids))
            .collect()
    }
}

/// How a run ended, machine by machine: each offer step, then each window.
#[derive(Debug, Clone, PartialEq)]
struct PlanRun {
    offers: Vec<OfferResult>,
    windows: Vec<ItemResult>,
}

#[component]
fn Planner(fleet: Fleet) -> impl IntoView {
    let state = PlanState::new(fleet);
    let progress = RunProgress::new();
    let offers_done = RwSignal::new((0, 0));
    let schedule = schedule_action(state, progress, offers_done);
    let pending = schedule.pending();
    let ask_schedule = Callback::new(move |_: ()| {
        let sent = state.next_run();
        if !sent.windows.is_empty() {
            schedule.ask(sent);
        }
    });
    view! {
        <SettingsForm state=state />
        {move || {
            state
                .proposal
                .get()
                .map(|proposed| {
                    view! {
                        <PlanSection
                            state=state
                            proposed=proposed
                            pending=pending
                            ask_schedule=ask_schedule
                        />
                    }
                })
        }}
        <ScheduleDialog state=state schedule=schedule />
        {move || {
            pending
                .get()
                .then(|| {
                    let (done, total) = offers_done.get();
                    (total > 0)
                        .then(|| {
                            view! {
                                <p class="muted" data-testid="offer-progress">
                                    {format!("Offers ended: {done} of {total}.")}
                                </p>
                            }
                        })
                })
        }}
        <RunProgressBar
            progress=progress
            running=pending
            done_verb="Scheduled"
            id="rolling-progress"
        />
        {schedule.failure_view()}
        {move || schedule.done().map(|run| view! { <PlanResults run=run utc=state.utc /> })}
    }
}

/// The run: in a contract-safe plan each offer first (N22, paced), then the windows of
/// the machines whose offer step did not fail (N4, one request per start). Each machine
/// is marked as its answer comes, so that a reload mid-way sends nothing twice.
fn schedule_action(
    state: PlanState,
    progress: RunProgress,
    offers_done: RwSignal<(usize, usize)>,
) -> ConfirmedAction<Sent, PlanRun> {
    let saved = state.saved;
    let toasts = use_toasts();
    ConfirmedAction::new(
        move |api: ApiClient, sent: Sent| {
            let api = progress.start(&api, sent.windows.len());
            let hours = i64::from(state.duration());
            let category = state.category();
            async move {
                let mut to_end = sent.offers;
                to_end.extend(rolling_among(&api, &sent.seemed_in_time).await?);
                offers_done.try_set((0, to_end.len()));
                let offers = end_offers(&api, &to_end, |result| {
                    offers_done.try_update(|(done, _)| *done += 1);
                    if result.is_done() {
                        saved.try_update(|s| s.offers_ended.insert(result.machine_id));
                    }
                })
                .await?;
                let failed: BTreeSet<i64> = offers
                    .iter()
                    .filter(|r| !r.is_done())
                    .map(|r| r.machine_id)
                    .collect();
                // Settled by the re-read: never sent again either.
                saved.try_update(|s| {
                    s.offers_ended
                        .extend(offers.iter().filter(|r| r.is_done()).map(|r| r.machine_id))
                });
                let ready = Sent {
                    offers: Vec::new(),
                    seemed_in_time: Vec::new(),
                    windows: sent
                        .windows
                        .into_iter()
                        .filter(|p| !failed.contains(&p.machine_id))
                        .collect(),
                };
                let mut windows =
                    schedule_windows(&api, &ready.batches(), hours, &category, |answered| {
                        progress.count(answered.len());
                        saved.try_update(|s| {
                            for result in answered {
                                if matches!(result.outcome, ItemOutcome::Scheduled { .. }) {
                                    s.scheduled.insert(result.machine_id);
                                }
                            }
                        });
                    })
                    .await?;
                windows.extend(failed.into_iter().map(|machine_id| ItemResult {
                    machine_id,
                    outcome: ItemOutcome::Refused(WINDOW_NOT_SENT.into()),
                }));
                Ok(PlanRun { offers, windows })
            }
        },
        move |_, run: PlanRun| {
            let results = &run.windows;
            // Windows whose answer was lost but that the re-read found count as scheduled
            // too, so that the plan never sends them again.
            saved.try_update(|s| {
                s.scheduled.extend(
                    results
                        .iter()
                        .filter(|r| r.is_scheduled())
                        .map(|r| r.machine_id),
                );
                // No answer and no re-read either: the window may exist, so never again.
                s.unsure.extend(
                    results
                        .iter()
                        .filter(|r| r.outcome == ItemOutcome::Unknown)
                        .map(|r| r.machine_id),
                );
            });
            let done = results.iter().filter(|r| r.is_scheduled()).count();
            toasts.success(format!(
                "Scheduled the window on {done} of {} machines.",
                results.len()
            ));
            run
        },
    )
    .refusals_as_failures()
    .toast_failures("Scheduling failed")
}

/// The category every window of the plan is scheduled with.
#[component]
fn CategoryField(category: RwSignal<MaintenanceCategory>) -> impl IntoView {
    view! {
        <FormField id="rolling-category" label="Category">
            <select
                prop:value=move || category_key(&category.get())
                on:change=move |ev| {
                    category.set(MaintenanceCategory::from_stored(&event_target_value(&ev)))
                }
            >
                {MaintenanceCategory::KNOWN
                    .into_iter()
                    .map(|c| {
                        view! { <option value=category_key(&c)>{c.label().to_owned()}</option> }
                    })
                    .collect_view()}
            </select>
        </FormField>
    }
}

/// The settings as typed, sent to the address by "Plan": the address holds the plan asked.
#[component]
fn SettingsForm(state: PlanState) -> impl IntoView {
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

    let problem_of = move |input: Input| {
        Signal::derive(move || {
            if !submitted.get() {
                return None;
            }
            state.settings.with(|s| match s {
                Err(problems) => said_for(problems, input),
                Ok(_) => None,
            })
        })
    };
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
                error=problem_of(Input::Machines)
            >
                <TextInput kind=TextKind::Plain text=ids />
            </FormField>
            <FormField
                id="rolling-from"
                label=view! {
                    "Earliest start "
                    <span class="zone">{zone}</span>
                }
                error=problem_of(Input::From)
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
                error=problem_of(Input::Until)
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
                error=problem_of(Input::Hours)
            >
                <TextInput kind=TextKind::Whole text=hours />
            </FormField>
            // What the cap counts is a unit of the cap, not a field of its own.
            <FormField
                id="rolling-cap"
                label="At most down at once"
                error=problem_of(Input::Cap)
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
            <CategoryField category=category />
            <FormField
                id="rolling-first"
                label="Pinned first (optional)"
                hint="Machines that go down before all others."
                error=problem_of(Input::Pins)
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

/// The plan: its summary and broken rules, the machines that do not fit, the offers a
/// contract-safe plan ends first, the timeline and the table of windows, and its action.
#[component]
fn PlanSection(
    state: PlanState,
    proposed: Plan,
    pending: Signal<bool>,
    ask_schedule: Callback<()>,
) -> impl IntoView {
    let moved = move |machine_id: i64, text: String| {
        if let Some(start) = start_seconds(&text, state.utc.get_untracked()) {
            state
                .saved
                .update(|s| s.move_start(machine_id, start as i64));
        }
    };
    let columns = plan_columns(state.utc, Callback::new(move |(id, text)| moved(id, text)));
    let now = state.now;
    view! {
        <section class="plan" aria-labelledby="plan-heading">
            <h2 id="plan-heading">"The plan"</h2>
            <PlanSummary state=state />
            <NotFitting state=state proposed=proposed />
            <OfferChanges state=state />
            {move || {
                (!state.saved.with(|s| s.starts.is_empty()))
                    .then(|| {
                        view! {
                            <MaintenanceTimeline
                                windows=existing_windows(state)
                                now=Signal::stored(now)
                                preview=preview_windows(state)
                            />
                        }
                    })
            }}
            <DataTable
                rows=plan_rows(state)
                columns=columns
                row_key=|r: &PlanRow| r.machine_id.to_string()
                empty="No machine fits this plan."
                csv_name="rolling-plan"
                caption="The plan: each machine's window"
                url_prefix="plan_"
            />
            <PlanActions state=state pending=pending ask_schedule=ask_schedule />
        </section>
    }
}

/// The plan's figures, and the rules the plan as edited breaks.
#[component]
fn PlanSummary(state: PlanState) -> impl IntoView {
    let utc = state.utc;
    move || {
        state.review.get().map(|r| {
            let s = r.summary;
            view! {
                <dl class="plan-summary" data-testid="plan-summary">
                    <div>
                        <dt>"Machines planned"</dt>
                        <dd data-testid="planned-count">{s.machines_planned}</dd>
                    </div>
                    <div>
                        <dt>"Peak machines down"</dt>
                        <dd data-testid="peak-machines">{s.peak_machines_down}</dd>
                    </div>
                    <div>
                        <dt>"Peak GPUs down"</dt>
                        <dd>{s.peak_gpus_down}</dd>
                    </div>
                    <div>
                        <dt>"Renters notified"</dt>
                        <dd>{s.renters_notified}</dd>
                    </div>
                    <div>
                        <dt>"Finished by"</dt>
                        <dd>
                            {s
                                .finish
                                .map_or_else(
                                    || "—".to_owned(),
                                    |t| format_absolute(t as f64, utc.get()),
                                )}
                        </dd>
                    </div>
                </dl>
                {(!r.violations.is_empty())
                    .then(|| {
                        view! {
                            <div class="warning" role="status" data-testid="plan-violations">
                                <p>
                                    <strong>
                                        {format!(
                                            "The plan as edited breaks {} rules:",
                                            r.violations.len(),
                                        )}
                                    </strong>
                                </p>
                                <ul>
                                    {r
                                        .violations
                                        .iter()
                                        .map(|v| view! { <li>{violation_text(v, utc.get())}</li> })
                                        .collect_view()}
                                </ul>
                            </div>
                        }
                    })}
            }
        })
    }
}

/// The machines asked for that the plan leaves out, each with its reason.
#[component]
fn NotFitting(state: PlanState, proposed: Plan) -> impl IntoView {
    let (not_yours, not_fitting) = state.request.with_untracked(|r| {
        r.as_ref()
            .map(|a| (a.not_yours.clone(), a.not_fitting.clone()))
            .unwrap_or_default()
    });
    let count = proposed.unplaced.len() + not_yours.len() + not_fitting.len();
    (count > 0).then(|| view! {
        <div class="warning" data-testid="plan-unfit">
            <p>
                <strong>
                    {match count {
                        1 => "1 machine does not fit:".to_owned(),
                        n => format!("{n} machines do not fit:"),
                    }}
                </strong>
            </p>
            <ul>
                {not_yours
                    .iter()
                    .map(|id| {
                        view! {
                            <li>{format!("Machine {id}: it is not one of your machines.")}</li>
                        }
                    })
                    .collect_view()}
                {not_fitting
                    .into_iter()
                    .map(|(id, reason)| {
                        view! { <li data-machine-id=id>{format!("Machine {id}: {reason}.")}</li> }
                    })
                    .collect_view()}
                {proposed
                    .unplaced
                    .iter()
                    .map(|u| {
                        view! {
                            <li data-machine-id=u
                                .machine_id>
                                {format!("Machine {}: {}.", u.machine_id, u.reason)}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    })
}

/// In a contract-safe plan, what happens to each machine's offer before its window.
#[component]
fn OfferChanges(state: PlanState) -> impl IntoView {
    let utc = state.utc;
    move || {
        let steps = state.offer_steps();
        let ended = state.saved.with(|s| s.offers_ended.clone());
        (!steps.is_empty()).then(|| {
            let time = move |t: f64| format_absolute(t, utc.get());
            view! {
                <div class="offer-changes" data-testid="offer-changes">
                    <h3>"Offers, before the windows"</h3>
                    <ul>
                        {steps
                            .into_iter()
                            .map(|(id, step)| {
                                let said = if ended.contains(&id) {
                                    "The offer already ends in time (done by an earlier run)."
                                        .to_owned()
                                } else {
                                    step.sentence(time)
                                };
                                view! {
                                    <li data-machine-id=id>{format!("Machine {id}: {said}")}</li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    }
}

/// What is left to do: schedule the windows, or where to look at them.
#[component]
fn PlanActions(
    state: PlanState,
    pending: Signal<bool>,
    ask_schedule: Callback<()>,
) -> impl IntoView {
    let saved = state.saved;
    view! {
        <div class="form-actions">
            {move || {
                let left = saved.with(|s| s.remaining().len());
                let done = saved.with(|s| s.scheduled.len());
                let unsure: Vec<i64> = saved.with(|s| s.unsure.iter().copied().collect());
                match (left, done) {
                    (0, _) if !unsure.is_empty() => {
                        view! {
                            <p data-testid="plan-unsure">{unsure_words(&unsure)}</p>
                            <a class="button" href=with_machine_ids(MAINTENANCE, &unsure)>
                                "Check their maintenance"
                            </a>
                        }
                            .into_any()
                    }
                    (0, 0) => view! { <p class="muted">"Nothing to schedule."</p> }.into_any(),
                    (0, _) => {
                        view! {
                            <p data-testid="plan-done">
                                {format!("All {done} windows are scheduled.")}
                            </p>
                            <a
                                class="button"
                                href=with_machine_ids(
                                    MAINTENANCE,
                                    &saved.with(|s| s.scheduled.iter().copied().collect::<Vec<_>>()),
                                )
                            >
                                "Show their maintenance"
                            </a>
                        }
                            .into_any()
                    }
                    (left, _) => {
                        view! {
                            <button
                                type="button"
                                class="button primary"
                                data-action="schedule-plan"
                                disabled=pending
                                on:click=move |_| ask_schedule.run(())
                            >
                                {move || {
                                    if pending.get() {
                                        "Scheduling…".to_owned()
                                    } else if done > 0 {
                                        format!("Schedule the {left} remaining…")
                                    } else {
                                        format!("Schedule {left} windows…")
                                    }
                                }}
                            </button>
                        }
                            .into_any()
                    }
                }
            }}
        </div>
    }
}

/// The confirmation: what is sent, in which order, and how long the public pace makes it.
#[component]
fn ScheduleDialog(state: PlanState, schedule: ConfirmedAction<Sent, PlanRun>) -> impl IntoView {
    view! {
        <ActionDialog action=schedule title="Schedule this plan?" confirm_label="Schedule">
            {move || {
                schedule
                    .asked()
                    .map(|sent| {
                        let requests = sent.batches().len();
                        let offers = sent.offers.len();
                        view! {
                            {(offers > 0)
                                .then(|| {
                                    view! {
                                        <p data-testid="offers-first">
                                            {format!(
                                                "First, {} end no later than their windows' start, so no new rental crosses a window (one request each).",
                                                counted(
                                                    offers as i64,
                                                    "machine's offer",
                                                    "machines' offers",
                                                ),
                                            )}
                                        </p>
                                        {PacedAction::ListEachOffer
                                            .duration_sentence(offers)
                                            .map(|takes| {
                                                view! {
                                                    <p data-testid="offers-duration">
                                                        {format!("{takes}, before the windows are sent.")}
                                                    </p>
                                                }
                                            })}
                                    }
                                })}
                            <p>
                                {format!(
                                    "{} windows of {} hours, sent in {requests} requests (one per start). Renters on these machines are told.",
                                    sent.windows.len(),
                                    state.duration(),
                                )}
                            </p>
                            {PacedAction::ScheduleEachStart
                                .duration_sentence(requests)
                                .map(|takes| {
                                    view! {
                                        <p data-testid="paced-duration">{format!("{takes}.")}</p>
                                    }
                                })}
                        }
                    })
            }}
        </ActionDialog>
    }
}

/// Each machine's result: its offer step first where there was one, then its window.
#[component]
fn PlanResults(run: PlanRun, utc: RwSignal<bool>) -> impl IntoView {
    let offers = run.offers;
    let class = |r: &OfferResult| match r.outcome {
        OfferOutcome::Refused(_) => "refused",
        OfferOutcome::Unknown => "unknown",
        OfferOutcome::Ended { .. } | OfferOutcome::FoundAfterNoAnswer => "ok",
    };
    view! {
        <section class="result" data-testid="plan-result" aria-labelledby="plan-result-heading">
            <h2 id="plan-result-heading">"Results"</h2>
            {(!offers.is_empty())
                .then(|| {
                    view! {
                        <h3>"Offers"</h3>
                        <ul class="item-results" data-testid="offer-results">
                            {offers
                                .iter()
                                .map(|r| {
                                    view! {
                                        <li class=class(r) data-machine-id=r.machine_id>
                                            {r.sentence(|t| format_absolute(t, utc.get_untracked()))}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                        <h3>"Windows"</h3>
                    }
                })}
            <ItemResults results=run.windows />
        </section>
    }
}

/// One row a machine of the plan, with the rules its window breaks.
fn plan_rows(state: PlanState) -> Signal<Vec<PlanRow>> {
    Signal::derive(move || {
        let utc = state.utc.get();
        let hours = i64::from(state.duration());
        let mut by_machine: HashMap<i64, Vec<String>> = HashMap::new();
        state.review.with(|r| {
            for violation in r.iter().flat_map(|r| r.violations.iter()) {
                if let Some(id) = machine_of(violation) {
                    by_machine
                        .entry(id)
                        .or_default()
                        .push(violation_text(violation, utc));
                }
            }
        });
        state.fleet.with_value(|f| {
            let machines: HashMap<i64, &Machine> = f.machines.iter().map(|m| (m.id, m)).collect();
            state.saved.with(|s| {
                s.starts
                    .iter()
                    .map(|&(machine_id, start)| {
                        let machine = machines.get(&machine_id);
                        PlanRow {
                            machine_id,
                            hostname: machine.map(|m| m.hostname.clone()).unwrap_or_default(),
                            gpus: machine.map_or(0, |m| m.num_gpus),
                            start,
                            end: start + hours * 3600,
                            rentals: machine.map_or(0, |m| m.current_rentals_running),
                            scheduled: s.scheduled.contains(&machine_id),
                            problems: by_machine.remove(&machine_id).unwrap_or_default(),
                        }
                    })
                    .collect()
            })
        })
    })
}

/// The windows the planned machines already have, for the timeline.
fn existing_windows(state: PlanState) -> Signal<Vec<MaintenanceWindow>> {
    Signal::derive(move || {
        let planned: Vec<i64> = state
            .saved
            .with(|s| s.starts.iter().map(|(id, _)| *id).collect());
        state.fleet.with_value(|f| {
            f.windows
                .iter()
                .filter(|w| planned.contains(&w.machine_id))
                .cloned()
                .collect()
        })
    })
}

/// The plan's windows as the timeline draws them, not yet sent.
fn preview_windows(state: PlanState) -> Signal<Vec<MaintenanceWindow>> {
    Signal::derive(move || {
        let hours = i64::from(state.duration());
        let category = state.category();
        state.saved.with(|s| {
            s.starts
                .iter()
                .enumerate()
                .map(|(i, &(machine_id, start))| MaintenanceWindow {
                    id: -(i as i64) - 1,
                    machine_id,
                    start_time: start as f64,
                    duration_hours: hours,
                    maintenance_category: category.clone(),
                    maintenance_reason: None,
                    created_at: state.now,
                    cancelled_at: None,
                    end_time: (start + hours * 3600) as f64,
                    scheduled_by_marketplace: false,
                })
                .collect()
        })
    })
}

/// The plan's columns; each start not yet scheduled is a field that moves it.
fn plan_columns(utc: RwSignal<bool>, moved: Callback<(i64, String)>) -> Vec<Column<PlanRow>> {
    vec![
        Column::number("machine", "Machine", |r: &PlanRow| r.machine_id as f64, |r| {
            r.machine_id.to_string()
        }),
        Column::text("hostname", "Hostname", |r: &PlanRow| r.hostname.clone()),
        Column::number("gpus", "GPUs", |r: &PlanRow| r.gpus as f64, |r| r.gpus.to_string()),
        Column::number("start", "Start", |r: &PlanRow| r.start as f64, move |r| {
            format_absolute(r.start as f64, utc.get_untracked())
        })
        .with_cell(move |r| {
            if r.scheduled {
                return view! { <span>{format_absolute(r.start as f64, utc.get_untracked())}</span> }
                    .into_any();
            }
            let id = r.machine_id;
            let value = datetime_local_value(r.start as f64, utc.get_untracked());
            view! {
                <input type="datetime-local" class="plan-start" aria-label=format!("Start of machine {id}")
                    prop:value=value
                    on:change=move |ev| moved.run((id, event_target_value(&ev)))/>
            }
            .into_any()
        }),
        Column::number("end", "End", |r: &PlanRow| r.end as f64, move |r| {
            format_absolute(r.end as f64, utc.get_untracked())
        }),
        Column::number("rentals", "Rentals running", |r: &PlanRow| r.rentals as f64, |r| {
            r.rentals.to_string()
        }),
        Column::text("state", "State", |r: &PlanRow| {
            if r.scheduled {
                "Scheduled".to_owned()
            } else if r.problems.is_empty() {
                "Planned".to_owned()
            } else {
                r.problems.join(" ")
            }
        })
        .with_cell(|r| {
            let class = if r.problems.is_empty() { "" } else { "form-error" };
            let text = if r.scheduled {
                "Scheduled".to_owned()
            } else if r.problems.is_empty() {
                "Planned".to_owned()
            } else {
                r.problems.join(" ")
            };
            view! { <span class=class>{text}</span> }.into_any()
        }),
    ]
}
