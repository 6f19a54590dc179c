use crate::components::planned::PlannedArea;
use leptos::prelude::*;

#[component]
pub fn MaintenancePage() -> impl IntoView {
    view! {
        <PlannedArea
            title="Maintenance windows"
            method="GET"
            path="/api/v0/machines/maintenances"
            summary="List the active maintenance windows of your machines by machine id, as a table and a timeline."
        />
    }
}
