//! The maintenance category a form schedules its windows with: the schedule form and the
//! rolling planner ask it the same way.

use crate::components::form_field::FormField;
use crate::components::timeline::category_key;
use gpudeck_wire::MaintenanceCategory;
use leptos::prelude::*;

/// A "Category" field choosing one of the known maintenance categories; `id` names it.
#[component]
pub fn CategoryField(id: &'static str, category: RwSignal<MaintenanceCategory>) -> impl IntoView {
    view! {
        <FormField id=id label="Category">
            <select
                prop:value=move || category_key(&category.get())
                on:change=move |ev| {
                    category.set(MaintenanceCategory::from_stored(&event_target_value(&ev)))
                }
            >
                {MaintenanceCategory::KNOWN
                    .into_iter()
                    .map(|c| {
                        view! { <option value=category_key(&c)>{c.label().to_owned()}</option> }
                    })
                    .collect_view()}
            </select>
        </FormField>
    }
}
