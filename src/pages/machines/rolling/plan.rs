//! The plan as proposed and edited: its summary, what does not fit, the offers ended
//! first, the timeline and the table of windows.

use super::offer_steps::OFFERS_ARE_SET;
use super::send::PlanActions;
use super::state::PlanState;
use super::table::{existing_windows, plan_columns, plan_rows, preview_windows, PlanRow};
use super::violations::violation_text;
use crate::components::data_table::DataTable;
use crate::components::time::{format_absolute, start_seconds};
use crate::components::timeline::MaintenanceTimeline;
use gpudeck_fleet_plan::Plan;
use leptos::prelude::*;

/// The plan: its summary and broken rules, the machines that do not fit, the offers a
/// contract-safe plan ends first, the timeline and the table of windows, and its action.
#[component]
pub(super) fn PlanSection(
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
                    <p class="muted">{OFFERS_ARE_SET}</p>
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
