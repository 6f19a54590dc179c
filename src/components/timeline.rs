//! The maintenance timeline: one lane per machine, one bar per window coloured by
//! category, a line at "now". Readable at 100 machines (the chart scrolls, lanes stay
//! 16 px); the SVG carries a summary for screen readers, and the table beside it is the
//! full text alternative.
//!
//! The chart stretches to the width it is given (never under [`MIN_CHART_PX`], below which
//! it scrolls sideways) without distorting its text: times are placed in percent of the
//! chart's width, heights in pixels. The machine labels are a separate column that stays
//! in view while the chart scrolls.

use super::time::{format_absolute, format_span, use_utc};
use gpudeck_wire::MaintenanceWindow;
use leptos::prelude::*;

/// Width of the machine-label column, px.
const LABEL_WIDTH: f64 = 72.0;
/// Narrowest the chart is drawn, px: about ten tick labels fit without touching.
pub const MIN_CHART_PX: f64 = 880.0;
const LANE_HEIGHT: f64 = 16.0;
/// Two rows above the lanes: tick labels, then the "now" label, so they never overlap.
const AXIS_HEIGHT: f64 = 36.0;
const TICK_LABEL_Y: f64 = 13.0;
const NOW_LABEL_Y: f64 = 28.0;
const HOUR: f64 = 3600.0;
const TICK_STEPS_HOURS: [f64; 9] = [1.0, 3.0, 6.0, 12.0, 24.0, 48.0, 96.0, 168.0, 336.0];

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

/// The category's CSS class, e.g. `cat-gpu`; unknown categories share `cat-unknown`.
pub fn category_class(window: &MaintenanceWindow) -> String {
    match window.maintenance_category {
        gpudeck_wire::MaintenanceCategory::Unrecognised(_) => "cat-unknown".into(),
        ref known => format!("cat-{}", known.as_str()),
    }
}

/// Text of a bar's tooltip.
pub fn bar_label(window: &MaintenanceWindow, utc: bool) -> String {
    let reason = window
        .maintenance_reason
        .as_deref()
        .map(|r| format!(" · {r}"))
        .unwrap_or_default();
    format!(
        "Machine {} · {} · {} → {} ({}){reason}",
        window.machine_id,
        window.maintenance_category.label(),
        format_absolute(window.start_time, utc),
        format_absolute(window.end_time, utc),
        format_span(window.end_time - window.start_time),
    )
}

#[component]
pub fn MaintenanceTimeline(
    #[prop(into)] windows: Signal<Vec<MaintenanceWindow>>,
    #[prop(into)] now: Signal<f64>,
) -> impl IntoView {
    let utc = use_utc();
    // The scale follows now by the hour, not by each clock tick: a tick then moves only the
    // "now" line instead of redrawing every bar (10,000 of them at 1,000 machines).
    let scale_now = Memo::new(move |_| (now.get() / HOUR).floor() * HOUR);
    let layout = Memo::new(move |_| windows.with(|w| Layout::of(w, scale_now.get())));
    let summary = move || {
        let (count, ongoing) = windows.with(|w| {
            let now = now.get();
            (
                w.len(),
                w.iter()
                    .filter(|w| w.start_time <= now && now < w.end_time)
                    .count(),
            )
        });
        let l = layout.get();
        format!(
            "{count} active maintenance windows on {} machines, from {} to {}; {ongoing} ongoing now.",
            l.machines.len(),
            format_absolute(l.from, utc.get()),
            format_absolute(l.to, utc.get()),
        )
    };
    let lane_tops = move || {
        let count = layout.with(|l| l.machines.len());
        (0..count).map(|lane| AXIS_HEIGHT + lane as f64 * LANE_HEIGHT)
    };
    let lane_backgrounds = move || {
        lane_tops()
            .map(|y| view! { <rect class="lane-bg" x="0" y=y width="100%" height=LANE_HEIGHT></rect> })
            .collect_view()
    };
    let lane_labels = move || {
        layout
            .get()
            .machines
            .into_iter()
            .zip(lane_tops())
            .map(|(machine, y)| {
                view! {
                    <rect class="lane-bg" x="0" y=y width=LABEL_WIDTH height=LANE_HEIGHT></rect>
                    <text class="lane-label" x="4" y=y + LANE_HEIGHT - 4.0>{machine.to_string()}</text>
                }
            })
            .collect_view()
    };
    let ticks = move || {
        let l = layout.get();
        let bottom = l.height();
        l.ticks()
            .into_iter()
            .map(|t| {
                let x = percent(l.x(t));
                view! {
                    <g class="tick">
                        <line x1=x.clone() x2=x.clone() y1=TICK_LABEL_Y + 3.0 y2=bottom></line>
                        <text x=x dx="2" y=TICK_LABEL_Y>{format_absolute(t, utc.get())[5..].to_owned()}</text>
                    </g>
                }
            })
            .collect_view()
    };
    let bars = move || {
        let l = layout.get();
        let utc = utc.get();
        windows.with(|windows| {
            windows
                .iter()
                .filter_map(|w| {
                    let lane = l.lane_of(w.machine_id)?;
                    let x = l.x(w.start_time);
                    let width = (l.x(w.end_time) - x).max(0.2);
                    let y = AXIS_HEIGHT + lane as f64 * LANE_HEIGHT + 2.0;
                    Some(view! {
                        <rect
                            class=format!("bar {}", category_class(w))
                            data-window-id=w.id
                            x=percent(x)
                            y=y
                            width=percent(width)
                            height=LANE_HEIGHT - 4.0
                            rx="2"
                        >
                            <title>{bar_label(w, utc)}</title>
                        </rect>
                    })
                })
                .collect_view()
        })
    };
    let now_x = move || layout.get().x(now.get());
    // Near the right edge the label goes to the left of the line, so it is not cut off.
    let now_label_anchor = move || if now_x() > 90.0 { "end" } else { "start" };
    let now_label_dx = move || if now_x() > 90.0 { "-3" } else { "3" };
    let height = move || layout.get().height();
    view! {
        <figure class="timeline">
            // Focusable, so keyboard users can scroll it too.
            <div class="timeline-scroll" tabindex="0" role="region" aria-label="Maintenance timeline, scrollable">
                <div class="timeline-body">
                    <svg class="timeline-labels" aria-hidden="true" width=LABEL_WIDTH height=height>
                        {lane_labels}
                    </svg>
                    <svg
                        class="timeline-chart"
                        role="img"
                        aria-labelledby="timeline-title timeline-desc"
                        width="100%"
                        height=height
                        style:min-width=format!("{MIN_CHART_PX}px")
                    >
                        <title id="timeline-title">"Maintenance timeline"</title>
                        <desc id="timeline-desc">{summary}</desc>
                        {lane_backgrounds}
                        {ticks}
                        {bars}
                        <line class="now-line" x1=move || percent(now_x()) x2=move || percent(now_x()) y1=NOW_LABEL_Y + 3.0 y2=height></line>
                        <text
                            class="now-label"
                            x=move || percent(now_x())
                            dx=now_label_dx
                            y=NOW_LABEL_Y
                            text-anchor=now_label_anchor
                        >
                            "now"
                        </text>
                    </svg>
                </div>
            </div>
            <figcaption>{summary}</figcaption>
        </figure>
    }
}

/// An SVG length in percent of the chart's width.
fn percent(value: f64) -> String {
    format!("{value:.3}%")
}
