//! What cancelling maintenance does, in the words every machines page uses for it.

use crate::components::words::counted;
use gpudeck_wire::CancelMachineMaintenanceResponse;

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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

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
