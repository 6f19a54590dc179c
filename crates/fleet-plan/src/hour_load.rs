//! How much of the cap the planned windows use in each hour of the planner's grid, and
//! the search for the first run of hours with room for one more machine.
//!
//! Every planned window starts on the grid and lasts whole hours, so the load is constant
//! within an hour and a per-hour count is exact.

/// At most this many weight classes keep a skip list of their own (a fleet rarely has
/// more distinct GPU counts; with more, machines share their class with lighter ones).
const MAX_CLASSES: usize = 16;

/// The load per hour; an hour past the end of `used` is empty.
pub(crate) struct HourLoad {
    used: Vec<u64>,
    limit: u64,
    /// Ascending by weight.
    classes: Vec<ClosedHours>,
}

/// The hours with less room than `weight` left: closed for good to every machine at
/// least this heavy, as load only grows. Each closed hour points past itself (a
/// union-find with path compression), so a search skips a full stretch in one step
/// instead of visiting it once per machine.
struct ClosedHours {
    weight: u64,
    next_open: Vec<usize>,
}

impl HourLoad {
    /// `weights`: what the machines to plan will add (any may be missing; the search stays
    /// exact, only slower for them).
    pub fn new(limit: u32, weights: impl IntoIterator<Item = u32>) -> Self {
        let mut distinct: Vec<u32> = weights
            .into_iter()
            .filter(|&weight| weight > 0 && weight <= limit)
            .collect();
        distinct.sort_unstable();
        distinct.dedup();
        let step = distinct.len().div_ceil(MAX_CLASSES).max(1);
        Self {
            used: Vec::new(),
            limit: u64::from(limit),
            classes: distinct
                .iter()
                .step_by(step)
                .map(|&weight| ClosedHours {
                    weight: u64::from(weight),
                    next_open: Vec::new(),
                })
                .collect(),
        }
    }

    /// The first start at or after `from` whose `hours` hours all have room for
    /// `weight`. A weight of 0 fits anywhere.
    pub fn first_run(&mut self, from: usize, hours: usize, weight: u32) -> usize {
        if weight == 0 {
            return from;
        }
        let weight = u64::from(weight);
        let (used, limit) = (&self.used, self.limit);
        let mut skip = self.classes.iter_mut().rev().find(|c| c.weight <= weight);
        let mut open_from = |hour: usize| match skip.as_mut() {
            Some(class) => class.open_from(hour),
            None => hour,
        };
        let mut start = open_from(from);
        let mut hour = start;
        // Past the end of `used` every hour is empty, so the run is complete there.
        while hour < start + hours && hour < used.len() {
            if used[hour] + weight <= limit {
                hour += 1;
            } else {
                start = open_from(hour + 1);
                hour = start;
            }
        }
        start
    }

    /// Counts a window of `hours` from `start` with `weight`.
    pub fn add(&mut self, start: usize, hours: usize, weight: u32) {
        if weight == 0 {
            return;
        }
        let end = start + hours;
        if self.used.len() < end {
            for class in &mut self.classes {
                class.next_open.extend(self.used.len()..end);
            }
            self.used.resize(end, 0);
        }
        for hour in start..end {
            self.used[hour] += u64::from(weight);
            let room = self.limit.saturating_sub(self.used[hour]);
            for class in self.classes.iter_mut().rev() {
                if class.weight <= room {
                    break;
                }
                class.close(hour);
            }
        }
    }
}

impl ClosedHours {
    fn close(&mut self, hour: usize) {
        if self.next_open[hour] == hour {
            self.next_open[hour] = hour + 1;
        }
    }

    /// The first hour at or after `hour` that is not closed.
    fn open_from(&mut self, hour: usize) -> usize {
        let mut open = hour;
        while open < self.next_open.len() && self.next_open[open] != open {
            open = self.next_open[open];
        }
        let mut on_path = hour;
        while on_path < self.next_open.len() && self.next_open[on_path] != on_path {
            on_path = std::mem::replace(&mut self.next_open[on_path], open);
        }
        open
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_starts_after_the_last_hour_without_room() {
        let mut load = HourLoad::new(2, [1]);
        assert_eq!(load.first_run(0, 3, 1), 0);
        load.add(0, 3, 1);
        load.add(1, 3, 1); // hours 1 and 2 are full, hour 3 has one place
        assert_eq!(load.first_run(0, 1, 1), 0);
        assert_eq!(load.first_run(0, 2, 1), 3);
        assert_eq!(load.first_run(5, 2, 1), 5);
        assert_eq!(load.first_run(0, 2, 0), 0);
    }

    #[test]
    fn a_heavy_machine_needs_more_room_than_a_light_one() {
        let mut load = HourLoad::new(8, [2, 8]);
        load.add(0, 2, 4);
        assert_eq!(load.first_run(0, 2, 4), 0);
        assert_eq!(load.first_run(0, 2, 8), 2);
        // Weights without a class of their own are searched hour by hour.
        assert_eq!(load.first_run(0, 2, 5), 2);
        assert_eq!(load.first_run(0, 2, 1), 0);
        load.add(0, 2, 4);
        assert_eq!(load.first_run(0, 1, 2), 2);
    }

    #[test]
    fn closed_hours_are_skipped_in_one_step_and_stay_skipped() {
        let mut load = HourLoad::new(9, [1, 8]);
        for hour in 0..1000 {
            load.add(hour, 1, 2);
        }
        // 7 left in each hour: closed to 8 GPUs, open to 1.
        assert_eq!(load.first_run(0, 4, 8), 1000);
        assert_eq!(load.classes[1].next_open[0], 1000);
        assert_eq!(load.classes[0].next_open[0], 0);
        assert_eq!(load.first_run(500, 1, 8), 1000);
        assert_eq!(load.first_run(500, 1, 7), 500);
    }

    #[test]
    fn many_distinct_weights_share_at_most_sixteen_classes() {
        let load = HourLoad::new(100, 1..=100);
        let weights: Vec<u64> = load.classes.iter().map(|c| c.weight).collect();
        assert_eq!(weights.len(), 15);
        assert_eq!(weights[..3], [1, 8, 15]);
    }
}
