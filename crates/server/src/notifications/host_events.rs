//! The host events of spec fleet-health §3.5: when each is due, and its standard texts
//! (one definition, shared by D1's transitions, D2's report and D3's raised events).

use super::catalog::{self, Kind};
use crate::db::machine_health::{is_blank, HealthChanged, VERIFIED};
use gpudeck_wire::calendar::rfc3339_utc;
use gpudeck_wire::{Machine, MaintenanceCategory};

/// An event to emit: its type and texts.
#[derive(Debug, Clone, PartialEq)]
pub struct HostEvent {
    pub kind: &'static Kind,
    pub subject: String,
    pub message: String,
}

fn event(key: &str, subject: String, message: String) -> HostEvent {
    HostEvent {
        kind: catalog::kind(key),
        subject,
        message,
    }
}

/// `host:machine_offline`.
pub fn offline(m: &Machine) -> HostEvent {
    event(
        catalog::MACHINE_OFFLINE,
        format!("Machine {} is offline", m.id),
        format!(
            "Machine {} ({}) stopped responding to the platform.",
            m.id, m.hostname
        ),
    )
}

/// `host:machine_error`, with the error's text.
pub fn error(m: &Machine, text: &str) -> HostEvent {
    event(
        catalog::MACHINE_ERROR,
        format!("Machine {} reported an error", m.id),
        text.to_owned(),
    )
}

/// `host:machine_verification_failed`, naming the machine's verification now.
pub fn verification_failed(m: &Machine) -> HostEvent {
    event(
        catalog::MACHINE_VERIFICATION_FAILED,
        format!("Machine {} lost verified status", m.id),
        format!(
            "Machine {} ({}) is now {}.",
            m.id, m.hostname, m.verification
        ),
    )
}

/// `host:machine_reported`, for a report of `problem` with `message`.
pub fn reported(machine_id: i64, problem: &str, message: &str) -> HostEvent {
    event(
        catalog::MACHINE_REPORTED,
        format!("Machine {machine_id} was reported by a renter"),
        format!("{problem}: {message}"),
    )
}

/// `host:low_disk_space`, with the machine's free and total disk (GB, as N1 has them).
pub fn low_disk(m: &Machine) -> HostEvent {
    let gb = |value: Option<f64>| value.map_or("?".to_owned(), |v| v.to_string());
    event(
        catalog::LOW_DISK_SPACE,
        format!("Machine {} is low on disk space", m.id),
        format!(
            "{} of {} GB free.",
            gb(m.avail_disk_space),
            gb(m.max_disk_space)
        ),
    )
}

/// `host:near_end_date`, from the machine's offer. A listed machine without an end date
/// (not said, or a rolling offer) says so (project rule: §3.5 names the other two texts).
pub fn near_end_date(m: &Machine) -> HostEvent {
    let message = match (m.listed, m.end_date) {
        (false, _) => "The machine is not listed.".to_owned(),
        (true, Some(end)) => format!("The offer ends at {}.", rfc3339_utc(end)),
        (true, None) => "The offer has no end date.".to_owned(),
    };
    event(
        catalog::NEAR_END_DATE,
        format!("The listing of machine {} ends soon", m.id),
        message,
    )
}

/// `host:maintenance_scheduled`, for a window of `category` from `start_time`.
pub fn maintenance_scheduled(
    machine_id: i64,
    category: &MaintenanceCategory,
    start_time: f64,
    duration_hours: i64,
) -> HostEvent {
    event(
        catalog::MAINTENANCE_SCHEDULED,
        format!("Maintenance scheduled on machine {machine_id}"),
        format!(
            "{} window from {} for {duration_hours} hour(s).",
            category.as_str(),
            rfc3339_utc(start_time)
        ),
    )
}

/// Below this share of its disk free, a machine is low on disk (H9's warning, §3.5).
pub const LOW_DISK_SHARE: f64 = 0.10;

fn disk_share(m: &Machine) -> Option<f64> {
    let (avail, max) = (m.avail_disk_space?, m.max_disk_space?);
    (max > 0.0).then_some(avail / max)
}

/// The events D1's change is due, in the order of §3.5's table: each is a transition
/// (online to offline, no error to an error, verified to not, enough disk to low), so a
/// change that repeats a state emits nothing.
pub fn transitions(changed: &HealthChanged) -> Vec<HostEvent> {
    let HealthChanged {
        before,
        after,
        went_offline,
    } = changed;
    let mut events = Vec::new();
    if *went_offline {
        events.push(offline(after));
    }
    for (was, now) in [
        (&before.error_description, &after.error_description),
        (&before.vm_error_msg, &after.vm_error_msg),
    ] {
        if let (true, Some(text)) = (is_blank(was.as_deref()), now) {
            if !is_blank(Some(text)) {
                events.push(error(after, text));
            }
        }
    }
    if before.verification == VERIFIED && after.verification != VERIFIED {
        events.push(verification_failed(after));
    }
    if let (Some(was), Some(now)) = (disk_share(before), disk_share(after)) {
        if was >= LOW_DISK_SHARE && now < LOW_DISK_SHARE {
            events.push(low_disk(after));
        }
    }
    events
}

/// The event D3 raises of `key` on `m`, with the standard texts filled from the machine as
/// it is (its error, its newest report, its next window); `None` when `key` is not a host
/// type. Where the machine has nothing to fill in, the text says so (project rule).
pub fn raised(key: &str, m: &Machine, newest_report: Option<(&str, &str)>) -> Option<HostEvent> {
    Some(match key {
        catalog::MACHINE_OFFLINE => offline(m),
        catalog::MACHINE_ERROR => {
            let text = [&m.error_description, &m.vm_error_msg]
                .into_iter()
                .flatten()
                .find(|text| !is_blank(Some(text)));
            error(
                m,
                text.map_or("The machine reports no error now.", |text| text.as_str()),
            )
        }
        catalog::MACHINE_VERIFICATION_FAILED => verification_failed(m),
        catalog::MACHINE_REPORTED => match newest_report {
            Some((problem, message)) => reported(m.id, problem, message),
            None => event(
                catalog::MACHINE_REPORTED,
                format!("Machine {} was reported by a renter", m.id),
                "No renter report is on file.".to_owned(),
            ),
        },
        catalog::LOW_DISK_SPACE => low_disk(m),
        catalog::NEAR_END_DATE => near_end_date(m),
        catalog::MAINTENANCE_SCHEDULED => {
            let next = m
                .machine_maintenance
                .as_ref()
                .and_then(|windows| windows.windows().first());
            match next {
                Some(w) => maintenance_scheduled(
                    m.id,
                    &w.maintenance_category,
                    w.start_time,
                    w.duration_hours,
                ),
                None => event(
                    catalog::MAINTENANCE_SCHEDULED,
                    format!("Maintenance scheduled on machine {}", m.id),
                    "No maintenance window is scheduled.".to_owned(),
                ),
            }
        }
        _ => return None,
    })
}
