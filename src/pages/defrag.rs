use crate::components::planned::PlannedArea;
use leptos::prelude::*;

#[component]
pub fn DefragPage() -> impl IntoView {
    view! {
        <PlannedArea
            title="Defragment GPU offers"
            method="PUT"
            path="/api/v0/machines/defrag_offers"
            summary="Consolidate the free GPU slots of your machines into fewer, larger offers, after a confirmation."
        />
    }
}
