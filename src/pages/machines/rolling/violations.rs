//! The rules a plan as edited breaks, in words.

use crate::components::time::format_absolute;
use gpudeck_fleet_plan::Violation;
use gpudeck_wire::maintenance::MAX_DURATION_HOURS;

/// A broken rule in words; times as the console shows them.
pub(super) fn violation_text(violation: &Violation, utc: bool) -> String {
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

pub(super) fn machine_of(violation: &Violation) -> Option<i64> {
    match violation {
        Violation::OverlapsExisting { machine_id, .. }
        | Violation::OutOfRange { machine_id, .. }
        | Violation::StartsTooEarly { machine_id, .. }
        | Violation::UnknownMachine { machine_id }
        | Violation::PlacedTwice { machine_id } => Some(*machine_id),
        Violation::DurationInvalid | Violation::CapExceeded { .. } => None,
    }
}
