//! Re-checking a plan whose starts a person edited: what breaks the rules, and the
//! summary as it now stands. Cheap enough to run on every edit (a sort of the starts and
//! ends).

use crate::order::by_id;
use crate::planner::Placement;
use crate::profile::{down_profile, PlannedWindow, Summary};
use crate::request::{Cap, PlanRequest, Span};
use std::collections::HashSet;

/// A rule an edited plan breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Violation {
    /// The duration is not 1 to 8760 whole hours.
    DurationInvalid,
    /// More than the cap is down throughout `span`; the peak within it.
    CapExceeded {
        span: Span,
        machines_down: u32,
        gpus_down: u64,
    },
    /// The machine's window overlaps one of its existing windows.
    OverlapsExisting {
        machine_id: i64,
        window: Span,
        existing: Span,
    },
    /// The window starts before the earliest start, ends after the deadline, or starts
    /// more than a year after the earliest start.
    OutOfRange { machine_id: i64, window: Span },
    /// The window starts before the machine's `not_before` time (for a contract-safe
    /// plan, before its rentals end).
    StartsTooEarly {
        machine_id: i64,
        window: Span,
        not_before: i64,
    },
    /// The plan names a machine the request does not have.
    UnknownMachine { machine_id: i64 },
    /// The plan names the machine more than once.
    PlacedTwice { machine_id: i64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    /// The placements' violations in their order, then the cap's in time order.
    pub violations: Vec<Violation>,
    /// Of the placements that name a machine of the request, once each.
    pub summary: Summary,
}

/// Checks `placements` against `request`: each window in range, not before its machine's
/// `not_before` time and clear of its machine's existing windows, and the cap kept at
/// every instant.
pub fn check_plan(request: &PlanRequest, placements: &[Placement]) -> Review {
    let machines = by_id(&request.machines);
    let mut violations = Vec::new();
    if !request.duration_is_valid() {
        violations.push(Violation::DurationInvalid);
    }
    let mut seen = HashSet::with_capacity(placements.len());
    let mut windows = Vec::with_capacity(placements.len());
    for &Placement { machine_id, start } in placements {
        let Some(&machine) = machines.get(&machine_id) else {
            violations.push(Violation::UnknownMachine { machine_id });
            continue;
        };
        if !seen.insert(machine_id) {
            violations.push(Violation::PlacedTwice { machine_id });
            continue;
        }
        let window = request.window_from(start);
        if !request.is_in_range(window) {
            violations.push(Violation::OutOfRange { machine_id, window });
        }
        if let Some(not_before) = machine.not_before.filter(|_| !machine.may_start_at(start)) {
            violations.push(Violation::StartsTooEarly {
                machine_id,
                window,
                not_before,
            });
        }
        violations.extend(
            machine
                .existing
                .iter()
                .filter(|existing| !existing.is_empty() && existing.overlaps(&window))
                .map(|&existing| Violation::OverlapsExisting {
                    machine_id,
                    window,
                    existing,
                }),
        );
        windows.push(PlannedWindow { machine, window });
    }
    violations.extend(cap_exceeded(request.cap, &windows));
    Review {
        violations,
        summary: Summary::of(&windows),
    }
}

/// Each stretch over the cap, touching stretches joined, with the peak within it.
fn cap_exceeded(cap: Cap, windows: &[PlannedWindow]) -> Vec<Violation> {
    let over = |machines: u32, gpus: u64| match cap {
        Cap::Machines(limit) => machines > limit,
        Cap::Gpus(limit) => gpus > u64::from(limit),
    };
    let mut found = Vec::new();
    for down in down_profile(windows)
        .into_iter()
        .filter(|d| over(d.machines, d.gpus))
    {
        match found.last_mut() {
            Some(Violation::CapExceeded {
                span,
                machines_down,
                gpus_down,
            }) if span.end == down.span.start => {
                span.end = down.span.end;
                *machines_down = (*machines_down).max(down.machines);
                *gpus_down = (*gpus_down).max(down.gpus);
            }
            _ => found.push(Violation::CapExceeded {
                span: down.span,
                machines_down: down.machines,
                gpus_down: down.gpus,
            }),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{busy, machine, request, T0};
    use crate::planner::plan;
    use crate::request::{MachineToPlan, HOUR};

    fn at(machine_id: i64, hour: i64) -> Placement {
        Placement {
            machine_id,
            start: T0 + hour * HOUR,
        }
    }

    #[test]
    fn the_planners_own_plan_breaks_no_rule() {
        let machines = vec![machine(1, 8, 1), machine(2, 8, 0), busy(3, &[(0, 2)])];
        let asked = request(machines, 2, Cap::Machines(2), 48);
        let planned = plan(&asked);
        let review = check_plan(&asked, &planned.placements);
        assert_eq!(review.violations, []);
        assert_eq!(review.summary, planned.summary);
    }

    #[test]
    fn each_broken_rule_is_named_with_its_machine_or_time() {
        let machines = vec![
            machine(1, 8, 1),
            machine(2, 8, 0),
            busy(3, &[(0, 2), (5, 6)]),
            machine(4, 8, 0),
        ];
        let asked = request(machines, 2, Cap::Machines(2), 48);
        let edited = [at(1, 0), at(2, 1), at(3, 1), at(4, 47), at(9, 3), at(2, 4)];
        let review = check_plan(&asked, &edited);
        let window = |hour| Span::new(T0 + hour * HOUR, T0 + (hour + 2) * HOUR);
        assert_eq!(
            review.violations,
            [
                Violation::OverlapsExisting {
                    machine_id: 3,
                    window: window(1),
                    existing: Span::new(T0, T0 + 2 * HOUR),
                },
                Violation::OutOfRange {
                    machine_id: 4,
                    window: window(47),
                },
                Violation::UnknownMachine { machine_id: 9 },
                Violation::PlacedTwice { machine_id: 2 },
                Violation::CapExceeded {
                    span: Span::new(T0 + HOUR, T0 + 2 * HOUR),
                    machines_down: 3,
                    gpus_down: 17,
                },
            ]
        );
        assert_eq!(review.summary.machines_planned, 4);
        assert_eq!(review.summary.peak_machines_down, 3);
        assert_eq!(review.summary.finish, Some(T0 + 49 * HOUR));
    }

    #[test]
    fn a_window_before_its_machines_not_before_time_is_named() {
        let held = MachineToPlan {
            not_before: Some(T0 + 3 * HOUR),
            ..machine(1, 8, 1)
        };
        let asked = request(vec![held, machine(2, 8, 0)], 2, Cap::Machines(2), 48);
        assert_eq!(check_plan(&asked, &[at(1, 3), at(2, 0)]).violations, []);
        assert_eq!(
            check_plan(&asked, &[at(1, 2), at(2, 0)]).violations,
            [Violation::StartsTooEarly {
                machine_id: 1,
                window: Span::new(T0 + 2 * HOUR, T0 + 4 * HOUR),
                not_before: T0 + 3 * HOUR,
            }]
        );
    }

    #[test]
    fn touching_stretches_over_the_cap_are_one_violation_with_its_peak() {
        let machines = (1..=4).map(|id| machine(id, 4, 0)).collect();
        let asked = request(machines, 2, Cap::Gpus(4), 48);
        let edited = [at(1, 0), at(2, 0), at(3, 1), at(4, 2), at(4, 9)];
        let review = check_plan(&asked, &edited);
        assert_eq!(
            review.violations,
            [
                Violation::PlacedTwice { machine_id: 4 },
                Violation::CapExceeded {
                    span: Span::new(T0, T0 + 3 * HOUR),
                    machines_down: 3,
                    gpus_down: 12,
                }
            ]
        );
        let invalid = request(vec![machine(1, 1, 0)], 0, Cap::Machines(1), 48);
        assert_eq!(
            check_plan(&invalid, &[at(1, 0)]).violations,
            [Violation::DurationInvalid]
        );
    }
}
