//! How much of the fleet a set of windows takes down over time, and the summary a person
//! reads before sending a plan.

use crate::request::{MachineToPlan, Span};

/// One machine's window in a plan, with the machine it takes down.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlannedWindow<'a> {
    pub machine: &'a MachineToPlan,
    pub window: Span,
}

/// A stretch of time in which the same machines are down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Down {
    pub span: Span,
    pub machines: u32,
    pub gpus: u64,
}

/// The stretches in which at least one window is down, in time order; a new one begins
/// wherever a window starts or ends. A sweep over those instants, so it needs no grid and
/// serves hand-edited starts as well as the planner's.
pub(crate) fn down_profile(windows: &[PlannedWindow]) -> Vec<Down> {
    let mut changes: Vec<(i64, i64, i64)> = Vec::with_capacity(windows.len() * 2);
    for planned in windows.iter().filter(|p| !p.window.is_empty()) {
        let gpus = i64::from(planned.machine.gpus);
        changes.push((planned.window.start, 1, gpus));
        changes.push((planned.window.end, -1, -gpus));
    }
    changes.sort_unstable();
    let mut stretches = Vec::new();
    let (mut machines, mut gpus) = (0i64, 0i64);
    let mut at = 0;
    while at < changes.len() {
        let time = changes[at].0;
        while at < changes.len() && changes[at].0 == time {
            machines += changes[at].1;
            gpus += changes[at].2;
            at += 1;
        }
        if machines > 0 {
            stretches.push(Down {
                span: Span::new(time, changes[at].0),
                machines: machines as u32,
                gpus: gpus as u64,
            });
        }
    }
    stretches
}

/// What a plan does, in the figures a person weighs before sending it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub machines_planned: usize,
    /// The most machines down at one instant.
    pub peak_machines_down: u32,
    /// The most GPUs down at one instant.
    pub peak_gpus_down: u64,
    /// The running rentals on the planned machines: each one's renter is told (N3).
    pub renters_notified: u64,
    /// When the last window ends; `None` for an empty plan.
    pub finish: Option<i64>,
}

impl Summary {
    pub(crate) fn of(windows: &[PlannedWindow]) -> Self {
        let profile = down_profile(windows);
        Summary {
            machines_planned: windows.len(),
            peak_machines_down: profile.iter().map(|d| d.machines).max().unwrap_or(0),
            peak_gpus_down: profile.iter().map(|d| d.gpus).max().unwrap_or(0),
            renters_notified: windows
                .iter()
                .map(|p| u64::from(p.machine.running_rentals))
                .sum(),
            finish: windows.iter().map(|p| p.window.end).max(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::machine;

    #[test]
    fn the_profile_changes_where_windows_start_and_end() {
        let (eight, four) = (machine(1, 8, 2), machine(2, 4, 1));
        let windows = [
            PlannedWindow {
                machine: &eight,
                window: Span::new(0, 10),
            },
            PlannedWindow {
                machine: &four,
                window: Span::new(5, 20),
            },
            PlannedWindow {
                machine: &four,
                window: Span::new(20, 30),
            },
            PlannedWindow {
                machine: &four,
                window: Span::new(40, 50),
            },
        ];
        let profile: Vec<(i64, i64, u32, u64)> = down_profile(&windows)
            .iter()
            .map(|d| (d.span.start, d.span.end, d.machines, d.gpus))
            .collect();
        // A window ending at 20 and one starting at 20 are never down together.
        assert_eq!(
            profile,
            [
                (0, 5, 1, 8),
                (5, 10, 2, 12),
                (10, 20, 1, 4),
                (20, 30, 1, 4),
                (40, 50, 1, 4)
            ]
        );
        let summary = Summary::of(&windows);
        assert_eq!(
            summary,
            Summary {
                machines_planned: 4,
                peak_machines_down: 2,
                peak_gpus_down: 12,
                renters_notified: 5,
                finish: Some(50),
            }
        );
        assert_eq!(Summary::of(&[]), Summary::default());
    }
}
