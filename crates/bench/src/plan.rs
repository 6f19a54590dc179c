//! The rolling maintenance planner on a generated fleet, natively: the time to
//! plan it, and to re-check the plan as the console does after each edit.

use crate::report::median;
use gpudeck_fleet_plan::{
    batches, check_plan, plan, Cap, MachineToPlan, Pin, PlanRequest, Span, HOUR,
};
use gpudeck_wire::MaintenanceCategory;
use std::hint::black_box;
use std::time::Instant;

pub const MACHINES: usize = 5_000;
pub const CAP_MACHINES: u32 = 50;
pub const DURATION_HOURS: u32 = 4;
pub const RANGE_DAYS: i64 = 30;
/// Planning 5,000 machines natively must stay well under this.
pub const TARGET_MS: f64 = 50.0;
pub const RUNS: usize = 15;
/// An earliest start on the hour (2027-01-15 00:00 UTC).
const EARLIEST_START: i64 = 1_799_971_200;

pub struct PlanFigures {
    pub plan_ms: f64,
    pub check_ms: f64,
    pub placed: usize,
    pub unplaced: usize,
    pub batches: usize,
    pub existing_windows: usize,
    /// Machines whose window may not start before their rentals end.
    pub with_release_time: usize,
    /// Hours from the earliest start to the end of the last window.
    pub finish_hours: f64,
}

/// Plans the fleet `RUNS` times (after one warm-up run) and re-checks the plan as often;
/// the medians.
pub fn measure() -> PlanFigures {
    let request = fleet(MACHINES);
    let planned = plan(&request);
    let mut plan_ms = timed(|| plan(black_box(&request)));
    let mut check_ms = timed(|| check_plan(black_box(&request), black_box(&planned.placements)));
    PlanFigures {
        plan_ms: median(&mut plan_ms),
        check_ms: median(&mut check_ms),
        placed: planned.placements.len(),
        unplaced: planned.unplaced.len(),
        batches: batches(&planned.placements).len(),
        existing_windows: request.machines.iter().map(|m| m.existing.len()).sum(),
        with_release_time: request
            .machines
            .iter()
            .filter(|m| m.not_before.is_some())
            .count(),
        finish_hours: planned
            .summary
            .finish
            .map_or(f64::NAN, |end| (end - EARLIEST_START) as f64 / HOUR as f64),
    }
}

fn timed<T>(mut run: impl FnMut() -> T) -> Vec<f64> {
    black_box(run());
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            black_box(run());
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

/// A host's fleet as the planner meets it: 1 to 8 GPUs a machine, two in five idle, the
/// others with rentals and some reserved GPUs, the rentals ending (the release time, before
/// which the contract-safe plan starts no window) at any second of the next three weeks,
/// up to three existing windows in the next two weeks (some off the hour), a few machines
/// pinned; 4-hour windows, at most 50 machines down, within 30 days. The same fleet every
/// run (a fixed seed).
pub fn fleet(machines: usize) -> PlanRequest {
    let mut random = XorShift(0x9e37_79b9_7f4a_7c15);
    let machines = (1..=machines as i64)
        .map(|id| {
            let gpus = [1, 2, 4, 8, 8, 8][random.below(6) as usize];
            let running_rentals = if random.below(5) < 2 {
                0
            } else {
                1 + random.below(u64::from(gpus)) as u32
            };
            let reserved_gpus = random.below(u64::from(running_rentals) + 1) as u32;
            let not_before = (running_rentals > 0)
                .then(|| EARLIEST_START + random.below(21 * 24 * HOUR as u64) as i64);
            let existing = (0..random.below(4))
                .map(|_| {
                    let start = EARLIEST_START + random.below(14 * 24 * HOUR as u64) as i64;
                    let start = if random.below(2) == 0 {
                        start / HOUR * HOUR
                    } else {
                        start
                    };
                    Span::new(start, start + (1 + random.below(8) as i64) * HOUR)
                })
                .collect();
            let pin = match random.below(100) {
                0 => Pin::First,
                1 => Pin::Last,
                _ => Pin::Unpinned,
            };
            MachineToPlan {
                id,
                gpus,
                running_rentals,
                reserved_gpus,
                existing,
                pin,
                not_before,
            }
        })
        .collect();
    PlanRequest {
        machines,
        earliest_start: EARLIEST_START,
        deadline: EARLIEST_START + RANGE_DAYS * 24 * HOUR,
        duration_hours: DURATION_HOURS,
        cap: Cap::Machines(CAP_MACHINES),
        category: MaintenanceCategory::Software,
    }
}

/// A small deterministic generator, so the fleet needs no `rand`.
struct XorShift(u64);

impl XorShift {
    /// Uniform enough below `bound` (> 0) for a benchmark's data.
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_fleet_is_the_same_every_time_and_plans_within_range() {
        let request = fleet(200);
        assert_eq!(request, fleet(200));
        let planned = plan(&request);
        assert_eq!(planned.placements.len() + planned.unplaced.len(), 200);
        assert!(planned.summary.peak_machines_down <= CAP_MACHINES);
        assert!(planned.summary.finish.unwrap() <= request.deadline);
        assert!(request.machines.iter().any(|m| m.not_before.is_some()));
        assert!(check_plan(&request, &planned.placements)
            .violations
            .is_empty());
    }
}
