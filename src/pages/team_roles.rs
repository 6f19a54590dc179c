use crate::components::planned::PlannedArea;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
pub fn TeamRolePage() -> impl IntoView {
    let params = use_params_map();
    let name = move || params.with(|p| p.get("name").unwrap_or_default());
    view! {
        <p class="breadcrumb">"Role: " <strong>{name}</strong></p>
        <PlannedArea
            title="Team role"
            method="GET"
            path="/api/v0/team/roles/{name}"
            summary="Show the permissions of a role of your current team as a grid of read and write access."
        />
    }
}
