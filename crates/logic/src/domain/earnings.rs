//! What one machine earned (fleet-health N34), as the console shows it: the total from
//! `per_machine` alone, and the days from `per_day`, marked when they may be fleet-wide.

use gpudeck_wire::{DayEarningsRow, MachineEarnings, MachineEarningsRow};

/// How far the days' sum may stray from the machine's total before the days are said to
/// be possibly fleet-wide (fleet-health §4: "more than $0.01").
const DAYS_AGREE_WITHIN: f64 = 0.01;

/// One machine's earnings over a window of whole UTC days.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineEarned {
    /// The window's first and last day indexes, as the answer gives them back.
    pub first_day: i64,
    pub last_day: i64,
    /// The machine's total from `per_machine`; `None` when its row is not there.
    pub total: Option<f64>,
    /// Each day's amount, ascending by day.
    pub days: Vec<(i64, f64)>,
    /// The days do not add up to the total (or there is none to check them by): the
    /// public service may send fleet-wide days even for one machine.
    pub days_may_be_fleet_wide: bool,
}

/// Every kind of income of a row: GPU, storage, both bandwidths and SLA.
fn sum(gpu: f64, sto: f64, bwu: f64, bwd: f64, sla: Option<f64>) -> f64 {
    gpu + sto + bwu + bwd + sla.unwrap_or(0.0)
}

fn machine_total(row: &MachineEarningsRow) -> f64 {
    sum(
        row.gpu_earn,
        row.sto_earn,
        row.bwu_earn,
        row.bwd_earn,
        row.sla_earn,
    )
}

fn day_total(row: &DayEarningsRow) -> f64 {
    sum(
        row.gpu_earn,
        row.sto_earn,
        row.bwu_earn,
        row.bwd_earn,
        row.sla_earn,
    )
}

impl MachineEarned {
    /// Machine `id`'s earnings in `answer`, to a request for `first_day..=last_day`; the
    /// window the answer reads back (`sday`, `eday`) wins.
    pub fn of(answer: &MachineEarnings, id: i64, first_day: i64, last_day: i64) -> Self {
        let total = answer
            .per_machine
            .iter()
            .find(|row| row.machine_id == id)
            .map(machine_total);
        let mut days: Vec<(i64, f64)> = answer
            .per_day
            .iter()
            .map(|row| (row.day, day_total(row)))
            .collect();
        days.sort_by_key(|(day, _)| *day);
        let days_sum: f64 = days.iter().map(|(_, amount)| amount).sum();
        MachineEarned {
            first_day: answer.sday.unwrap_or(first_day),
            last_day: answer.eday.unwrap_or(last_day),
            days_may_be_fleet_wide: total
                .is_none_or(|total| (days_sum - total).abs() > DAYS_AGREE_WITHIN),
            total,
            days,
        }
    }

    /// How many days the window covers.
    pub fn window_days(&self) -> i64 {
        self.last_day - self.first_day + 1
    }
}

/// `2026-11-03`: a day index as a UTC date.
pub fn day_text(day: i64) -> String {
    let (year, month, day) = gpudeck_wire::calendar::civil_from_days(day);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(per_machine: serde_json::Value, per_day: serde_json::Value) -> MachineEarnings {
        serde_json::from_value(json!({
            "sday": 20_454, "eday": 20_456,
            "summary": {"total_gpu": 0, "total_stor": 0, "total_bwu": 0, "total_bwd": 0},
            "per_machine": per_machine, "per_day": per_day,
        }))
        .unwrap()
    }

    fn day(day: i64, gpu: f64) -> serde_json::Value {
        json!({"day": day, "gpu_earn": gpu, "sto_earn": 0.2, "bwu_earn": 0.0, "bwd_earn": 0.0})
    }

    #[test]
    fn the_total_comes_from_per_machine_and_the_days_in_order() {
        let earned = MachineEarned::of(
            &answer(
                json!([{"machine_id": 7, "gpu_earn": 30.0, "sto_earn": 0.6, "bwu_earn": 0.03,
                        "bwd_earn": 0.01, "sla_earn": 0.5}]),
                json!([day(20_456, 10.0), day(20_454, 10.0), day(20_455, 10.0)]),
            ),
            7,
            1,
            3,
        );
        assert!((earned.total.unwrap() - 31.14).abs() < 1e-9);
        assert_eq!(
            earned.days.iter().map(|d| d.0).collect::<Vec<_>>(),
            [20_454, 20_455, 20_456]
        );
        assert!((earned.days[0].1 - 10.2).abs() < 1e-9);
        // Read back from the answer, not the request.
        assert_eq!((earned.first_day, earned.last_day), (20_454, 20_456));
        assert_eq!(earned.window_days(), 3);
        // 30.6 against 31.14: more than a cent apart.
        assert!(earned.days_may_be_fleet_wide);
    }

    #[test]
    fn days_agreeing_with_the_total_to_the_cent_are_the_machines() {
        let row = |gpu: f64| {
            json!([{"machine_id": 7, "gpu_earn": gpu, "sto_earn": 0.6, "bwu_earn": 0.0,
                    "bwd_earn": 0.0}])
        };
        let days = json!([day(20_454, 10.0), day(20_455, 10.0), day(20_456, 10.0)]);
        let agreeing = MachineEarned::of(&answer(row(30.005), days.clone()), 7, 0, 0);
        assert!(!agreeing.days_may_be_fleet_wide);
        let apart = MachineEarned::of(&answer(row(30.02), days.clone()), 7, 0, 0);
        assert!(apart.days_may_be_fleet_wide);
        // Without the machine's row there is no total, and nothing to trust the days by.
        let other = MachineEarned::of(&answer(json!([]), days), 7, 0, 0);
        assert_eq!(other.total, None);
        assert!(other.days_may_be_fleet_wide);
    }

    #[test]
    fn days_read_as_utc_dates() {
        assert_eq!(day_text(0), "1970-01-01");
        assert_eq!(day_text(20_454), "2026-01-01");
    }
}
