//! A labelled checkbox bound to a signal.

use leptos::prelude::*;

#[component]
pub fn Toggle(checked: RwSignal<bool>, label: &'static str) -> impl IntoView {
    view! {
        <label class="toggle">
            <input
                type="checkbox"
                prop:checked=checked
                on:change=move |ev| checked.set(event_target_checked(&ev))
            />
            {label}
        </label>
    }
}
