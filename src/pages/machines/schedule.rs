//! Scheduling a maintenance window on one machine or many (`/machines/schedule?ids=…`).
//!
//! A page rather than a dialog over the machines table: the selection is in the address
//! (a link or a reload keeps it), the form, the preview timeline and the results of a run
//! of several batches need the room, and it reads the same at phone width.
//!
//! The rules, batching and overlaps are the pure functions in [`crate::domain::schedule`];
//! sending is [`crate::domain::fleet::schedule_plan`]: N3 (schedule one) for a single
//! machine, N4 (schedule many) batches for more.
//!
//! The page's parts: [`ScheduleState`] (what is typed and what follows from it),
//! [`ScheduleFields`] (the form), [`ScheduleResult`] (what a run did), [`SchedulePreview`]
//! (the new windows before sending) and [`ScheduleConfirmation`] (the dialog's text);
//! [`ScheduleForm`] ties them to the action that sends.

use crate::api::{use_api, Outcome};
use crate::components::category_field::CategoryField;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::form_field::{problem_for, FormField, TextInput, TextKind};
use crate::components::item_results::{ItemResults, RunProgress, RunProgressBar};
use crate::components::machine_ids_field::{parsed, MachineIdsField};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::time::{
    format_absolute, format_span, now_seconds, start_seconds, use_utc, zone_words, UtcToggle,
};
use crate::components::timeline::MaintenanceTimeline;
use crate::components::toasts::use_toasts;
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::fleet::{load_fleet, schedule_plan, Fleet};
use crate::domain::schedule::{
    check, overlap_sentence, overlaps, preview_windows, refused, unknown, Field, ItemResult, Plan,
    Problem, Run,
};
use crate::routes::{with_machine_ids, MAINTENANCE};
use gpudeck_wire::machine_ids::format_machine_ids;
use gpudeck_wire::maintenance::{HOUR, MAX_BATCH, MAX_DURATION_HOURS, MAX_REASON_CHARS};
use gpudeck_wire::{MaintenanceCategory, MaintenanceWindow};
use leptos::prelude::*;
use leptos_router::hooks::query_signal;

/// Overlaps named one by one in the warning; the rest are counted.
const OVERLAPS_NAMED: usize = 10;
/// The duration a fresh form proposes, in hours.
const DEFAULT_HOURS: &str = "2";

const PAGE_LEDE: &str = "Announce planned downtime of your machines to their renters. A \
    window is a notice: it does not stop rentals or unlist the machines.";
const REASON_HINT_ONE: &str = "Up to 300 characters, shown to renters.";
const REASON_HINT_MANY: &str =
    "A reason is kept only when scheduling one machine: the batch operation takes none.";
const NOTHING_SCHEDULED: &str = "Nothing was scheduled: every machine was refused (below). \
    The form keeps its values, to correct them or try again.";
const FORM_EMPTY_AGAIN: &str =
    "The form above is empty again for another window; the machines stay as they were.";
const RELOAD_FAILED: &str = "Could not reload your machines' windows, so the overlap check \
    does not know the new ones yet. Reload the page to see them.";

/// `1 machine`, `3 machines`.
pub fn machines_count(n: usize) -> String {
    counted(n as i64, "machine", "machines")
}

#[component]
pub fn SchedulePage() -> impl IntoView {
    let data = use_api_resource(load_fleet);
    view! {
        <Page class="schedule" entry=&gpudeck_pages::SCHEDULE lede=PAGE_LEDE>
            {ResourceView::new(data, "Loading your machines…")
                .show(move |fleet| view! { <ScheduleForm fleet=fleet /> })}
        </Page>
    }
}

/// The form's state: what is typed, the problems found on the last check, and what
/// follows from them (the machines, the plan, the windows it would overlap). `Copy`, so
/// each part takes it whole.
#[derive(Clone, Copy)]
struct ScheduleState {
    /// Loaded again after each run, so the overlap check and the timeline know the windows
    /// just scheduled.
    fleet: RwSignal<Fleet>,
    utc: RwSignal<bool>,
    ids_text: RwSignal<String>,
    start_text: RwSignal<String>,
    hours_text: RwSignal<String>,
    category: RwSignal<MaintenanceCategory>,
    reason: RwSignal<String>,
    problems: RwSignal<Vec<Problem>>,
    now: RwSignal<f64>,
    machine_ids: Memo<Vec<i64>>,
    /// The plan as typed, when it passes the checks; the preview draws it.
    live_plan: Memo<Option<Plan>>,
    /// The active windows on the machines named.
    existing: Signal<Vec<MaintenanceWindow>>,
    /// Of those, the ones the plan's window overlaps.
    overlapping: Signal<Vec<MaintenanceWindow>>,
}

impl ScheduleState {
    fn new(fleet: Fleet, ids: String) -> Self {
        let fleet = RwSignal::new(fleet);
        let utc = use_utc();
        let ids_text = RwSignal::new(ids);
        let start_text = RwSignal::new(String::new());
        let hours_text = RwSignal::new(DEFAULT_HOURS.to_owned());
        let category = RwSignal::new(MaintenanceCategory::Other);
        let reason = RwSignal::new(String::new());
        let now = RwSignal::new(now_seconds());
        let machine_ids = Memo::new(move |_| parsed(&ids_text.get()).unwrap_or_default());
        let live_plan = Memo::new(move |_| {
            check(
                &machine_ids.get(),
                start_seconds(&start_text.get(), utc.get()),
                &hours_text.get(),
                category.get(),
                &reason.get(),
                now.get(),
            )
            .ok()
        });
        let existing = Signal::derive(move || {
            let ids = machine_ids.get();
            fleet.with(|f| {
                f.windows
                    .iter()
                    .filter(|w| ids.contains(&w.machine_id))
                    .cloned()
                    .collect::<Vec<_>>()
            })
        });
        let overlapping = Signal::derive(move || match live_plan.get() {
            Some(plan) => existing.with(|e| overlaps(&plan.machines, plan.start, plan.end(), e)),
            None => Vec::new(),
        });
        ScheduleState {
            fleet,
            utc,
            ids_text,
            start_text,
            hours_text,
            category,
            reason,
            problems: RwSignal::new(Vec::new()),
            now,
            machine_ids,
            live_plan,
            existing,
            overlapping,
        }
    }

    fn is_mine(self, id: i64) -> bool {
        self.fleet.with(|f| f.machines.iter().any(|m| m.id == id))
    }

    /// The ids named that are not among the host's machines.
    fn not_mine(self) -> Vec<i64> {
        self.machine_ids
            .get()
            .into_iter()
            .filter(|&id| !self.is_mine(id))
            .collect()
    }

    /// What is wrong with one field, every problem found in one line; `None` when nothing.
    fn problem_for(self, field: Field) -> Signal<Option<String>> {
        problem_for(self.problems.into(), field)
    }

    /// The windows the plan would add, on the host's own machines only.
    fn preview(self) -> Signal<Vec<MaintenanceWindow>> {
        Signal::derive(move || match self.live_plan.get() {
            Some(plan) => {
                let known: Vec<i64> = plan
                    .machines
                    .iter()
                    .copied()
                    .filter(|&id| self.is_mine(id))
                    .collect();
                preview_windows(
                    known.into_iter().map(|id| (id, plan.start)),
                    plan.duration_hours,
                    &plan.category,
                    plan.reason.as_deref(),
                    self.now.get_untracked(),
                )
            }
            None => Vec::new(),
        })
    }

    /// Running rentals on the machines named: the renters a window notifies.
    fn notified(self) -> i64 {
        let ids = self.machine_ids.get();
        self.fleet.with(|f| {
            f.machines
                .iter()
                .filter(|m| ids.contains(&m.id))
                .map(|m| m.current_rentals_running)
                .sum::<i64>()
        })
    }

    /// Checks the form as it is now, for `machines`.
    fn checked(self, machines: &[i64]) -> Result<Plan, Vec<Problem>> {
        self.now.set(now_seconds());
        check(
            machines,
            start_seconds(&self.start_text.get_untracked(), self.utc.get_untracked()),
            &self.hours_text.get_untracked(),
            self.category.get_untracked(),
            &self.reason.get_untracked(),
            self.now.get_untracked(),
        )
    }

    /// After a run that scheduled anything, the form starts afresh on the same machines, so
    /// a second click cannot send the same window again; the result says what was done.
    fn start_afresh(self) {
        self.start_text.try_set(String::new());
        self.hours_text.try_set(DEFAULT_HOURS.to_owned());
        self.category.try_set(MaintenanceCategory::Other);
        self.reason.try_set(String::new());
        self.problems.try_set(Vec::new());
    }

    /// The zone the times are read and shown in.
    fn zone(self) -> String {
        zone_words(self.utc.get())
    }

    /// Said under the ids field instead of its plain count: which are the host's, and how
    /// many requests they take.
    fn machines_line(self) -> String {
        let ids = self.machine_ids.get();
        let foreign = self.not_mine();
        let yours = ids.len() - foreign.len();
        let batches_text = match ids.len().div_ceil(MAX_BATCH) {
            0 | 1 => String::new(),
            n => format!(" Sent in {n} requests of at most {MAX_BATCH} machines."),
        };
        match foreign.len() {
            0 => format!("{yours} of your machines.{batches_text}"),
            n => format!(
                "{yours} of your machines; {n} not among them ({}), which the server will refuse.{batches_text}",
                named_in_confirmation(&foreign)
            ),
        }
    }
}

/// A plan's start, end and length, as the page's sentences say them.
fn window_words(plan: &Plan, utc: bool) -> (String, String, String) {
    (
        format_absolute(plan.start, utc),
        format_absolute(plan.end(), utc),
        format_span(plan.duration_hours as f64 * HOUR),
    )
}

#[component]
fn ScheduleForm(fleet: Fleet) -> impl IntoView {
    let toasts = use_toasts();
    let (ids_param, set_ids_param) = query_signal::<String>("ids");
    let state = ScheduleState::new(fleet, ids_param.get_untracked().unwrap_or_default());
    let progress = RunProgress::new();

    let api = use_api();
    let reload_fleet = move || {
        let api = api.clone();
        leptos::task::spawn_local(async move {
            match load_fleet(api).await {
                Ok(fresh) => {
                    state.fleet.try_set(fresh);
                }
                // Aborted: the person has left the page, which no longer needs it.
                Err(error) if error.outcome() == Outcome::Aborted => {}
                Err(_) => toasts.error(RELOAD_FAILED),
            }
        });
    };
    let schedule =
        ConfirmedAction::new(
            move |api, plan: Plan| {
                let api = progress.start(&api, plan.machines.len());
                async move {
                    schedule_plan(&api, &plan, |answered| progress.count(answered.len())).await
                }
            },
            move |plan: Plan, results: Vec<ItemResult>| {
                let run = Run { plan, results };
                let done = run.scheduled().len();
                toasts.success(format!(
                    "Scheduled the window on {done} of {}.",
                    machines_count(run.results.len())
                ));
                if done > 0 {
                    state.start_afresh();
                }
                // The overlap check must know what is now on the machines, whether
                // answered, found by the re-read after a lost answer, or still unknown.
                if done > 0 || !unknown(&run.results).is_empty() {
                    reload_fleet();
                }
                run
            },
        )
        .refusals_as_failures()
        .toast_failures("Scheduling failed");
    let pending = schedule.pending();

    // A checked plan goes to the confirmation; its problems go next to their fields.
    let confirm_or_name = move |checked: Result<Plan, Vec<Problem>>| match checked {
        Ok(plan) => {
            state.problems.set(Vec::new());
            schedule.ask(plan);
        }
        Err(found) => state.problems.set(found),
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let ids = state.machine_ids.get_untracked();
        let compact = format_machine_ids(&ids);
        if !ids.is_empty() && ids_param.get_untracked().as_deref() != Some(compact.as_str()) {
            set_ids_param.set(Some(compact));
        }
        confirm_or_name(state.checked(&ids));
    };
    // The refused machines again, with the window that was sent (the form may be fresh).
    let retry_refused = Callback::new(move |()| {
        let Some(run) = schedule.done() else { return };
        state.now.set(now_seconds());
        state
            .ids_text
            .set(format_machine_ids(&refused(&run.results)));
        confirm_or_name(run.retry(state.now.get_untracked()));
    });

    view! {
        <form class="schedule-form" on:submit=submit novalidate>
            <ScheduleFields state=state />
            <div class="form-actions">
                <SubmitButton pending=pending idle="Schedule…" busy="Scheduling…" />
            </div>
        </form>
        <RunProgressBar
            progress=progress
            running=pending
            done_verb="Scheduled"
            id="schedule-progress"
        />
        {schedule.failure_view()}
        {move || {
            schedule
                .done()
                .map(|run| {
                    view! { <ScheduleResult state=state run=run retry_refused=retry_refused /> }
                })
        }}
        <SchedulePreview state=state />
        <ActionDialog
            action=schedule
            title="Schedule this maintenance window?"
            confirm_label="Schedule"
        >
            {move || {
                schedule
                    .asked()
                    .map(|plan| view! { <ScheduleConfirmation state=state plan=plan /> })
            }}
        </ActionDialog>
    }
}

/// The form's fields: the machines, the start, the duration, the category and the reason,
/// each with the problems the last check found in it.
#[component]
fn ScheduleFields(state: ScheduleState) -> impl IntoView {
    let ScheduleState {
        start_text,
        hours_text,
        category,
        reason,
        ..
    } = state;
    let several = move || state.machine_ids.with(|ids| ids.len() > 1);
    let machines_line = Signal::derive(move || state.machines_line());
    view! {
        <MachineIdsField
            text=state.ids_text
            problem=state.problem_for(Field::Machines)
            id="schedule-machines"
            count=machines_line
        />
        <div class="schedule-fields">
            <FormField
                id="schedule-start"
                label=view! {
                    "Start "
                    <span class="zone" data-testid="zone">
                        {move || format!("({})", state.zone())}
                    </span>
                }
                error=state.problem_for(Field::Start)
                beside=|| view! { <UtcToggle /> }
            >
                <input
                    type="datetime-local"
                    prop:value=start_text
                    on:input=move |ev| start_text.set(event_target_value(&ev))
                />
            </FormField>
            <FormField
                id="schedule-hours"
                label="Duration (whole hours)"
                error=state.problem_for(Field::Duration)
            >
                <TextInput
                    kind=TextKind::Stepped
                    text=hours_text
                    attr:min="1"
                    attr:max=MAX_DURATION_HOURS.to_string()
                    attr:step="1"
                />
            </FormField>
            <CategoryField id="schedule-category" category=category />
            <FormField
                id="schedule-reason"
                label="Reason (optional)"
                error=state.problem_for(Field::Reason)
                hint=move || if several() { REASON_HINT_MANY } else { REASON_HINT_ONE }
            >
                <textarea
                    rows="2"
                    maxlength=MAX_REASON_CHARS.to_string()
                    disabled=several
                    prop:value=reason
                    on:input=move |ev| reason.set(event_target_value(&ev))
                ></textarea>
            </FormField>
        </div>
    }
}

/// What a run did: the window and the machines it is on, a link to their maintenance, a
/// retry of the refused ones, and every machine's result.
#[component]
fn ScheduleResult(state: ScheduleState, run: Run, retry_refused: Callback<()>) -> impl IntoView {
    let refused_count = refused(&run.results).len();
    let scheduled = run.scheduled();
    // Said again in the other zone when the UTC toggle changes.
    let what = {
        let (plan, scheduled, notified) = (run.plan.clone(), scheduled.clone(), run.notified());
        move || {
            if scheduled.is_empty() {
                return NOTHING_SCHEDULED.to_owned();
            }
            let (from, to, span) = window_words(&plan, state.utc.get());
            format!(
                "{} window from {from} to {to} ({span}, {}) scheduled on {}: {}. {} notified.",
                plan.category.label(),
                state.zone(),
                machines_count(scheduled.len()),
                named_in_confirmation(&scheduled),
                counted(notified, "renter", "renters"),
            )
        }
    };
    view! {
        <section
            class="result"
            data-testid="schedule-result"
            aria-labelledby="schedule-result-heading"
        >
            <h2 id="schedule-result-heading">
                {format!(
                    "Scheduled on {} of {}",
                    scheduled.len(),
                    machines_count(run.results.len()),
                )}
            </h2>
            <p data-testid="schedule-done">{what}</p>
            {(!scheduled.is_empty()).then(|| view! { <p class="hint">{FORM_EMPTY_AGAIN}</p> })}
            <div class="form-actions">
                {(!scheduled.is_empty())
                    .then(|| {
                        view! {
                            <a class="button" href=with_machine_ids(MAINTENANCE, &scheduled)>
                                "Show their maintenance"
                            </a>
                        }
                    })}
                {(refused_count > 0)
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                class="button primary"
                                on:click=move |_| retry_refused.run(())
                            >
                                {format!("Retry the {refused_count} refused…")}
                            </button>
                        }
                    })}
            </div>
            <ItemResults results=run.results.clone() />
        </section>
    }
}

/// The plan before it is sent: its summary, the windows it overlaps, and the timeline of
/// the machines' windows with the new ones outlined.
#[component]
fn SchedulePreview(state: ScheduleState) -> impl IntoView {
    let ScheduleState {
        utc,
        now,
        live_plan,
        existing,
        ..
    } = state;
    let preview = state.preview();
    view! {
        <section class="preview" aria-labelledby="preview-heading">
            <h2 id="preview-heading">"Preview"</h2>
            {move || match live_plan.get() {
                None => {
                    view! {
                        <p class="muted">
                            "Fill in the form to see the new windows on the timeline."
                        </p>
                    }
                        .into_any()
                }
                Some(plan) => {
                    let (from, to, span) = window_words(&plan, utc.get());
                    view! {
                        <p data-testid="schedule-summary">
                            {format!(
                                "{} window from {from} to {to} ({span}) on {}; {} will be notified.",
                                plan.category.label(),
                                machines_count(plan.machines.len()),
                                counted(state.notified(), "running rental", "running rentals"),
                            )}
                        </p>
                    }
                        .into_any()
                }
            }}
            <OverlapWarning state=state />
            {move || {
                (!existing.with(Vec::is_empty) || !preview.with(Vec::is_empty))
                    .then(|| {
                        view! { <MaintenanceTimeline windows=existing now=now preview=preview /> }
                    })
            }}
        </section>
    }
}

/// The existing windows the plan's window overlaps: the first [`OVERLAPS_NAMED`] named,
/// the rest counted. Overlaps are allowed; this only says so.
#[component]
fn OverlapWarning(state: ScheduleState) -> impl IntoView {
    let utc = state.utc;
    move || {
        let found = state.overlapping.get();
        let new = state
            .live_plan
            .with(|p| p.as_ref().map_or(0, |p| p.machines.len()));
        (!found.is_empty()).then(|| {
            let more = found.len().saturating_sub(OVERLAPS_NAMED);
            view! {
                <div class="warning" role="status" data-testid="overlap-warning">
                    <p>
                        <strong>
                            {overlap_sentence(found.len(), new, "the new one:", "the new ones:")}
                        </strong>
                    </p>
                    <ul>
                        {found
                            .into_iter()
                            .take(OVERLAPS_NAMED)
                            .map(|w| {
                                view! {
                                    <li>
                                        {format!(
                                            "Machine {}: {} window #{} from {} to {}",
                                            w.machine_id,
                                            w.maintenance_category.label(),
                                            w.id,
                                            format_absolute(w.start_time, utc.get()),
                                            format_absolute(w.end_time, utc.get()),
                                        )}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                    {(more > 0).then(|| view! { <p>{format!("and {more} more.")}</p> })}
                    <p class="hint">"Windows may overlap; renters are told about each."</p>
                </div>
            }
        })
    }
}

/// The confirmation's text: the window, the machines, how many requests, the overlaps.
#[component]
fn ScheduleConfirmation(state: ScheduleState, plan: Plan) -> impl IntoView {
    let new = plan.machines.len();
    let when = {
        let plan = plan.clone();
        move || {
            let (from, to, span) = window_words(&plan, state.utc.get());
            format!(
                " from {from} to {to} ({span}, {}), on {}: ",
                state.zone(),
                machines_count(new),
            )
        }
    };
    view! {
        <p>
            <strong>{plan.category.label().to_owned()}</strong>
            {when}
            <span class="id-list">{named_in_confirmation(&plan.machines)}</span>
        </p>
        {(plan.machines.len() > MAX_BATCH)
            .then(|| {
                view! {
                    <p>
                        {format!(
                            "Sent in {} requests of at most {MAX_BATCH} machines.",
                            plan.machines.len().div_ceil(MAX_BATCH),
                        )}
                    </p>
                }
            })}
        {move || {
            let n = state.overlapping.with(Vec::len);
            (n > 0)
                .then(|| {
                    view! { <p class="warning-text">{overlap_sentence(n, new, "it.", "them.")}</p> }
                })
        }}
        <p>"Renters on these machines are told."</p>
    }
}
