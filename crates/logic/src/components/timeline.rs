//! The maintenance timeline's geometry: the span of time and the lanes it shows, the lanes
//! in view, and where to scroll to show a preview.

use super::data_table::windowing::visible_range;
use gpudeck_wire::maintenance::HOUR;
use gpudeck_wire::MaintenanceWindow;

/// Width of the machine-label column, px.
pub const LABEL_WIDTH: f64 = 72.0;

/// Narrowest the chart is drawn, px: about ten tick labels fit without touching.
pub const MIN_CHART_PX: f64 = 880.0;

pub const LANE_HEIGHT: f64 = 16.0;

/// Lanes rendered above and below those in view.
pub const LANE_OVERSCAN: usize = 4;

/// The scroll box's height until it is measured: its CSS cap, 28rem.
pub const VIEW_HEIGHT_GUESS: f64 = 448.0;

/// Two rows above the lanes: tick labels, then the "now" label, so they never overlap.
pub const AXIS_HEIGHT: f64 = 36.0;

pub const TICK_LABEL_Y: f64 = 13.0;

pub const NOW_LABEL_Y: f64 = 28.0;

pub const TICK_STEPS_HOURS: [f64; 9] = [1.0, 3.0, 6.0, 12.0, 24.0, 48.0, 96.0, 168.0, 336.0];

/// Placement of the chart: the span of time it shows and the machines in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub from: f64,
    pub to: f64,
    pub machines: Vec<i64>,
}

impl Layout {
    /// Spans every window and now, with a little room at each end.
    pub fn of(windows: &[MaintenanceWindow], now: f64) -> Self {
        let mut machines: Vec<i64> = windows.iter().map(|w| w.machine_id).collect();
        machines.sort_unstable();
        machines.dedup();
        let from = windows.iter().map(|w| w.start_time).fold(now, f64::min);
        let to = windows
            .iter()
            .map(|w| w.end_time)
            .fold(now + HOUR, f64::max);
        let pad = (to - from) * 0.02;
        Layout {
            from: from - pad,
            to: to + pad,
            machines,
        }
    }

    /// Where time `t` sits, in percent of the chart's width.
    pub fn x(&self, t: f64) -> f64 {
        (t - self.from) / (self.to - self.from) * 100.0
    }

    /// Where `window`'s bar goes: its start and length in percent of the chart's width and
    /// the top of its lane in pixels; `None` when its machine has no lane.
    pub fn bar_of(&self, window: &MaintenanceWindow) -> Option<(f64, f64, f64)> {
        let lane = self.lane_of(window.machine_id)?;
        let x = self.x(window.start_time);
        let width = (self.x(window.end_time) - x).max(0.2);
        Some((x, width, AXIS_HEIGHT + lane as f64 * LANE_HEIGHT))
    }

    pub fn lane_of(&self, machine: i64) -> Option<usize> {
        self.machines.binary_search(&machine).ok()
    }

    pub fn height(&self) -> f64 {
        AXIS_HEIGHT + self.machines.len() as f64 * LANE_HEIGHT
    }

    /// Evenly spaced tick times, at most about ten.
    pub fn ticks(&self) -> Vec<f64> {
        let span_hours = (self.to - self.from) / HOUR;
        let step = TICK_STEPS_HOURS
            .into_iter()
            .find(|s| span_hours / s <= 10.0)
            .unwrap_or(672.0)
            * HOUR;
        let mut t = (self.from / step).ceil() * step;
        let mut out = Vec::new();
        while t <= self.to {
            out.push(t);
            t += step;
        }
        out
    }
}

/// The lanes `first..last` of `lane_count` that are in view, and a margin, in a scroll box
/// scrolled to `scroll_top` and `view_height` tall (the axis rows come first).
pub fn lanes_in_view(scroll_top: f64, view_height: f64, lane_count: usize) -> (usize, usize) {
    visible_range(
        scroll_top - AXIS_HEIGHT,
        view_height,
        lane_count,
        LANE_HEIGHT,
        LANE_OVERSCAN,
    )
}

/// For each lane of `layout`, the indices in `windows` of the windows drawn in it.
pub fn windows_by_lane(layout: &Layout, windows: &[MaintenanceWindow]) -> Vec<Vec<usize>> {
    let mut lanes = vec![Vec::new(); layout.machines.len()];
    for (index, window) in windows.iter().enumerate() {
        if let Some(lane) = layout.lane_of(window.machine_id) {
            lanes[lane].push(index);
        }
    }
    lanes
}

/// The time the preview windows span, in percent of the chart's width.
pub fn preview_span(layout: &Layout, preview: &[MaintenanceWindow]) -> Option<(f64, f64)> {
    let from = preview
        .iter()
        .map(|w| layout.x(w.start_time))
        .reduce(f64::min)?;
    let to = preview
        .iter()
        .map(|w| layout.x(w.end_time))
        .reduce(f64::max)?;
    Some((from, to))
}

/// Where to scroll a chart `chart` px wide, of which `shown` px are in view from `left`, so
/// that `span` (percent of the chart) is in view: centred when it fits, else from its
/// start; `None` when it is in view already.
pub fn scroll_to_show(span: (f64, f64), chart: f64, shown: f64, left: f64) -> Option<f64> {
    let (from, to) = (span.0 / 100.0 * chart, span.1 / 100.0 * chart);
    if shown >= chart || (from >= left && to <= left + shown) {
        return None;
    }
    let wanted = if to - from <= shown {
        (from + to - shown) / 2.0
    } else {
        from
    };
    Some(wanted.clamp(0.0, chart - shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpudeck_wire::MaintenanceCategory;

    fn window(id: i64, machine_id: i64) -> MaintenanceWindow {
        MaintenanceWindow {
            id,
            machine_id,
            start_time: 1_800_000_000.0,
            duration_hours: 1,
            maintenance_category: MaintenanceCategory::Disk,
            maintenance_reason: None,
            created_at: 1_799_000_000.0,
            cancelled_at: None,
            end_time: 1_800_003_600.0,
            scheduled_by_marketplace: false,
        }
    }

    #[test]
    fn the_lanes_in_view_follow_the_scroll_below_the_axis() {
        // At the top a 448 px box is counted as 28 lanes tall (the axis rows over-count it
        // a little, which is harmless), and 4 more are drawn below.
        assert_eq!(lanes_in_view(0.0, 448.0, 1000), (0, 32));
        // Scrolled to lane 500: 4 lanes above it too.
        assert_eq!(
            lanes_in_view(AXIS_HEIGHT + 500.0 * LANE_HEIGHT, 448.0, 1000),
            (496, 532)
        );
        // At the bottom the window stops at the last lane; few lanes are all drawn.
        assert_eq!(
            lanes_in_view(AXIS_HEIGHT + 990.0 * LANE_HEIGHT, 448.0, 1000),
            (986, 1000)
        );
        assert_eq!(lanes_in_view(0.0, 448.0, 12), (0, 12));
    }

    #[test]
    fn a_preview_out_of_view_is_scrolled_to_the_middle_or_its_start() {
        // 880 px of chart, 290 px in view: a span at 50–55 % (440–484 px) is centred.
        assert_eq!(scroll_to_show((50.0, 55.0), 880.0, 290.0, 0.0), Some(317.0));
        // Near the end it is scrolled as far as the chart goes, and the span is in view.
        let to = scroll_to_show((90.0, 98.0), 880.0, 290.0, 0.0).unwrap();
        assert_eq!(to, 590.0);
        assert!(to <= 792.0 && 862.4 <= to + 290.0);
        // Never past the end, and not at all when it is in view or the chart fits.
        assert_eq!(scroll_to_show((97.0, 99.9), 880.0, 290.0, 0.0), Some(590.0));
        assert_eq!(scroll_to_show((10.0, 20.0), 880.0, 290.0, 0.0), None);
        assert_eq!(scroll_to_show((90.0, 98.0), 880.0, 900.0, 0.0), None);
        // Wider than the view: from its start.
        assert_eq!(scroll_to_show((20.0, 80.0), 880.0, 290.0, 0.0), Some(176.0));
    }

    #[test]
    fn each_lane_gets_its_machines_windows_in_their_order() {
        let windows = vec![window(1, 7), window(2, 3), window(3, 7), window(4, 5)];
        let layout = Layout::of(&windows, 1_800_000_000.0);
        assert_eq!(layout.machines, [3, 5, 7]);
        assert_eq!(
            windows_by_lane(&layout, &windows),
            vec![vec![1], vec![3], vec![0, 2]]
        );
        // A window of a machine without a lane (not in this layout) is left out.
        let other = Layout {
            machines: vec![5],
            ..layout
        };
        assert_eq!(windows_by_lane(&other, &windows), vec![vec![3]]);
    }
}
