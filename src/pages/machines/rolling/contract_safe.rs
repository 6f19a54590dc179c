//! The rolling planner's two modes, and the steps a contract-safe run still has to take
//! (§1.7, offers and rental contracts): no machine goes down before its rentals end, and
//! its offer is first made to end by its window's start. What ending an offer does, and
//! its result, are in [`super::offer_steps`], which also sends them.
//! Pure and unit-tested natively.

use super::offer_steps::OfferStep;
use crate::domain::listing::RentalsEnd;
use gpudeck_wire::Machine;
use std::collections::BTreeSet;

/// The hosting guide's words on what a maintenance window is, shown beside the mode.
pub const WINDOW_IS_A_NOTIFICATION: &str = "A maintenance window is a notification, not an \
     action. It does not stop instances, unlist the machine, or block new rentals.";

/// Why a machine with a rental that has no end date is not planned contract-safe.
pub const NO_END_DATE_REASON: &str =
    "a rental has no end date, so there is no time its renters are sure to have left";

/// How the planner treats running rentals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Mode {
    /// Each window waits for its machine's rentals to end, and each offer ends by then.
    #[default]
    ContractSafe,
    /// Windows may start during rentals: their renters are told, nothing more (unplanned
    /// work).
    NotifyNow,
}

impl Mode {
    pub fn key(self) -> &'static str {
        match self {
            Mode::ContractSafe => "contract-safe",
            Mode::NotifyNow => "notify",
        }
    }

    pub fn from_key(key: &str) -> Self {
        match key {
            "notify" => Mode::NotifyNow,
            _ => Mode::ContractSafe,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Mode::ContractSafe => "Contract-safe",
            Mode::NotifyNow => "Notify renters now",
        }
    }

    /// What choosing the mode does, in a sentence.
    pub fn hint(self) -> &'static str {
        match self {
            Mode::ContractSafe => {
                "Each machine goes down only after its rentals end, and its offer is first \
                 made to end by its window's start, so no new rental crosses the window."
            }
            Mode::NotifyNow => {
                "Windows may start while rentals run: their renters are told. For unplanned \
                 work."
            }
        }
    }
}

/// The earliest a machine may go down in `mode` (Unix seconds; `None`: any time), or why
/// it is not planned at all.
pub fn not_before_of(machine: &Machine, mode: Mode) -> Result<Option<i64>, &'static str> {
    if mode == Mode::NotifyNow {
        return Ok(None);
    }
    match RentalsEnd::of(machine) {
        RentalsEnd::NoRentals => Ok(None),
        RentalsEnd::At(end) => Ok(Some(end.ceil() as i64)),
        RentalsEnd::NoEndDate => Err(NO_END_DATE_REASON),
    }
}

/// Why a window was not sent: its machine's offer step did not succeed.
pub const WINDOW_NOT_SENT: &str =
    "not sent: its offer could not be made to end first; it stays in the plan to retry";

/// The two steps a run still has to take: the offers to end (machine, end date for N22
/// (list machine)) and the machines whose window may be sent once those are done.
/// `remaining` is the plan's machines not scheduled yet with their steps; `offers_ended`
/// those whose offer step a run (or its re-read) already showed done, which is never sent
/// again.
pub fn steps_left(
    remaining: &[(i64, OfferStep)],
    offers_ended: &BTreeSet<i64>,
) -> (Vec<(i64, f64)>, Vec<i64>) {
    let mut offers = Vec::new();
    let mut ready = Vec::new();
    for (id, step) in remaining {
        match step.end_date() {
            Some(end) if !offers_ended.contains(id) => offers.push((*id, end)),
            _ => ready.push(*id),
        }
    }
    (offers, ready)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::offer_steps::fixture::{machine, NOW};
    use super::*;
    use gpudeck_wire::maintenance::HOUR;

    #[test]
    fn a_machine_waits_for_its_rentals_to_end_and_one_without_an_end_date_does_not_fit() {
        let rented = machine(true, Some(NOW + 48.0 * HOUR), 2, Some(NOW + 5.5 * HOUR));
        assert_eq!(
            not_before_of(&rented, Mode::ContractSafe),
            Ok(Some((NOW + 5.5 * HOUR) as i64))
        );
        assert_eq!(not_before_of(&rented, Mode::NotifyNow), Ok(None));
        let vacant = machine(true, None, 0, None);
        assert_eq!(not_before_of(&vacant, Mode::ContractSafe), Ok(None));
        let endless = machine(true, None, 1, None);
        assert_eq!(
            not_before_of(&endless, Mode::ContractSafe),
            Err(NO_END_DATE_REASON)
        );
        assert_eq!(not_before_of(&endless, Mode::NotifyNow), Ok(None));
        // An unlisted machine's rentals still run to their end.
        let unlisted = machine(false, None, 1, Some(NOW + 30.0 * HOUR));
        assert_eq!(
            not_before_of(&unlisted, Mode::ContractSafe),
            Ok(Some((NOW + 30.0 * HOUR) as i64))
        );
    }

    #[test]
    fn a_retry_ends_only_the_offers_not_yet_ended_and_sends_windows_once_they_are() {
        let end = |end: f64| OfferStep::EndAt {
            end,
            may_extend: false,
            reads: None,
        };
        let remaining = [
            (1, end(100.0)),
            (2, OfferStep::NotListed),
            (3, end(300.0)),
            (4, OfferStep::NotListed),
        ];
        let (offers, ready) = steps_left(&remaining, &BTreeSet::new());
        assert_eq!(offers, [(1, 100.0), (3, 300.0)]);
        assert_eq!(ready, [2, 4]);
        // Machine 3's offer was ended by an earlier run: only its window is left.
        let (offers, ready) = steps_left(&remaining, &BTreeSet::from([3]));
        assert_eq!(offers, [(1, 100.0)]);
        assert_eq!(ready, [2, 3, 4]);
    }

    #[test]
    fn the_mode_goes_into_the_address_and_back() {
        for mode in [Mode::ContractSafe, Mode::NotifyNow] {
            assert_eq!(Mode::from_key(mode.key()), mode);
        }
        assert_eq!(Mode::from_key("anything"), Mode::ContractSafe);
        assert_eq!(Mode::default(), Mode::ContractSafe);
    }
}
