//! A labelled checkbox bound to a signal.

use leptos::prelude::*;

#[component]
pub fn Toggle(
    checked: RwSignal<bool>,
    #[prop(into)] label: String,
    /// Shown but not changeable (an e-mail channel the service keeps on).
    #[prop(optional)]
    disabled: bool,
) -> impl IntoView {
    view! {
        <label class="toggle">
            <input
                type="checkbox"
                disabled=disabled
                prop:checked=checked
                on:change=move |ev| checked.set(event_target_checked(&ev))
            />
            {label}
        </label>
    }
}
