//! Builders for the unit tests.

use crate::request::{Cap, MachineToPlan, Pin, PlanRequest, Span, HOUR};
use gpudeck_wire::MaintenanceCategory;

/// An earliest start on the hour.
pub const T0: i64 = 1_800_000_000 / HOUR * HOUR;

pub fn machine(id: i64, gpus: u32, running_rentals: u32) -> MachineToPlan {
    MachineToPlan {
        id,
        gpus,
        running_rentals,
        reserved_gpus: 0,
        existing: Vec::new(),
        pin: Pin::Unpinned,
        not_before: None,
    }
}

/// A machine with windows at hours (from [`T0`]) `[start, end)`.
pub fn busy(id: i64, hours: &[(i64, i64)]) -> MachineToPlan {
    MachineToPlan {
        existing: hours
            .iter()
            .map(|&(start, end)| Span::new(T0 + start * HOUR, T0 + end * HOUR))
            .collect(),
        ..machine(id, 1, 0)
    }
}

/// From [`T0`] to `deadline_hours` later.
pub fn request(
    machines: Vec<MachineToPlan>,
    duration_hours: u32,
    cap: Cap,
    deadline_hours: i64,
) -> PlanRequest {
    PlanRequest {
        machines,
        earliest_start: T0,
        deadline: T0 + deadline_hours * HOUR,
        duration_hours,
        cap,
        category: MaintenanceCategory::Software,
    }
}
