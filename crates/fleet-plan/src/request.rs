//! What a plan is asked for: the machines, the range, the duration and the cap.

use gpudeck_wire::maintenance::{MAX_DURATION_HOURS, MAX_LEAD_SECONDS};
use gpudeck_wire::{MaintenanceCategory, MaintenanceWindow};

/// Seconds in an hour: windows last whole hours (N3 stores `floor(duration)`).
pub const HOUR: i64 = 3600;
/// How far after the earliest start a window may begin. The server refuses a start more
/// than a year after now (N3), and the earliest start is after now, so a later start
/// could never be sent; this also bounds the planner's work and memory.
pub const MAX_LEAD: i64 = MAX_LEAD_SECONDS as i64;
/// The longest window, in hours (N3).
pub const MAX_HOURS: u32 = MAX_DURATION_HOURS as u32;

/// A half-open span of time `[start, end)` in Unix seconds: spans that only touch do not
/// overlap, as a window ending at 14:00 and one starting at 14:00 share no instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    pub fn new(start: i64, end: i64) -> Self {
        Self { start, end }
    }

    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// The spans share an instant.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// The whole seconds an active window covers (its start rounded down, its end up, so
    /// a fractional window is never under-counted); `None` for a cancelled one.
    pub fn of_window(window: &MaintenanceWindow) -> Option<Span> {
        window.cancelled_at.is_none().then(|| {
            Span::new(
                window.start_time.floor() as i64,
                window.end_time.ceil() as i64,
            )
        })
    }
}

/// Where the order policy puts a machine regardless of its rentals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pin {
    /// Before every unpinned machine (e.g. the one whose fan is failing).
    First,
    #[default]
    Unpinned,
    /// After every unpinned machine (e.g. a customer's favourite).
    Last,
}

/// One machine to take down: what the order policy and the cap read, the windows it
/// already has (a new window must not overlap them) and the time before which its window
/// may not start.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MachineToPlan {
    pub id: i64,
    pub gpus: u32,
    pub running_rentals: u32,
    pub reserved_gpus: u32,
    /// Existing windows, in any order; empty or inverted spans are ignored.
    pub existing: Vec<Span>,
    pub pin: Pin,
    /// Unix seconds before which this machine's window may not start; `None` for no such
    /// time. A contract-safe plan sets it to the machine's client end date, so no window
    /// starts while a rental contract still runs.
    pub not_before: Option<i64>,
}

impl MachineToPlan {
    /// A window of this machine may start at `start`: not before its `not_before` time.
    pub fn may_start_at(&self, start: i64) -> bool {
        self.not_before.is_none_or(|time| start >= time)
    }
}

/// How much of the fleet may be down at any instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cap {
    Machines(u32),
    Gpus(u32),
}

impl Cap {
    /// What one machine with `gpus` GPUs counts against the cap.
    pub fn weight(self, gpus: u32) -> u32 {
        match self {
            Cap::Machines(_) => 1,
            Cap::Gpus(_) => gpus,
        }
    }

    pub fn limit(self) -> u32 {
        match self {
            Cap::Machines(limit) | Cap::Gpus(limit) => limit,
        }
    }
}

/// Everything a plan depends on; the same request always gives the same plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRequest {
    pub machines: Vec<MachineToPlan>,
    /// No window starts before this (Unix seconds). It also sets the grid the planner's
    /// starts lie on: this instant plus whole hours, so an earliest start on the hour
    /// gives starts on the hour.
    pub earliest_start: i64,
    /// Every window ends at or before this (Unix seconds).
    pub deadline: i64,
    /// The length of every machine's window, 1 to 8760.
    pub duration_hours: u32,
    pub cap: Cap,
    /// Not read by the planner; carried to the plan for the batches it becomes.
    pub category: MaintenanceCategory,
}

impl PlanRequest {
    /// The window of a machine starting at `start`.
    pub fn window_from(&self, start: i64) -> Span {
        Span::new(start, start.saturating_add(self.length()))
    }

    pub fn duration_is_valid(&self) -> bool {
        (1..=MAX_HOURS).contains(&self.duration_hours)
    }

    /// The latest start whose window ends by the deadline, and at most [`MAX_LEAD`]
    /// after the earliest start; below the earliest start when no window fits.
    pub fn latest_start(&self) -> i64 {
        self.deadline
            .saturating_sub(self.length())
            .min(self.earliest_start.saturating_add(MAX_LEAD))
    }

    /// The window lies where the request allows it.
    pub fn is_in_range(&self, window: Span) -> bool {
        window.start >= self.earliest_start && window.start <= self.latest_start()
    }

    fn length(&self) -> i64 {
        i64::from(self.duration_hours) * HOUR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(earliest_start: i64, deadline: i64, duration_hours: u32) -> PlanRequest {
        PlanRequest {
            machines: Vec::new(),
            earliest_start,
            deadline,
            duration_hours,
            cap: Cap::Machines(1),
            category: MaintenanceCategory::Other,
        }
    }

    #[test]
    fn touching_spans_do_not_overlap() {
        let window = Span::new(10, 20);
        assert!(!window.overlaps(&Span::new(20, 30)));
        assert!(!window.overlaps(&Span::new(0, 10)));
        assert!(window.overlaps(&Span::new(19, 30)));
        assert!(window.overlaps(&Span::new(12, 13)));
        assert!(Span::new(5, 5).is_empty());
    }

    #[test]
    fn a_window_ends_by_the_deadline_and_starts_within_a_year() {
        let near = request(0, 10 * HOUR, 4);
        assert_eq!(near.latest_start(), 6 * HOUR);
        assert!(near.is_in_range(near.window_from(6 * HOUR)));
        assert!(!near.is_in_range(near.window_from(6 * HOUR + 1)));
        assert!(!near.is_in_range(near.window_from(-1)));
        let far = request(100, 3 * MAX_LEAD, 4);
        assert_eq!(far.latest_start(), 100 + MAX_LEAD);
        assert!(request(0, 3 * HOUR, 4).latest_start() < 0);
    }

    #[test]
    fn the_duration_is_one_to_8760_hours() {
        assert!(!request(0, 1, 0).duration_is_valid());
        assert!(request(0, 1, 1).duration_is_valid());
        assert!(request(0, 1, 8760).duration_is_valid());
        assert!(!request(0, 1, 8761).duration_is_valid());
    }

    #[test]
    fn a_cancelled_window_covers_nothing_and_fractions_round_outwards() {
        let mut window = MaintenanceWindow {
            id: 1,
            machine_id: 7,
            start_time: 1000.5,
            duration_hours: 1,
            maintenance_category: MaintenanceCategory::Power,
            maintenance_reason: None,
            created_at: 0.0,
            cancelled_at: None,
            end_time: 4600.5,
            scheduled_by_marketplace: false,
        };
        assert_eq!(Span::of_window(&window), Some(Span::new(1000, 4601)));
        window.cancelled_at = Some(2000.0);
        assert_eq!(Span::of_window(&window), None);
    }
}
