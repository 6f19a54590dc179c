use crate::components::planned::PlannedArea;
use leptos::prelude::*;

#[component]
pub fn TemplatesPage() -> impl IntoView {
    view! {
        <PlannedArea
            title="Templates"
            method="DELETE"
            path="/api/v0/users/{user_id}/templates"
            summary="Soft-delete one of your templates by id; the deletion is refused while other users still use it."
        />
    }
}
