//! The plan's table of windows, and the windows the timeline draws.

use super::state::PlanState;
use super::violations::{machine_of, violation_text};
use crate::components::data_table::Column;
use crate::components::time::{datetime_local_value, format_absolute};
use crate::domain::schedule;
use gpudeck_wire::{Machine, MaintenanceWindow};
use leptos::prelude::*;
use std::collections::HashMap;

/// One row of the plan's table.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PlanRow {
    pub(super) machine_id: i64,
    hostname: String,
    gpus: i64,
    start: i64,
    end: i64,
    rentals: i64,
    scheduled: bool,
    problems: Vec<String>,
}

/// One row a machine of the plan, with the rules its window breaks.
pub(super) fn plan_rows(state: PlanState) -> Signal<Vec<PlanRow>> {
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
pub(super) fn existing_windows(state: PlanState) -> Signal<Vec<MaintenanceWindow>> {
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
pub(super) fn preview_windows(state: PlanState) -> Signal<Vec<MaintenanceWindow>> {
    Signal::derive(move || {
        let hours = i64::from(state.duration());
        let category = state.category();
        state.saved.with(|s| {
            let starts = s.starts.iter().map(|&(id, start)| (id, start as f64));
            schedule::preview_windows(starts, hours, &category, None, state.now)
        })
    })
}

/// The plan's columns; each start not yet scheduled is a field that moves it.
pub(super) fn plan_columns(
    utc: RwSignal<bool>,
    moved: Callback<(i64, String)>,
) -> Vec<Column<PlanRow>> {
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
