//! The page of an area whose operation is not in the console yet: it says which
//! operation the page will offer and does not pretend to do anything.

use leptos::prelude::*;

#[component]
pub fn PlannedArea(
    title: &'static str,
    method: &'static str,
    path: &'static str,
    /// What the page will let people do, in one or two sentences.
    summary: &'static str,
) -> impl IntoView {
    view! {
        <section class="planned" data-testid="planned-area">
            <h1>{title}</h1>
            <p class="planned-note" role="note">
                "This page is not built yet. It will offer the operation "
                <code>{method} " " {path}</code> "."
            </p>
            <p>{summary}</p>
        </section>
    }
}
