//! The narrow form of a few short fields (a template id; an ask, a size and a name).

use leptos::prelude::*;

/// `on_submit` runs, with the page's checks, instead of the browser's submit.
#[component]
pub fn NarrowForm(on_submit: impl Fn() + 'static, children: Children) -> impl IntoView {
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        on_submit();
    };
    view! {
        <form class="narrow-form" on:submit=submit novalidate>
            {children()}
        </form>
    }
}
