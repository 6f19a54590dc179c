//! A small bar chart drawn as SVG, not a charting library: one bar per value, scaled to the
//! largest. It is an image with an accessible name and description; its figures belong in
//! a table beside it, which the page gives.

pub use gpudeck_logic::components::bar_chart::*;
use leptos::prelude::*;

/// The chart: `values` as bars, each with `tips[i]` as its tooltip; `name` and
/// `description` are what a screen reader says of the image. `id` makes the ids of those
/// two unique on the page.
#[component]
pub fn BarChart(
    values: Vec<f64>,
    tips: Vec<String>,
    name: String,
    description: String,
    id: &'static str,
) -> impl IntoView {
    let (title_id, desc_id) = (format!("{id}-title"), format!("{id}-desc"));
    let labelled_by = format!("{title_id} {desc_id}");
    let bars = bar_shapes(&values)
        .into_iter()
        .zip(tips)
        .map(|(bar, tip)| {
            view! {
                <rect class="bar" x=bar.x y=bar.y width=bar.width height=bar.height>
                    <title>{tip}</title>
                </rect>
            }
        })
        .collect_view();
    view! {
        <svg
            class="bar-chart"
            id=id
            role="img"
            aria-labelledby=labelled_by
            viewBox=format!("0 0 {WIDTH} {HEIGHT}")
            preserveAspectRatio="none"
        >
            <title id=title_id>{name}</title>
            <desc id=desc_id>{description}</desc>
            <line class="baseline" x1="0" y1=HEIGHT x2=WIDTH y2=HEIGHT />
            {bars}
        </svg>
    }
}
