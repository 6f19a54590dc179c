//! The public service's rate limits as it answers them (spec neighbours §1.5), read from
//! the operation table ([`crate::operations`]): the reference server enforces them with
//! `--public-rate-limits` and the console paces itself by them.

use crate::operations::{self, Operation};

/// One operation's minimum interval between two calls by one key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PublicInterval {
    /// The operation's name in the spec, e.g. `N5`.
    pub operation: &'static str,
    pub method: &'static str,
    /// The path in the official client's form; `{…}` stands for one segment.
    pub path: &'static str,
    pub seconds: f64,
}

impl PublicInterval {
    /// `operation`'s interval, if the public service limits it.
    pub fn of(operation: &'static Operation) -> Option<Self> {
        Some(PublicInterval {
            operation: operation.name,
            method: operation.method,
            path: operation.path,
            seconds: operation.public_seconds?,
        })
    }
}

/// Every operation the public service limits, with its interval: the generated
/// reference's value, the docs' where it gives none. Operations not listed are not limited
/// by the server and paced by the console only after a 429.
pub fn public_intervals() -> impl Iterator<Item = PublicInterval> {
    operations::ALL.into_iter().filter_map(PublicInterval::of)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(name: &str) -> Option<f64> {
        public_intervals()
            .find(|i| i.operation == name)
            .map(|i| i.seconds)
    }

    #[test]
    fn the_intervals_are_the_generated_references() {
        // Spec §1.5: N12 and N18 at 2, not the docs' 5.5 and 3.0.
        assert_eq!(seconds("N12"), Some(2.0));
        assert_eq!(seconds("N18"), Some(2.0));
        assert_eq!(seconds("N22"), Some(5.0));
        // The seed operations' own thresholds.
        let seed: Vec<_> = (1..=7).map(|n| seconds(&format!("seed op {n}"))).collect();
        assert_eq!(seed, [2.0, 2.8, 0.9, 1.0, 2.1, 2.0, 2.0].map(Some).to_vec());
        assert_eq!(seconds("seed op 3 (alias)"), Some(2.0));
        // What the public service does not limit.
        assert_eq!(seconds("N21"), None);
        assert_eq!(seconds("N17a"), None);
    }
}
