//! The rolling maintenance page's pure part: its inputs as they stand in the address and
//! back, the checks before planning, the planner's request built from the loaded fleet,
//! and the plan kept across a reload. Unit-tested natively.

use super::contract_safe::{not_before_of, Mode};
use gpudeck_fleet_plan::{Cap, MachineToPlan, Pin, Placement, PlanRequest, Span, MAX_HOURS};
use gpudeck_wire::machine_ids::{format_machine_ids, parse_machine_ids};
use gpudeck_wire::maintenance::MAX_LEAD_SECONDS;
use gpudeck_wire::{Machine, MaintenanceCategory, MaintenanceWindow};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// What the cap counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CapKind {
    #[default]
    Machines,
    Gpus,
}

impl CapKind {
    pub fn key(self) -> &'static str {
        match self {
            CapKind::Machines => "machines",
            CapKind::Gpus => "gpus",
        }
    }

    pub fn from_key(key: &str) -> Self {
        match key {
            "gpus" => CapKind::Gpus,
            _ => CapKind::Machines,
        }
    }
}

/// The page's inputs as typed: each one a parameter of the address, so a link or a reload
/// brings the same plan back. The times are `datetime-local` texts, read in UTC or in the
/// browser's zone as the console's time setting says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollingInputs {
    pub ids: String,
    pub from: String,
    pub until: String,
    pub hours: String,
    pub cap: String,
    pub cap_kind: CapKind,
    pub category: MaintenanceCategory,
    /// Machines pinned first / last, as an id list (`1001,1005-1007`).
    pub first: String,
    pub last: String,
    pub mode: Mode,
}

impl Default for RollingInputs {
    fn default() -> Self {
        Self {
            ids: String::new(),
            from: String::new(),
            until: String::new(),
            hours: "2".into(),
            cap: "1".into(),
            cap_kind: CapKind::Machines,
            category: MaintenanceCategory::Other,
            first: String::new(),
            last: String::new(),
            mode: Mode::ContractSafe,
        }
    }
}

/// The parameters of the address, in the order they are written.
const PARAMS: [&str; 10] = [
    "ids", "from", "until", "hours", "cap", "cap_kind", "category", "first", "last", "mode",
];

impl RollingInputs {
    /// The inputs of an address's parameters; missing ones take their defaults.
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> Self {
        let defaults = Self::default();
        let text = |name: &str, default: String| get(name).unwrap_or(default);
        Self {
            ids: text("ids", defaults.ids),
            from: text("from", defaults.from),
            until: text("until", defaults.until),
            hours: text("hours", defaults.hours),
            cap: text("cap", defaults.cap),
            cap_kind: get("cap_kind").map_or(defaults.cap_kind, |k| CapKind::from_key(&k)),
            category: get("category")
                .map_or(defaults.category, |c| MaintenanceCategory::from_stored(&c)),
            first: text("first", defaults.first),
            last: text("last", defaults.last),
            mode: get("mode").map_or(defaults.mode, |m| Mode::from_key(&m)),
        }
    }

    /// The parameters as name and value, for the address (empty ones left out).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let values = [
            compact_ids(&self.ids),
            self.from.trim().to_owned(),
            self.until.trim().to_owned(),
            self.hours.trim().to_owned(),
            self.cap.trim().to_owned(),
            self.cap_kind.key().to_owned(),
            self.category.as_str().to_owned(),
            compact_ids(&self.first),
            compact_ids(&self.last),
            self.mode.key().to_owned(),
        ];
        PARAMS
            .into_iter()
            .zip(values)
            .filter(|(_, value)| !value.is_empty())
            .collect()
    }

    /// `ids=1001-1020&from=…`: the query string, its values encoded for an address.
    pub fn query(&self) -> String {
        self.params()
            .into_iter()
            .map(|(name, value)| format!("{name}={}", encode(&value)))
            .collect::<Vec<_>>()
            .join("&")
    }
}

/// Id lists in their short form (`1001-1003`); text that does not read as ids stays as
/// typed, so the check can name it.
fn compact_ids(text: &str) -> String {
    match parse_machine_ids(text) {
        Ok(ids) if !ids.is_empty() => format_machine_ids(&sorted(ids)),
        _ => text.trim().to_owned(),
    }
}

/// The ids in order, once each.
fn sorted(mut ids: Vec<i64>) -> Vec<i64> {
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// Percent-encodes what a query value may not hold as is.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' | b',' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// The input a problem concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Machines,
    From,
    Until,
    Hours,
    Cap,
    Pins,
}

/// A problem with one input of the planner.
pub type Problem = crate::domain::form_problem::Problem<Input>;

fn problem(input: Input, message: impl Into<String>) -> Problem {
    Problem::new(input, message)
}

/// Checked inputs: what the planner is asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub ids: Vec<i64>,
    pub earliest_start: i64,
    pub deadline: i64,
    pub duration_hours: u32,
    pub cap: Cap,
    pub category: MaintenanceCategory,
    pub first: Vec<i64>,
    pub last: Vec<i64>,
    pub mode: Mode,
}

/// Checks the inputs, `from` and `until` already read as Unix seconds (`None`: not a
/// date and time). Every problem is returned, each with its input.
pub fn check_inputs(
    inputs: &RollingInputs,
    from: Option<f64>,
    until: Option<f64>,
    now: f64,
) -> Result<Settings, Vec<Problem>> {
    let mut problems = Vec::new();
    let ids = match parse_machine_ids(&inputs.ids) {
        Ok(ids) if !ids.is_empty() => sorted(ids),
        Ok(_) => {
            problems.push(problem(Input::Machines, "Select at least one machine."));
            Vec::new()
        }
        Err(error) => {
            problems.push(problem(Input::Machines, error.to_string()));
            Vec::new()
        }
    };
    match from {
        None => problems.push(problem(Input::From, "Choose the earliest start.")),
        Some(from) if from <= now => problems.push(problem(
            Input::From,
            "The earliest start must be in the future.",
        )),
        Some(from) if from > now + MAX_LEAD_SECONDS => problems.push(problem(
            Input::From,
            "The earliest start must be within a year from now.",
        )),
        Some(_) => {}
    }
    match (from, until) {
        (_, None) => problems.push(problem(Input::Until, "Choose the deadline.")),
        (Some(from), Some(until)) if until <= from => problems.push(problem(
            Input::Until,
            "The deadline must be after the earliest start.",
        )),
        _ => {}
    }
    let hours = match inputs.hours.trim().parse::<u32>() {
        Ok(h) if (1..=MAX_HOURS).contains(&h) => Some(h),
        _ => {
            problems.push(problem(
                Input::Hours,
                format!("Enter the duration as whole hours, 1 to {MAX_HOURS}."),
            ));
            None
        }
    };
    let cap = match inputs.cap.trim().parse::<u32>() {
        Ok(n) if n >= 1 => Some(match inputs.cap_kind {
            CapKind::Machines => Cap::Machines(n),
            CapKind::Gpus => Cap::Gpus(n),
        }),
        _ => {
            problems.push(problem(
                Input::Cap,
                "Enter how many may be down at once, a whole number from 1.",
            ));
            None
        }
    };
    let pins = |text: &str| match text.trim() {
        "" => Ok(Vec::new()),
        text => parse_machine_ids(text).map_err(|e| e.to_string()),
    };
    let (first, last) = match (pins(&inputs.first), pins(&inputs.last)) {
        (Ok(first), Ok(last)) => {
            if first.iter().any(|id| last.contains(id)) {
                problems.push(problem(
                    Input::Pins,
                    "A machine cannot be pinned both first and last.",
                ));
            }
            (first, last)
        }
        (Err(error), _) | (_, Err(error)) => {
            problems.push(problem(Input::Pins, format!("Pinned machines: {error}")));
            (Vec::new(), Vec::new())
        }
    };
    match (problems.is_empty(), from, until, hours, cap) {
        (true, Some(from), Some(until), Some(duration_hours), Some(cap)) => Ok(Settings {
            ids,
            earliest_start: from.ceil() as i64,
            deadline: until.floor() as i64,
            duration_hours,
            cap,
            category: inputs.category.clone(),
            first,
            last,
            mode: inputs.mode,
        }),
        _ => Err(problems),
    }
}

/// The planner's request, and the machines asked for that it leaves out: each is named
/// with its reason, never silently dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    pub request: PlanRequest,
    /// Ids that are not the host's machines.
    pub not_yours: Vec<i64>,
    /// The host's machines the mode cannot plan, with why (a rental with no end date).
    pub not_fitting: Vec<(i64, &'static str)>,
}

/// The planner's request for the machines of `settings` that are the host's and that its
/// mode can plan; in the contract-safe mode each waits for its rentals to end.
pub fn request_of(
    settings: &Settings,
    machines: &[Machine],
    windows: &[MaintenanceWindow],
) -> Asked {
    let by_id: HashMap<i64, &Machine> = machines.iter().map(|m| (m.id, m)).collect();
    let mut existing: HashMap<i64, Vec<Span>> = HashMap::new();
    for window in windows {
        if let Some(span) = Span::of_window(window) {
            existing.entry(window.machine_id).or_default().push(span);
        }
    }
    let mut not_yours = Vec::new();
    let mut not_fitting = Vec::new();
    let mut planned = Vec::new();
    for &id in &settings.ids {
        let Some(machine) = by_id.get(&id) else {
            not_yours.push(id);
            continue;
        };
        let not_before = match not_before_of(machine, settings.mode) {
            Ok(not_before) => not_before,
            Err(reason) => {
                not_fitting.push((id, reason));
                continue;
            }
        };
        let pin = if settings.first.contains(&id) {
            Pin::First
        } else if settings.last.contains(&id) {
            Pin::Last
        } else {
            Pin::Unpinned
        };
        planned.push(MachineToPlan {
            id,
            gpus: u32::try_from(machine.num_gpus).unwrap_or(0),
            running_rentals: u32::try_from(machine.current_rentals_running).unwrap_or(0),
            reserved_gpus: machine
                .gpu_occupancy
                .split_whitespace()
                .filter(|code| *code == "R")
                .count() as u32,
            existing: existing.remove(&id).unwrap_or_default(),
            pin,
            not_before,
        });
    }
    let request = PlanRequest {
        machines: planned,
        earliest_start: settings.earliest_start,
        deadline: settings.deadline,
        duration_hours: settings.duration_hours,
        cap: settings.cap,
        category: settings.category.clone(),
    };
    Asked {
        request,
        not_yours,
        not_fitting,
    }
}

/// A plan as kept in this tab's storage until it is scheduled: for which inputs (the
/// query string), each machine's start (hand edits included) and what is scheduled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedPlan {
    pub query: String,
    /// Machine id and start (Unix seconds), in plan order.
    pub starts: Vec<(i64, i64)>,
    pub scheduled: BTreeSet<i64>,
    /// Machines whose request got no answer and whose re-read failed too: their window
    /// may exist, so the plan never sends them again; the person checks them first.
    #[serde(default)]
    pub unsure: BTreeSet<i64>,
    /// Contract-safe plans: machines whose offer a run (or its re-read) showed ending by
    /// their window's start, so a retry sends only their window.
    #[serde(default)]
    pub offers_ended: BTreeSet<i64>,
}

impl SavedPlan {
    pub fn new(query: String, placements: &[Placement]) -> Self {
        Self {
            query,
            starts: placements.iter().map(|p| (p.machine_id, p.start)).collect(),
            scheduled: BTreeSet::new(),
            unsure: BTreeSet::new(),
            offers_ended: BTreeSet::new(),
        }
    }

    pub fn placements(&self) -> Vec<Placement> {
        self.starts
            .iter()
            .map(|&(machine_id, start)| Placement { machine_id, start })
            .collect()
    }

    /// The machine's start moved by hand. Its offer, if ended for the old start, is looked
    /// at again: it may end after the new one.
    pub fn move_start(&mut self, machine_id: i64, start: i64) {
        if let Some(entry) = self.starts.iter_mut().find(|(id, _)| *id == machine_id) {
            if entry.1 != start {
                self.offers_ended.remove(&machine_id);
            }
            entry.1 = start;
        }
    }

    /// Each machine of `breaking` moved to its earliest safe start.
    pub fn move_to_earliest(&mut self, breaking: &[StartsInRentals]) {
        for b in breaking {
            self.move_start(b.machine_id, b.earliest);
        }
    }

    /// The placements not scheduled yet, unsure ones left out: what the next run sends.
    pub fn remaining(&self) -> Vec<Placement> {
        self.placements()
            .into_iter()
            .filter(|p| {
                !self.scheduled.contains(&p.machine_id) && !self.unsure.contains(&p.machine_id)
            })
            .collect()
    }

    /// Every machine scheduled: an unsure one keeps the plan (and what it says) open.
    pub fn is_finished(&self) -> bool {
        !self.starts.is_empty() && self.remaining().is_empty() && self.unsure.is_empty()
    }
}

/// A machine of a contract-safe plan whose window would start before its rentals end: the
/// plan is not sent with it (the mode is a promise, §1.7). `earliest` is its earliest safe
/// start, the time its last rental ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartsInRentals {
    pub machine_id: i64,
    pub start: i64,
    pub earliest: i64,
}

/// The machines of `saved` not yet sent whose start is before the time `request` says they
/// may go down; none when the plan notifies renters now (no machine has such a time).
pub fn starts_in_rentals(request: &PlanRequest, saved: &SavedPlan) -> Vec<StartsInRentals> {
    saved
        .remaining()
        .into_iter()
        .filter_map(|p| {
            let machine = request.machines.iter().find(|m| m.id == p.machine_id)?;
            let earliest = machine.not_before?;
            (!machine.may_start_at(p.start)).then_some(StartsInRentals {
                machine_id: p.machine_id,
                start: p.start,
                earliest,
            })
        })
        .collect()
}

/// Why the plan cannot be sent as it stands, naming the machines that break the promise.
pub fn promise_words(breaking: &[StartsInRentals]) -> String {
    let list: Vec<String> = breaking.iter().map(|b| b.machine_id.to_string()).collect();
    let (which, their) = match breaking {
        [_] => ("Machine", "its window starts before its rentals end"),
        _ => ("Machines", "their windows start before their rentals end"),
    };
    format!(
        "Not sent as it stands: {which} {} — {their}, and a contract-safe plan never puts a \
         window inside a rental. Move {} to the earliest safe start, or notify renters now.",
        list.join(", "),
        if breaking.len() == 1 { "it" } else { "them" }
    )
}

/// What the plan says of the machines it holds back as unsure ([`SavedPlan::unsure`]).
pub fn unsure_words(machines: &[i64]) -> String {
    let list: Vec<String> = machines.iter().map(i64::to_string).collect();
    let (which, their, them) = match machines {
        [_] => ("machine", "its window", "it"),
        _ => ("machines", "their windows", "them"),
    };
    format!(
        "No answer came for {which} {}, and the re-read failed too: {their} may be \
         scheduled. The plan will not send {them} again; check the maintenance page first.",
        list.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: f64 = 1_800_000_000.0;

    fn inputs() -> RollingInputs {
        RollingInputs {
            ids: "1003, 1001,1002".into(),
            from: "2027-01-15T08:00".into(),
            until: "2027-01-16T08:00".into(),
            hours: "2".into(),
            cap: "3".into(),
            cap_kind: CapKind::Gpus,
            category: MaintenanceCategory::Disk,
            first: "1002".into(),
            last: String::new(),
            mode: Mode::NotifyNow,
        }
    }

    #[test]
    fn the_inputs_go_into_the_address_and_back() {
        let typed = inputs();
        let query = typed.query();
        assert_eq!(
            query,
            "ids=1001-1003&from=2027-01-15T08:00&until=2027-01-16T08:00&hours=2&cap=3\
             &cap_kind=gpus&category=disk&first=1002&mode=notify"
        );
        let params: HashMap<&str, String> = typed.params().into_iter().collect();
        let back = RollingInputs::from_params(|name| params.get(name).cloned());
        assert_eq!(back.ids, "1001-1003");
        assert_eq!(back.cap_kind, CapKind::Gpus);
        assert_eq!(back.category, MaintenanceCategory::Disk);
        assert_eq!(back.first, "1002");
        assert_eq!(back.mode, Mode::NotifyNow);
        assert_eq!(back.query(), query);
        let empty = RollingInputs::from_params(|_| None);
        assert_eq!(empty, RollingInputs::default());
        assert_eq!(encode("a b&c"), "a%20b%26c");
    }

    #[test]
    fn good_inputs_become_settings() {
        let settings = check_inputs(&inputs(), Some(NOW + 60.5), Some(NOW + 86_400.0), NOW)
            .expect("good inputs");
        assert_eq!(settings.ids, [1001, 1002, 1003]);
        assert_eq!(settings.earliest_start, NOW as i64 + 61);
        assert_eq!(settings.cap, Cap::Gpus(3));
        assert_eq!(settings.first, [1002]);
    }

    #[test]
    fn every_problem_is_named_with_its_input() {
        let bad = RollingInputs {
            ids: String::new(),
            hours: "1.5".into(),
            cap: "0".into(),
            first: "5".into(),
            last: "5".into(),
            ..inputs()
        };
        let found: Vec<Input> = check_inputs(&bad, Some(NOW - 1.0), None, NOW)
            .unwrap_err()
            .into_iter()
            .map(|p| p.field)
            .collect();
        assert_eq!(
            found,
            [
                Input::Machines,
                Input::From,
                Input::Until,
                Input::Hours,
                Input::Cap,
                Input::Pins
            ]
        );
        let backwards = check_inputs(&inputs(), Some(NOW + 7200.0), Some(NOW + 3600.0), NOW);
        assert_eq!(backwards.unwrap_err()[0].field, Input::Until);
    }

    fn machine(id: i64, gpus: i64, occupancy: &str) -> Machine {
        rented_until(id, gpus, occupancy, None)
    }

    /// A machine with two rentals running, the latest ending at `client_end`.
    fn rented_until(id: i64, gpus: i64, occupancy: &str, client_end: Option<f64>) -> Machine {
        serde_json::from_value(serde_json::json!({
            "id": id, "machine_id": id, "hostname": format!("host-{id}"), "gpu_name": "RTX 4090",
            "cpu_name": "EPYC", "driver_version": "550", "num_gpus": gpus, "cpu_cores": 32,
            "current_rentals_running": 2, "gpu_ram": 24000.0, "cpu_ram": 128000.0,
            "disk_space": 2000.0, "listed": true, "verification": "verified",
            "reliability2": 0.99, "gpu_occupancy": occupancy, "geolocation": null,
            "public_ipaddr": null, "timeout": 0.0, "listed_gpu_cost": 0.4,
            "min_bid_price": 0.2, "earn_day": 10.0, "client_end_date": client_end
        }))
        .unwrap()
    }

    #[test]
    fn the_request_holds_the_hosts_machines_their_windows_and_pins() {
        let settings =
            check_inputs(&inputs(), Some(NOW + 60.0), Some(NOW + 86_400.0), NOW).unwrap();
        let window: MaintenanceWindow = serde_json::from_value(serde_json::json!({
            "id": 9, "machine_id": 1001, "start_time": NOW + 3600.0, "duration_hours": 1,
            "maintenance_category": "disk", "created_at": 0.0, "end_time": NOW + 7200.0,
        }))
        .unwrap();
        let machines = [machine(1001, 4, "R R D x"), machine(1002, 2, "x x")];
        let Asked {
            request,
            not_yours,
            not_fitting,
        } = request_of(&settings, &machines, &[window]);
        assert_eq!(not_yours, [1003]);
        assert!(not_fitting.is_empty());
        assert_eq!(request.machines[0].not_before, None);
        assert_eq!(request.machines.len(), 2);
        assert_eq!(request.machines[0].reserved_gpus, 2);
        assert_eq!(request.machines[0].running_rentals, 2);
        assert_eq!(
            request.machines[0].existing,
            [Span::new(NOW as i64 + 3600, NOW as i64 + 7200)]
        );
        assert_eq!(request.machines[1].pin, Pin::First);
        assert_eq!(request.cap, Cap::Gpus(3));
    }

    #[test]
    fn contract_safe_machines_wait_for_their_rentals_and_endless_rentals_do_not_fit() {
        let contract_safe = RollingInputs {
            mode: Mode::ContractSafe,
            ..inputs()
        };
        let settings =
            check_inputs(&contract_safe, Some(NOW + 60.0), Some(NOW + 86_400.0), NOW).unwrap();
        assert_eq!(settings.mode, Mode::ContractSafe);
        let machines = [
            rented_until(1001, 4, "D D x x", Some(NOW + 7200.5)),
            rented_until(1002, 2, "D x", None),
        ];
        let asked = request_of(&settings, &machines, &[]);
        assert_eq!(asked.request.machines.len(), 1);
        assert_eq!(asked.request.machines[0].id, 1001);
        assert_eq!(
            asked.request.machines[0].not_before,
            Some(NOW as i64 + 7201)
        );
        assert_eq!(
            asked.not_fitting,
            [(1002, super::super::contract_safe::NO_END_DATE_REASON)]
        );
        assert_eq!(asked.not_yours, [1003]);
    }

    #[test]
    fn a_contract_safe_plan_names_each_start_before_its_rentals_end_and_moves_them() {
        let contract_safe = RollingInputs {
            mode: Mode::ContractSafe,
            ..inputs()
        };
        let settings =
            check_inputs(&contract_safe, Some(NOW + 60.0), Some(NOW + 86_400.0), NOW).unwrap();
        let rentals_end = NOW as i64 + 7201;
        let machines = [
            rented_until(1001, 4, "D D x x", Some(NOW + 7200.5)),
            machine(1002, 2, "x x"),
        ];
        let asked = request_of(&settings, &machines, &[]);
        let placements = [
            Placement {
                machine_id: 1001,
                start: rentals_end,
            },
            Placement {
                machine_id: 1002,
                start: NOW as i64 + 60,
            },
        ];
        let mut saved = SavedPlan::new("ids=1001-1002".into(), &placements);
        assert!(starts_in_rentals(&asked.request, &saved).is_empty());
        // Exactly at the rentals' end is safe; a second before is not.
        saved.move_start(1001, rentals_end - 1);
        let breaking = starts_in_rentals(&asked.request, &saved);
        assert_eq!(
            breaking,
            [StartsInRentals {
                machine_id: 1001,
                start: rentals_end - 1,
                earliest: rentals_end
            }]
        );
        assert_eq!(
            promise_words(&breaking),
            "Not sent as it stands: Machine 1001 — its window starts before its rentals end, \
             and a contract-safe plan never puts a window inside a rental. Move it to the \
             earliest safe start, or notify renters now."
        );
        saved.move_to_earliest(&breaking);
        assert_eq!(saved.starts[0], (1001, rentals_end));
        assert!(starts_in_rentals(&asked.request, &saved).is_empty());
        // A machine already sent is not named again.
        saved.move_start(1001, rentals_end - 60);
        saved.scheduled.insert(1001);
        assert!(starts_in_rentals(&asked.request, &saved).is_empty());
        // Notifying renters now plans straight through rentals: nothing breaks.
        let notify = request_of(
            &check_inputs(&inputs(), Some(NOW + 60.0), Some(NOW + 86_400.0), NOW).unwrap(),
            &machines,
            &[],
        );
        saved.scheduled.clear();
        assert!(starts_in_rentals(&notify.request, &saved).is_empty());
        let two = [
            breaking[0],
            StartsInRentals {
                machine_id: 1002,
                ..breaking[0]
            },
        ];
        assert!(promise_words(&two).starts_with(
            "Not sent as it stands: Machines 1001, 1002 — their windows start before their \
             rentals end"
        ));
    }

    #[test]
    fn a_saved_plan_keeps_hand_edits_and_what_is_scheduled() {
        let placements = [
            Placement {
                machine_id: 1,
                start: 100,
            },
            Placement {
                machine_id: 2,
                start: 200,
            },
        ];
        let mut saved = SavedPlan::new("ids=1-2".into(), &placements);
        saved.offers_ended.extend([1, 2]);
        saved.move_start(2, 300);
        saved.move_start(1, 100);
        // Moved: its offer is looked at again; unmoved: still ended.
        assert_eq!(saved.offers_ended, BTreeSet::from([1]));
        saved.scheduled.insert(1);
        assert_eq!(
            saved.remaining(),
            [Placement {
                machine_id: 2,
                start: 300
            }]
        );
        assert!(!saved.is_finished());
        let json = serde_json::to_string(&saved).unwrap();
        assert_eq!(serde_json::from_str::<SavedPlan>(&json).unwrap(), saved);
        saved.scheduled.insert(2);
        assert!(saved.is_finished());
    }

    #[test]
    fn a_machine_whose_outcome_stayed_unknown_is_never_sent_again() {
        let placements = [1, 2, 3].map(|machine_id| Placement {
            machine_id,
            start: 100 * machine_id,
        });
        let mut saved = SavedPlan::new("ids=1-3".into(), &placements);
        saved.scheduled.insert(1);
        saved.unsure.insert(2);
        assert_eq!(
            saved.remaining(),
            [Placement {
                machine_id: 3,
                start: 300
            }]
        );
        saved.scheduled.insert(3);
        assert!(saved.remaining().is_empty());
        assert!(!saved.is_finished(), "machine 2 still needs a look");
        assert_eq!(
            unsure_words(&[2]),
            "No answer came for machine 2, and the re-read failed too: its window may be \
             scheduled. The plan will not send it again; check the maintenance page first."
        );
        assert!(unsure_words(&[2, 5]).starts_with("No answer came for machines 2, 5, and"));
        // Plans kept before the field existed still load.
        let old = r#"{"query":"ids=1","starts":[[1,100]],"scheduled":[]}"#;
        assert!(serde_json::from_str::<SavedPlan>(old)
            .unwrap()
            .unsure
            .is_empty());
    }
}
