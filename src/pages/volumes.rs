use crate::components::planned::PlannedArea;
use leptos::prelude::*;

#[component]
pub fn VolumesPage() -> impl IntoView {
    view! {
        <PlannedArea
            title="Volumes"
            method="PUT"
            path="/api/v0/volumes"
            summary="Accept a volume ask with a size in GB and get the name of the new volume."
        />
    }
}
