//! The rules of fleet-health §1.2, each with its threshold and where the threshold comes
//! from. Units are those §1.1 assumes (disk in GB, temperature in °C, RAM in MB).

use super::{Finding, Rule, Severity};
use crate::components::time::format_span;
use crate::domain::listing::Listing;
use gpudeck_wire::{Machine, MaintenanceWindow, NumberOrText};
use std::collections::{HashMap, HashSet};

/// H1b: offline past 300 s of silence (JoEasyCompute's `timeout > 300`).
pub const OFFLINE_AFTER: f64 = 300.0;
/// H1b's note: offline more than a day (JoEasyCompute drops such machines from totals).
pub const LONG_OFFLINE_AFTER: f64 = 86_400.0;
/// H4: the verification requirement "Reliability of 90%" (docs) and client 1.9.1's
/// self-test "at or below the 0.90 self-test threshold".
pub const RELIABILITY_GATE: f64 = 0.90;
/// H4b: within 0.02 of the gate (project rule).
pub const RELIABILITY_MARGIN: f64 = 0.02;
/// H4b: a fall of at least 0.01 since the last read (project rule).
pub const RELIABILITY_FALL: f64 = 0.01;
/// H6: the docs' "Machine listing ending soon": within 7 days of the end date.
pub const LISTING_ENDS_WITHIN: f64 = 7.0 * 86_400.0;
/// H9: free disk under 10 % is a warning, under 5 % critical (project rules; the docs'
/// "Machine disk space low" gives no threshold).
pub const DISK_LOW_SHARE: f64 = 0.10;
pub const DISK_CRITICAL_SHARE: f64 = 0.05;
/// H10: client 1.9.1's `preflight_requirement_checks` and the docs' requirements: 3 open
/// ports per GPU, more than 7 GB of GPU RAM, PCIe above 2.85, 2 CPU cores per GPU, CPU
/// RAM of 95 % of all GPU RAM (capped at 2 000 000), bandwidth of `required_inet_mbps`.
pub const PORTS_PER_GPU: i64 = 3;
pub const MIN_GPU_RAM_GB: f64 = 7.0;
pub const MIN_PCIE_BW: f64 = 2.85;
pub const CORES_PER_GPU: i64 = 2;
pub const CPU_RAM_SHARE: f64 = 0.95;
pub const CPU_RAM_CAP: f64 = 2_000_000.0;
/// H10: "~2.6 Mbps per GiB, with a 100 Mbps floor and 500 Mbps ceiling" (docs; client
/// 1.9.1 `required_inet_mbps`: 500 × GiB / 192).
pub const INET_FLOOR_MBPS: f64 = 100.0;
pub const INET_CEILING_MBPS: f64 = 500.0;
/// H11: the docs want CUDA 12.0 or later; client 1.9.1's self-test preflight 11.8.
pub const CUDA_WANTED: f64 = 12.0;
pub const CUDA_SELF_TEST: f64 = 11.8;
/// H12: a driver differs from the fleet's only among at least 3 machines of one GPU
/// (project rule).
pub const DRIFT_GROUP_MIN: usize = 3;
/// H13: JoEasyCompute's `ALERT_TEMP_THRESHOLD` default, adopted as a project rule.
pub const HOT_AT: f64 = 85.0;

/// What the rules need to know of the whole fleet.
pub struct FleetContext {
    /// Per GPU model with at least [`DRIFT_GROUP_MIN`] machines, its one most common driver.
    usual_driver: HashMap<String, String>,
    /// Hostnames on two or more machines.
    shared_hostnames: HashSet<String>,
    /// Machines with an upcoming or ongoing window (seed op 1).
    with_windows: HashSet<i64>,
}

impl FleetContext {
    pub fn of(machines: &[Machine], windows: &[MaintenanceWindow]) -> FleetContext {
        let mut drivers: HashMap<&str, HashMap<&str, usize>> = HashMap::new();
        let mut hostnames: HashMap<&str, usize> = HashMap::new();
        for m in machines {
            *drivers
                .entry(&m.gpu_name)
                .or_default()
                .entry(&m.driver_version)
                .or_default() += 1;
            *hostnames.entry(&m.hostname).or_default() += 1;
        }
        let usual_driver = drivers
            .into_iter()
            .filter(|(_, counts)| counts.values().sum::<usize>() >= DRIFT_GROUP_MIN)
            .filter_map(|(gpu, counts)| Some((gpu.to_owned(), sole_most_common(&counts)?)))
            .collect();
        FleetContext {
            usual_driver,
            shared_hostnames: hostnames
                .into_iter()
                .filter(|(_, n)| *n >= 2)
                .map(|(h, _)| h.to_owned())
                .collect(),
            with_windows: windows.iter().map(|w| w.machine_id).collect(),
        }
    }
}

/// The value counted most often, when no other is counted as often.
fn sole_most_common(counts: &HashMap<&str, usize>) -> Option<String> {
    let top = *counts.values().max()?;
    let mut tops = counts.iter().filter(|(_, n)| **n == top);
    let (value, _) = tops.next()?;
    tops.next().is_none().then(|| (*value).to_owned())
}

/// Text that says something: not absent, empty or blank.
fn said(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

fn cuda(value: &NumberOrText) -> Option<f64> {
    match value {
        NumberOrText::Number(n) => Some(*n),
        NumberOrText::Text(t) => t.trim().parse().ok(),
    }
}

/// Every rule that fires on `m`.
pub fn findings(
    m: &Machine,
    previous: Option<&Machine>,
    fleet: &FleetContext,
    now: f64,
) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut add = |rule: Rule, severity: Severity, evidence: String| {
        found.push(Finding {
            rule,
            severity,
            evidence,
        })
    };
    // H1, H1b
    if m.timeout > OFFLINE_AFTER {
        let rented = m.current_rentals_running > 0;
        let long = if m.timeout > LONG_OFFLINE_AFTER {
            " (more than 24 h)"
        } else {
            ""
        };
        let evidence = if rented {
            format!(
                "last seen {} ago{long}, {} rentals running",
                format_span(m.timeout),
                m.current_rentals_running
            )
        } else {
            format!("last seen {} ago{long}", format_span(m.timeout))
        };
        let severity = if rented {
            Severity::Critical
        } else {
            Severity::Warning
        };
        add(Rule::Offline, severity, evidence);
    } else if m.timeout > 0.0 {
        add(
            Rule::NotSeen,
            Severity::Info,
            format!("last seen {} ago", format_span(m.timeout)),
        );
    }
    // H2, H2b
    if let Some(error) = said(&m.error_description) {
        add(Rule::MachineError, Severity::Critical, error.to_owned());
    } else if let Some(error) = said(&m.vm_error_msg) {
        add(Rule::VmError, Severity::Warning, error.to_owned());
    }
    // H3, H3b
    let was_verified = previous.is_some_and(|p| p.verification == "verified");
    if m.verification == "deverified" {
        add(
            Rule::VerificationLost,
            Severity::Critical,
            "deverified".into(),
        );
    } else if was_verified && m.verification != "verified" {
        add(
            Rule::VerificationLost,
            Severity::Critical,
            format!("verified at the last read, {} now", m.verification),
        );
    }
    if m.verification == "unverified" {
        add(Rule::Unverified, Severity::Info, "unverified".into());
    }
    // H4, H4b
    let r = m.reliability2;
    let fall = previous.map(|p| p.reliability2 - r);
    if r <= RELIABILITY_GATE {
        add(
            Rule::ReliabilityUnderGate,
            Severity::Warning,
            format!("reliability {r:.3}, at or under {RELIABILITY_GATE:.2}"),
        );
    } else if r <= RELIABILITY_GATE + RELIABILITY_MARGIN {
        add(
            Rule::ReliabilityNearGate,
            Severity::Info,
            format!("reliability {r:.3}, within {RELIABILITY_MARGIN:.2} of the gate"),
        );
    } else if let Some(fall) = fall.filter(|f| *f >= RELIABILITY_FALL - 1e-9) {
        add(
            Rule::ReliabilityNearGate,
            Severity::Info,
            format!("reliability {r:.3}, {fall:.3} lower than at the last read"),
        );
    }
    // H5, H5b
    if let Some(p) = previous {
        let rose = |now: Option<f64>, before: Option<f64>| {
            now.zip(before).is_some_and(|(now, before)| now > before)
        };
        let reports = |m: &Machine| m.num_reports.map(|n| n as f64);
        if rose(reports(m), reports(p)) || rose(m.num_recent_reports, p.num_recent_reports) {
            add(
                Rule::NewReports,
                Severity::Warning,
                "more renter reports than at the last read".into(),
            );
        }
    }
    if let Some(recent) = m.num_recent_reports.filter(|n| *n > 0.0) {
        add(
            Rule::RecentReports,
            Severity::Info,
            format!("{recent} recent renter reports"),
        );
    }
    // H6
    if let (Listing::Until(end), None) = (Listing::of(m, now), m.duration) {
        if end - now < LISTING_ENDS_WITHIN {
            add(
                Rule::ListingEndsSoon,
                Severity::Warning,
                format!(
                    "the offer ends in {} (unless this is a rolling offer)",
                    format_span(end - now)
                ),
            );
        }
    }
    // H7
    if m.current_rentals_running > 0 {
        let outlast = match (m.client_end_date, m.end_date) {
            (Some(rentals), Some(offer)) => rentals > offer,
            _ => false,
        };
        if !m.listed {
            add(
                Rule::RentalsOutlastListing,
                Severity::Info,
                "not listed while rentals run".into(),
            );
        } else if outlast {
            add(
                Rule::RentalsOutlastListing,
                Severity::Info,
                "a rental ends after the offer".into(),
            );
        }
    }
    // H8
    let all_free = m.gpu_occupancy.split_whitespace().all(|code| code == "x");
    if m.listed && m.timeout == 0.0 && all_free && m.earn_day == 0.0 {
        add(
            Rule::IdleWhileListed,
            Severity::Info,
            "listed, no GPU rented, nothing earned in 24 h".into(),
        );
    }
    // H9
    if let (Some(avail), Some(max)) = (m.avail_disk_space, m.max_disk_space) {
        let share = if max > 0.0 { avail / max } else { 1.0 };
        if share < DISK_LOW_SHARE {
            let severity = if share < DISK_CRITICAL_SHARE {
                Severity::Critical
            } else {
                Severity::Warning
            };
            add(
                Rule::DiskLow,
                severity,
                format!("{avail} of {max} GB free ({:.1} %)", share * 100.0),
            );
        }
    }
    // H10
    if m.verification != "verified" {
        let shortfalls = requirement_shortfalls(m);
        if !shortfalls.is_empty() {
            add(
                Rule::UnderRequirements,
                Severity::Info,
                format!("estimate: {}", shortfalls.join("; ")),
            );
        }
    }
    // H11
    if let Some(version) = m.cuda_max_good.as_ref().and_then(cuda) {
        if version < CUDA_WANTED {
            let fails = if version < CUDA_SELF_TEST {
                "; self-test preflight fails"
            } else {
                ""
            };
            add(
                Rule::CudaTooOld,
                Severity::Warning,
                format!("CUDA {version} under {CUDA_WANTED:.1}{fails}"),
            );
        }
    }
    // H12
    if let Some(usual) = fleet.usual_driver.get(&m.gpu_name) {
        if *usual != m.driver_version {
            add(
                Rule::DriverDrift,
                Severity::Info,
                format!(
                    "driver {}; your other {} machines mostly run {usual}",
                    m.driver_version, m.gpu_name
                ),
            );
        }
    }
    // H13
    if let Some(temp) = m.gpu_max_cur_temp.filter(|t| *t >= HOT_AT) {
        add(
            Rule::Hot,
            Severity::Warning,
            format!("hottest GPU at {temp} °C"),
        );
    }
    // H14
    let announced = m
        .machine_maintenance
        .as_ref()
        .map_or(0, |mm| mm.windows().len());
    if announced > 0 {
        add(
            Rule::MaintenanceAnnounced,
            Severity::Info,
            format!("{announced} window(s) announced"),
        );
    }
    // H15
    if fleet.shared_hostnames.contains(&m.hostname) {
        add(
            Rule::DuplicateHostname,
            Severity::Info,
            format!("hostname {} is on another machine too", m.hostname),
        );
    }
    // Issue 55: unlisted and vacant with no maintenance under way or planned.
    let not_listed = Listing::of(m, now) == Listing::NotListed;
    if not_listed
        && m.current_rentals_running <= 0
        && announced == 0
        && !fleet.with_windows.contains(&m.id)
    {
        add(
            Rule::UnlistedAfterMaintenance,
            Severity::Warning,
            "not listed, no rental and no window: forgotten after maintenance?".into(),
        );
    }
    found
}

/// H10's shortfalls of `m`, each in words; a check whose fields are not said is skipped.
fn requirement_shortfalls(m: &Machine) -> Vec<String> {
    let gpus = m.num_gpus.max(0);
    let mut short = Vec::new();
    if let Some(ports) = m.direct_port_count {
        if ports < PORTS_PER_GPU * gpus {
            short.push(format!(
                "{ports} open ports, {} wanted",
                PORTS_PER_GPU * gpus
            ));
        }
    }
    let all_gpu_ram_gib = m.gpu_ram * gpus as f64 / 1024.0;
    let inet_wanted =
        (INET_CEILING_MBPS * all_gpu_ram_gib / 192.0).clamp(INET_FLOOR_MBPS, INET_CEILING_MBPS);
    for (name, speed) in [("download", m.inet_down), ("upload", m.inet_up)] {
        if let Some(speed) = speed.filter(|s| *s < inet_wanted) {
            short.push(format!("{name} {speed} Mbps, {inet_wanted:.0} wanted"));
        }
    }
    if m.gpu_ram / 1024.0 <= MIN_GPU_RAM_GB {
        short.push(format!(
            "{:.1} GB of GPU RAM, more than {MIN_GPU_RAM_GB} wanted",
            m.gpu_ram / 1024.0
        ));
    }
    if let Some(bw) = m.pcie_bw.filter(|bw| *bw <= MIN_PCIE_BW) {
        short.push(format!("PCIe {bw}, more than {MIN_PCIE_BW} wanted"));
    }
    let cpu_ram_wanted = (CPU_RAM_SHARE * m.gpu_ram * gpus as f64).min(CPU_RAM_CAP);
    if m.cpu_ram < cpu_ram_wanted {
        short.push(format!(
            "{} MB of CPU RAM, {cpu_ram_wanted:.0} wanted",
            m.cpu_ram
        ));
    }
    if m.cpu_cores < CORES_PER_GPU * gpus {
        short.push(format!(
            "{} CPU cores, {} wanted",
            m.cpu_cores,
            CORES_PER_GPU * gpus
        ));
    }
    short
}
