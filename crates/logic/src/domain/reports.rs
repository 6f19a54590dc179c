//! Renter reports (fleet-health N24) as the console reads them. `created_at` is uncertain
//! (a number in the generated ref, a date-time string in the docs), so each form is read
//! as §2 says, and what cannot be read is kept verbatim rather than guessed.

use crate::decimal::parse_decimal;
use gpudeck_wire::maintenance::parse_rfc3339;
use gpudeck_wire::{NumberOrText, RenterReport};

/// From this value on a number is milliseconds, not seconds (project rule): 10¹¹ seconds
/// is the year 5138, 10¹¹ milliseconds March 1973.
const MILLISECONDS_FROM: f64 = 1e11;

/// When a report was filed, as far as its `created_at` says.
#[derive(Debug, Clone, PartialEq)]
pub enum Filed {
    /// Unix seconds.
    At(f64),
    /// A value none of §2's forms reads, shown as sent.
    AsSent(String),
}

impl Filed {
    /// Reads `created_at`: a number (seconds, or milliseconds from 10¹¹), a numeric string
    /// read the same way, or an RFC 3339 / ISO 8601 date-time, taken as UTC without a zone.
    pub fn of(created_at: &NumberOrText) -> Filed {
        let seconds = |n: f64| {
            if n.abs() >= MILLISECONDS_FROM {
                n / 1000.0
            } else {
                n
            }
        };
        match created_at {
            NumberOrText::Number(n) if n.is_finite() => Filed::At(seconds(*n)),
            NumberOrText::Number(n) => Filed::AsSent(n.to_string()),
            NumberOrText::Text(text) => {
                let trimmed = text.trim();
                let number = parse_decimal(trimmed).filter(|n| n.is_finite());
                let date =
                    || parse_rfc3339(trimmed).or_else(|| parse_rfc3339(&format!("{trimmed}Z")));
                match number.map(seconds).or_else(date) {
                    Some(at) => Filed::At(at),
                    None => Filed::AsSent(text.clone()),
                }
            }
        }
    }
}

/// The reports with when each was filed, newest first; those whose time cannot be read
/// come last, in the order received.
pub fn newest_first(reports: Vec<RenterReport>) -> Vec<(RenterReport, Filed)> {
    let mut read: Vec<(RenterReport, Filed)> = reports
        .into_iter()
        .map(|report| {
            let filed = Filed::of(&report.created_at);
            (report, filed)
        })
        .collect();
    // Stable: reports of one instant, and those unread, keep the server's order.
    read.sort_by(|(_, a), (_, b)| match (a, b) {
        (Filed::At(a), Filed::At(b)) => b.total_cmp(a),
        (Filed::At(_), Filed::AsSent(_)) => std::cmp::Ordering::Less,
        (Filed::AsSent(_), Filed::At(_)) => std::cmp::Ordering::Greater,
        (Filed::AsSent(_), Filed::AsSent(_)) => std::cmp::Ordering::Equal,
    });
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> NumberOrText {
        NumberOrText::Text(t.into())
    }

    #[test]
    fn created_at_is_read_in_each_form_section_2_names() {
        assert_eq!(
            Filed::of(&NumberOrText::Number(1_717_632_000.0)),
            Filed::At(1_717_632_000.0)
        );
        // Milliseconds from 10¹¹ on, just below it still seconds.
        assert_eq!(
            Filed::of(&NumberOrText::Number(1_717_632_000_500.0)),
            Filed::At(1_717_632_000.5)
        );
        assert_eq!(
            Filed::of(&NumberOrText::Number(99_999_999_999.0)),
            Filed::At(99_999_999_999.0)
        );
        assert_eq!(Filed::of(&text(" 1717632000 ")), Filed::At(1_717_632_000.0));
        assert_eq!(
            Filed::of(&text("1717632000000")),
            Filed::At(1_717_632_000.0)
        );
        assert_eq!(
            Filed::of(&text("2024-06-06T00:00:00Z")),
            Filed::At(1_717_632_000.0)
        );
        assert_eq!(
            Filed::of(&text("2024-06-06T02:00:00+02:00")),
            Filed::At(1_717_632_000.0)
        );
        // No zone: UTC.
        assert_eq!(
            Filed::of(&text("2024-06-06T00:00:00")),
            Filed::At(1_717_632_000.0)
        );
        assert_eq!(
            Filed::of(&text("2024-06-06 00:00:00.5")),
            Filed::At(1_717_632_000.5)
        );
        for unread in ["yesterday", "", "2024-06-06", "NaN", "inf"] {
            assert_eq!(
                Filed::of(&text(unread)),
                Filed::AsSent(unread.into()),
                "{unread}"
            );
        }
    }

    #[test]
    fn reports_are_newest_first_and_the_unread_last_in_their_order() {
        let report = |message: &str, created_at: NumberOrText| RenterReport {
            problem: "Other".into(),
            message: message.into(),
            created_at,
        };
        let sorted = newest_first(vec![
            report("unread 1", text("last week")),
            report("old", NumberOrText::Number(1_000.0)),
            report("new", text("1970-01-01T01:00:00Z")),
            report("unread 2", text("?")),
            report("middle", NumberOrText::Number(2_000.0)),
        ]);
        let order: Vec<&str> = sorted.iter().map(|(r, _)| r.message.as_str()).collect();
        assert_eq!(order, ["new", "middle", "old", "unread 1", "unread 2"]);
    }
}
