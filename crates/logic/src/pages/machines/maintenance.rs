//! Where a maintenance window stands, as the maintenance page says it.

use gpudeck_wire::MaintenanceWindow;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Upcoming,
    Ongoing,
}

impl Status {
    /// Active windows only come in two kinds; finished ones are not listed.
    pub fn of(window: &MaintenanceWindow, now: f64) -> Status {
        Status::of_times(window.start_time, now)
    }

    pub fn of_times(start: f64, now: f64) -> Status {
        if now < start {
            Status::Upcoming
        } else {
            Status::Ongoing
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Status::Upcoming => "Upcoming",
            Status::Ongoing => "Ongoing",
        }
    }

    pub fn param(self) -> &'static str {
        match self {
            Status::Upcoming => "upcoming",
            Status::Ongoing => "ongoing",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Status;

    #[test]
    fn a_window_is_upcoming_until_it_starts_then_ongoing() {
        let start = 1_800_000_000.0;
        assert_eq!(Status::of_times(start, start - 1.0), Status::Upcoming);
        assert_eq!(Status::of_times(start, start), Status::Ongoing);
        assert_eq!(Status::of_times(start, start + 3600.0), Status::Ongoing);
        assert_eq!(Status::Upcoming.label(), "Upcoming");
        assert_eq!(Status::Ongoing.param(), "ongoing");
    }
}
