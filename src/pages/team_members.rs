use crate::components::planned::PlannedArea;
use leptos::prelude::*;

#[component]
pub fn TeamMembersPage() -> impl IntoView {
    view! {
        <PlannedArea
            title="Team members"
            method="GET"
            path="/api/v0/team/members"
            summary="List the active members of your current team with their roles."
        />
    }
}
