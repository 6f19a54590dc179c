//! The maintenance timeline: one lane per machine, one bar per window coloured by
//! category, a line at "now". Readable at 100 machines (the chart scrolls, lanes stay
//! 16 px); the SVG carries a summary for screen readers, and the table beside it is the
//! full text alternative.
//!
//! The chart stretches to the width it is given (never under [`MIN_CHART_PX`], below which
//! it scrolls sideways) without distorting its text: times are placed in percent of the
//! chart's width, heights in pixels. The machine labels are a separate column that stays
//! in view while the chart scrolls.
//!
//! Lanes are windowed like the data table's rows: the drawing keeps its full height, but
//! only the lanes in the scroll box's view, and [`LANE_OVERSCAN`] more either side, are in
//! the DOM (10,000 bars at 1,000 machines would otherwise be). Tabbing to a bar in the
//! overscan scrolls it into view, which brings the next lanes in, so every bar stays within
//! keyboard reach.
//!
//! The parts: [`MaintenanceTimeline`] lays the chart out and windows its lanes;
//! [`LaneScroll`] follows the scroll box; [`window_bar`] draws one window, [`PreviewBars`]
//! the windows not yet scheduled, [`TimelineTicks`] the time axis and [`NowMarker`] the line
//! at now; [`timeline_summary`] is the sentence for screen readers and the caption.

use super::time::{format_absolute, format_span, use_utc};
pub use gpudeck_logic::components::timeline::*;
use gpudeck_wire::maintenance::HOUR;
use gpudeck_wire::MaintenanceWindow;
use leptos::attr::Attribute;
use leptos::prelude::*;
use std::sync::Arc;

/// The stored value of a known category (`gpu`), for URLs and form values; any other is
/// `other`.
pub fn category_key(category: &gpudeck_wire::MaintenanceCategory) -> &'static str {
    use gpudeck_wire::MaintenanceCategory::*;
    match category {
        Power => "power",
        Internet => "internet",
        Disk => "disk",
        Gpu => "gpu",
        Software => "software",
        _ => "other",
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

/// The chart's scroll box and what is read from it on each scroll and resize: which lanes
/// are in view, and how wide the box is.
#[derive(Clone, Copy)]
struct LaneScroll {
    scroll_box: NodeRef<leptos::html::Div>,
    scroll_top: RwSignal<f64>,
    view_height: RwSignal<f64>,
    view_width: RwSignal<f64>,
}

impl LaneScroll {
    /// Starts following the window's size; the scroll itself is read by the box's handler.
    fn new() -> Self {
        let scroll = LaneScroll {
            scroll_box: NodeRef::new(),
            scroll_top: RwSignal::new(0.0),
            view_height: RwSignal::new(VIEW_HEIGHT_GUESS),
            view_width: RwSignal::new(0.0),
        };
        let on_resize = window_event_listener(leptos::ev::resize, move |_| {
            if let Some(scroller) = scroll.scroll_box.get_untracked() {
                scroll.view_height.set(scroller.client_height() as f64);
                scroll.view_width.set(scroller.client_width() as f64);
            }
        });
        on_cleanup(move || on_resize.remove());
        scroll
    }

    fn on_scroll(self, target: &web_sys::Element) {
        self.scroll_top.set(target.scroll_top() as f64);
        self.view_height.set(target.client_height() as f64);
    }

    /// Where the chart scrolls sideways (a phone), the new windows, later than the rest as
    /// a rule, would be out of view to the right: they are brought into view whenever they
    /// change or the box is resized.
    fn keep_preview_in_view(self, layout: Memo<Layout>, preview: Signal<Vec<MaintenanceWindow>>) {
        Effect::new(move |_| {
            self.view_width.track();
            let Some(scroller) = self.scroll_box.get() else {
                return;
            };
            let Some(span) = preview.with(|p| layout.with(|l| preview_span(l, p))) else {
                return;
            };
            let chart = scroller.scroll_width() as f64 - LABEL_WIDTH;
            let shown = scroller.client_width() as f64 - LABEL_WIDTH;
            let left = scroller.scroll_left() as f64;
            if let Some(to) = scroll_to_show(span, chart, shown, left) {
                scroller.set_scroll_left(to.round() as i32);
            }
        });
    }
}

#[component]
pub fn MaintenanceTimeline(
    #[prop(into)] windows: Signal<Vec<MaintenanceWindow>>,
    #[prop(into)] now: Signal<f64>,
    /// Windows not yet scheduled, drawn in their own style (hatched outline) over the rest.
    #[prop(optional, into)]
    preview: Option<Signal<Vec<MaintenanceWindow>>>,
    /// Makes each bar a button (focusable, Enter or Space or a click) that hands its window
    /// to the page, e.g. to cancel it.
    #[prop(optional, into)]
    on_pick: Option<Callback<MaintenanceWindow>>,
) -> impl IntoView {
    let utc = use_utc();
    // The scale follows now by the hour, not by each clock tick: a tick then moves only the
    // "now" line instead of redrawing every bar (10,000 of them at 1,000 machines).
    let scale_now = Memo::new(move |_| (now.get() / HOUR).floor() * HOUR);
    let preview = preview.unwrap_or_else(|| Signal::stored(Vec::new()));
    let layout = Memo::new(move |_| {
        windows.with(|w| {
            preview.with(|p| {
                if p.is_empty() {
                    Layout::of(w, scale_now.get())
                } else {
                    let all: Vec<MaintenanceWindow> = w.iter().chain(p.iter()).cloned().collect();
                    Layout::of(&all, scale_now.get())
                }
            })
        })
    });
    let summary = move || {
        let (now, utc) = (now.get(), utc.get());
        let previewed = preview.with(Vec::len);
        windows.with(|w| layout.with(|l| timeline_summary(w, now, l, previewed, utc)))
    };
    let scroll = LaneScroll::new();
    scroll.keep_preview_in_view(layout, preview);
    let shown_lanes = Memo::new(move |_| {
        let count = layout.with(|l| l.machines.len());
        lanes_in_view(scroll.scroll_top.get(), scroll.view_height.get(), count)
    });
    let lanes =
        Memo::new(move |_| Arc::new(layout.with(|l| windows.with(|w| windows_by_lane(l, w)))));
    // Bumped whenever what a lane shows may change, so the lanes are drawn anew; scrolling
    // alone keeps the lanes that stay in view.
    let drawing = Memo::new(move |previous: Option<&u64>| {
        lanes.track();
        layout.track();
        utc.track();
        previous.map_or(0, |n| n + 1)
    });
    let lane_keys = move || {
        let (first, last) = shown_lanes.get();
        let drawing = drawing.get();
        (first..last)
            .map(|lane| (lane, drawing))
            .collect::<Vec<_>>()
    };
    let lane_label = move |(lane, _): (usize, u64)| {
        let machine = layout.with_untracked(|l| l.machines[lane]);
        let y = lane_top(lane);
        view! {
            <rect
                class="lane-bg"
                class:odd=lane % 2 == 0
                x="0"
                y=y
                width=LABEL_WIDTH
                height=LANE_HEIGHT
            ></rect>
            <text class="lane-label" x="4" y=y + LANE_HEIGHT - 4.0>
                {machine.to_string()}
            </text>
        }
    };
    // A lane's bars, in one group so the lane comes and goes as a whole.
    let lane_bars = move |(lane, _): (usize, u64)| {
        let utc = utc.get_untracked();
        let bars = layout.with_untracked(|l| {
            windows.with_untracked(|all| {
                lanes.with_untracked(|lanes| {
                    lanes[lane]
                        .iter()
                        .filter_map(|&index| window_bar(&all[index], l, utc, windows, on_pick))
                        .collect_view()
                })
            })
        });
        view! { <g class="lane">{bars}</g> }
    };
    let height = move || layout.get().height();
    view! {
        <figure class="timeline">
            // Focusable, so keyboard users can scroll it too.
            <div
                class="timeline-scroll"
                tabindex="0"
                role="region"
                aria-label="Maintenance timeline, scrollable"
                node_ref=scroll.scroll_box
                on:scroll=move |ev| scroll.on_scroll(&event_target(&ev))
            >
                <div class="timeline-body">
                    <svg class="timeline-labels" aria-hidden="true" width=LABEL_WIDTH height=height>
                        <For each=lane_keys key=|k| *k children=lane_label />
                    </svg>
                    <svg
                        class="timeline-chart"
                        role=if on_pick.is_some() { "group" } else { "img" }
                        aria-labelledby="timeline-title timeline-desc"
                        width="100%"
                        height=height
                        style:min-width=format!("{MIN_CHART_PX}px")
                    >
                        <title id="timeline-title">"Maintenance timeline"</title>
                        <desc id="timeline-desc">{summary}</desc>
                        <For each=lane_keys key=|k| *k children=lane_background />
                        <TimelineTicks layout=layout />
                        <For each=lane_keys key=|k| *k children=lane_bars />
                        <PreviewBars layout=layout preview=preview shown_lanes=shown_lanes />
                        <NowMarker layout=layout now=now />
                    </svg>
                </div>
            </div>
            <figcaption>{summary}</figcaption>
        </figure>
    }
}

/// The top of `lane`, px.
fn lane_top(lane: usize) -> f64 {
    AXIS_HEIGHT + lane as f64 * LANE_HEIGHT
}

/// A lane's background stripe, every other one shaded.
fn lane_background((lane, _): (usize, u64)) -> impl IntoView {
    view! {
        <rect
            class="lane-bg"
            class:odd=lane % 2 == 0
            x="0"
            y=lane_top(lane)
            width="100%"
            height=LANE_HEIGHT
        ></rect>
    }
}

/// What the chart shows, in words: for screen readers (the SVG's description) and as the
/// caption.
pub fn timeline_summary(
    windows: &[MaintenanceWindow],
    now: f64,
    layout: &Layout,
    previewed: usize,
    utc: bool,
) -> String {
    let count = windows.len();
    let ongoing = windows
        .iter()
        .filter(|w| w.start_time <= now && now < w.end_time)
        .count();
    let new_ones = match previewed {
        0 => String::new(),
        1 => " Previewed: 1 new window (outlined).".to_owned(),
        n => format!(" Previewed: {n} new windows (outlined)."),
    };
    format!(
        "{count} active maintenance windows on {} machines, from {} to {}; {ongoing} ongoing now.{new_ones}",
        layout.machines.len(),
        format_absolute(layout.from, utc),
        format_absolute(layout.to, utc),
    )
}

/// One window's bar, a button when the page can pick windows (`on_pick`); `None` when its
/// machine has no lane. Only the id is kept per bar: the window is looked up in `all` when
/// picked.
fn window_bar(
    window: &MaintenanceWindow,
    layout: &Layout,
    utc: bool,
    all: Signal<Vec<MaintenanceWindow>>,
    on_pick: Option<Callback<MaintenanceWindow>>,
) -> Option<impl IntoView> {
    let placed = bar_placement(layout, window, 2.0)?;
    let label = bar_label(window, utc);
    let marketplace = window.scheduled_by_marketplace;
    let id = window.id;
    let pick = move || {
        let picked = all.with_untracked(|all| all.iter().find(|w| w.id == id).cloned());
        if let (Some(on_pick), Some(window)) = (on_pick, picked) {
            on_pick.run(window);
        }
    };
    Some(view! {
        <rect
            class=format!("bar {}", category_class(window))
            class:marketplace=marketplace
            data-window-id=window.id
            {..placed}
            tabindex=on_pick.map(|_| "0")
            role=on_pick.map(|_| "button")
            aria-label=on_pick.map(|_| label.clone())
            on:click=move |_| pick()
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    pick();
                }
            }
        >
            <title>{label.clone()}</title>
        </rect>
    })
}

/// The time axis: a line and a label at each tick.
#[component]
fn TimelineTicks(layout: Memo<Layout>) -> impl IntoView {
    let utc = use_utc();
    move || {
        let l = layout.get();
        let bottom = l.height();
        l.ticks()
            .into_iter()
            .map(|t| {
                let x = percent(l.x(t));
                // Month, day and time only (`11-24 06:00`): the caption names the zone, and
                // with " UTC" the labels ran into each other.
                let at = format_absolute(t, utc.get());
                let label = at.get(5..16).unwrap_or(&at).to_owned();
                view! {
                    <g class="tick">
                        <line x1=x.clone() x2=x.clone() y1=TICK_LABEL_Y + 3.0 y2=bottom></line>
                        <text x=x dx="2" y=TICK_LABEL_Y>
                            {label}
                        </text>
                    </g>
                }
            })
            .collect_view()
    }
}

/// The windows not yet scheduled, outlined, in the lanes in view.
#[component]
fn PreviewBars(
    layout: Memo<Layout>,
    preview: Signal<Vec<MaintenanceWindow>>,
    shown_lanes: Memo<(usize, usize)>,
) -> impl IntoView {
    let utc = use_utc();
    move || {
        let l = layout.get();
        let utc = utc.get();
        let (first, last) = shown_lanes.get();
        preview.with(|windows| {
            windows
                .iter()
                .filter(|w| {
                    l.lane_of(w.machine_id)
                        .is_some_and(|lane| first <= lane && lane < last)
                })
                .filter_map(|w| {
                    let placed = bar_placement(&l, w, 1.0)?;
                    Some(view! {
                        <rect
                            class=format!("preview-bar {}", category_class(w))
                            data-machine-id=w.machine_id
                            {..placed}
                        >
                            <title>{format!("New: {}", bar_label(w, utc))}</title>
                        </rect>
                    })
                })
                .collect_view()
        })
    }
}

/// The line at now and its label; near the right edge the label goes to the left of the
/// line, so it is not cut off.
#[component]
fn NowMarker(layout: Memo<Layout>, #[prop(into)] now: Signal<f64>) -> impl IntoView {
    let now_x = move || layout.get().x(now.get());
    let near_the_end = move || now_x() > 90.0;
    let height = move || layout.get().height();
    view! {
        <line
            class="now-line"
            x1=move || percent(now_x())
            x2=move || percent(now_x())
            y1=NOW_LABEL_Y + 3.0
            y2=height
        ></line>
        <text
            class="now-label"
            x=move || percent(now_x())
            dx=move || if near_the_end() { "-3" } else { "3" }
            y=NOW_LABEL_Y
            text-anchor=move || if near_the_end() { "end" } else { "start" }
        >
            "now"
        </text>
    }
}

/// Where `window`'s bar is drawn, as the `<rect>`'s attributes: its span on the time axis,
/// `inset` pixels inside its lane at top and bottom; `None` when its machine has no lane.
fn bar_placement(
    layout: &Layout,
    window: &MaintenanceWindow,
    inset: f64,
) -> Option<impl Attribute> {
    // SVG geometry attributes have no typed names in the view macro's attribute list.
    use leptos::attr::custom::custom_attribute as svg;
    let (x, width, lane_top) = layout.bar_of(window)?;
    Some((
        svg("x", percent(x)),
        svg("y", lane_top + inset),
        svg("width", percent(width)),
        svg("height", LANE_HEIGHT - 2.0 * inset),
        svg("rx", "2"),
    ))
}

/// An SVG length in percent of the chart's width.
fn percent(value: f64) -> String {
    format!("{value:.3}%")
}
