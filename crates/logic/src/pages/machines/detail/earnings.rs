//! A machine's earnings in words: the total over its window, and the chart's description.

use crate::components::money::format_usd;
use crate::domain::earnings::{day_text, MachineEarned};

/// `Earned $1,234.56 in the 30 days from 2026-10-28 to 2026-11-26 (UTC).`
pub fn total_words(earned: &MachineEarned) -> String {
    let window = format!(
        "the {} days from {} to {} (UTC)",
        earned.window_days(),
        day_text(earned.first_day),
        day_text(earned.last_day)
    );
    match earned.total {
        Some(total) => format!("Earned {} in {window}.", format_usd(total)),
        None => format!("The service did not say what this machine earned in {window}."),
    }
}

/// What the chart shows, for a screen reader: the highest day and the lowest.
pub fn chart_description(days: &[(i64, f64)]) -> String {
    let highest = days.iter().max_by(|a, b| a.1.total_cmp(&b.1));
    let lowest = days.iter().min_by(|a, b| a.1.total_cmp(&b.1));
    match (highest, lowest) {
        (Some(high), Some(low)) => format!(
            "{} days. Highest {} on {}, lowest {} on {}.",
            days.len(),
            format_usd(high.1),
            day_text(high.0),
            format_usd(low.1),
            day_text(low.0)
        ),
        _ => "No day in the answer.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn earned(total: Option<f64>) -> MachineEarned {
        MachineEarned {
            first_day: 20_454,
            last_day: 20_456,
            total,
            days: vec![(20_454, 1.0), (20_455, 3.5), (20_456, 0.0)],
            days_may_be_fleet_wide: false,
        }
    }

    #[test]
    fn the_total_names_its_window_in_utc() {
        assert_eq!(
            total_words(&earned(Some(1234.5))),
            "Earned $1,234.50 in the 3 days from 2026-01-01 to 2026-01-03 (UTC)."
        );
        assert_eq!(
            total_words(&earned(None)),
            "The service did not say what this machine earned in the 3 days from 2026-01-01 \
             to 2026-01-03 (UTC)."
        );
    }

    #[test]
    fn the_chart_says_its_highest_and_lowest_day() {
        assert_eq!(
            chart_description(&earned(None).days),
            "3 days. Highest $3.50 on 2026-01-02, lowest $0.00 on 2026-01-03."
        );
        assert_eq!(chart_description(&[]), "No day in the answer.");
    }
}
