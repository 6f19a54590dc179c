//! Sending the plan: the button, the confirmation and the run.

use super::contract_run::{send_contract_safe, RunMarks};
use super::rules::{promise_words, unsure_words, StartsInRentals};
use super::state::{PlanRun, PlanState, Sent};
use crate::api::ApiClient;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::item_results::RunProgress;
use crate::components::time::format_absolute;
use crate::components::toasts::use_toasts;
use crate::components::words::counted;
use crate::domain::bulk::PacedAction;
use crate::domain::fleet::schedule_windows;
use crate::domain::schedule::ItemOutcome;
use crate::routes::{with_machine_ids, MAINTENANCE};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// What is left to do: schedule the windows, or where to look at them.
#[component]
pub(super) fn PlanActions(
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
                        let breaking = state.starts_in_rentals();
                        let refused = !breaking.is_empty();
                        view! {
                            {refused
                                .then(|| view! { <BrokenPromise state=state breaking=breaking /> })}
                            <button
                                type="button"
                                class="button primary"
                                data-action="schedule-plan"
                                disabled=move || refused || pending.get()
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

/// Why a contract-safe plan with a start inside a rental is not sent, and the two ways on:
/// each such machine moved to its earliest safe start, or the plan switched to notifying
/// renters now.
#[component]
fn BrokenPromise(state: PlanState, breaking: Vec<StartsInRentals>) -> impl IntoView {
    let navigate = use_navigate();
    let utc = state.utc.get_untracked();
    let items = breaking
        .iter()
        .map(|b| {
            let line = format!(
                "Machine {}: starts at {}; its rentals end at {}.",
                b.machine_id,
                format_absolute(b.start as f64, utc),
                format_absolute(b.earliest as f64, utc)
            );
            view! { <li data-machine-id=b.machine_id>{line}</li> }
        })
        .collect_view();
    let words = promise_words(&breaking);
    let move_them = move |_| state.saved.update(|s| s.move_to_earliest(&breaking));
    let notify_now = move |_| navigate(&state.notify_now_instead(), Default::default());
    view! {
        <div class="warning" role="alert" data-testid="plan-promise">
            <p>{words}</p>
            <ul>{items}</ul>
            <button
                type="button"
                class="button"
                data-action="move-to-safe-start"
                on:click=move_them
            >
                "Move to the earliest safe start"
            </button>
            <button type="button" class="button" data-action="notify-now" on:click=notify_now>
                "Notify renters now instead"
            </button>
        </div>
    }
}

/// The confirmation: what is sent, in which order, and how long the public pace makes it.
#[component]
pub(super) fn ScheduleDialog(
    state: PlanState,
    schedule: ConfirmedAction<Sent, PlanRun>,
) -> impl IntoView {
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
                                                        {format!("{takes}, besides the windows.")}
                                                    </p>
                                                }
                                            })}
                                    }
                                })}
                            {sent
                                .contract_safe
                                .then(|| {
                                    view! {
                                        <p data-testid="read-again">
                                            "Each start's machines are read again just before they are sent: a machine rented since the plan was made is held back, not sent."
                                        </p>
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

/// The run: a plan that notifies renters now sends its windows (N4 (schedule many), one
/// request per start); a contract-safe one goes start by start, each machine read again
/// first ([`send_contract_safe`]). Each machine is marked as its answer comes, so that a
/// reload mid-way sends nothing twice.
pub(super) fn schedule_action(
    state: PlanState,
    progress: RunProgress,
    offers_done: RwSignal<(usize, usize)>,
) -> ConfirmedAction<Sent, PlanRun> {
    let saved = state.saved;
    let toasts = use_toasts();
    let marks = RunMarks {
        saved,
        progress,
        offers_done,
    };
    ConfirmedAction::new(
        move |api: ApiClient, sent: Sent| {
            let api = progress.start(&api, sent.windows.len());
            let hours = i64::from(state.duration());
            let category = state.category();
            async move {
                if sent.contract_safe {
                    offers_done.try_set((0, sent.offers.len()));
                    let api = api.paced_from_the_start();
                    return send_contract_safe(&api, &sent, hours, &category, marks).await;
                }
                let windows = schedule_windows(&api, &sent.batches(), hours, &category, |a| {
                    marks.windows_answered(a)
                })
                .await?;
                Ok(PlanRun {
                    windows,
                    ..PlanRun::default()
                })
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
                results.len() + run.held.len()
            ));
            run
        },
    )
    .refusals_as_failures()
    .toast_failures("Scheduling failed")
}
