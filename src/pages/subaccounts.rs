use crate::components::planned::PlannedArea;
use leptos::prelude::*;

#[component]
pub fn SubaccountsPage() -> impl IntoView {
    view! {
        <PlannedArea
            title="Subaccounts"
            method="GET"
            path="/api/v0/subaccounts"
            summary="List your subaccounts with their balances and masked API keys."
        />
    }
}
