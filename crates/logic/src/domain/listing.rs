//! Where a machine stands between renting and maintenance (§1.7, offers and rental
//! contracts): whether it is listed and until when, when its rentals end, and the stage
//! that follows from both. The hosting guide's way to maintain a machine is to let its
//! offer end, wait for its rentals to end, then unlist it; the stage says how far along
//! that way each machine is.

use gpudeck_wire::Machine;

/// Whether a machine is listed (N1 (list machines): `listed`, `end_date`), as of an instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Listing {
    NotListed,
    /// Listed with no offer end date: new rentals may come, with no end date of their own.
    OpenEnded,
    /// Listed until its offer end date (Unix seconds); new rentals end then too.
    Until(f64),
}

/// When a machine's rentals end (N1: `current_rentals_running`, `client_end_date`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RentalsEnd {
    /// No rental is running.
    NoRentals,
    /// The latest rental end date among its running contracts (Unix seconds).
    At(f64),
    /// A rental is running with no end date: it ends only when its renter stops it.
    NoEndDate,
}

/// The stage of a machine on the way to maintenance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stage {
    /// Listed with no offer end date, and rented: nothing is ending.
    Listed,
    /// Listed and rented, the offer ending at `offer_ends`: no new rental runs past it.
    Draining {
        offer_ends: f64,
        rentals_end: RentalsEnd,
    },
    /// Listed with no rental running: unlisting it now keeps no renter waiting.
    Vacant,
    /// Not listed (no new rentals), but rentals still run.
    UnlistedRented { rentals_end: RentalsEnd },
    /// Not listed and no rental running: ready for maintenance.
    UnlistedVacant,
    /// A maintenance window is under way until `until` (Unix seconds).
    InMaintenance { until: f64 },
}

impl Listing {
    /// The listing at `now`. An offer end date at or before `now` has expired by itself
    /// (§1.7), even when the machine was loaded before it passed.
    pub fn of(machine: &Machine, now: f64) -> Listing {
        match (machine.listed, machine.end_date) {
            (false, _) => Listing::NotListed,
            (true, None) => Listing::OpenEnded,
            (true, Some(end)) if end <= now => Listing::NotListed,
            (true, Some(end)) => Listing::Until(end),
        }
    }
}

impl RentalsEnd {
    /// N1 cannot say whether some other rental has no end date when one has an end date:
    /// `client_end_date` is the latest end date among those that have one.
    pub fn of(machine: &Machine) -> RentalsEnd {
        match machine.client_end_date {
            _ if machine.current_rentals_running <= 0 => RentalsEnd::NoRentals,
            Some(end) => RentalsEnd::At(end),
            None => RentalsEnd::NoEndDate,
        }
    }
}

impl Stage {
    /// The stage from the offer and the rentals alone: never [`Stage::InMaintenance`],
    /// which needs the windows ([`Stage::in_cycle`]).
    pub fn of(machine: &Machine, now: f64) -> Stage {
        let rentals_end = RentalsEnd::of(machine);
        let rented = rentals_end != RentalsEnd::NoRentals;
        match Listing::of(machine, now) {
            Listing::NotListed if rented => Stage::UnlistedRented { rentals_end },
            Listing::NotListed => Stage::UnlistedVacant,
            _ if !rented => Stage::Vacant,
            Listing::OpenEnded => Stage::Listed,
            Listing::Until(offer_ends) => Stage::Draining {
                offer_ends,
                rentals_end,
            },
        }
    }

    /// The stage in the cycle listed → draining → vacant → unlisted → in maintenance →
    /// unlisted again → listed: [`Stage::of`], and "in maintenance" for an unlisted, vacant
    /// machine whose next window `window` (start, end) is under way. A machine still listed
    /// or rented during its window keeps the stage that says so: that is what needs the
    /// host (the Next window column says the window is under way). After the window the
    /// machine reads "Unlisted, vacant" again: neither N1 nor seed op 1 keeps a window once
    /// it has ended, so a machine whose maintenance is over looks like one about to be
    /// maintained; fleet health's "Maintained, not listed" asks the host which it is.
    pub fn in_cycle(machine: &Machine, now: f64, window: Option<(f64, f64)>) -> Stage {
        match (Stage::of(machine, now), window) {
            (Stage::UnlistedVacant, Some((start, end))) if start <= now && now < end => {
                Stage::InMaintenance { until: end }
            }
            (stage, _) => stage,
        }
    }

    /// A short name, for a table cell.
    pub fn label(&self) -> &'static str {
        match self {
            Stage::Listed => "Listed",
            Stage::Draining { .. } => "Draining",
            Stage::Vacant => "Vacant",
            Stage::UnlistedRented { .. } => "Unlisted, rented",
            Stage::UnlistedVacant => "Unlisted, vacant",
            Stage::InMaintenance { .. } => "In maintenance",
        }
    }

    /// What the stage means for this machine, its times written by `time`.
    pub fn sentence(&self, time: impl Fn(f64) -> String) -> String {
        let until = |end: &RentalsEnd| match end {
            RentalsEnd::At(at) => format!("rentals end by {}", time(*at)),
            RentalsEnd::NoEndDate => "a rental has no end date".to_owned(),
            RentalsEnd::NoRentals => "no rental is running".to_owned(),
        };
        match self {
            Stage::Listed => "Listed with no offer end date: rentals may come and stay.".into(),
            Stage::Draining {
                offer_ends,
                rentals_end,
            } => format!(
                "Draining: the offer ends at {}; {}.",
                time(*offer_ends),
                until(rentals_end)
            ),
            Stage::Vacant => "Listed and vacant: no rental is running.".into(),
            Stage::UnlistedRented { rentals_end } => format!(
                "Unlisted with rentals still running: {}.",
                until(rentals_end)
            ),
            Stage::UnlistedVacant => "Unlisted and vacant: ready for maintenance.".into(),
            Stage::InMaintenance { until } => {
                format!("In maintenance: its window ends at {}.", time(*until))
            }
        }
    }
}

/// "Until T", "Open-ended" or "No", for the table's Listed column.
pub fn listing_text(listing: Listing, time: impl Fn(f64) -> String) -> String {
    match listing {
        Listing::NotListed => "No".into(),
        Listing::OpenEnded => "Open-ended".into(),
        Listing::Until(end) => format!("Until {}", time(end)),
    }
}

/// The end time, "No end date" or "None running", for the table's Rentals end column.
pub fn rentals_end_text(end: RentalsEnd, time: impl Fn(f64) -> String) -> String {
    match end {
        RentalsEnd::NoRentals => "None running".into(),
        RentalsEnd::At(at) => time(at),
        RentalsEnd::NoEndDate => "No end date".into(),
    }
}

/// `stage` in words, then the listing and the rentals' end of `machine` at `now`:
/// `Draining: the offer ends at T; rentals end by T. Listed: until T. Rentals end: T.`
pub fn listing_details(
    stage: Stage,
    machine: &Machine,
    now: f64,
    time: impl Fn(f64) -> String,
) -> String {
    format!(
        "{} Listed: {}. Rentals end: {}.",
        stage.sentence(&time),
        listing_text(Listing::of(machine, now), &time).to_lowercase(),
        rentals_end_text(RentalsEnd::of(machine), &time).to_lowercase()
    )
}

/// A machine as N1 (list machines) gives it, with the listing fields the tests of offers
/// and contract-safe plans vary.
#[cfg(test)]
pub mod fixture {
    use gpudeck_wire::Machine;

    pub fn listed_machine(
        id: i64,
        listed: bool,
        end: Option<f64>,
        rentals: i64,
        client_end: Option<f64>,
    ) -> Machine {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": id, "hostname": "rig", "gpu_name": "RTX 4090",
            "cpu_name": "EPYC", "driver_version": "550", "num_gpus": 4, "cpu_cores": 32,
            "current_rentals_running": rentals, "gpu_ram": 24000.0, "cpu_ram": 128000.0,
            "disk_space": 2000.0, "listed": listed, "verification": "verified",
            "reliability2": 0.99, "gpu_occupancy": "D x x x", "geolocation": null,
            "public_ipaddr": null, "timeout": 0.0, "listed_gpu_cost": 0.4,
            "min_bid_price": 0.2, "earn_day": 10.0, "end_date": end,
            "client_end_date": client_end, "listed_min_gpu_count": 1
        }))
        .unwrap()
    }

    /// Machine `id`, listed, with every term N1 can give and a minimum of 2 GPUs.
    pub fn priced_machine(id: i64) -> Machine {
        let mut machine = listed_machine(id, true, None, 1, None);
        machine.listed_min_gpu_count = Some(2);
        machine.listed_storage_cost = Some(0.15);
        machine.listed_inet_up_cost = Some(0.02);
        machine.listed_inet_down_cost = Some(0.01);
        machine.credit_discount_max = Some(0.3);
        machine.listed_volume_cost = Some(0.08);
        machine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use gpudeck_wire::maintenance::HOUR;

    const NOW: f64 = 1_800_000_000.0;

    fn machine(
        listed: bool,
        end_date: Option<f64>,
        rentals: i64,
        client_end: Option<f64>,
    ) -> Machine {
        fixture::listed_machine(1001, listed, end_date, rentals, client_end)
    }

    fn hours(h: f64) -> String {
        format!("+{}h", (h - NOW) / HOUR)
    }

    #[test]
    fn listed_open_ended_and_rented_is_listed() {
        let rented = machine(true, None, 2, Some(NOW + 5.0 * HOUR));
        assert_eq!(Stage::of(&rented, NOW), Stage::Listed);
        assert_eq!(Listing::of(&rented, NOW), Listing::OpenEnded);
        assert_eq!(listing_text(Listing::of(&rented, NOW), hours), "Open-ended");
        assert_eq!(rentals_end_text(RentalsEnd::of(&rented), hours), "+5h");
    }

    #[test]
    fn listed_with_an_offer_end_date_and_rented_is_draining() {
        let draining = machine(true, Some(NOW + 24.0 * HOUR), 1, Some(NOW + 24.0 * HOUR));
        let stage = Stage::of(&draining, NOW);
        assert_eq!(
            stage,
            Stage::Draining {
                offer_ends: NOW + 24.0 * HOUR,
                rentals_end: RentalsEnd::At(NOW + 24.0 * HOUR)
            }
        );
        assert_eq!(
            stage.sentence(hours),
            "Draining: the offer ends at +24h; rentals end by +24h."
        );
        assert_eq!(
            listing_text(Listing::of(&draining, NOW), hours),
            "Until +24h"
        );
    }

    #[test]
    fn a_shortened_offer_leaves_rentals_ending_after_it_or_with_no_end_date() {
        // Nothing the host does to the offer shortens a contract (§1.7).
        let later = machine(true, Some(NOW + HOUR), 1, Some(NOW + 48.0 * HOUR));
        assert_eq!(
            Stage::of(&later, NOW).sentence(hours),
            "Draining: the offer ends at +1h; rentals end by +48h."
        );
        let endless = machine(true, Some(NOW + HOUR), 3, None);
        assert_eq!(
            Stage::of(&endless, NOW),
            Stage::Draining {
                offer_ends: NOW + HOUR,
                rentals_end: RentalsEnd::NoEndDate
            }
        );
        assert_eq!(
            Stage::of(&endless, NOW).sentence(hours),
            "Draining: the offer ends at +1h; a rental has no end date."
        );
        assert_eq!(
            rentals_end_text(RentalsEnd::of(&endless), hours),
            "No end date"
        );
    }

    #[test]
    fn listed_with_no_rental_is_vacant_with_or_without_an_offer_end_date() {
        assert_eq!(Stage::of(&machine(true, None, 0, None), NOW), Stage::Vacant);
        let ending = machine(true, Some(NOW + HOUR), 0, None);
        assert_eq!(Stage::of(&ending, NOW), Stage::Vacant);
        assert_eq!(
            rentals_end_text(RentalsEnd::of(&ending), hours),
            "None running"
        );
    }

    #[test]
    fn unlisted_with_rentals_still_running_says_until_when() {
        let withdrawn = machine(false, None, 2, Some(NOW + 72.0 * HOUR));
        let stage = Stage::of(&withdrawn, NOW);
        assert_eq!(
            stage,
            Stage::UnlistedRented {
                rentals_end: RentalsEnd::At(NOW + 72.0 * HOUR)
            }
        );
        assert_eq!(stage.label(), "Unlisted, rented");
        assert_eq!(
            stage.sentence(hours),
            "Unlisted with rentals still running: rentals end by +72h."
        );
        assert_eq!(listing_text(Listing::of(&withdrawn, NOW), hours), "No");
        let endless = machine(false, None, 1, None);
        assert_eq!(
            Stage::of(&endless, NOW).sentence(hours),
            "Unlisted with rentals still running: a rental has no end date."
        );
    }

    #[test]
    fn unlisted_and_vacant_is_ready_for_maintenance() {
        let ready = Stage::of(&machine(false, None, 0, None), NOW);
        assert_eq!(ready, Stage::UnlistedVacant);
        assert_eq!(ready.label(), "Unlisted, vacant");
        assert_eq!(
            ready.sentence(hours),
            "Unlisted and vacant: ready for maintenance."
        );
    }

    #[test]
    fn an_offer_end_date_that_passed_since_loading_has_expired() {
        let expired = machine(true, Some(NOW), 1, Some(NOW + HOUR));
        assert_eq!(Listing::of(&expired, NOW), Listing::NotListed);
        assert_eq!(
            Stage::of(&expired, NOW),
            Stage::UnlistedRented {
                rentals_end: RentalsEnd::At(NOW + HOUR)
            }
        );
        let idle = machine(true, Some(NOW - 1.0), 0, None);
        assert_eq!(Stage::of(&idle, NOW), Stage::UnlistedVacant);
        // An end date on a machine N1 calls unlisted is not a listing.
        let unlisted = machine(false, Some(NOW + HOUR), 0, None);
        assert_eq!(Listing::of(&unlisted, NOW), Listing::NotListed);
    }

    #[test]
    fn a_client_end_date_without_a_running_rental_means_none_running() {
        let stale = machine(false, None, 0, Some(NOW + HOUR));
        assert_eq!(RentalsEnd::of(&stale), RentalsEnd::NoRentals);
        assert_eq!(Stage::of(&stale, NOW), Stage::UnlistedVacant);
    }

    #[test]
    fn the_details_say_the_stage_the_listing_and_the_rentals_end() {
        let details = |m: &Machine| listing_details(Stage::of(m, NOW), m, NOW, hours);
        assert_eq!(
            details(&machine(
                true,
                Some(NOW + 24.0 * HOUR),
                1,
                Some(NOW + 5.0 * HOUR)
            )),
            "Draining: the offer ends at +24h; rentals end by +5h. Listed: until +24h. \
             Rentals end: +5h."
        );
        assert_eq!(
            details(&machine(true, None, 0, None)),
            "Listed and vacant: no rental is running. Listed: open-ended. Rentals end: none \
             running."
        );
        assert_eq!(
            details(&machine(true, None, 2, None)),
            "Listed with no offer end date: rentals may come and stay. Listed: open-ended. \
             Rentals end: no end date."
        );
    }

    #[test]
    fn an_unlisted_vacant_machine_is_in_maintenance_while_its_window_runs() {
        let vacant_unlisted = machine(false, None, 0, None);
        let window = Some((NOW + HOUR, NOW + 3.0 * HOUR));
        // Before its window: ready, as the offer and the rentals say.
        assert_eq!(
            Stage::in_cycle(&vacant_unlisted, NOW, window),
            Stage::UnlistedVacant
        );
        // During it.
        let during = NOW + 2.0 * HOUR;
        let in_maintenance = Stage::InMaintenance {
            until: NOW + 3.0 * HOUR,
        };
        assert_eq!(
            Stage::in_cycle(&vacant_unlisted, during, window),
            in_maintenance
        );
        // A machine still listed, or still rented, says so during its window.
        let rented = machine(true, None, 1, None);
        assert_eq!(Stage::in_cycle(&rented, during, window), Stage::Listed);
        let listed_vacant = machine(true, None, 0, None);
        assert_eq!(
            Stage::in_cycle(&listed_vacant, during, window),
            Stage::Vacant
        );
        assert_eq!(in_maintenance.label(), "In maintenance");
        assert_eq!(
            in_maintenance.sentence(hours),
            "In maintenance: its window ends at +3h."
        );
        // Over at its end: unlisted again, until it is listed.
        let end = NOW + 3.0 * HOUR;
        assert_eq!(
            Stage::in_cycle(&vacant_unlisted, end, window),
            Stage::UnlistedVacant
        );
        let listed = machine(true, None, 0, None);
        assert_eq!(Stage::in_cycle(&listed, end, None), Stage::Vacant);
    }
}
