//! The plan itself: a start for every machine that fits, a reason for every one that
//! does not.
//!
//! Greedy, in policy order ([`policy_order`]): each machine takes the earliest start on
//! the grid (the earliest start plus whole hours) at which its window stays in range,
//! overlaps none of its existing windows and keeps the cap in every hour it covers, given
//! the machines placed before it. The grid makes the load per hour exact, so the search
//! is a scan of hours that skips full stretches ([`HourLoad`]) and jumps over existing
//! windows; 5,000 machines take a few milliseconds.

use crate::hour_load::HourLoad;
use crate::order::policy_order;
use crate::profile::{PlannedWindow, Summary};
use crate::request::{Cap, MachineToPlan, PlanRequest, Span, HOUR};
use gpudeck_wire::MaintenanceCategory;
use std::collections::HashSet;
use std::fmt;

/// A machine's window as planned (or as a person moved it): it lasts the request's
/// duration from `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    pub machine_id: i64,
    /// Unix seconds.
    pub start: i64,
}

/// Why a machine got no window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unfit {
    /// The duration is not 1 to 8760 whole hours.
    DurationInvalid,
    /// Not even one window fits between the earliest start and the deadline.
    DeadlineTooClose,
    /// The cap allows no machine down at all.
    CapIsZero,
    /// This machine alone has more GPUs than may be down at once.
    MoreGpusThanCap { gpus: u32, cap: u32 },
    /// Its existing windows leave no gap as long as the duration before the deadline.
    NoGapBeforeDeadline,
    /// It has gaps, but machines earlier in the order fill the cap in all of them.
    CapFullBeforeDeadline,
    /// Its id came earlier in the order already (N4 schedules a machine once a batch).
    DuplicateMachine,
    /// The time it may not go down before (for a contract-safe plan, when its rentals
    /// end) leaves no window that ends by the deadline.
    NotBeforeTooLate,
}

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unfit::DurationInvalid => f.write_str("the duration must be 1 to 8760 whole hours"),
            Unfit::DeadlineTooClose => {
                f.write_str("no window of this duration fits before the deadline")
            }
            Unfit::CapIsZero => f.write_str("the cap allows no machine down"),
            Unfit::MoreGpusThanCap { gpus, cap } => {
                write!(f, "it has {gpus} GPUs, more than the cap of {cap}")
            }
            Unfit::NoGapBeforeDeadline => {
                f.write_str("its existing windows leave no gap before the deadline")
            }
            Unfit::CapFullBeforeDeadline => {
                f.write_str("the cap is full in every gap before the deadline")
            }
            Unfit::DuplicateMachine => f.write_str("it is listed more than once"),
            Unfit::NotBeforeTooLate => {
                f.write_str("it may not go down early enough for a window before the deadline")
            }
        }
    }
}

/// A machine the plan leaves out, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unplaced {
    pub machine_id: i64,
    pub reason: Unfit,
}

/// The proposal: every machine of the request is in `placements` or in `unplaced`, once.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub category: MaintenanceCategory,
    pub duration_hours: u32,
    /// In policy order.
    pub placements: Vec<Placement>,
    /// In policy order.
    pub unplaced: Vec<Unplaced>,
    pub summary: Summary,
}

/// Plans every machine of `request` (see the module's notes for how).
pub fn plan(request: &PlanRequest) -> Plan {
    let order = policy_order(&request.machines);
    let mut windows = Vec::with_capacity(order.len());
    let mut unplaced = Vec::new();
    match unfit_request(request) {
        Some(reason) => unplaced.extend(order.iter().map(|&index| Unplaced {
            machine_id: request.machines[index].id,
            reason,
        })),
        None => {
            let mut grid = Grid::new(request);
            let mut seen = HashSet::with_capacity(order.len());
            for machine in order.iter().map(|&index| &request.machines[index]) {
                let fitted = if seen.insert(machine.id) {
                    grid.place(machine)
                } else {
                    Err(Unfit::DuplicateMachine)
                };
                match fitted {
                    Ok(window) => windows.push(PlannedWindow { machine, window }),
                    Err(reason) => unplaced.push(Unplaced {
                        machine_id: machine.id,
                        reason,
                    }),
                }
            }
        }
    }
    Plan {
        category: request.category.clone(),
        duration_hours: request.duration_hours,
        placements: windows
            .iter()
            .map(|p| Placement {
                machine_id: p.machine.id,
                start: p.window.start,
            })
            .collect(),
        unplaced,
        summary: Summary::of(&windows),
    }
}

/// A reason no machine at all can be placed.
fn unfit_request(request: &PlanRequest) -> Option<Unfit> {
    if !request.duration_is_valid() {
        Some(Unfit::DurationInvalid)
    } else if request.latest_start() < request.earliest_start {
        Some(Unfit::DeadlineTooClose)
    } else if request.cap == Cap::Machines(0) {
        Some(Unfit::CapIsZero)
    } else {
        None
    }
}

/// The hours a start may fall on and the load already placed in them.
struct Grid<'a> {
    request: &'a PlanRequest,
    hours: usize,
    last_start: usize,
    load: HourLoad,
}

impl<'a> Grid<'a> {
    /// For a request [`unfit_request`] accepts.
    fn new(request: &'a PlanRequest) -> Self {
        let cap = request.cap;
        let weights = request.machines.iter().map(|m| cap.weight(m.gpus));
        Grid {
            request,
            hours: request.duration_hours as usize,
            // At most a year of hours (MAX_LEAD), so this fits.
            last_start: ((request.latest_start() - request.earliest_start) / HOUR) as usize,
            load: HourLoad::new(cap.limit(), weights),
        }
    }

    fn place(&mut self, machine: &MachineToPlan) -> Result<Span, Unfit> {
        let cap = self.request.cap;
        let weight = cap.weight(machine.gpus);
        if weight > cap.limit() {
            return Err(Unfit::MoreGpusThanCap {
                gpus: machine.gpus,
                cap: cap.limit(),
            });
        }
        let from = machine
            .not_before
            .map_or(0, |time| self.first_hour_from(time));
        if from > self.last_start {
            return Err(Unfit::NotBeforeTooLate);
        }
        let busy = merged(&machine.existing);
        match self.first_fit(from, weight, &busy) {
            Some(hour) => {
                self.load.add(hour, self.hours, weight);
                Ok(self.window_at(hour))
            }
            None if self.first_fit(from, 0, &busy).is_some() => Err(Unfit::CapFullBeforeDeadline),
            None => Err(Unfit::NoGapBeforeDeadline),
        }
    }

    /// The first hour on the grid from `from` where a window of `weight` keeps the cap and
    /// misses `busy` (sorted, disjoint); a weight of 0 ignores the cap.
    fn first_fit(&mut self, from: usize, weight: u32, busy: &[Span]) -> Option<usize> {
        let mut hour = from;
        let mut next_busy = 0;
        loop {
            hour = self.load.first_run(hour, self.hours, weight);
            if hour > self.last_start {
                return None;
            }
            let window = self.window_at(hour);
            while busy.get(next_busy).is_some_and(|b| b.end <= window.start) {
                next_busy += 1;
            }
            match busy.get(next_busy) {
                Some(blocking) if blocking.start < window.end => {
                    hour = self.first_hour_from(blocking.end)
                }
                _ => return Some(hour),
            }
        }
    }

    fn window_at(&self, hour: usize) -> Span {
        self.request
            .window_from(self.request.earliest_start + hour as i64 * HOUR)
    }

    /// The first hour on the grid at or after `time`; past the last start, one past it.
    fn first_hour_from(&self, time: i64) -> usize {
        let after = i128::from(time) - i128::from(self.request.earliest_start);
        let hour = (after.max(0) + i128::from(HOUR) - 1) / i128::from(HOUR);
        hour.min(self.last_start as i128 + 1) as usize
    }
}

/// The spans sorted, without empty ones, those that overlap or touch joined into one.
fn merged(spans: &[Span]) -> Vec<Span> {
    let mut sorted: Vec<Span> = spans.iter().copied().filter(|s| !s.is_empty()).collect();
    sorted.sort_unstable();
    let mut joined: Vec<Span> = Vec::with_capacity(sorted.len());
    for span in sorted {
        match joined.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => joined.push(span),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{busy, machine, request, T0};
    use crate::request::{Pin, MAX_HOURS, MAX_LEAD};

    fn starts(plan: &Plan) -> Vec<(i64, i64)> {
        plan.placements
            .iter()
            .map(|p| (p.machine_id, (p.start - T0) / 60))
            .collect()
    }

    fn reasons(plan: &Plan) -> Vec<(i64, Unfit)> {
        plan.unplaced
            .iter()
            .map(|u| (u.machine_id, u.reason))
            .collect()
    }

    #[test]
    fn a_cap_of_two_machines_takes_the_fleet_down_two_at_a_time() {
        let machines = (1..=5).rev().map(|id| machine(id, 8, 0)).collect();
        let plan = plan(&request(machines, 2, Cap::Machines(2), 48));
        // Minutes after the earliest start.
        assert_eq!(
            starts(&plan),
            [(1, 0), (2, 0), (3, 120), (4, 120), (5, 240)]
        );
        assert!(plan.unplaced.is_empty());
        assert_eq!(plan.category, MaintenanceCategory::Software);
        assert_eq!(plan.duration_hours, 2);
        assert_eq!(
            plan.summary,
            Summary {
                machines_planned: 5,
                peak_machines_down: 2,
                peak_gpus_down: 16,
                renters_notified: 0,
                finish: Some(T0 + 6 * HOUR),
            }
        );
    }

    #[test]
    fn idle_machines_go_first_and_pinned_ones_where_pinned() {
        let machines = vec![
            machine(1, 8, 3),
            machine(2, 8, 0),
            machine(3, 8, 1),
            MachineToPlan {
                pin: Pin::Last,
                ..machine(4, 8, 0)
            },
            MachineToPlan {
                pin: Pin::First,
                ..machine(5, 8, 7)
            },
        ];
        let plan = plan(&request(machines, 1, Cap::Machines(1), 48));
        assert_eq!(
            starts(&plan),
            [(5, 0), (2, 60), (3, 120), (1, 180), (4, 240)]
        );
        assert_eq!(plan.summary.renters_notified, 11);
    }

    #[test]
    fn a_window_goes_around_existing_ones_on_the_hour_grid() {
        let mid_hour = MachineToPlan {
            existing: vec![Span::new(T0, T0 + 3 * HOUR + 600)],
            ..machine(3, 1, 0)
        };
        let machines = vec![
            busy(1, &[(0, 3)]),
            busy(2, &[(2, 5), (9, 10)]), // 2 hours fit before 2h: touching is fine
            mid_hour,
            busy(4, &[(1, 2), (5, 6), (3, 4)]), // gaps of 1 hour, then free from 6h
            busy(5, &[(-5, 40)]),
        ];
        let plan = plan(&request(machines, 2, Cap::Machines(10), 48));
        assert_eq!(
            starts(&plan),
            [(1, 180), (2, 0), (3, 240), (4, 360), (5, 2400)]
        );
    }

    #[test]
    fn the_grid_follows_an_earliest_start_off_the_hour() {
        let mut asked = request(
            vec![busy(1, &[(0, 1)]), machine(2, 1, 0)],
            1,
            Cap::Machines(1),
            4,
        );
        asked.earliest_start = T0 + 1800;
        assert_eq!(starts(&plan(&asked)), [(1, 90), (2, 30)]);
    }

    #[test]
    fn a_gpu_cap_weighs_each_machine_by_its_gpus() {
        let machines = vec![
            machine(1, 8, 0),
            machine(2, 4, 0),
            machine(3, 4, 0),
            machine(4, 12, 0),
            machine(5, 0, 0),
        ];
        let plan = plan(&request(machines, 1, Cap::Gpus(8), 48));
        assert_eq!(starts(&plan), [(1, 0), (2, 60), (3, 60), (5, 0)]);
        assert_eq!(
            reasons(&plan),
            [(4, Unfit::MoreGpusThanCap { gpus: 12, cap: 8 })]
        );
        assert_eq!(plan.summary.peak_gpus_down, 8);
        assert_eq!(plan.summary.peak_machines_down, 2);
    }

    #[test]
    fn every_machine_that_does_not_fit_is_named_with_its_reason() {
        let two = || vec![machine(1, 1, 0), machine(2, 1, 0)];
        let all = |reason| vec![(1, reason), (2, reason)];
        let invalid = plan(&request(two(), 0, Cap::Machines(1), 48));
        assert_eq!(reasons(&invalid), all(Unfit::DurationInvalid));
        let too_long = plan(&request(two(), MAX_HOURS + 1, Cap::Machines(1), 20_000));
        assert_eq!(reasons(&too_long), all(Unfit::DurationInvalid));
        let close = plan(&request(two(), 4, Cap::Machines(1), 3));
        assert_eq!(reasons(&close), all(Unfit::DeadlineTooClose));
        let zero = plan(&request(two(), 1, Cap::Machines(0), 48));
        assert_eq!(reasons(&zero), all(Unfit::CapIsZero));
        assert_eq!(zero.summary, Summary::default());

        let machines = vec![
            busy(1, &[(0, 2), (3, 4)]),
            machine(2, 1, 0),
            machine(3, 1, 0),
            machine(2, 1, 0),
        ];
        let crowded = plan(&request(machines, 2, Cap::Machines(1), 4));
        assert_eq!(starts(&crowded), [(2, 0), (3, 120)]);
        assert_eq!(
            reasons(&crowded),
            [
                (1, Unfit::NoGapBeforeDeadline),
                (2, Unfit::DuplicateMachine)
            ]
        );
        let full = plan(&request(
            vec![machine(1, 1, 0), machine(2, 1, 0)],
            2,
            Cap::Machines(1),
            2,
        ));
        assert_eq!(reasons(&full), [(2, Unfit::CapFullBeforeDeadline)]);
        assert_eq!(
            Unfit::MoreGpusThanCap { gpus: 12, cap: 8 }.to_string(),
            "it has 12 GPUs, more than the cap of 8"
        );
    }

    #[test]
    fn no_window_starts_more_than_a_year_after_the_earliest_start() {
        let machines = (1..=3).map(|id| machine(id, 1, 0)).collect();
        let plan = plan(&request(machines, MAX_HOURS, Cap::Machines(1), 3 * 8760));
        assert_eq!(
            plan.placements,
            [
                Placement {
                    machine_id: 1,
                    start: T0
                },
                Placement {
                    machine_id: 2,
                    start: T0 + MAX_LEAD
                }
            ]
        );
        assert_eq!(reasons(&plan), [(3, Unfit::CapFullBeforeDeadline)]);
    }

    #[test]
    fn no_window_starts_before_its_machines_not_before_time() {
        let after = |id, hours: i64| MachineToPlan {
            not_before: Some(T0 + hours * 60),
            ..machine(id, 1, 0)
        };
        // Minutes: 90 rounds up to the grid's 120; a past time holds nothing back; a time
        // after the last start that ends by the deadline leaves no window.
        let machines = vec![
            after(1, 90),
            after(2, -600),
            after(3, 6 * 60 + 1),
            MachineToPlan {
                existing: vec![Span::new(T0 + 2 * HOUR, T0 + 3 * HOUR)],
                ..after(4, 60)
            },
            machine(5, 1, 0),
        ];
        let planned = plan(&request(machines, 2, Cap::Machines(10), 8));
        assert_eq!(starts(&planned), [(1, 120), (2, 0), (4, 180), (5, 0)]);
        assert_eq!(reasons(&planned), [(3, Unfit::NotBeforeTooLate)]);
        assert_eq!(
            Unfit::NotBeforeTooLate.to_string(),
            "it may not go down early enough for a window before the deadline"
        );
    }

    #[test]
    fn existing_windows_are_sorted_and_joined() {
        let spans = [
            Span::new(50, 60),
            Span::new(0, 10),
            Span::new(10, 20),
            Span::new(5, 8),
            Span::new(30, 30),
        ];
        assert_eq!(merged(&spans), [Span::new(0, 20), Span::new(50, 60)]);
    }
}
