//! A machine's GPUs at a glance: one cell per GPU, coloured and lettered by its
//! `gpu_occupancy` code (D on-demand, R reserved, I interruptible, x free), codes the
//! console does not know shown as they came, a legend, and a sentence for screen readers.

pub use gpudeck_logic::components::occupancy::*;
use leptos::prelude::*;

/// The strip of one machine.
#[component]
pub fn OccupancyStrip(#[prop(into)] occupancy: String) -> impl IntoView {
    let text = describe(&occupancy);
    let title = text.clone();
    let cells = slots(&occupancy)
        .into_iter()
        .map(|slot| {
            view! {
                <span class=slot.class() aria-hidden="true">
                    {slot.code().to_owned()}
                </span>
            }
        })
        .collect_view();
    view! {
        <span class="occupancy" title=title data-occupancy=occupancy>
            {cells}
            <span class="visually-hidden">{text}</span>
        </span>
    }
}

/// What the letters mean; once per page, near the strips.
#[component]
pub fn OccupancyLegend() -> impl IntoView {
    let known = [
        Slot::OnDemand,
        Slot::Reserved,
        Slot::Interruptible,
        Slot::Free,
    ];
    view! {
        <p class="occupancy-legend">
            <span class="legend-title">"GPUs: "</span>
            {known
                .into_iter()
                .map(|slot| {
                    view! {
                        <span class="legend-item">
                            <span class=slot.class() aria-hidden="true">
                                {slot.code().to_owned()}
                            </span>
                            {format!(" {}", slot.meaning())}
                        </span>
                    }
                })
                .collect_view()}
            <span class="legend-item muted">"other codes are shown as sent"</span>
        </p>
    }
}
