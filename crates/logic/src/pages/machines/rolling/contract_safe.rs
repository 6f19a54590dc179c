//! The rolling planner's two modes, and the steps a contract-safe run still has to take
//! (§1.7, offers and rental contracts): no machine goes down before its rentals end, and
//! its offer is first made to end by its window's start. What ending an offer does, and
//! its result, are in [`super::offer_steps`], which also sends them.
//! Pure and unit-tested natively.

use super::offer_steps::{offer_ends_by, OfferStep};
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

/// Why a contract-safe run held a machine back, unsent.
#[derive(Debug, Clone, PartialEq)]
pub enum HeldBack {
    /// Rented since the plan was made: its start is no longer after its rentals' end.
    RentedSince(RentalsEnd),
    /// Not among the host's machines when read again.
    Gone,
    /// Its rentals could not be read again, with why.
    NotReread(String),
}

impl HeldBack {
    /// `Machine 1042: rented since the plan was made; its rentals now end at T; plan it
    /// again`, its time written by `time`.
    pub fn sentence(&self, machine_id: i64, time: impl Fn(f64) -> String) -> String {
        let rented = |now: String| {
            format!("Machine {machine_id}: rented since the plan was made; {now}; plan it again")
        };
        match self {
            HeldBack::RentedSince(RentalsEnd::At(end)) => {
                rented(format!("its rentals now end at {}", time(*end)))
            }
            HeldBack::RentedSince(_) => rented("a rental now has no end date".into()),
            HeldBack::Gone => {
                format!("Machine {machine_id}: not among your machines when read again; not sent")
            }
            HeldBack::NotReread(why) => format!(
                "Machine {machine_id}: its rentals could not be read again ({why}); not sent, \
                 it stays in the plan to retry"
            ),
        }
    }
}

/// What a contract-safe run does with one machine, decided on the machine as read again
/// just before its offer step and window are sent (§1.3 rule 10), at `now`.
#[derive(Debug, Clone, PartialEq)]
pub enum AtSend {
    /// Not sent at all.
    Held(HeldBack),
    /// Its offer is first made to end at this date (N22), then its window is sent.
    EndOffer(f64),
    /// Only its window: not listed, or its offer ended by an earlier run and still ending
    /// by the start.
    Window,
}

/// The decision for a machine whose window starts at `start`, `reread` as N1 now gives it
/// (`None`: not among the machines); `offer_ended` when an earlier run of the plan made its
/// offer end. The offer's end date is planned again from what is read now, so one planned
/// earlier that has passed since is never sent.
pub fn at_send(reread: Option<&Machine>, start: i64, offer_ended: bool, now: f64) -> AtSend {
    let Some(machine) = reread else {
        return AtSend::Held(HeldBack::Gone);
    };
    let safe = match not_before_of(machine, Mode::ContractSafe) {
        Ok(not_before) => not_before.is_none_or(|time| start >= time),
        Err(_) => false,
    };
    if !safe {
        return AtSend::Held(HeldBack::RentedSince(RentalsEnd::of(machine)));
    }
    if offer_ended && offer_ends_by(machine, start as f64, now) {
        return AtSend::Window;
    }
    match OfferStep::of(machine, start, now).end_date() {
        Some(end) => AtSend::EndOffer(end),
        None => AtSend::Window,
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

#[cfg(test)]
mod tests {
    use super::super::offer_steps::fixture::{machine, NOW};
    use super::*;
    use gpudeck_wire::maintenance::HOUR;

    #[test]
    fn a_machine_rented_since_the_plan_was_made_is_held_back_and_others_go_on() {
        let start = (NOW + 24.0 * HOUR) as i64;
        let vacant = machine(true, None, 0, None);
        assert_eq!(
            at_send(Some(&vacant), start, false, NOW),
            AtSend::EndOffer(start as f64)
        );
        // Rented since: a 20-day rental now runs across the window.
        let rented = machine(true, None, 1, Some(NOW + 20.0 * 24.0 * HOUR));
        let held = at_send(Some(&rented), start, false, NOW);
        assert_eq!(
            held,
            AtSend::Held(HeldBack::RentedSince(RentalsEnd::At(
                NOW + 20.0 * 24.0 * HOUR
            )))
        );
        let time = |t: f64| format!("+{}h", (t - NOW) / HOUR);
        let AtSend::Held(why) = held else {
            unreachable!()
        };
        assert_eq!(
            why.sentence(1042, time),
            "Machine 1042: rented since the plan was made; its rentals now end at +480h; \
             plan it again"
        );
        // A rental with no end date, or one ending a second after the start: held back.
        let endless = machine(true, None, 1, None);
        assert_eq!(
            at_send(Some(&endless), start, false, NOW),
            AtSend::Held(HeldBack::RentedSince(RentalsEnd::NoEndDate))
        );
        assert_eq!(
            HeldBack::RentedSince(RentalsEnd::NoEndDate).sentence(1042, time),
            "Machine 1042: rented since the plan was made; a rental now has no end date; \
             plan it again"
        );
        let late = machine(true, None, 1, Some(start as f64 + 1.0));
        assert!(matches!(
            at_send(Some(&late), start, false, NOW),
            AtSend::Held(_)
        ));
        // Rentals that end by the start: the offer ends with them, then the window.
        let ending = machine(true, None, 1, Some(start as f64 - HOUR));
        assert_eq!(
            at_send(Some(&ending), start, false, NOW),
            AtSend::EndOffer(start as f64 - HOUR)
        );
        let unlisted = machine(false, None, 0, None);
        assert_eq!(at_send(Some(&unlisted), start, false, NOW), AtSend::Window);
        assert_eq!(
            at_send(None, start, false, NOW),
            AtSend::Held(HeldBack::Gone)
        );
        assert_eq!(
            HeldBack::Gone.sentence(1042, time),
            "Machine 1042: not among your machines when read again; not sent"
        );
        assert_eq!(
            HeldBack::NotReread("no answer came".into()).sentence(1042, time),
            "Machine 1042: its rentals could not be read again (no answer came); not sent, \
             it stays in the plan to retry"
        );
    }

    #[test]
    fn a_retry_plans_an_offer_end_that_has_passed_again_rather_than_resend_it() {
        let start = (NOW + 24.0 * HOUR) as i64;
        // Planned while the rental was to end in an hour: the offer to end then.
        let rented = machine(true, None, 1, Some(NOW + HOUR));
        assert_eq!(
            at_send(Some(&rented), start, false, NOW),
            AtSend::EndOffer(NOW + HOUR)
        );
        // Retried two hours later: that time has passed. Read again, the rental is over,
        // and the offer is planned to end at the window's start.
        let later = NOW + 2.0 * HOUR;
        let vacant = machine(true, None, 0, Some(NOW + HOUR));
        assert_eq!(
            at_send(Some(&vacant), start, false, later),
            AtSend::EndOffer(start as f64)
        );
        // Still counted as running, its end passed: never the past date either.
        assert_eq!(
            at_send(Some(&rented), start, false, later),
            AtSend::EndOffer(start as f64)
        );
    }

    #[test]
    fn an_offer_ended_by_an_earlier_run_is_not_sent_again_while_it_still_ends_in_time() {
        let start = (NOW + 24.0 * HOUR) as i64;
        let ended = machine(true, Some(start as f64), 0, None);
        assert_eq!(at_send(Some(&ended), start, true, NOW), AtSend::Window);
        // Changed since (it ends after the window again): set again.
        let reopened = machine(true, None, 0, None);
        assert_eq!(
            at_send(Some(&reopened), start, true, NOW),
            AtSend::EndOffer(start as f64)
        );
    }

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
