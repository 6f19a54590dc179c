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

/// Every rule that fires on `m`, in the table's order.
pub fn findings(
    m: &Machine,
    previous: Option<&Machine>,
    fleet: &FleetContext,
    now: f64,
) -> Vec<Finding> {
    [
        presence(m),
        errors(m),
        verification_lost(m, previous),
        unverified(m),
        reliability(m, previous),
        new_reports(m, previous),
        recent_reports(m),
        listing_ends_soon(m, now),
        rentals_outlast_listing(m),
        idle_while_listed(m),
        disk_low(m),
        under_requirements(m),
        cuda_too_old(m),
        driver_drift(m, fleet),
        hot(m),
        maintenance_announced(m),
        duplicate_hostname(m, fleet),
        unlisted_after_maintenance(m, fleet, now),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn finding(rule: Rule, severity: Severity, evidence: impl Into<String>) -> Option<Finding> {
    Some(Finding {
        rule,
        severity,
        evidence: evidence.into(),
    })
}

/// H1, H1b: offline (the worst while rented), or not seen for a moment.
fn presence(m: &Machine) -> Option<Finding> {
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
        finding(Rule::Offline, severity, evidence)
    } else if m.timeout > 0.0 {
        finding(
            Rule::NotSeen,
            Severity::Info,
            format!("last seen {} ago", format_span(m.timeout)),
        )
    } else {
        None
    }
}

/// H2, H2b: an error on the machine, else one on its VMs.
fn errors(m: &Machine) -> Option<Finding> {
    if let Some(error) = said(&m.error_description) {
        finding(Rule::MachineError, Severity::Critical, error)
    } else {
        said(&m.vm_error_msg).and_then(|error| finding(Rule::VmError, Severity::Warning, error))
    }
}

/// H3: deverified, or verified at the last read and not now.
fn verification_lost(m: &Machine, previous: Option<&Machine>) -> Option<Finding> {
    let was_verified = previous.is_some_and(|p| p.verification == "verified");
    if m.verification == "deverified" {
        finding(Rule::VerificationLost, Severity::Critical, "deverified")
    } else if was_verified && m.verification != "verified" {
        finding(
            Rule::VerificationLost,
            Severity::Critical,
            format!("verified at the last read, {} now", m.verification),
        )
    } else {
        None
    }
}

/// H3b.
fn unverified(m: &Machine) -> Option<Finding> {
    if m.verification != "unverified" {
        return None;
    }
    finding(Rule::Unverified, Severity::Info, "unverified")
}

/// H4, H4b: at or under the gate, near it, or fallen since the last read.
fn reliability(m: &Machine, previous: Option<&Machine>) -> Option<Finding> {
    let r = m.reliability2;
    let fall = previous.map(|p| p.reliability2 - r);
    if r <= RELIABILITY_GATE {
        finding(
            Rule::ReliabilityUnderGate,
            Severity::Warning,
            format!("reliability {r:.3}, at or under {RELIABILITY_GATE:.2}"),
        )
    } else if r <= RELIABILITY_GATE + RELIABILITY_MARGIN {
        finding(
            Rule::ReliabilityNearGate,
            Severity::Info,
            format!("reliability {r:.3}, within {RELIABILITY_MARGIN:.2} of the gate"),
        )
    } else if let Some(fall) = fall.filter(|f| *f >= RELIABILITY_FALL - 1e-9) {
        finding(
            Rule::ReliabilityNearGate,
            Severity::Info,
            format!("reliability {r:.3}, {fall:.3} lower than at the last read"),
        )
    } else {
        None
    }
}

/// H5: more reports than at the last read.
fn new_reports(m: &Machine, previous: Option<&Machine>) -> Option<Finding> {
    let p = previous?;
    let rose = |now: Option<f64>, before: Option<f64>| {
        now.zip(before).is_some_and(|(now, before)| now > before)
    };
    let reports = |m: &Machine| m.num_reports.map(|n| n as f64);
    if !(rose(reports(m), reports(p)) || rose(m.num_recent_reports, p.num_recent_reports)) {
        return None;
    }
    finding(
        Rule::NewReports,
        Severity::Warning,
        "more renter reports than at the last read",
    )
}

/// H5b.
fn recent_reports(m: &Machine) -> Option<Finding> {
    let recent = m.num_recent_reports.filter(|n| *n > 0.0)?;
    finding(
        Rule::RecentReports,
        Severity::Info,
        format!("{recent} recent renter reports"),
    )
}

/// H6: a fixed offer end soon.
fn listing_ends_soon(m: &Machine, now: f64) -> Option<Finding> {
    let (Listing::Until(end), None) = (Listing::of(m, now), m.duration) else {
        return None;
    };
    let ends_soon = end - now < LISTING_ENDS_WITHIN;
    if !ends_soon {
        return None;
    }
    finding(
        Rule::ListingEndsSoon,
        Severity::Warning,
        format!(
            "the offer ends in {} (unless this is a rolling offer)",
            format_span(end - now)
        ),
    )
}

/// H7: rentals running while not listed, or past the offer's end.
fn rentals_outlast_listing(m: &Machine) -> Option<Finding> {
    if m.current_rentals_running <= 0 {
        return None;
    }
    let outlast = match (m.client_end_date, m.end_date) {
        (Some(rentals), Some(offer)) => rentals > offer,
        _ => false,
    };
    if !m.listed {
        finding(
            Rule::RentalsOutlastListing,
            Severity::Info,
            "not listed while rentals run",
        )
    } else if outlast {
        finding(
            Rule::RentalsOutlastListing,
            Severity::Info,
            "a rental ends after the offer",
        )
    } else {
        None
    }
}

/// H8.
fn idle_while_listed(m: &Machine) -> Option<Finding> {
    let all_free = m.gpu_occupancy.split_whitespace().all(|code| code == "x");
    if !(m.listed && m.timeout == 0.0 && all_free && m.earn_day == 0.0) {
        return None;
    }
    finding(
        Rule::IdleWhileListed,
        Severity::Info,
        "listed, no GPU rented, nothing earned in 24 h",
    )
}

/// H9.
fn disk_low(m: &Machine) -> Option<Finding> {
    let (avail, max) = m.avail_disk_space.zip(m.max_disk_space)?;
    let share = if max > 0.0 { avail / max } else { 1.0 };
    let low = share < DISK_LOW_SHARE;
    if !low {
        return None;
    }
    let severity = if share < DISK_CRITICAL_SHARE {
        Severity::Critical
    } else {
        Severity::Warning
    };
    finding(
        Rule::DiskLow,
        severity,
        format!("{avail} of {max} GB free ({:.1} %)", share * 100.0),
    )
}

/// H10, judged only while the machine is not verified.
fn under_requirements(m: &Machine) -> Option<Finding> {
    if m.verification == "verified" {
        return None;
    }
    let shortfalls = requirement_shortfalls(m);
    if shortfalls.is_empty() {
        return None;
    }
    finding(
        Rule::UnderRequirements,
        Severity::Info,
        format!("estimate: {}", shortfalls.join("; ")),
    )
}

/// H11.
fn cuda_too_old(m: &Machine) -> Option<Finding> {
    let version = m.cuda_max_good.as_ref().and_then(cuda)?;
    let too_old = version < CUDA_WANTED;
    if !too_old {
        return None;
    }
    let fails = if version < CUDA_SELF_TEST {
        "; self-test preflight fails"
    } else {
        ""
    };
    finding(
        Rule::CudaTooOld,
        Severity::Warning,
        format!("CUDA {version} under {CUDA_WANTED:.1}{fails}"),
    )
}

/// H12.
fn driver_drift(m: &Machine, fleet: &FleetContext) -> Option<Finding> {
    let usual = fleet.usual_driver.get(&m.gpu_name)?;
    if *usual == m.driver_version {
        return None;
    }
    finding(
        Rule::DriverDrift,
        Severity::Info,
        format!(
            "driver {}; your other {} machines mostly run {usual}",
            m.driver_version, m.gpu_name
        ),
    )
}

/// H13.
fn hot(m: &Machine) -> Option<Finding> {
    let temp = m.gpu_max_cur_temp.filter(|t| *t >= HOT_AT)?;
    finding(
        Rule::Hot,
        Severity::Warning,
        format!("hottest GPU at {temp} °C"),
    )
}

/// The windows N1 announces for `m`.
fn announced_windows(m: &Machine) -> usize {
    m.machine_maintenance
        .as_ref()
        .map_or(0, |mm| mm.windows().len())
}

/// H14.
fn maintenance_announced(m: &Machine) -> Option<Finding> {
    let announced = announced_windows(m);
    if announced == 0 {
        return None;
    }
    finding(
        Rule::MaintenanceAnnounced,
        Severity::Info,
        format!("{announced} window(s) announced"),
    )
}

/// H15.
fn duplicate_hostname(m: &Machine, fleet: &FleetContext) -> Option<Finding> {
    if !fleet.shared_hostnames.contains(&m.hostname) {
        return None;
    }
    finding(
        Rule::DuplicateHostname,
        Severity::Info,
        format!("hostname {} is on another machine too", m.hostname),
    )
}

/// Issue 55: unlisted and vacant with no maintenance under way or planned; issue 54 calls it
/// "maintained, not listed". Neither N1 nor seed op 1 carries a window once it has ended, so
/// "no window under way or planned" is how the end of the maintenance shows.
fn unlisted_after_maintenance(m: &Machine, fleet: &FleetContext, now: f64) -> Option<Finding> {
    let forgotten = Listing::of(m, now) == Listing::NotListed
        && m.current_rentals_running <= 0
        && announced_windows(m) == 0
        && !fleet.with_windows.contains(&m.id);
    if !forgotten {
        return None;
    }
    finding(
        Rule::UnlistedAfterMaintenance,
        Severity::Warning,
        "not listed, no rental and no window: forgotten after maintenance?",
    )
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
