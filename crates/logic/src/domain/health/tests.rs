//! Each rule at the edges of its threshold, and a field not said firing nothing.

use super::*;
use crate::domain::listing::fixture::listed_machine;
use gpudeck_wire::{AnnouncedWindow, MachineMaintenance, MaintenanceCategory, NumberOrText};

const NOW: f64 = 1_800_000_000.0;
const DAY: f64 = 86_400.0;

/// A machine no rule holds: listed open-ended, rented, verified, online, every health
/// field said and well within its threshold.
fn healthy(id: i64) -> Machine {
    let mut m = listed_machine(id, true, None, 1, None);
    m.hostname = format!("rig-{id}");
    m.inet_up = Some(1_000.0);
    m.inet_down = Some(1_000.0);
    m.cuda_max_good = Some(NumberOrText::Number(12.4));
    m.num_reports = Some(0);
    m.num_recent_reports = Some(0.0);
    m.max_disk_space = Some(2_000.0);
    m.avail_disk_space = Some(1_500.0);
    m.gpu_max_cur_temp = Some(60.0);
    m.direct_port_count = Some(400);
    m.pcie_bw = Some(24.6);
    m
}

fn judge_with(machine: &Machine, previous: Option<&Machine>) -> Vec<(Rule, Severity)> {
    let previous = previous.map(|p| vec![p.clone()]);
    let fleet = FleetHealth::judge(std::slice::from_ref(machine), &[], previous.as_deref(), NOW);
    fleet.machines[&machine.id]
        .findings
        .iter()
        .map(|f| (f.rule, f.severity))
        .collect()
}

fn judge(machine: &Machine) -> Vec<(Rule, Severity)> {
    judge_with(machine, None)
}

fn with(change: impl FnOnce(&mut Machine)) -> Machine {
    let mut m = healthy(1);
    change(&mut m);
    m
}

#[test]
fn a_healthy_machine_has_no_finding() {
    assert_eq!(judge(&healthy(1)), []);
}

#[test]
fn fields_not_said_fire_nothing() {
    let bare: Machine = serde_json::from_value(serde_json::json!({
        "id": 1, "machine_id": 1, "hostname": "h", "gpu_name": "RTX 4090",
        "cpu_name": "EPYC", "driver_version": "550.54.14", "num_gpus": 4, "cpu_cores": 32,
        "current_rentals_running": 1, "gpu_ram": 24000, "cpu_ram": 128000,
        "disk_space": 2000, "listed": true, "verification": "unverified",
        "reliability2": 0.99, "gpu_occupancy": "D x x x", "geolocation": null,
        "public_ipaddr": null, "timeout": 0, "listed_gpu_cost": null,
        "min_bid_price": null, "earn_day": 3.5
    }))
    .unwrap();
    // Unverified, but no requirement can be checked without ports, bandwidth or PCIe;
    // no disk, temperature, error, report or CUDA rule without their fields.
    assert_eq!(judge(&bare), [(Rule::Unverified, Severity::Info)]);
}

#[test]
fn h1_not_seen_then_offline_past_300_seconds() {
    assert_eq!(
        judge(&with(|m| m.timeout = 1.0)),
        [(Rule::NotSeen, Severity::Info)]
    );
    assert_eq!(
        judge(&with(|m| m.timeout = 300.0)),
        [(Rule::NotSeen, Severity::Info)]
    );
    // Rented: critical; vacant: a warning.
    assert_eq!(
        judge(&with(|m| m.timeout = 301.0)),
        [(Rule::Offline, Severity::Critical)]
    );
    let vacant = with(|m| {
        m.timeout = 301.0;
        m.current_rentals_running = 0;
        m.client_end_date = None;
    });
    assert_eq!(judge(&vacant), [(Rule::Offline, Severity::Warning)]);
    let words = |timeout: f64| {
        let m = with(|m| m.timeout = timeout);
        FleetHealth::judge(&[m], &[], None, NOW).machines[&1].findings[0].words()
    };
    assert!(!words(DAY).contains("more than 24 h"), "{}", words(DAY));
    assert!(words(DAY + 1.0).contains("more than 24 h"));
    assert!(words(5.0 * 3600.0).contains("last seen 5 h ago, 1 rentals running"));
}

#[test]
fn h2_machine_error_over_h2b_vm_error() {
    for none in [None, Some(String::new()), Some("  ".into())] {
        assert_eq!(judge(&with(|m| m.error_description = none.clone())), []);
    }
    assert_eq!(
        judge(&with(|m| m.error_description = Some("CDI".into()))),
        [(Rule::MachineError, Severity::Critical)]
    );
    assert_eq!(
        judge(&with(|m| m.vm_error_msg = Some("IOMMU".into()))),
        [(Rule::VmError, Severity::Warning)]
    );
    let both = with(|m| {
        m.error_description = Some("CDI".into());
        m.vm_error_msg = Some("IOMMU".into());
    });
    assert_eq!(judge(&both), [(Rule::MachineError, Severity::Critical)]);
}

#[test]
fn h3_verification_lost_and_h3b_unverified() {
    assert_eq!(
        judge(&with(|m| m.verification = "deverified".into())),
        [(Rule::VerificationLost, Severity::Critical)]
    );
    let unverified = with(|m| m.verification = "unverified".into());
    assert_eq!(judge(&unverified), [(Rule::Unverified, Severity::Info)]);
    assert_eq!(
        judge_with(&unverified, Some(&healthy(1))),
        [
            (Rule::VerificationLost, Severity::Critical),
            (Rule::Unverified, Severity::Info)
        ]
    );
    // Another value, shown as received, loses verification only since a read.
    assert_eq!(judge(&with(|m| m.verification = "pending".into())), []);
}

#[test]
fn h4_reliability_at_the_gate_and_h4b_near_it_or_falling() {
    let at = |r: f64| judge(&with(|m| m.reliability2 = r));
    assert_eq!(at(0.90), [(Rule::ReliabilityUnderGate, Severity::Warning)]);
    assert_eq!(at(0.9001), [(Rule::ReliabilityNearGate, Severity::Info)]);
    assert_eq!(at(0.92), [(Rule::ReliabilityNearGate, Severity::Info)]);
    assert_eq!(at(0.9201), []);
    let before = with(|m| m.reliability2 = 0.95);
    assert_eq!(
        judge_with(&with(|m| m.reliability2 = 0.94), Some(&before)),
        [(Rule::ReliabilityNearGate, Severity::Info)]
    );
    assert_eq!(
        judge_with(&with(|m| m.reliability2 = 0.9401), Some(&before)),
        []
    );
    // The first read only sets the baseline.
    assert_eq!(judge(&with(|m| m.reliability2 = 0.94)), []);
}

#[test]
fn h5_reports_rising_since_the_last_read_and_h5b_recent_ones() {
    let before = with(|m| m.num_reports = Some(1));
    assert_eq!(
        judge_with(&with(|m| m.num_reports = Some(2)), Some(&before)),
        [(Rule::NewReports, Severity::Warning)]
    );
    assert_eq!(
        judge_with(&with(|m| m.num_reports = Some(1)), Some(&before)),
        []
    );
    assert_eq!(judge(&with(|m| m.num_reports = Some(2))), []);
    let unsaid = with(|m| m.num_reports = None);
    assert_eq!(
        judge_with(&with(|m| m.num_reports = Some(2)), Some(&unsaid)),
        []
    );
    assert_eq!(
        judge(&with(|m| m.num_recent_reports = Some(0.5))),
        [(Rule::RecentReports, Severity::Info)]
    );
    assert_eq!(judge(&with(|m| m.num_recent_reports = Some(0.0))), []);
}

#[test]
fn h6_a_fixed_offer_ending_within_7_days() {
    let ending = |end: f64| {
        with(|m| {
            m.end_date = Some(end);
            m.client_end_date = Some(end);
        })
    };
    assert_eq!(
        judge(&ending(NOW + 7.0 * DAY - 1.0)),
        [(Rule::ListingEndsSoon, Severity::Warning)]
    );
    assert_eq!(judge(&ending(NOW + 7.0 * DAY)), []);
    let mut rolling = ending(NOW + DAY);
    rolling.duration = Some(30.0 * DAY);
    assert_eq!(judge(&rolling), []);
    let words =
        FleetHealth::judge(&[ending(NOW + DAY)], &[], None, NOW).machines[&1].findings[0].words();
    assert!(words.contains("unless this is a rolling offer"), "{words}");
}

#[test]
fn h7_rentals_outlast_the_listing() {
    let unlisted = with(|m| m.listed = false);
    assert_eq!(
        judge(&unlisted),
        [(Rule::RentalsOutlastListing, Severity::Info)]
    );
    let later = |client_end: f64| {
        with(|m| {
            m.end_date = Some(NOW + 10.0 * DAY);
            m.client_end_date = Some(client_end);
        })
    };
    assert_eq!(
        judge(&later(NOW + 10.0 * DAY + 1.0)),
        [(Rule::RentalsOutlastListing, Severity::Info)]
    );
    assert_eq!(judge(&later(NOW + 10.0 * DAY)), []);
}

#[test]
fn h8_idle_while_listed() {
    let idle = |earn: f64, occupancy: &str| {
        judge(&with(|m| {
            m.current_rentals_running = 0;
            m.gpu_occupancy = occupancy.into();
            m.earn_day = earn;
        }))
    };
    assert_eq!(
        idle(0.0, "x x x x"),
        [(Rule::IdleWhileListed, Severity::Info)]
    );
    assert_eq!(idle(0.01, "x x x x"), []);
    assert_eq!(idle(0.0, "x I x x"), []);
}

#[test]
fn h9_disk_under_10_percent_then_5() {
    let free = |avail: f64| judge(&with(|m| m.avail_disk_space = Some(avail)));
    assert_eq!(free(200.0), []);
    assert_eq!(free(199.9), [(Rule::DiskLow, Severity::Warning)]);
    assert_eq!(free(100.0), [(Rule::DiskLow, Severity::Warning)]);
    assert_eq!(free(99.9), [(Rule::DiskLow, Severity::Critical)]);
    assert_eq!(
        judge(&with(|m| {
            m.avail_disk_space = Some(10.0);
            m.max_disk_space = None;
        })),
        []
    );
}

#[test]
fn h10_requirements_only_when_not_verified() {
    let unverified = |change: fn(&mut Machine)| {
        judge(&with(|m| {
            m.verification = "unverified".into();
            change(m);
        }))
    };
    let short = [
        (Rule::Unverified, Severity::Info),
        (Rule::UnderRequirements, Severity::Info),
    ];
    assert_eq!(unverified(|_| {}), [(Rule::Unverified, Severity::Info)]);
    // 3 ports per GPU on 4 GPUs.
    assert_eq!(unverified(|m| m.direct_port_count = Some(11)), short);
    assert_eq!(
        unverified(|m| m.direct_port_count = Some(12)),
        [(Rule::Unverified, Severity::Info)]
    );
    assert_eq!(unverified(|m| m.pcie_bw = Some(2.85)), short);
    assert_eq!(
        unverified(|m| m.pcie_bw = Some(2.86)),
        [(Rule::Unverified, Severity::Info)]
    );
    // 4 × 24 000 MB of GPU RAM is 93.75 GiB: 244 Mbps wanted each way.
    assert_eq!(unverified(|m| m.inet_down = Some(244.0)), short);
    assert_eq!(
        unverified(|m| m.inet_up = Some(245.0)),
        [(Rule::Unverified, Severity::Info)]
    );
    assert_eq!(unverified(|m| m.cpu_cores = 7), short);
    // CPU RAM of 95 % of 96 000 MB.
    assert_eq!(unverified(|m| m.cpu_ram = 91_199.0), short);
    assert_eq!(
        unverified(|m| m.cpu_ram = 91_200.0),
        [(Rule::Unverified, Severity::Info)]
    );
    assert_eq!(unverified(|m| m.gpu_ram = 7_168.0), short);
    // A verified machine is not checked.
    assert_eq!(judge(&with(|m| m.direct_port_count = Some(0))), []);
}

#[test]
fn h11_cuda_under_12_and_the_self_test_under_11_8() {
    let at = |v: NumberOrText| {
        let m = with(|m| m.cuda_max_good = Some(v));
        FleetHealth::judge(&[m], &[], None, NOW).machines[&1]
            .findings
            .iter()
            .map(|f| (f.rule, f.severity, f.evidence.contains("self-test")))
            .collect::<Vec<_>>()
    };
    assert_eq!(at(NumberOrText::Number(12.0)), []);
    assert_eq!(
        at(NumberOrText::Number(11.99)),
        [(Rule::CudaTooOld, Severity::Warning, false)]
    );
    assert_eq!(
        at(NumberOrText::Text("11.8".into())),
        [(Rule::CudaTooOld, Severity::Warning, false)]
    );
    assert_eq!(
        at(NumberOrText::Number(11.7)),
        [(Rule::CudaTooOld, Severity::Warning, true)]
    );
    assert_eq!(at(NumberOrText::Text("unknown".into())), []);
}

#[test]
fn h12_driver_drift_among_3_or_more_of_one_gpu() {
    let fleet = |drivers: &[&str]| {
        let machines: Vec<Machine> = drivers
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut m = healthy(i as i64 + 1);
                m.driver_version = (*d).into();
                m
            })
            .collect();
        FleetHealth::judge(&machines, &[], None, NOW).held_by(Rule::DriverDrift)
    };
    assert_eq!(fleet(&["550", "550", "535"]), [3]);
    assert_eq!(fleet(&["550", "535"]), Vec::<i64>::new());
    // No single most common driver: nothing drifts.
    assert_eq!(fleet(&["550", "550", "535", "535"]), Vec::<i64>::new());
}

#[test]
fn h13_hot_from_85() {
    assert_eq!(judge(&with(|m| m.gpu_max_cur_temp = Some(84.9))), []);
    assert_eq!(
        judge(&with(|m| m.gpu_max_cur_temp = Some(85.0))),
        [(Rule::Hot, Severity::Warning)]
    );
}

#[test]
fn h14_maintenance_announced_and_h15_duplicate_hostname() {
    let window = AnnouncedWindow {
        id: 1,
        machine_id: 1,
        start_time: NOW,
        duration_hours: 2,
        maintenance_category: MaintenanceCategory::Gpu,
        maintenance_reason: None,
    };
    assert_eq!(
        judge(&with(
            |m| m.machine_maintenance = Some(MachineMaintenance::Windows(vec![window]))
        )),
        [(Rule::MaintenanceAnnounced, Severity::Info)]
    );
    assert_eq!(
        judge(&with(
            |m| m.machine_maintenance = Some(MachineMaintenance::Text("x".into()))
        )),
        []
    );
    let twins = [healthy(1), with(|m| m.id = 2)];
    let health = FleetHealth::judge(&twins, &[], None, NOW);
    assert_eq!(health.held_by(Rule::DuplicateHostname), [1, 2]);
}

#[test]
fn unlisted_and_vacant_without_a_window_is_forgotten() {
    let vacant_unlisted = with(|m| {
        m.listed = false;
        m.current_rentals_running = 0;
        m.gpu_occupancy = "x x x x".into();
    });
    assert_eq!(
        judge(&vacant_unlisted),
        [(Rule::UnlistedAfterMaintenance, Severity::Warning)]
    );
    let window = MaintenanceWindow {
        id: 9,
        machine_id: 1,
        start_time: NOW - 3600.0,
        duration_hours: 4,
        maintenance_category: MaintenanceCategory::Disk,
        maintenance_reason: None,
        created_at: NOW - DAY,
        cancelled_at: None,
        end_time: NOW + 3.0 * 3600.0,
        scheduled_by_marketplace: false,
    };
    let health = FleetHealth::judge(std::slice::from_ref(&vacant_unlisted), &[window], None, NOW);
    assert_eq!(health.machines[&1].findings, []);
    assert_eq!(
        Rule::UnlistedAfterMaintenance.remedies(),
        [Remedy::ListAgain]
    );
}

#[test]
fn the_worst_finding_comes_first_and_counts_follow_the_rules() {
    let machines = [
        with(|m| {
            m.gpu_max_cur_temp = Some(90.0);
            m.error_description = Some("CDI".into());
            m.num_recent_reports = Some(1.0);
        }),
        {
            let mut m = healthy(2);
            m.gpu_max_cur_temp = Some(90.0);
            m
        },
        {
            let mut m = healthy(3);
            m.num_recent_reports = Some(2.0);
            m
        },
        healthy(4),
    ];
    let health = FleetHealth::judge(&machines, &[], None, NOW);
    let worst = health.machines[&1].worst().unwrap();
    assert_eq!(
        (worst.rule, worst.severity),
        (Rule::MachineError, Severity::Critical)
    );
    assert_eq!(
        health.counts(),
        [
            (Rule::MachineError, 1),
            (Rule::RecentReports, 2),
            (Rule::Hot, 2)
        ]
    );
    assert_eq!(health.held_by(Rule::Hot), [1, 2]);
    // Machine 1 (critical) and 2 (warning); 3's worst is only info.
    assert_eq!(health.needing_attention(), 2);
    assert_eq!(
        health.by_worst_severity(),
        (
            [
                (Severity::Critical, 1),
                (Severity::Warning, 1),
                (Severity::Info, 1)
            ],
            1
        )
    );
}
