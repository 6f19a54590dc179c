//! The Reload button of list pages: refetches, and says so while it runs.

use leptos::prelude::*;

#[component]
pub fn ReloadButton(
    /// True while the page's data is being fetched again.
    #[prop(into)]
    reloading: Signal<bool>,
    on_reload: Callback<()>,
) -> impl IntoView {
    view! {
        <button type="button" class="button" on:click=move |_| on_reload.run(()) disabled=reloading>
            {move || if reloading.get() { "Reloading…" } else { "Reload" }}
        </button>
    }
}
