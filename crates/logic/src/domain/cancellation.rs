//! What cancelling maintenance does, in the words every machines page uses for it (the
//! console's `domain::cancellation` sends the cancellations, N5 per machine).

use super::bulk::Sorted;
use crate::components::words::counted;
use gpudeck_wire::{CancelMachineMaintenanceResponse, MaintenanceWindow};

/// What cancelling one machine's windows came to, with its sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cancelled {
    Done(String),
    Refused(String),
    /// Sent, no answer, and the re-read could not tell either.
    Unknown(String),
}

/// One machine's cancellation as said: its answer, its refusal, or when no answer came,
/// what the re-read of the windows shows (`reread`; `None` when it failed too).
pub fn settled(
    machine_id: i64,
    sorted: Sorted<String>,
    reread: Option<&[MaintenanceWindow]>,
) -> Cancelled {
    match (sorted, reread) {
        (Sorted::Done(text), _) => Cancelled::Done(text),
        (Sorted::Refused(why), _) => {
            Cancelled::Refused(format!("Machine {machine_id}: not cancelled: {why}"))
        }
        (Sorted::Unknown(why), None) => Cancelled::Unknown(format!(
            "Machine {machine_id}: {why}; its windows may have been cancelled"
        )),
        (Sorted::Unknown(why), Some(windows)) => {
            let left = windows
                .iter()
                .filter(|w| {
                    w.machine_id == machine_id
                        && !w.scheduled_by_marketplace
                        && w.cancelled_at.is_none()
                })
                .count();
            match left {
                0 => Cancelled::Done(format!(
                    "Machine {machine_id}: {why}, but the re-read shows no window of yours left: cancelled"
                )),
                n => Cancelled::Refused(format!(
                    "Machine {machine_id}: {why}, and the re-read shows {} still there: not cancelled",
                    counted(n as i64, "scheduled window", "scheduled windows")
                )),
            }
        }
    }
}

/// `1 window scheduled by the marketplace stays (only support can cancel it)`, or nothing
/// when `kept` is 0: the windows a cancellation leaves.
pub fn marketplace_windows_stay(kept: i64) -> Option<String> {
    match kept {
        0 => None,
        1 => {
            Some("1 window scheduled by the marketplace stays (only support can cancel it)".into())
        }
        k => Some(format!(
            "{k} windows scheduled by the marketplace stay (only support can cancel them)"
        )),
    }
}

/// What cancelling every window of a machine (N5) did, as a person says it:
/// `Machine 1035: 2 scheduled windows cancelled`, `Machine 1035: no scheduled window to
/// cancel`, and the marketplace's windows that stay. An answer in other words than N5's is
/// shown as it came.
pub fn cancelled_text(machine_id: i64, answer: &CancelMachineMaintenanceResponse) -> String {
    let Some((cancelled, kept)) = answer.counts() else {
        return format!("Machine {machine_id}: {}", answer.msg);
    };
    let done = match cancelled {
        0 => "no scheduled window to cancel".to_owned(),
        n => format!(
            "{} cancelled",
            counted(n, "scheduled window", "scheduled windows")
        ),
    };
    let stays = marketplace_windows_stay(kept)
        .map(|stays| format!("; {stays}"))
        .unwrap_or_default();
    format!("Machine {machine_id}: {done}{stays}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(machine_id: i64, marketplace: bool) -> MaintenanceWindow {
        serde_json::from_value(serde_json::json!({
            "id": machine_id * 10, "machine_id": machine_id, "start_time": 1.9e9,
            "duration_hours": 1, "maintenance_category": "disk", "created_at": 0.0,
            "end_time": 1.9e9 + 3600.0, "scheduled_by_marketplace": marketplace,
        }))
        .unwrap()
    }

    fn lost() -> Sorted<String> {
        Sorted::Unknown(crate::domain::bulk::NO_ANSWER.into())
    }

    #[test]
    fn a_cancellation_with_no_answer_is_said_as_the_reread_shows_it() {
        let reread = [window(1035, false), window(1036, true)];
        assert_eq!(
            settled(1035, lost(), Some(&reread)),
            Cancelled::Refused(
                "Machine 1035: no answer came, and the re-read shows 1 scheduled window still \
                 there: not cancelled"
                    .into()
            )
        );
        // The marketplace's windows stay whatever happened: they do not count.
        assert_eq!(
            settled(1036, lost(), Some(&reread)),
            Cancelled::Done(
                "Machine 1036: no answer came, but the re-read shows no window of yours left: \
                 cancelled"
                    .into()
            )
        );
        assert_eq!(
            settled(1035, lost(), None),
            Cancelled::Unknown(
                "Machine 1035: no answer came; its windows may have been cancelled".into()
            )
        );
        assert_eq!(
            settled(7, Sorted::Refused("No such machine id".into()), None),
            Cancelled::Refused("Machine 7: not cancelled: No such machine id".into())
        );
        assert_eq!(
            settled(
                7,
                Sorted::Done("Machine 7: 1 scheduled window cancelled".into()),
                Some(&reread)
            ),
            Cancelled::Done("Machine 7: 1 scheduled window cancelled".into())
        );
    }

    #[test]
    fn a_machines_cancellation_reads_as_a_person_would_say_it() {
        let answer = |cancelled, kept| CancelMachineMaintenanceResponse {
            success: true,
            ctime: 0.0,
            machine_id: 1035,
            msg: CancelMachineMaintenanceResponse::message(1035, cancelled, kept),
        };
        let text = |cancelled, kept| cancelled_text(1035, &answer(cancelled, kept));
        assert_eq!(text(1, 0), "Machine 1035: 1 scheduled window cancelled");
        assert_eq!(text(2, 0), "Machine 1035: 2 scheduled windows cancelled");
        assert_eq!(text(0, 0), "Machine 1035: no scheduled window to cancel");
        assert_eq!(
            text(1, 1),
            "Machine 1035: 1 scheduled window cancelled; 1 window scheduled by the \
             marketplace stays (only support can cancel it)"
        );
        assert_eq!(
            text(0, 2),
            "Machine 1035: no scheduled window to cancel; 2 windows scheduled by the \
             marketplace stay (only support can cancel them)"
        );
        // Another service's own words are shown as they came.
        let other = CancelMachineMaintenanceResponse {
            msg: "Maintenance cancelled".into(),
            ..answer(0, 0)
        };
        assert_eq!(
            cancelled_text(1035, &other),
            "Machine 1035: Maintenance cancelled"
        );
    }
}
