//! Fleet health (fleet-health §1.2): what each machine of N1 needs from its host, judged
//! once, here, for every page. A pure function of the machines, their active windows
//! (seed op 1, already loaded with the fleet), `now` and the previous read in this tab:
//! nothing is persisted and no request is added for it.
//!
//! A field the answer does not carry is "not said" (`neighbours.md` §1.3 rule 9): a rule
//! that needs it does not fire.

pub mod history;
mod rules;
#[cfg(test)]
mod tests;

use gpudeck_wire::{Machine, MaintenanceWindow};
use std::collections::HashMap;

/// How soon a finding needs the host (project rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Act within days.
    Warning,
    /// Renters are affected now, or verification is lost.
    Critical,
}

impl Severity {
    /// Worst first.
    pub const ALL: [Severity; 3] = [Severity::Critical, Severity::Warning, Severity::Info];

    /// A stable name for markup, e.g. `critical`.
    pub fn key(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Severity::Critical => "Critical",
            Severity::Warning => "Warning",
            Severity::Info => "Info",
        }
    }
}

/// A console action that helps with a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Remedy {
    /// Read N1 again.
    ReadAgain,
    /// Schedule a maintenance window (N3/N4), to tell renters of downtime.
    ScheduleMaintenance,
    /// Set an offer end date, so no new rental runs past it.
    EndOffers,
    /// List the machine again (N22).
    ListAgain,
    /// Read the machine's renter reports (N24).
    Reports,
    /// Show the machine's maintenance windows (seed op 1).
    ShowMaintenance,
}

impl Remedy {
    /// A stable name for markup and tests, e.g. `end-offers`.
    pub fn key(self) -> &'static str {
        match self {
            Remedy::ReadAgain => "read-again",
            Remedy::ScheduleMaintenance => "schedule",
            Remedy::EndOffers => "end-offers",
            Remedy::ListAgain => "relist",
            Remedy::Reports => "reports",
            Remedy::ShowMaintenance => "show",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Remedy::ReadAgain => "Read again",
            Remedy::ScheduleMaintenance => "Schedule maintenance…",
            Remedy::EndOffers => "End offers at…",
            Remedy::ListAgain => "List again…",
            Remedy::Reports => "Reports",
            Remedy::ShowMaintenance => "Show maintenance",
        }
    }
}

/// One rule of fleet-health §1.2, plus the issue's "unlisted while no maintenance is under
/// way". The order is the spec's; it breaks ties between findings of one severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    NotSeen,
    Offline,
    MachineError,
    VmError,
    VerificationLost,
    Unverified,
    ReliabilityUnderGate,
    ReliabilityNearGate,
    NewReports,
    RecentReports,
    ListingEndsSoon,
    RentalsOutlastListing,
    IdleWhileListed,
    DiskLow,
    UnderRequirements,
    CudaTooOld,
    DriverDrift,
    Hot,
    MaintenanceAnnounced,
    DuplicateHostname,
    UnlistedAfterMaintenance,
}

impl Rule {
    /// Every rule, in the spec's order.
    pub const ALL: [Rule; 21] = [
        Rule::NotSeen,
        Rule::Offline,
        Rule::MachineError,
        Rule::VmError,
        Rule::VerificationLost,
        Rule::Unverified,
        Rule::ReliabilityUnderGate,
        Rule::ReliabilityNearGate,
        Rule::NewReports,
        Rule::RecentReports,
        Rule::ListingEndsSoon,
        Rule::RentalsOutlastListing,
        Rule::IdleWhileListed,
        Rule::DiskLow,
        Rule::UnderRequirements,
        Rule::CudaTooOld,
        Rule::DriverDrift,
        Rule::Hot,
        Rule::MaintenanceAnnounced,
        Rule::DuplicateHostname,
        Rule::UnlistedAfterMaintenance,
    ];

    /// A stable name for markup and tests, e.g. `machine-error`.
    pub fn key(self) -> &'static str {
        match self {
            Rule::NotSeen => "not-seen",
            Rule::Offline => "offline",
            Rule::MachineError => "machine-error",
            Rule::VmError => "vm-error",
            Rule::VerificationLost => "verification-lost",
            Rule::Unverified => "unverified",
            Rule::ReliabilityUnderGate => "reliability-under-gate",
            Rule::ReliabilityNearGate => "reliability-near-gate",
            Rule::NewReports => "new-reports",
            Rule::RecentReports => "recent-reports",
            Rule::ListingEndsSoon => "listing-ends-soon",
            Rule::RentalsOutlastListing => "rentals-outlast-listing",
            Rule::IdleWhileListed => "idle-while-listed",
            Rule::DiskLow => "disk-low",
            Rule::UnderRequirements => "under-requirements",
            Rule::CudaTooOld => "cuda-too-old",
            Rule::DriverDrift => "driver-drift",
            Rule::Hot => "hot",
            Rule::MaintenanceAnnounced => "maintenance-announced",
            Rule::DuplicateHostname => "duplicate-hostname",
            Rule::UnlistedAfterMaintenance => "maintained-not-listed",
        }
    }

    /// The rule whose [`Rule::key`] is `key`, as an address carries it.
    pub fn from_key(key: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|rule| rule.key() == key)
    }

    /// A short name, for the summary and the column.
    pub fn title(self) -> &'static str {
        match self {
            Rule::NotSeen => "Not seen",
            Rule::Offline => "Offline",
            Rule::MachineError => "Machine error",
            Rule::VmError => "VM error",
            Rule::VerificationLost => "Verification lost",
            Rule::Unverified => "Unverified",
            Rule::ReliabilityUnderGate => "Reliability under the gate",
            Rule::ReliabilityNearGate => "Reliability near the gate",
            Rule::NewReports => "New renter reports",
            Rule::RecentReports => "Recent renter reports",
            Rule::ListingEndsSoon => "Listing ends soon",
            Rule::RentalsOutlastListing => "Rentals outlast the listing",
            Rule::IdleWhileListed => "Idle while listed",
            Rule::DiskLow => "Disk low",
            Rule::UnderRequirements => "Under the verification requirements",
            Rule::CudaTooOld => "CUDA too old",
            Rule::DriverDrift => "Driver drift",
            Rule::Hot => "Hot",
            Rule::MaintenanceAnnounced => "Maintenance announced",
            Rule::DuplicateHostname => "Duplicate hostname",
            Rule::UnlistedAfterMaintenance => "Maintained, not listed",
        }
    }

    /// What helps, in words, after the actions of [`Rule::remedies`].
    pub fn advice(self) -> &'static str {
        match self {
            Rule::NotSeen => "Read again in a few minutes.",
            Rule::Offline => "Follow the offline runbook: connectivity, then `systemctl status vastai` and `nvidia-smi`, then the controller reset. Do not reboot while rentals run; tell renters of downtime with a window.",
            Rule::MachineError | Rule::VerificationLost => "The error deverifies the machine temporarily; most clear within 1–2 hours of the fix, then read again. Then copy `vastai self-test machine ID`.",
            Rule::VmError => "Fix the VM host setting named in the error.",
            Rule::Unverified | Rule::UnderRequirements => "Meet the verification requirements, then copy `vastai self-test machine ID`.",
            Rule::ReliabilityUnderGate | Rule::ReliabilityNearGate => "Keep the machine online; plan downtime as a window rather than an outage.",
            Rule::NewReports | Rule::RecentReports => "Read what the renters reported.",
            Rule::ListingEndsSoon => "List again with a later end date (at the same or lower prices this extends active contracts), or let it end when draining for maintenance.",
            Rule::RentalsOutlastListing => "Keep the machine available until the last rental ends, or list it again if unlisting was not meant.",
            Rule::IdleWhileListed => "List again at a lower price, or set the interruptible floor near the cost of power under load.",
            Rule::DiskLow => "Copy `vastai cleanup machine ID` (it deletes expired renters' data and ends their storage income), or end offers to stop new rentals.",
            Rule::CudaTooOld | Rule::DriverDrift => "Plan the driver update: end offers at the last rental's end, then schedule maintenance (category Updates).",
            Rule::Hot => "Check cooling; schedule maintenance (category GPU) if work is needed.",
            Rule::MaintenanceAnnounced => "Renters have been told of the window.",
            Rule::DuplicateHostname => "Another of your machines has this hostname.",
            Rule::UnlistedAfterMaintenance => "No rental, no window: if its maintenance is done, list it again.",
        }
    }

    /// The console actions that help, most useful first.
    pub fn remedies(self) -> &'static [Remedy] {
        use Remedy::*;
        match self {
            Rule::NotSeen => &[ReadAgain],
            Rule::Offline => &[ScheduleMaintenance, ReadAgain],
            Rule::MachineError | Rule::VerificationLost => {
                &[ReadAgain, EndOffers, ScheduleMaintenance]
            }
            Rule::VmError | Rule::Unverified | Rule::UnderRequirements => &[],
            Rule::ReliabilityUnderGate | Rule::ReliabilityNearGate => &[ScheduleMaintenance],
            Rule::NewReports | Rule::RecentReports => &[Reports],
            Rule::ListingEndsSoon | Rule::IdleWhileListed | Rule::UnlistedAfterMaintenance => {
                &[ListAgain]
            }
            Rule::RentalsOutlastListing => &[ListAgain],
            Rule::DiskLow => &[EndOffers],
            Rule::CudaTooOld | Rule::DriverDrift => &[EndOffers, ScheduleMaintenance],
            Rule::Hot => &[ScheduleMaintenance],
            Rule::MaintenanceAnnounced => &[ShowMaintenance],
            Rule::DuplicateHostname => &[],
        }
    }
}

/// One rule that fired on one machine, with the evidence in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    /// What was seen, e.g. `offline for 5 h with 2 rentals running`.
    pub evidence: String,
}

impl Finding {
    /// The finding in words, e.g. `Offline: offline for 5 h with 2 rentals running`.
    pub fn words(&self) -> String {
        format!("{}: {}", self.rule.title(), self.evidence)
    }
}

/// A machine's findings, worst first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MachineHealth {
    pub findings: Vec<Finding>,
}

impl MachineHealth {
    pub fn worst(&self) -> Option<&Finding> {
        self.findings.first()
    }

    pub fn has(&self, rule: Rule) -> bool {
        self.findings.iter().any(|f| f.rule == rule)
    }
}

/// The fleet's health: each machine's findings by id.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FleetHealth {
    pub machines: HashMap<i64, MachineHealth>,
}

impl FleetHealth {
    /// Judges every machine of `machines` at `now`. `windows` are their active windows
    /// (seed op 1); `previous` is the last N1 read in this tab, if any: the rules "since the
    /// last read" do not fire without it.
    pub fn judge(
        machines: &[Machine],
        windows: &[MaintenanceWindow],
        previous: Option<&[Machine]>,
        now: f64,
    ) -> FleetHealth {
        let fleet = rules::FleetContext::of(machines, windows);
        let previous: HashMap<i64, &Machine> = previous
            .unwrap_or_default()
            .iter()
            .map(|m| (m.id, m))
            .collect();
        let machines = machines
            .iter()
            .map(|m| {
                let mut findings = rules::findings(m, previous.get(&m.id).copied(), &fleet, now);
                findings.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.rule.cmp(&b.rule)));
                (m.id, MachineHealth { findings })
            })
            .collect();
        FleetHealth { machines }
    }

    pub fn of(&self, machine_id: i64) -> Option<&MachineHealth> {
        self.machines.get(&machine_id)
    }

    /// The machines `rule` holds, by id.
    pub fn held_by(&self, rule: Rule) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .machines
            .iter()
            .filter(|(_, health)| health.has(rule))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// How many machines each rule holds, in the rules' order, rules that hold none left out.
    pub fn counts(&self) -> Vec<(Rule, usize)> {
        Rule::ALL
            .into_iter()
            .map(|rule| (rule, self.held_by(rule).len()))
            .filter(|(_, count)| *count > 0)
            .collect()
    }

    /// How many machines have each severity as their worst, worst first, and how many have
    /// no finding.
    pub fn by_worst_severity(&self) -> ([(Severity, usize); 3], usize) {
        let worst = |severity| {
            self.machines
                .values()
                .filter(|h| h.worst().map(|f| f.severity) == Some(severity))
                .count()
        };
        let counts = Severity::ALL.map(|severity| (severity, worst(severity)));
        let none = self
            .machines
            .values()
            .filter(|h| h.worst().is_none())
            .count();
        (counts, none)
    }

    /// Machines whose worst finding is a warning or critical: those needing attention.
    pub fn needing_attention(&self) -> usize {
        self.machines
            .values()
            .filter(|h| h.worst().is_some_and(|f| f.severity >= Severity::Warning))
            .count()
    }
}
