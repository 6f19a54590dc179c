//! What ending a machine's offer before its maintenance window does (§1.7, offers and
//! rental contracts): the N22 (list machine) `end_date` that makes the offer end by the
//! window's start, so that no new rental crosses the window, and each offer's result. Every
//! listed machine's end date is set, whatever it reads now: N1 gives no `duration`, and a
//! rolling offer's end date, renewed daily, reads like a fixed one. The rolling planner's
//! contract-safe mode plans these steps and the console's `end_offers` sends them.

use crate::domain::listing::{Listing, RentalsEnd};
use gpudeck_wire::Machine;

/// Why the plan sets every listed machine's offer end date, shown above the offers.
pub const OFFERS_ARE_SET: &str = "Each listed machine's offer end date is set, whatever it \
     reads now: rolling offers renew daily; the end date is set so that no new rental crosses \
     the window.";

/// What the contract-safe plan does to a machine's offer before its window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OfferStep {
    /// Not listed: no new rental can come.
    NotListed,
    /// N22 with this `end_date`. With `may_extend`, other rentals run that may end before
    /// it: those at a locked price not below the offer's are extended to it (§1.7).
    /// `reads` is the offer's end date as read (`None`: open-ended).
    EndAt {
        end: f64,
        may_extend: bool,
        reads: Option<f64>,
    },
}

impl OfferStep {
    /// The offer step for `machine` whose window starts at `window_start`, at `now`.
    /// A rented machine's offer ends when its rentals end, which lengthens no contract
    /// past the window; a vacant machine's at the window's start.
    pub fn of(machine: &Machine, window_start: i64, now: f64) -> OfferStep {
        let reads = match Listing::of(machine, now) {
            Listing::NotListed => return OfferStep::NotListed,
            Listing::OpenEnded => None,
            Listing::Until(end) => Some(end),
        };
        let start = window_start as f64;
        let (end, may_extend) = match RentalsEnd::of(machine) {
            RentalsEnd::At(end) if end > now && end <= start => {
                (end, machine.current_rentals_running > 1)
            }
            RentalsEnd::NoRentals => (start, false),
            // Rentals that end after the window (a start moved by hand), or that ended
            // since they were read: the offer still ends by the window, and shorter
            // rentals may be extended to it.
            _ => (start, true),
        };
        OfferStep::EndAt {
            end,
            may_extend,
            reads,
        }
    }

    /// The N22 end date to send, if any.
    pub fn end_date(&self) -> Option<f64> {
        match self {
            OfferStep::EndAt { end, .. } => Some(*end),
            OfferStep::NotListed => None,
        }
    }

    /// What the preview says of this step, its times written by `time`.
    pub fn sentence(&self, time: impl Fn(f64) -> String) -> String {
        let OfferStep::EndAt {
            end,
            may_extend,
            reads,
        } = self
        else {
            return "Not listed: the offer is left as it is.".into();
        };
        let end = time(*end);
        let set = match reads {
            None => format!("The offer has no end date; it will end at {end}."),
            Some(reads) => format!(
                "The offer reads as ending at {}; its end date is set to {end}.",
                time(*reads)
            ),
        };
        if *may_extend {
            format!(
                "{set} Rentals ending before {end} at a price not below the offer's may be \
                 extended to {end}."
            )
        } else {
            set
        }
    }
}

/// Whether a machine's offer now ends by `by`, as a re-read of the machine shows: what
/// settles an N22 that got no answer.
pub fn offer_ends_by(machine: &Machine, by: f64, now: f64) -> bool {
    match Listing::of(machine, now) {
        Listing::NotListed => true,
        Listing::Until(end) => end <= by,
        Listing::OpenEnded => false,
    }
}

/// How one machine's N22 ended.
#[derive(Debug, Clone, PartialEq)]
pub enum OfferOutcome {
    /// The offer now ends at the date sent; `extended` running contracts were lengthened
    /// to it (the server's count; `None` when its answer did not say).
    Ended { extended: Option<i64> },
    /// The answer did not say (`why`: none came, a server failure, one that could not be
    /// read), but the re-read shows the offer ending in time.
    FoundAfterNoAnswer(String),
    /// Not changed, with the server's sentence; its window is not sent.
    Refused(String),
    /// No answer that says (none, a server failure, one the console cannot read; `why`
    /// says which), and the re-read did not show the offer ending in time: its window is
    /// not sent, and a retry sends the same end date again (which changes nothing twice).
    Unknown(String),
}

/// One machine's offer step in a run: the end date sent and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferResult {
    pub machine_id: i64,
    pub end: f64,
    pub outcome: OfferOutcome,
}

impl OfferResult {
    pub fn is_done(&self) -> bool {
        matches!(
            self.outcome,
            OfferOutcome::Ended { .. } | OfferOutcome::FoundAfterNoAnswer(_)
        )
    }

    /// `Machine 1001: offer now ends at T, 2 contracts extended`, its time by `time`.
    pub fn sentence(&self, time: impl Fn(f64) -> String) -> String {
        let id = self.machine_id;
        let end = time(self.end);
        match &self.outcome {
            OfferOutcome::Ended { extended: None } => format!(
                "Machine {id}: offer now ends at {end}; the service did not say how many \
                 rentals it extended"
            ),
            OfferOutcome::Ended { extended: Some(0) } => {
                format!("Machine {id}: offer now ends at {end}")
            }
            OfferOutcome::Ended { extended: Some(1) } => {
                format!("Machine {id}: offer now ends at {end}, 1 contract extended to it")
            }
            OfferOutcome::Ended {
                extended: Some(extended),
            } => format!(
                "Machine {id}: offer now ends at {end}, {extended} contracts extended to it"
            ),
            OfferOutcome::FoundAfterNoAnswer(why) => {
                format!("Machine {id}: {why}, but the re-read shows its offer ending by {end}")
            }
            OfferOutcome::Refused(why) => {
                format!("Machine {id}: offer not changed ({why}); its window was not sent")
            }
            OfferOutcome::Unknown(why) => format!(
                "Machine {id}: {why} for its offer and the re-read did not show it ending by \
                 {end}; its window was not sent"
            ),
        }
    }
}

/// A machine as N1 (list machines) gives it, for the offer tests here and beside the
/// rolling page.
#[cfg(test)]
pub mod fixture {
    use gpudeck_wire::Machine;

    pub const NOW: f64 = 1_800_000_000.0;

    pub fn machine(
        listed: bool,
        end_date: Option<f64>,
        rentals: i64,
        client_end: Option<f64>,
    ) -> Machine {
        crate::domain::listing::fixture::listed_machine(1001, listed, end_date, rentals, client_end)
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::{machine, NOW};
    use super::*;
    use gpudeck_wire::maintenance::HOUR;

    #[test]
    fn a_rented_machines_offer_ends_with_its_rentals_and_a_vacant_ones_at_its_window() {
        let start = (NOW + 24.0 * HOUR) as i64;
        // Offer ends in two days, rentals in ten hours: the offer ends in ten hours.
        let rented = machine(true, Some(NOW + 48.0 * HOUR), 1, Some(NOW + 10.0 * HOUR));
        assert_eq!(
            OfferStep::of(&rented, start, NOW),
            OfferStep::EndAt {
                end: NOW + 10.0 * HOUR,
                may_extend: false,
                reads: Some(NOW + 48.0 * HOUR)
            }
        );
        // Several rentals: the shorter ones may be extended to the latest's end.
        let several = machine(true, None, 3, Some(NOW + 10.0 * HOUR));
        let step = OfferStep::of(&several, start, NOW);
        assert_eq!(
            step,
            OfferStep::EndAt {
                end: NOW + 10.0 * HOUR,
                may_extend: true,
                reads: None
            }
        );
        assert_eq!(
            step.sentence(|t| format!("+{}h", (t - NOW) / HOUR)),
            "The offer has no end date; it will end at +10h. Rentals ending before +10h at \
             a price not below the offer's may be extended to +10h."
        );
        let vacant = machine(true, None, 0, None);
        assert_eq!(
            OfferStep::of(&vacant, start, NOW),
            OfferStep::EndAt {
                end: start as f64,
                may_extend: false,
                reads: None
            }
        );
        assert_eq!(
            OfferStep::of(&vacant, start, NOW).end_date(),
            Some(start as f64)
        );
        // A start moved before the rentals' end: the offer still ends by the window.
        let moved = (NOW + 5.0 * HOUR) as i64;
        assert_eq!(
            OfferStep::of(&rented, moved, NOW),
            OfferStep::EndAt {
                end: moved as f64,
                may_extend: true,
                reads: Some(NOW + 48.0 * HOUR)
            }
        );
    }

    #[test]
    fn every_listed_offers_end_is_set_whatever_it_reads_now_and_an_unlisted_one_is_left() {
        let start = (NOW + 24.0 * HOUR) as i64;
        // It reads as ending before the window, but a rolling offer reads so too and
        // renews daily: its end is set all the same, to its rentals' end.
        let early = machine(true, Some(NOW + 20.0 * HOUR), 1, Some(NOW + 20.0 * HOUR));
        let step = OfferStep::of(&early, start, NOW);
        assert_eq!(
            step,
            OfferStep::EndAt {
                end: NOW + 20.0 * HOUR,
                may_extend: false,
                reads: Some(NOW + 20.0 * HOUR)
            }
        );
        assert_eq!(step.end_date(), Some(NOW + 20.0 * HOUR));
        assert_eq!(
            step.sentence(|t| format!("+{}h", (t - NOW) / HOUR)),
            "The offer reads as ending at +20h; its end date is set to +20h."
        );
        let exactly = machine(true, Some(start as f64), 0, None);
        assert_eq!(
            OfferStep::of(&exactly, start, NOW).end_date(),
            Some(start as f64)
        );
        let unlisted = machine(false, None, 1, Some(NOW + 20.0 * HOUR));
        assert_eq!(OfferStep::of(&unlisted, start, NOW), OfferStep::NotListed);
        // An offer end date already passed: no longer listed.
        let expired = machine(true, Some(NOW - 1.0), 0, None);
        assert_eq!(OfferStep::of(&expired, start, NOW), OfferStep::NotListed);
        let by = start as f64;
        assert!(offer_ends_by(&early, by, NOW));
        assert!(offer_ends_by(&unlisted, by, NOW));
        assert!(!offer_ends_by(&machine(true, None, 0, None), by, NOW));
        assert!(!offer_ends_by(
            &machine(true, Some(by + 1.0), 0, None),
            by,
            NOW
        ));
        assert!(OFFERS_ARE_SET.contains(
            "rolling offers renew daily; the end date is set so that no new rental crosses \
             the window"
        ));
    }

    #[test]
    fn each_offer_result_says_what_happened_to_the_offer_and_the_window() {
        let result = |outcome| OfferResult {
            machine_id: 1001,
            end: NOW + HOUR,
            outcome,
        };
        let time = |t: f64| format!("+{}h", (t - NOW) / HOUR);
        let ended = result(OfferOutcome::Ended { extended: Some(2) });
        assert!(ended.is_done());
        assert_eq!(
            ended.sentence(time),
            "Machine 1001: offer now ends at +1h, 2 contracts extended to it"
        );
        assert_eq!(
            result(OfferOutcome::Ended { extended: Some(0) }).sentence(time),
            "Machine 1001: offer now ends at +1h"
        );
        // An answer without `extended` did not say: never "none extended" (§1.3 rule 9).
        let silent = result(OfferOutcome::Ended { extended: None });
        assert!(silent.is_done());
        assert_eq!(
            silent.sentence(time),
            "Machine 1001: offer now ends at +1h; the service did not say how many rentals \
             it extended"
        );
        let found = result(OfferOutcome::FoundAfterNoAnswer(
            "the answer did not say whether it was done (boom (500))".into(),
        ));
        assert!(found.is_done());
        assert_eq!(
            found.sentence(time),
            "Machine 1001: the answer did not say whether it was done (boom (500)), but the \
             re-read shows its offer ending by +1h"
        );
        let refused = result(OfferOutcome::Refused(
            "end_date must be in the future".into(),
        ));
        assert!(!refused.is_done());
        assert_eq!(
            refused.sentence(time),
            "Machine 1001: offer not changed (end_date must be in the future); its window \
             was not sent"
        );
        let failed = result(OfferOutcome::Unknown(
            "the answer did not say whether it was done (boom (500))".into(),
        ));
        assert!(!failed.is_done());
        assert_eq!(
            failed.sentence(time),
            "Machine 1001: the answer did not say whether it was done (boom (500)) for its \
             offer and the re-read did not show it ending by +1h; its window was not sent"
        );
    }
}
