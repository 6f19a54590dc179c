//! The planner's promises over random fleets, windows, ranges and caps, and a naive
//! planner (every hour tried, the load counted afresh) that it must agree with exactly.

use gpudeck_fleet_plan::{
    batches, check_plan, plan, Cap, MachineToPlan, Pin, Placement, Plan, PlanRequest, Span, Unfit,
    Unplaced, HOUR, MAX_LEAD,
};
use gpudeck_wire::MaintenanceCategory;
use proptest::prelude::*;
use std::collections::BTreeMap;

const T0: i64 = 1_800_000_000;

/// Seconds within `hours`: half the time whole hours, so that windows touch the grid.
fn on_the_hour_or_not(hours: std::ops::Range<i64>) -> impl Strategy<Value = i64> {
    let seconds = hours.start * HOUR..hours.end * HOUR;
    prop_oneof![hours.prop_map(|h| h * HOUR), seconds]
}

fn machine() -> impl Strategy<Value = MachineToPlan> {
    let window = (on_the_hour_or_not(-10..60), on_the_hour_or_not(1..10))
        .prop_map(|(start, length)| Span::new(T0 + start, T0 + start + length));
    let pin = prop_oneof![Just(Pin::First), Just(Pin::Unpinned), Just(Pin::Last)];
    // Before the range, inside it (on the hour or not) and past it.
    let not_before = prop::option::of(on_the_hour_or_not(-5..90).prop_map(|t| T0 + t));
    (
        (0u32..=8, 0u32..=4, 0u32..=8),
        prop::collection::vec(window, 0..4),
        pin,
        not_before,
    )
        .prop_map(
            |((gpus, running_rentals, reserved_gpus), existing, pin, not_before)| MachineToPlan {
                id: 0,
                gpus,
                running_rentals,
                reserved_gpus,
                existing,
                pin,
                not_before,
            },
        )
}

fn request() -> impl Strategy<Value = PlanRequest> {
    let cap = prop_oneof![
        (0u32..6).prop_map(Cap::Machines),
        (0u32..20).prop_map(Cap::Gpus)
    ];
    (
        prop::collection::vec(machine(), 0..40),
        on_the_hour_or_not(0..1),
        on_the_hour_or_not(0..80),
        0u32..=6,
        cap,
    )
        .prop_map(|(mut machines, offset, range, duration_hours, cap)| {
            // Distinct ids, in no relation to the other fields.
            for (index, machine) in machines.iter_mut().enumerate() {
                machine.id = (index as i64 * 7919) % 10_007 + 1;
            }
            PlanRequest {
                machines,
                earliest_start: T0 + offset,
                deadline: T0 + offset + range,
                duration_hours,
                cap,
                category: MaintenanceCategory::Disk,
            }
        })
}

/// The windows of `plan`, with each machine's GPUs.
fn windows(request: &PlanRequest, plan: &Plan) -> Vec<(i64, Span, u32)> {
    plan.placements
        .iter()
        .map(|p| {
            let machine = request.machines.iter().find(|m| m.id == p.machine_id);
            let gpus = machine.expect("a planned machine was asked for").gpus;
            (p.machine_id, request.window_from(p.start), gpus)
        })
        .collect()
}

/// The machines and GPUs down at `instant`.
fn down_at(windows: &[(i64, Span, u32)], instant: i64) -> (u32, u32) {
    windows
        .iter()
        .filter(|(_, w, _)| w.start <= instant && instant < w.end)
        .fold((0, 0), |(machines, gpus), (_, _, g)| {
            (machines + 1, gpus + g)
        })
}

fn keeps_cap(cap: Cap, windows: &[(i64, Span, u32)]) -> bool {
    // The load only rises where a window starts, so checking those instants suffices.
    windows.iter().all(|(_, window, _)| {
        let (machines, gpus) = down_at(windows, window.start);
        match cap {
            Cap::Machines(limit) => machines <= limit,
            Cap::Gpus(limit) => gpus <= limit,
        }
    })
}

/// The same greedy, done the slow way: every hour of the grid tried in turn.
fn naive_plan(request: &PlanRequest) -> (Vec<Placement>, Vec<Unplaced>) {
    let mut order: Vec<&MachineToPlan> = request.machines.iter().collect();
    order.sort_by_key(|m| (m.pin, m.running_rentals, m.reserved_gpus, m.id));
    let latest = (request.deadline - i64::from(request.duration_hours) * HOUR)
        .min(request.earliest_start + MAX_LEAD);
    let whole = if !(1..=8760).contains(&request.duration_hours) {
        Some(Unfit::DurationInvalid)
    } else if latest < request.earliest_start {
        Some(Unfit::DeadlineTooClose)
    } else if request.cap == Cap::Machines(0) {
        Some(Unfit::CapIsZero)
    } else {
        None
    };
    let (mut placed, mut unplaced) = (Vec::new(), Vec::new());
    let mut down: Vec<(i64, Span, u32)> = Vec::new();
    for machine in order {
        let fits = |start: i64, mind_cap: bool| {
            let window = request.window_from(start);
            let mut with = down.clone();
            with.push((machine.id, window, machine.gpus));
            machine.not_before.is_none_or(|time| start >= time)
                && !machine.existing.iter().any(|e| e.overlaps(&window))
                && (!mind_cap || keeps_cap(request.cap, &with))
        };
        let first = |mind_cap: bool| {
            (request.earliest_start..=latest)
                .step_by(HOUR as usize)
                .find(|&start| fits(start, mind_cap))
        };
        let cap = request.cap;
        let too_late = machine.not_before.is_some_and(|time| {
            !(request.earliest_start..=latest)
                .step_by(HOUR as usize)
                .any(|start| start >= time)
        });
        let outcome = match whole {
            Some(reason) => Err(reason),
            None if cap.weight(machine.gpus) > cap.limit() => Err(Unfit::MoreGpusThanCap {
                gpus: machine.gpus,
                cap: cap.limit(),
            }),
            None if too_late => Err(Unfit::NotBeforeTooLate),
            None => first(true).ok_or(if first(false).is_some() {
                Unfit::CapFullBeforeDeadline
            } else {
                Unfit::NoGapBeforeDeadline
            }),
        };
        match outcome {
            Ok(start) => {
                down.push((machine.id, request.window_from(start), machine.gpus));
                placed.push(Placement {
                    machine_id: machine.id,
                    start,
                });
            }
            Err(reason) => unplaced.push(Unplaced {
                machine_id: machine.id,
                reason,
            }),
        }
    }
    (placed, unplaced)
}

proptest! {
    #[test]
    fn the_cap_holds_and_windows_stay_in_range_and_clear(asked in request()) {
        let planned = plan(&asked);
        let windows = windows(&asked, &planned);
        prop_assert!(keeps_cap(asked.cap, &windows));
        for (machine_id, window, _) in &windows {
            prop_assert!(window.start >= asked.earliest_start);
            prop_assert!(window.end <= asked.deadline);
            prop_assert_eq!((window.start - asked.earliest_start) % HOUR, 0);
            let machine = asked.machines.iter().find(|m| m.id == *machine_id).unwrap();
            prop_assert!(!machine.existing.iter().any(|e| e.overlaps(window)));
        }
        let (peak_machines, peak_gpus) = windows
            .iter()
            .map(|(_, w, _)| down_at(&windows, w.start))
            .fold((0, 0), |(m, g), (m2, g2)| (m.max(m2), g.max(g2)));
        prop_assert_eq!(planned.summary.peak_machines_down, peak_machines);
        prop_assert_eq!(planned.summary.peak_gpus_down, u64::from(peak_gpus));
        prop_assert_eq!(planned.summary.finish, windows.iter().map(|(_, w, _)| w.end).max());
    }

    #[test]
    fn no_window_starts_before_its_machines_not_before_time(asked in request()) {
        let planned = plan(&asked);
        for placement in &planned.placements {
            let machine = asked.machines.iter().find(|m| m.id == placement.machine_id).unwrap();
            if let Some(not_before) = machine.not_before {
                prop_assert!(placement.start >= not_before);
            }
        }
        for unplaced in &planned.unplaced {
            let machine = asked.machines.iter().find(|m| m.id == unplaced.machine_id).unwrap();
            // Only a machine that may not start by the last start on the grid is too late.
            let last_start = asked.earliest_start
                + (asked.latest_start() - asked.earliest_start).div_euclid(HOUR) * HOUR;
            if unplaced.reason == Unfit::NotBeforeTooLate {
                prop_assert!(machine.not_before.unwrap() > last_start);
            }
        }
    }

    #[test]
    fn every_machine_is_planned_or_unplaced_exactly_once(asked in request()) {
        let planned = plan(&asked);
        let mut count: BTreeMap<i64, usize> = BTreeMap::new();
        let named = planned.placements.iter().map(|p| p.machine_id);
        for id in named.chain(planned.unplaced.iter().map(|u| u.machine_id)) {
            *count.entry(id).or_default() += 1;
        }
        let asked_ids: BTreeMap<i64, usize> = asked.machines.iter().map(|m| (m.id, 1)).collect();
        prop_assert_eq!(count, asked_ids);
    }

    #[test]
    fn the_plan_is_the_naive_greedy_plan(asked in request()) {
        let planned = plan(&asked);
        let (placements, unplaced) = naive_plan(&asked);
        prop_assert_eq!(planned.placements, placements);
        prop_assert_eq!(planned.unplaced, unplaced);
    }

    #[test]
    fn the_same_fleet_in_any_order_gets_the_same_plan(
        (asked, shuffled) in request().prop_flat_map(|asked| {
            let machines = Just(asked.machines.clone()).prop_shuffle();
            (Just(asked), machines)
        })
    ) {
        let planned = plan(&asked);
        prop_assert_eq!(&plan(&asked), &planned);
        let reordered = PlanRequest { machines: shuffled, ..asked.clone() };
        prop_assert_eq!(plan(&reordered), planned);
    }

    #[test]
    fn the_check_finds_nothing_wrong_with_a_plan_the_planner_made(asked in request()) {
        let planned = plan(&asked);
        let review = check_plan(&asked, &planned.placements);
        let expected = if asked.duration_hours == 0 {
            vec![gpudeck_fleet_plan::Violation::DurationInvalid]
        } else {
            vec![]
        };
        prop_assert_eq!(review.violations, expected);
        prop_assert_eq!(review.summary, planned.summary);
    }

    #[test]
    fn the_check_finds_a_cap_exceeded_wherever_it_is(
        asked in request(),
        moves in prop::collection::vec((0usize..40, 0i64..80), 0..6),
    ) {
        let mut edited = plan(&asked).placements;
        for (index, hour) in moves {
            if let Some(placement) = edited.get_mut(index) {
                placement.start = asked.earliest_start + hour * HOUR;
            }
        }
        let windows: Vec<(i64, Span, u32)> = edited
            .iter()
            .map(|p| {
                let gpus = asked.machines.iter().find(|m| m.id == p.machine_id).unwrap().gpus;
                (p.machine_id, asked.window_from(p.start), gpus)
            })
            .collect();
        let review = check_plan(&asked, &edited);
        let cap_reported = review
            .violations
            .iter()
            .any(|v| matches!(v, gpudeck_fleet_plan::Violation::CapExceeded { .. }));
        prop_assert_eq!(cap_reported, asked.duration_hours > 0 && !keeps_cap(asked.cap, &windows));
    }

    #[test]
    fn batches_hold_every_placement_once_one_start_each_in_start_order(
        starts in prop::collection::vec(0i64..4, 0..450),
    ) {
        let placements: Vec<Placement> = starts
            .iter()
            .enumerate()
            .map(|(index, &hour)| Placement { machine_id: index as i64, start: T0 + hour * HOUR })
            .collect();
        let found = batches(&placements);
        let mut ids: Vec<i64> = Vec::new();
        for (index, batch) in found.iter().enumerate() {
            prop_assert!(!batch.machine_ids.is_empty() && batch.machine_ids.len() <= 100);
            if let Some(next) = found.get(index + 1) {
                prop_assert!(batch.start <= next.start);
                // A start is split only where it has more than 100 machines.
                prop_assert!(batch.start < next.start || batch.machine_ids.len() == 100);
            }
            for id in &batch.machine_ids {
                prop_assert_eq!(placements[*id as usize].start, batch.start);
            }
            ids.extend(&batch.machine_ids);
        }
        ids.sort_unstable();
        prop_assert_eq!(ids, (0..placements.len() as i64).collect::<Vec<_>>());
    }
}
