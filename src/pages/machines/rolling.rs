//! Planning rolling maintenance for a selection of machines (`/machines/rolling?ids=…`):
//! the planner proposes a start for each machine so that no more than a cap is down at
//! once, around the windows they already have; a person may move any start (the plan is
//! checked again at once) and schedules it, one N4 request per distinct start.
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
use crate::domain::bulk::PacedAction;
use crate::domain::fleet::{load_fleet, schedule_windows, Fleet};
use crate::domain::rolling::{
    check_inputs, request_of, unsure_words, CapKind, Input, Problem, RollingInputs, SavedPlan,
};
use crate::domain::schedule::{ItemOutcome, ItemResult};
use crate::routes::{rolling_path, with_machine_ids, MAINTENANCE};
use crate::storage::Stored;
use gpudeck_fleet_plan::{batches, check_plan, plan, Plan, Violation};
use gpudeck_wire::{MaintenanceCategory, MaintenanceWindow};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use std::collections::HashMap;

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
        Violation::DurationInvalid => "The duration must be 1 to 8760 whole hours.".into(),
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
        <Page class="rolling" entry=&gpudeck_pages::ROLLING lede="Take a set of machines down for maintenance one group after another: the planner proposes when each goes down so that no more than you allow are down at once, around the windows they already have, with the busiest machines last.">
            {ResourceView::new(data, "Loading your machines…")
                .show(move |fleet| view! { <Planner fleet=fleet/> })}
        </Page>
    }
}

#[component]
fn Planner(fleet: Fleet) -> impl IntoView {
    let utc = use_utc();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let query = use_query_map();
    let fleet = StoredValue::new(fleet);
    let now = now_seconds();

    // What the address asks for, and the form's draft of it.
    let asked = Memo::new(move |_| query.with(|q| RollingInputs::from_params(|name| q.get(name))));
    let start = asked.get_untracked();
    let ids = RwSignal::new(start.ids.clone());
    let from = RwSignal::new(start.from.clone());
    let until = RwSignal::new(start.until.clone());
    let hours = RwSignal::new(start.hours.clone());
    let cap = RwSignal::new(start.cap.clone());
    let cap_kind = RwSignal::new(start.cap_kind);
    let category = RwSignal::new(start.category.clone());
    let first = RwSignal::new(start.first.clone());
    let last = RwSignal::new(start.last.clone());
    let submitted = RwSignal::new(!start.from.is_empty() || !start.until.is_empty());

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
    let proposal: Memo<Option<Plan>> =
        Memo::new(move |_| request.with(|r| r.as_ref().map(|(r, _)| plan(r))));

    // The plan in use: the one kept for this address, else the planner's.
    let saved = RwSignal::new(SavedPlan::default());
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
    let review = Memo::new(move |_| {
        request.with(|r| {
            r.as_ref()
                .map(|(request, _)| saved.with(|s| check_plan(request, &s.placements())))
        })
    });

    let problems = move || -> Vec<Problem> {
        if !submitted.get() {
            return Vec::new();
        }
        settings.get().err().unwrap_or_default()
    };
    let problem_of = move |input: Input| {
        Signal::derive(move || {
            let found: Vec<String> = problems()
                .into_iter()
                .filter(|p| p.input == input)
                .map(|p| p.message)
                .collect();
            (!found.is_empty()).then(|| found.join(" "))
        })
    };

    let duration = move || settings.with(|s| s.as_ref().map_or(1, |s| s.duration_hours));
    let rows = Signal::derive(move || {
        let utc = utc.get();
        let hours = i64::from(duration());
        let mut by_machine: HashMap<i64, Vec<String>> = HashMap::new();
        review.with(|r| {
            for violation in r.iter().flat_map(|r| r.violations.iter()) {
                if let Some(id) = machine_of(violation) {
                    by_machine
                        .entry(id)
                        .or_default()
                        .push(violation_text(violation, utc));
                }
            }
        });
        let machines = fleet.with_value(|f| {
            f.machines
                .iter()
                .map(|m| (m.id, m.clone()))
                .collect::<HashMap<_, _>>()
        });
        saved.with(|s| {
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
                .collect::<Vec<_>>()
        })
    });

    let existing = Signal::derive(move || {
        let planned: Vec<i64> = saved.with(|s| s.starts.iter().map(|(id, _)| *id).collect());
        fleet.with_value(|f| {
            f.windows
                .iter()
                .filter(|w| planned.contains(&w.machine_id))
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let preview = Signal::derive(move || {
        let hours = duration();
        let category = settings.with(|s| {
            s.as_ref()
                .map_or(MaintenanceCategory::Other, |s| s.category.clone())
        });
        saved.with(|s| {
            s.starts
                .iter()
                .enumerate()
                .map(|(i, &(machine_id, start))| MaintenanceWindow {
                    id: -(i as i64) - 1,
                    machine_id,
                    start_time: start as f64,
                    duration_hours: i64::from(hours),
                    maintenance_category: category.clone(),
                    maintenance_reason: None,
                    created_at: now,
                    cancelled_at: None,
                    end_time: (start + i64::from(hours) * 3600) as f64,
                    scheduled_by_marketplace: false,
                })
                .collect::<Vec<_>>()
        })
    });

    let progress = RunProgress::new();
    let schedule = ConfirmedAction::new(
        move |api: ApiClient, sent: Vec<(i64, Vec<i64>)>| {
            let total = sent.iter().map(|(_, ids)| ids.len()).sum();
            let api = progress.start(&api, total);
            let hours = i64::from(duration());
            let category = settings.with_untracked(|s| {
                s.as_ref()
                    .map_or(MaintenanceCategory::Other, |s| s.category.clone())
            });
            let windows: Vec<(f64, Vec<i64>)> = sent
                .into_iter()
                .map(|(start, ids)| (start as f64, ids))
                .collect();
            async move {
                // Each machine is marked scheduled as its answer comes, so that a reload
                // mid-way does not send it again.
                schedule_windows(&api, &windows, hours, &category, |answered| {
                    progress.count(answered.len());
                    saved.try_update(|s| {
                        for result in answered {
                            if matches!(result.outcome, ItemOutcome::Scheduled { .. }) {
                                s.scheduled.insert(result.machine_id);
                            }
                        }
                    });
                })
                .await
            }
        },
        move |_, results: Vec<ItemResult>| {
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
            results
        },
    )
    .refusals_as_failures()
    .toast_failures("Scheduling failed");
    let pending = schedule.pending();
    let remaining = move || saved.with(SavedPlan::remaining);
    let ask_schedule = move |_| {
        let sent: Vec<(i64, Vec<i64>)> = batches(&remaining())
            .into_iter()
            .map(|b| (b.start, b.machine_ids))
            .collect();
        if !sent.is_empty() {
            schedule.ask(sent);
        }
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
        };
        navigate(&rolling_path(&inputs.query()), Default::default());
    };

    let moved = move |machine_id: i64, text: String| {
        if let Some(start) = start_seconds(&text, utc.get_untracked()) {
            saved.update(|s| s.move_start(machine_id, start as i64));
        }
    };
    let columns = plan_columns(utc, Callback::new(move |(id, text)| moved(id, text)));
    let zone = move || if utc.get() { "UTC" } else { "your time zone" };
    view! {
        <form class="rolling-form" on:submit=submit novalidate>
            <FormField id="rolling-machines" label="Machines" hint="Ids or ranges, e.g. 1001-1020, 1042." error=problem_of(Input::Machines)>
                <TextInput kind=TextKind::Plain text=ids/>
            </FormField>
            <FormField id="rolling-from" label=view! { "Earliest start " <span class="zone">{move || format!("({})", zone())}</span> }
                error=problem_of(Input::From) beside=|| view! { <UtcToggle/> }>
                <input type="datetime-local" prop:value=from on:input=move |ev| from.set(event_target_value(&ev))/>
            </FormField>
            <FormField id="rolling-until" label=view! { "Deadline " <span class="zone">{move || format!("({})", zone())}</span> }
                error=problem_of(Input::Until)>
                <input type="datetime-local" prop:value=until on:input=move |ev| until.set(event_target_value(&ev))/>
            </FormField>
            <FormField id="rolling-hours" label="Duration per machine (whole hours)" error=problem_of(Input::Hours)>
                <TextInput kind=TextKind::Whole text=hours/>
            </FormField>
            // What the cap counts is a unit of the cap, not a field of its own.
            <FormField id="rolling-cap" label="At most down at once" error=problem_of(Input::Cap) class="field with-unit"
                beside=move || view! {
                    <select id="rolling-cap-kind" aria-label="What the cap counts"
                        prop:value=move || cap_kind.get().key()
                        on:change=move |ev| cap_kind.set(CapKind::from_key(&event_target_value(&ev)))>
                        <option value="machines">"machines"</option>
                        <option value="gpus">"GPUs"</option>
                    </select>
                }>
                <TextInput kind=TextKind::Whole text=cap/>
            </FormField>
            <FormField id="rolling-category" label="Category">
                <select
                    prop:value=move || category_key(&category.get())
                    on:change=move |ev| category.set(MaintenanceCategory::from_stored(&event_target_value(&ev)))>
                    {MaintenanceCategory::KNOWN.into_iter().map(|c| view! {
                        <option value=category_key(&c)>{c.label().to_owned()}</option>
                    }).collect_view()}
                </select>
            </FormField>
            <FormField id="rolling-first" label="Pinned first (optional)" hint="Machines that go down before all others." error=problem_of(Input::Pins)>
                <TextInput kind=TextKind::Plain text=first/>
            </FormField>
            <FormField id="rolling-last" label="Pinned last (optional)" hint="Machines that go down after all others.">
                <TextInput kind=TextKind::Plain text=last/>
            </FormField>
            <div class="form-actions">
                <button type="submit" class="button primary">"Plan"</button>
            </div>
        </form>

        {move || proposal.get().map(|proposed| {
            let not_yours = request.with(|r| r.as_ref().map(|(_, n)| n.clone()).unwrap_or_default());
            let unfit_count = proposed.unplaced.len() + not_yours.len();
            view! {
                <section class="plan" aria-labelledby="plan-heading">
                    <h2 id="plan-heading">"The plan"</h2>
                    {move || review.get().map(|r| {
                        let s = r.summary;
                        view! {
                            <dl class="plan-summary" data-testid="plan-summary">
                                <div><dt>"Machines planned"</dt><dd data-testid="planned-count">{s.machines_planned}</dd></div>
                                <div><dt>"Peak machines down"</dt><dd data-testid="peak-machines">{s.peak_machines_down}</dd></div>
                                <div><dt>"Peak GPUs down"</dt><dd>{s.peak_gpus_down}</dd></div>
                                <div><dt>"Renters notified"</dt><dd>{s.renters_notified}</dd></div>
                                <div><dt>"Finished by"</dt><dd>{s.finish.map_or_else(|| "—".to_owned(), |t| format_absolute(t as f64, utc.get()))}</dd></div>
                            </dl>
                            {(!r.violations.is_empty()).then(|| view! {
                                <div class="warning" role="status" data-testid="plan-violations">
                                    <p><strong>{format!("The plan as edited breaks {} rules:", r.violations.len())}</strong></p>
                                    <ul>{r.violations.iter().map(|v| view! { <li>{violation_text(v, utc.get())}</li> }).collect_view()}</ul>
                                </div>
                            })}
                        }
                    })}
                    {(unfit_count > 0).then(|| view! {
                        <div class="warning" data-testid="plan-unfit">
                            <p><strong>{format!("{unfit_count} machines do not fit:")}</strong></p>
                            <ul>
                                {not_yours.iter().map(|id| view! { <li>{format!("Machine {id}: it is not one of your machines.")}</li> }).collect_view()}
                                {proposed.unplaced.iter().map(|u| view! { <li data-machine-id=u.machine_id>{format!("Machine {}: {}.", u.machine_id, u.reason)}</li> }).collect_view()}
                            </ul>
                        </div>
                    })}
                    {move || (!preview.with(Vec::is_empty)).then(|| view! {
                        <MaintenanceTimeline windows=existing now=Signal::stored(now) preview=preview/>
                    })}
                    <DataTable
                        rows=rows
                        columns=columns.clone()
                        row_key=|r: &PlanRow| r.machine_id.to_string()
                        empty="No machine fits this plan."
                        csv_name="rolling-plan"
                        caption="The plan: each machine's window"
                        url_prefix="plan_"
                    />
                    <div class="form-actions">
                        {move || {
                            let left = saved.with(|s| s.remaining().len());
                            let done = saved.with(|s| s.scheduled.len());
                            let unsure: Vec<i64> = saved.with(|s| s.unsure.iter().copied().collect());
                            match (left, done) {
                                (0, _) if !unsure.is_empty() => view! {
                                    <p data-testid="plan-unsure">{unsure_words(&unsure)}</p>
                                    <a class="button" href=with_machine_ids(MAINTENANCE, &unsure)>"Check their maintenance"</a>
                                }.into_any(),
                                (0, 0) => view! { <p class="muted">"Nothing to schedule."</p> }.into_any(),
                                (0, _) => view! {
                                    <p data-testid="plan-done">{format!("All {done} windows are scheduled.")}</p>
                                    <a class="button" href=with_machine_ids(MAINTENANCE, &saved.with(|s| s.scheduled.iter().copied().collect::<Vec<_>>()))>"Show their maintenance"</a>
                                }.into_any(),
                                (left, _) => view! {
                                    <button type="button" class="button primary" data-action="schedule-plan" disabled=pending on:click=ask_schedule>
                                        {move || if pending.get() { "Scheduling…".to_owned() } else if done > 0 { format!("Schedule the {left} remaining…") } else { format!("Schedule {left} windows…") }}
                                    </button>
                                }.into_any(),
                            }
                        }}
                    </div>
                </section>
            }
        })}

        <ActionDialog action=schedule title="Schedule this plan?" confirm_label="Schedule">
            {move || schedule.asked().map(|sent| {
                let machines: usize = sent.iter().map(|(_, ids)| ids.len()).sum();
                view! {
                    <p>{format!("{machines} windows of {} hours, sent in {} requests (one per start). Renters on these machines are told.", duration(), sent.len())}</p>
                    {PacedAction::ScheduleEachStart.duration_sentence(sent.len()).map(|takes| view! {
                        <p data-testid="paced-duration">{format!("{takes}.")}</p>
                    })}
                }
            })}
        </ActionDialog>
        <RunProgressBar progress=progress running=pending done_verb="Scheduled" id="rolling-progress"/>
        {schedule.failure_view()}
        {move || schedule.done().map(|results| view! {
            <section class="result" data-testid="plan-result" aria-labelledby="plan-result-heading">
                <h2 id="plan-result-heading">"Results"</h2>
                <ItemResults results=results/>
            </section>
        })}
    }
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
