//! The frame of every page in the shell: a section with its heading and a one-paragraph
//! introduction, then the page's own form and view.

use leptos::prelude::*;

#[component]
pub fn Page(
    /// The section's class, e.g. `templates`.
    class: &'static str,
    title: &'static str,
    /// What the page is for, in a sentence or two.
    #[prop(optional)]
    lede: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    view! {
        <section class=class>
            <h1>{title}</h1>
            {lede.map(|lede| view! { <p class="lede">{lede}</p> })}
            {children()}
        </section>
    }
}
