//! Scheduling maintenance, the pure part: the rules checked before anything is sent,
//! the batches of at most 100 machines (N4, schedule many), which existing windows a new
//! one overlaps, and the per-machine results of a run. Unit-tested natively. The limits
//! are the wire crate's, the ones the server enforces.

use crate::components::calendar::days_in_month;
use crate::components::words::counted;
use gpudeck_wire::calendar::days_from_civil;
use gpudeck_wire::maintenance::{
    HOUR, MAX_BATCH, MAX_DURATION_HOURS, MAX_LEAD_SECONDS, MAX_REASON_CHARS,
};
use gpudeck_wire::{MaintenanceCategory, MaintenanceWindow};

/// The field of the form a problem concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Machines,
    Start,
    Duration,
    Reason,
}

/// A problem with one field of the schedule form.
pub type Problem = super::form_problem::Problem<Field>;

fn problem(field: Field, message: impl Into<String>) -> Problem {
    Problem::new(field, message)
}

/// A window to schedule, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub machines: Vec<i64>,
    /// Unix seconds.
    pub start: f64,
    pub duration_hours: i64,
    pub category: MaintenanceCategory,
    pub reason: Option<String>,
}

impl Plan {
    pub fn end(&self) -> f64 {
        self.start + self.duration_hours as f64 * HOUR
    }
}

/// The windows a form would add, one per machine and its start (Unix seconds), as the
/// timeline previews them before anything is sent: the schedule form gives every machine
/// the same start, the rolling planner each its own. Negative ids: not on the server yet.
pub fn preview_windows(
    starts: impl IntoIterator<Item = (i64, f64)>,
    duration_hours: i64,
    category: &MaintenanceCategory,
    reason: Option<&str>,
    now: f64,
) -> Vec<MaintenanceWindow> {
    starts
        .into_iter()
        .enumerate()
        .map(|(i, (machine_id, start))| MaintenanceWindow {
            id: -(i as i64) - 1,
            machine_id,
            start_time: start,
            duration_hours,
            maintenance_category: category.clone(),
            maintenance_reason: reason.map(str::to_owned),
            created_at: now,
            cancelled_at: None,
            end_time: start + duration_hours as f64 * HOUR,
            scheduled_by_marketplace: false,
        })
        .collect()
}

/// Checks the form against the rules of N3 (schedule one) and N4 (schedule many) before
/// sending: at least one machine, a start in the future and within a year, a whole number
/// of hours from 1 to 8760, a reason of at most 300 characters. Every problem is returned, each with its field.
pub fn check(
    machines: &[i64],
    start: Option<f64>,
    hours_text: &str,
    category: MaintenanceCategory,
    reason: &str,
    now: f64,
) -> Result<Plan, Vec<Problem>> {
    let mut problems = Vec::new();
    let machines = distinct(machines);
    if machines.is_empty() {
        problems.push(problem(Field::Machines, "Select at least one machine."));
    }
    match start {
        None => problems.push(problem(Field::Start, "Choose a start date and time.")),
        Some(start) if start <= now => {
            problems.push(problem(Field::Start, "The start must be in the future."))
        }
        Some(start) if start > now + MAX_LEAD_SECONDS => problems.push(problem(
            Field::Start,
            "The start must be within a year from now.",
        )),
        Some(_) => {}
    }
    let hours = match hours_text.trim().parse::<i64>() {
        Ok(h) if h < 1 => {
            problems.push(problem(
                Field::Duration,
                "The duration must be at least one hour.",
            ));
            None
        }
        Ok(h) if h as f64 > MAX_DURATION_HOURS => {
            problems.push(problem(
                Field::Duration,
                format!("The duration must be at most {MAX_DURATION_HOURS} hours (a year)."),
            ));
            None
        }
        Ok(h) => Some(h),
        Err(_) if hours_text.trim().is_empty() => {
            problems.push(problem(Field::Duration, "Enter the duration in hours."));
            None
        }
        Err(_) => {
            problems.push(problem(
                Field::Duration,
                "Enter the duration as a whole number of hours, e.g. 4.",
            ));
            None
        }
    };
    let reason = reason.trim();
    if reason.chars().count() > MAX_REASON_CHARS {
        problems.push(problem(
            Field::Reason,
            format!("The reason must be at most {MAX_REASON_CHARS} characters."),
        ));
    }
    match (problems.is_empty(), start, hours) {
        (true, Some(start), Some(duration_hours)) => Ok(Plan {
            machines,
            start,
            duration_hours,
            category,
            reason: Some(reason.to_owned()).filter(|r| !r.is_empty()),
        }),
        _ => Err(problems),
    }
}

/// The ids once each, in the order given.
pub fn distinct(ids: &[i64]) -> Vec<i64> {
    let mut seen = std::collections::HashSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

/// The requests a selection takes: at most [`MAX_BATCH`] machines each.
pub fn batches(ids: &[i64]) -> Vec<Vec<i64>> {
    distinct(ids)
        .chunks(MAX_BATCH)
        .map(<[i64]>::to_vec)
        .collect()
}

/// The existing windows a new window from `start` to `end` on `machines` overlaps: same
/// machine, and the two spans share some time (touching ends do not count).
pub fn overlaps(
    machines: &[i64],
    start: f64,
    end: f64,
    existing: &[MaintenanceWindow],
) -> Vec<MaintenanceWindow> {
    existing
        .iter()
        .filter(|w| machines.contains(&w.machine_id) && w.start_time < end && start < w.end_time)
        .cloned()
        .collect()
}

/// A start typed in a `datetime-local` field (`2026-11-22T15:30`, seconds optional):
/// year, month (1–12), day, hour, minute.
pub fn parse_datetime_local(text: &str) -> Option<(i32, u32, u32, u32, u32)> {
    let (date, time) = text.trim().split_once('T')?;
    let mut d = date.split('-');
    let year = d.next()?.parse().ok()?;
    let month: u32 = d.next()?.parse().ok()?;
    let day: u32 = d.next()?.parse().ok()?;
    let mut t = time.split(':');
    let hour: u32 = t.next()?.parse().ok()?;
    let minute: u32 = t.next()?.parse().ok()?;
    let valid = (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && hour < 24
        && minute < 60;
    valid.then_some((year, month, day, hour, minute))
}

/// Unix seconds of a civil time read as UTC.
pub fn utc_seconds((year, month, day, hour, minute): (i32, u32, u32, u32, u32)) -> f64 {
    let days = days_from_civil(i64::from(year), month, day);
    (days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60) as f64
}

/// What happened to one machine in a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemOutcome {
    Scheduled {
        notifications: i64,
    },
    /// Not scheduled, with the reason (the server's sentence).
    Refused(String),
    /// Sent, and no answer came; the re-read could not tell either.
    Unknown,
    /// Sent, and no answer came, but the re-read shows the window on the machine.
    FoundAfterNoAnswer,
}

/// Why a machine whose request got no answer counts as not scheduled: the re-read shows no
/// such window, so sending it again duplicates nothing.
pub const NOT_FOUND_AFTER_NO_ANSWER: &str =
    "no answer came, and the re-read shows no such window: not scheduled";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemResult {
    pub machine_id: i64,
    pub outcome: ItemOutcome,
}

impl ItemResult {
    /// `Machine 1001: scheduled, 2 renters notified` / `Machine 9: No such machine id`.
    pub fn sentence(&self) -> String {
        match &self.outcome {
            ItemOutcome::Scheduled { notifications: 1 } => {
                format!("Machine {}: scheduled, 1 renter notified", self.machine_id)
            }
            ItemOutcome::Scheduled { notifications } => format!(
                "Machine {}: scheduled, {notifications} renters notified",
                self.machine_id
            ),
            ItemOutcome::Refused(why) => format!("Machine {}: {why}", self.machine_id),
            ItemOutcome::Unknown => format!(
                "Machine {}: no answer; the window may have been scheduled",
                self.machine_id
            ),
            ItemOutcome::FoundAfterNoAnswer => format!(
                "Machine {}: no answer came, but the re-read shows the window scheduled",
                self.machine_id
            ),
        }
    }

    /// Whether the window is on the machine, as answered or as re-read.
    pub fn is_scheduled(&self) -> bool {
        matches!(
            self.outcome,
            ItemOutcome::Scheduled { .. } | ItemOutcome::FoundAfterNoAnswer
        )
    }
}

/// The machines whose outcome is unknown (sent, no answer), for a re-read.
pub fn unknown(results: &[ItemResult]) -> Vec<i64> {
    results
        .iter()
        .filter(|r| r.outcome == ItemOutcome::Unknown)
        .map(|r| r.machine_id)
        .collect()
}

/// Settles each unknown result by what a re-read shows: the window sent (`sent`: each
/// start with its machines, all of `duration_hours`) now on the machine and not cancelled,
/// or not. Other results stay as they are.
pub fn settle_unknown(
    results: &mut [ItemResult],
    sent: &[(f64, Vec<i64>)],
    duration_hours: i64,
    reread: &[MaintenanceWindow],
) {
    for result in results
        .iter_mut()
        .filter(|r| r.outcome == ItemOutcome::Unknown)
    {
        let start = sent
            .iter()
            .find(|(_, machines)| machines.contains(&result.machine_id))
            .map(|(start, _)| *start);
        let there = reread.iter().any(|w| {
            w.machine_id == result.machine_id
                && Some(w.start_time) == start
                && w.duration_hours == duration_hours
                && w.cancelled_at.is_none()
        });
        result.outcome = if there {
            ItemOutcome::FoundAfterNoAnswer
        } else {
            ItemOutcome::Refused(NOT_FOUND_AFTER_NO_ANSWER.to_owned())
        };
    }
}

/// The results of one batch, one per machine of `batch` in its order: the answer's item
/// for that machine, or when the answer has none (or the whole request was refused) the
/// batch's refusal `whole` / "no answer for this machine".
pub fn results_of_batch(
    batch: &[i64],
    items: &[ItemResult],
    whole: Option<&str>,
) -> Vec<ItemResult> {
    batch
        .iter()
        .map(|&machine_id| {
            items
                .iter()
                .find(|item| item.machine_id == machine_id)
                .cloned()
                .unwrap_or_else(|| ItemResult {
                    machine_id,
                    outcome: ItemOutcome::Refused(
                        whole
                            .unwrap_or("the server gave no answer for this machine")
                            .to_owned(),
                    ),
                })
        })
        .collect()
}

/// The machines a retry sends again: those refused (and so not applied). Those with an
/// unknown outcome are not among them: sending again might duplicate their window.
pub fn refused(results: &[ItemResult]) -> Vec<i64> {
    results
        .iter()
        .filter(|r| matches!(r.outcome, ItemOutcome::Refused(_)))
        .map(|r| r.machine_id)
        .collect()
}

/// A run as it ended: the plan sent and each machine's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub plan: Plan,
    pub results: Vec<ItemResult>,
}

impl Run {
    /// The machines the window is on (as answered or as re-read), in the results' order.
    pub fn scheduled(&self) -> Vec<i64> {
        self.results
            .iter()
            .filter(|r| r.is_scheduled())
            .map(|r| r.machine_id)
            .collect()
    }

    /// Renters notified, on all the machines together.
    pub fn notified(&self) -> i64 {
        self.results
            .iter()
            .map(|r| match r.outcome {
                ItemOutcome::Scheduled { notifications } => notifications,
                // Renters told of a window whose answer was lost are not known.
                ItemOutcome::Refused(_)
                | ItemOutcome::Unknown
                | ItemOutcome::FoundAfterNoAnswer => 0,
            })
            .sum()
    }

    /// The same window for the machines refused, checked again (time has passed since).
    pub fn retry(&self, now: f64) -> Result<Plan, Vec<Problem>> {
        check(
            &refused(&self.results),
            Some(self.plan.start),
            &self.plan.duration_hours.to_string(),
            self.plan.category.clone(),
            self.plan.reason.as_deref().unwrap_or_default(),
            now,
        )
    }
}

/// `1 existing window overlaps` or `3 existing windows overlap`, then `one` when a single
/// window is new, else `many`: `3 existing windows overlap the new ones:`.
pub fn overlap_sentence(existing: usize, new_windows: usize, one: &str, many: &str) -> String {
    let verb = if existing == 1 { "overlaps" } else { "overlap" };
    let what = if new_windows == 1 { one } else { many };
    format!(
        "{} {verb} {what}",
        counted(existing as i64, "existing window", "existing windows")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_800_000_000.0;

    fn window(id: i64, machine_id: i64, start: f64, hours: i64) -> MaintenanceWindow {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": machine_id, "start_time": start, "duration_hours": hours,
            "maintenance_category": "power", "created_at": NOW - 100.0,
            "end_time": start + hours as f64 * HOUR,
        }))
        .unwrap()
    }

    #[test]
    fn previewed_windows_are_new_and_last_their_hours_from_each_start() {
        let starts = [(1001, NOW + HOUR), (1002, NOW + 3.0 * HOUR)];
        let windows = preview_windows(starts, 2, &MaintenanceCategory::Disk, Some("fans"), NOW);
        let said: Vec<_> = windows
            .iter()
            .map(|w| (w.id, w.machine_id, w.start_time, w.end_time))
            .collect();
        assert_eq!(
            said,
            [
                (-1, 1001, NOW + HOUR, NOW + 3.0 * HOUR),
                (-2, 1002, NOW + 3.0 * HOUR, NOW + 5.0 * HOUR)
            ]
        );
        assert!(windows.iter().all(|w| w.duration_hours == 2
            && w.maintenance_category == MaintenanceCategory::Disk
            && w.maintenance_reason.as_deref() == Some("fans")
            && w.created_at == NOW
            && w.cancelled_at.is_none()
            && !w.scheduled_by_marketplace));
    }

    fn fields(result: Result<Plan, Vec<Problem>>) -> Vec<Field> {
        result.unwrap_err().into_iter().map(|p| p.field).collect()
    }

    #[test]
    fn a_good_form_becomes_a_plan() {
        let plan = check(
            &[3, 1, 3],
            Some(NOW + HOUR),
            " 4 ",
            MaintenanceCategory::Gpu,
            "  swap a fan ",
            NOW,
        )
        .unwrap();
        assert_eq!(plan.machines, [3, 1]);
        assert_eq!(plan.duration_hours, 4);
        assert_eq!(plan.end(), NOW + 5.0 * HOUR);
        assert_eq!(plan.reason.as_deref(), Some("swap a fan"));
        let no_reason = check(
            &[1],
            Some(NOW + 1.0),
            "1",
            MaintenanceCategory::Other,
            " ",
            NOW,
        );
        assert_eq!(no_reason.unwrap().reason, None);
    }

    #[test]
    fn the_start_must_be_in_the_future_and_within_a_year() {
        let at = |start| check(&[1], start, "2", MaintenanceCategory::Power, "", NOW);
        assert_eq!(fields(at(None)), [Field::Start]);
        assert_eq!(fields(at(Some(NOW))), [Field::Start]);
        assert_eq!(fields(at(Some(NOW - 60.0))), [Field::Start]);
        assert!(at(Some(NOW + MAX_LEAD_SECONDS)).is_ok());
        let late = at(Some(NOW + MAX_LEAD_SECONDS + 1.0)).unwrap_err();
        assert_eq!(late[0].message, "The start must be within a year from now.");
    }

    #[test]
    fn the_duration_is_whole_hours_from_one_to_a_year() {
        let hours = |text| {
            check(
                &[1],
                Some(NOW + HOUR),
                text,
                MaintenanceCategory::Disk,
                "",
                NOW,
            )
        };
        for bad in ["0", "-2", "1.5", "two", "", "8761"] {
            assert_eq!(fields(hours(bad)), [Field::Duration], "{bad:?}");
        }
        assert!(hours("1").is_ok());
        assert!(hours("8760").is_ok());
        assert_eq!(
            hours("0").unwrap_err()[0].message,
            "The duration must be at least one hour."
        );
    }

    #[test]
    fn every_problem_is_named_with_its_field() {
        let long = "x".repeat(301);
        let all = check(&[], None, "0", MaintenanceCategory::Other, &long, NOW);
        assert_eq!(
            fields(all),
            [
                Field::Machines,
                Field::Start,
                Field::Duration,
                Field::Reason
            ]
        );
    }

    #[test]
    fn selections_go_in_batches_of_at_most_one_hundred() {
        let ids: Vec<i64> = (1..=250).collect();
        let runs = batches(&ids);
        assert_eq!(
            runs.iter().map(Vec::len).collect::<Vec<_>>(),
            [100, 100, 50]
        );
        assert_eq!(runs[1][0], 101);
        assert_eq!(batches(&[5, 5, 6]), vec![vec![5, 6]]);
        assert!(batches(&[]).is_empty());
        let exactly: Vec<i64> = (1..=100).collect();
        assert_eq!(batches(&exactly).len(), 1);
    }

    #[test]
    fn overlaps_are_on_the_same_machine_and_share_time() {
        let existing = [
            window(1, 10, NOW + 2.0 * HOUR, 2), // 2h..4h on 10
            window(2, 11, NOW + 2.0 * HOUR, 2), // same time, other machine
            window(3, 10, NOW + 4.0 * HOUR, 1), // 4h..5h on 10: touches only
            window(4, 10, NOW, 10),             // ongoing, covers everything
        ];
        let found = overlaps(&[10], NOW + 3.0 * HOUR, NOW + 4.0 * HOUR, &existing);
        assert_eq!(found.iter().map(|w| w.id).collect::<Vec<_>>(), [1, 4]);
        let none = overlaps(&[12], NOW, NOW + 100.0 * HOUR, &existing);
        assert!(none.is_empty());
    }

    #[test]
    fn an_unknown_outcome_is_settled_by_the_reread_and_never_sent_again_unsettled() {
        let result = |machine_id, outcome| ItemResult {
            machine_id,
            outcome,
        };
        let mut results = vec![
            result(1, ItemOutcome::Unknown),
            result(2, ItemOutcome::Unknown),
            result(3, ItemOutcome::Scheduled { notifications: 1 }),
            result(4, ItemOutcome::Unknown),
        ];
        assert_eq!(unknown(&results), [1, 2, 4]);
        assert_eq!(
            results[0].sentence(),
            "Machine 1: no answer; the window may have been scheduled"
        );
        assert!(
            refused(&results).is_empty(),
            "an unknown outcome is not sent again"
        );
        let start = NOW + HOUR;
        let sent = [(start, vec![1, 2, 3]), (start + HOUR, vec![4])];
        let mut cancelled = window(9, 2, start, 2);
        cancelled.cancelled_at = Some(NOW);
        let reread = [
            window(7, 1, start, 2),
            cancelled,
            // Machine 4's window at another start or length is not the one sent.
            window(8, 4, start, 2),
        ];
        settle_unknown(&mut results, &sent, 2, &reread);
        assert_eq!(results[0].outcome, ItemOutcome::FoundAfterNoAnswer);
        assert_eq!(
            results[0].sentence(),
            "Machine 1: no answer came, but the re-read shows the window scheduled"
        );
        assert_eq!(
            results[1].outcome,
            ItemOutcome::Refused(NOT_FOUND_AFTER_NO_ANSWER.into())
        );
        assert_eq!(
            results[2].outcome,
            ItemOutcome::Scheduled { notifications: 1 }
        );
        assert_eq!(
            results[3].outcome,
            ItemOutcome::Refused(NOT_FOUND_AFTER_NO_ANSWER.into())
        );
        assert_eq!(refused(&results), [2, 4]);
        assert!(results[0].is_scheduled() && !results[1].is_scheduled());
    }

    #[test]
    fn a_run_counts_its_machines_and_retries_the_refused_with_the_same_window() {
        let plan = check(
            &[1, 2, 3],
            Some(NOW + HOUR),
            "3",
            MaintenanceCategory::Disk,
            "",
            NOW,
        )
        .unwrap();
        let run = Run {
            plan: plan.clone(),
            results: vec![
                ItemResult {
                    machine_id: 1,
                    outcome: ItemOutcome::Scheduled { notifications: 2 },
                },
                ItemResult {
                    machine_id: 2,
                    outcome: ItemOutcome::Refused("No such machine id or not owned".into()),
                },
                ItemResult {
                    machine_id: 3,
                    outcome: ItemOutcome::Scheduled { notifications: 1 },
                },
            ],
        };
        assert_eq!(run.scheduled(), [1, 3]);
        assert_eq!(run.notified(), 3);
        let again = run.retry(NOW + 60.0).unwrap();
        assert_eq!(again.machines, [2]);
        assert_eq!((again.start, again.duration_hours), (plan.start, 3));
        assert_eq!(again.category, MaintenanceCategory::Disk);
        // Once the start has passed, the retry names it instead of sending.
        let late = run.retry(NOW + 2.0 * HOUR).unwrap_err();
        assert_eq!(late[0].field, Field::Start);
    }

    #[test]
    fn the_overlap_warning_counts_in_words() {
        let heading =
            |existing, new| overlap_sentence(existing, new, "the new one:", "the new ones:");
        assert_eq!(heading(1, 1), "1 existing window overlaps the new one:");
        assert_eq!(heading(3, 3), "3 existing windows overlap the new ones:");
        assert_eq!(heading(2, 1), "2 existing windows overlap the new one:");
        assert_eq!(
            overlap_sentence(1, 3, "it.", "them."),
            "1 existing window overlaps them."
        );
    }

    #[test]
    fn typed_starts_read_as_civil_times() {
        assert_eq!(
            parse_datetime_local("2026-11-22T15:30"),
            Some((2026, 11, 22, 15, 30))
        );
        assert_eq!(
            parse_datetime_local("2028-02-29T00:00:00"),
            Some((2028, 2, 29, 0, 0))
        );
        assert_eq!(parse_datetime_local("2026-02-29T00:00"), None);
        assert_eq!(parse_datetime_local("2026-11-22 15:30"), None);
        assert_eq!(parse_datetime_local(""), None);
        assert_eq!(utc_seconds((1970, 1, 1, 0, 0)), 0.0);
        assert_eq!(utc_seconds((2026, 11, 22, 15, 30)), 1_795_361_400.0);
        assert_eq!(utc_seconds((2000, 3, 1, 0, 0)), 951_868_800.0);
    }

    #[test]
    fn each_machine_of_a_batch_gets_a_result_and_refused_ones_can_be_retried() {
        let items = [
            ItemResult {
                machine_id: 2,
                outcome: ItemOutcome::Scheduled { notifications: 1 },
            },
            ItemResult {
                machine_id: 1,
                outcome: ItemOutcome::Refused("No such machine id or not owned".into()),
            },
        ];
        let results = results_of_batch(&[1, 2, 3], &items, None);
        assert_eq!(
            results.iter().map(|r| r.machine_id).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(
            results[0].sentence(),
            "Machine 1: No such machine id or not owned"
        );
        assert_eq!(
            results[1].sentence(),
            "Machine 2: scheduled, 1 renter notified"
        );
        assert!(results[2].sentence().contains("no answer"));
        assert_eq!(refused(&results), [1, 3]);
        let whole = results_of_batch(&[7, 8], &[], Some("none of the machine_ids exists"));
        assert_eq!(
            whole[1].sentence(),
            "Machine 8: none of the machine_ids exists"
        );
    }
}
