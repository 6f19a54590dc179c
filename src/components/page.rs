//! The frame of every page in the shell: a section with its heading and a one-paragraph
//! introduction, then the page's own form and view.

use super::page_access::{OutOfReach, OutOfReachNotice, PageAccess, ANY_PAGE};
pub use gpudeck_logic::components::page::document_title;
use leptos::prelude::*;

/// Names the browser tab after the page: `Maintenance windows · gpudeck`.
pub fn set_document_title(page: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(&document_title(page));
    }
}

#[component]
pub fn Page(
    /// The section's class, e.g. `templates`.
    class: &'static str,
    /// The page's entry in the route table: its heading and tab title.
    entry: &'static gpudeck_pages::Page,
    /// What the page is for, in a sentence or two.
    #[prop(optional)]
    lede: Option<&'static str>,
    /// How the page says the acting account cannot use it.
    #[prop(default = ANY_PAGE)]
    out_of_reach: OutOfReach,
    /// A tab title saying more than the entry's, once the page knows it (which machine);
    /// `None` keeps the entry's.
    #[prop(optional, into)]
    title: Option<Signal<Option<String>>>,
    children: Children,
) -> impl IntoView {
    set_document_title(entry.title);
    // Drawn with the page, so the tab follows what it shows and stops with it.
    let follow_title = title
        .map(|title| move || set_document_title(title.get().as_deref().unwrap_or(entry.title)));
    let access = PageAccess::provide(out_of_reach);
    view! {
        <section class=class>
            <h1>{entry.heading}</h1>
            {lede.map(|lede| view! { <p class="lede">{lede}</p> })}
            <OutOfReachNotice access=access />
            {children()}
            {follow_title}
        </section>
    }
}
