//! The session's N1 reads, so that every view judging health (the Machines page, a
//! machine's page, the navigation's count) compares a read with the same earlier one:
//! fleet-health §1.2's rules "since the last read" need the read before the one shown.
//! Kept in memory for the tab's life only (nothing is persisted, §1.2).

use super::FleetHealth;
use gpudeck_wire::{Machine, MaintenanceWindow};
use std::collections::VecDeque;

/// How many reads are kept. A page showing a read this many reads old (the navigation
/// reads N1 at most once a minute) judges it without a previous one.
const KEPT: usize = 8;

/// One N1 answer and when it was read (Unix seconds).
#[derive(Debug, Clone)]
struct Read {
    at: f64,
    machines: Vec<Machine>,
}

/// Every N1 answer of the session, oldest first, and the latest windows known (seed op 1,
/// loaded with a fleet).
#[derive(Debug, Clone, Default)]
pub struct ReadHistory {
    reads: VecDeque<Read>,
    windows: Vec<MaintenanceWindow>,
}

impl ReadHistory {
    /// Records an N1 answer read at `at`, wherever in the console it was asked for.
    pub fn record(&mut self, machines: &[Machine], at: f64) {
        let read = Read {
            at,
            machines: machines.to_vec(),
        };
        // Answers come in time order; one that does not still goes where its time says.
        let place = self.reads.partition_point(|r| r.at <= at);
        self.reads.insert(place, read);
        while self.reads.len() > KEPT {
            self.reads.pop_front();
        }
    }

    /// Where the read of `machines`, loaded at `at`, is: the latest recorded at or before
    /// `at` with those machines. A page loads N1 and then its windows, so its fleet's time
    /// is a moment after its answer was recorded; matching the machines too keeps another
    /// view's read in that moment from passing for the page's.
    fn place_of(&self, machines: &[Machine], at: f64) -> Option<usize> {
        self.reads
            .iter()
            .rposition(|r| r.at <= at && r.machines == machines)
    }

    /// The read before the one of `machines` loaded at `at`, if any: what the rules "since
    /// the last read" compare it with. Showing the same read again gives the same one.
    pub fn before(&self, machines: &[Machine], at: f64) -> Option<&[Machine]> {
        let place = match self.place_of(machines, at) {
            Some(place) => place,
            // Not recorded (read by a client without the session's hook): the reads before
            // its time.
            None => self.reads.partition_point(|r| r.at <= at),
        };
        let before = place.checked_sub(1)?;
        Some(&self.reads[before].machines)
    }

    /// Judges a fleet as a page loaded it (its N1 answer, its active windows, loaded at
    /// `at`) against the read before it, and keeps its windows as the latest known.
    pub fn judge(
        &mut self,
        machines: &[Machine],
        windows: &[MaintenanceWindow],
        at: f64,
    ) -> FleetHealth {
        if self.place_of(machines, at).is_none() {
            self.record(machines, at);
        }
        if self.reads.back().is_some_and(|latest| latest.at <= at) {
            self.windows = windows.to_vec();
        }
        FleetHealth::judge(machines, windows, self.before(machines, at), at)
    }

    /// The latest read judged at its time against the read before it, with the windows
    /// known then; `None` before the first read. The navigation's count comes from it.
    pub fn judge_latest(&self) -> Option<FleetHealth> {
        let latest = self.reads.back()?;
        let windows = self.active_windows(latest.at);
        let before = self.reads.len().checked_sub(2).map(|i| &self.reads[i]);
        Some(FleetHealth::judge(
            &latest.machines,
            &windows,
            before.map(|r| r.machines.as_slice()),
            latest.at,
        ))
    }

    /// When the latest N1 answer was read, if any.
    pub fn latest_at(&self) -> Option<f64> {
        self.reads.back().map(|r| r.at)
    }

    /// The latest windows known that are still active at `now`: not cancelled, not ended.
    pub fn active_windows(&self, now: f64) -> Vec<MaintenanceWindow> {
        self.windows
            .iter()
            .filter(|w| w.cancelled_at.is_none() && w.end_time > now)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::health::Rule;
    use crate::domain::listing::fixture::listed_machine;
    use gpudeck_wire::MaintenanceCategory;

    /// Machine 1 with `reports` renter reports.
    fn read(reports: i64) -> Vec<Machine> {
        let mut m = listed_machine(1, true, None, 1, None);
        m.num_reports = Some(reports);
        vec![m]
    }

    const NONE: [i64; 0] = [];

    fn new_reports(health: FleetHealth) -> Vec<i64> {
        health.held_by(Rule::NewReports)
    }

    #[test]
    fn the_first_read_has_no_previous_and_sets_the_baseline() {
        let mut history = ReadHistory::default();
        assert!(history.judge_latest().is_none());
        history.record(&read(1), 10.0);
        assert_eq!(history.before(&read(1), 10.0), None);
        assert_eq!(new_reports(history.judge(&read(1), &[], 10.5)), NONE);
        assert_eq!(new_reports(history.judge_latest().unwrap()), NONE);
    }

    #[test]
    fn a_second_read_compares_with_the_first() {
        let mut history = ReadHistory::default();
        history.record(&read(1), 10.0);
        history.record(&read(2), 20.0);
        assert_eq!(history.before(&read(2), 20.0), Some(&read(1)[..]));
        assert_eq!(new_reports(history.judge(&read(2), &[], 20.5)), [1]);
        assert_eq!(new_reports(history.judge_latest().unwrap()), [1]);
    }

    #[test]
    fn the_same_read_shown_again_compares_with_the_same_earlier_one() {
        let mut history = ReadHistory::default();
        history.record(&read(1), 10.0);
        history.record(&read(2), 20.0);
        assert_eq!(new_reports(history.judge(&read(2), &[], 20.5)), [1]);
        // Another view reads N1 again; the page, drawing its read again, still compares it
        // with the read before it, while the navigation moves on to the newest.
        history.record(&read(2), 80.0);
        assert_eq!(new_reports(history.judge(&read(2), &[], 20.5)), [1]);
        assert_eq!(new_reports(history.judge_latest().unwrap()), NONE);
        // A page loading that newest read afresh compares it with the one before it.
        assert_eq!(new_reports(history.judge(&read(2), &[], 80.5)), NONE);
    }

    #[test]
    fn the_pages_own_answer_through_the_hook_is_not_its_previous() {
        let mut history = ReadHistory::default();
        // The page's N1 answer reaches the history through the client's hook at 10, and
        // the page shows it at 10.4, once its windows have come.
        history.record(&read(1), 10.0);
        assert_eq!(history.before(&read(1), 10.4), None);
        history.record(&read(3), 20.0);
        assert_eq!(history.before(&read(3), 20.4), Some(&read(1)[..]));
        assert_eq!(new_reports(history.judge(&read(3), &[], 20.4)), [1]);
        // Judging it did not record it twice: the navigation compares with read 1 too.
        assert_eq!(new_reports(history.judge_latest().unwrap()), [1]);
    }

    #[test]
    fn a_read_no_hook_recorded_compares_with_the_read_before_its_time() {
        let mut history = ReadHistory::default();
        history.record(&read(1), 10.0);
        assert_eq!(new_reports(history.judge(&read(2), &[], 20.0)), [1]);
        assert_eq!(history.latest_at(), Some(20.0));
        assert_eq!(new_reports(history.judge(&read(2), &[], 20.0)), [1]);
    }

    #[test]
    fn only_the_latest_reads_are_kept() {
        let mut history = ReadHistory::default();
        for i in 0..20 {
            history.record(&read(i), i as f64);
        }
        assert_eq!(history.reads.len(), KEPT);
        assert_eq!(history.before(&read(19), 19.0), Some(&read(18)[..]));
    }

    fn window(machine_id: i64, end_time: f64, cancelled_at: Option<f64>) -> MaintenanceWindow {
        MaintenanceWindow {
            id: machine_id,
            machine_id,
            start_time: end_time - 3600.0,
            duration_hours: 1,
            maintenance_category: MaintenanceCategory::Software,
            maintenance_reason: None,
            created_at: 0.0,
            cancelled_at,
            end_time,
            scheduled_by_marketplace: false,
        }
    }

    #[test]
    fn the_latest_windows_count_while_active_and_ended_ones_are_dropped() {
        // Machine 1 unlisted and vacant: "Maintained, not listed" unless a window is active.
        let unlisted = vec![listed_machine(1, false, None, 0, None)];
        let mut history = ReadHistory::default();
        history.record(&unlisted, 100.0);
        let held = |h: Option<FleetHealth>| h.unwrap().held_by(Rule::UnlistedAfterMaintenance);
        assert_eq!(held(history.judge_latest()), [1]);
        let windows = [window(1, 5_000.0, None), window(2, 4_000.0, Some(50.0))];
        assert_eq!(
            history
                .judge(&unlisted, &windows, 100.5)
                .held_by(Rule::UnlistedAfterMaintenance),
            NONE
        );
        // The navigation judges with them, as the page did.
        assert_eq!(held(history.judge_latest()), NONE);
        assert_eq!(history.active_windows(200.0), [window(1, 5_000.0, None)]);
        // Read again once the window has ended: it no longer counts.
        history.record(&unlisted, 6_000.0);
        assert_eq!(history.active_windows(6_000.0), []);
        assert_eq!(held(history.judge_latest()), [1]);
        // A page drawing an older fleet again keeps the newer read's windows.
        history.judge(&unlisted, &[], 100.5);
        assert_eq!(history.windows.len(), 2);
    }
}
