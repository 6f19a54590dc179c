use crate::components::page::set_document_title;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_location;

#[component]
pub fn NotFoundPage() -> impl IntoView {
    let location = use_location();
    set_document_title("Page not found");
    // Signed out on an unknown address, the served page's sign-in form is showing.
    crate::served_sign_in::discard_served();
    view! {
        <main class="not-found" id="main">
            <h1>"Page not found"</h1>
            <p>"There is no page at " <code>{move || location.pathname.get()}</code> "."</p>
            <p>
                <A href=crate::routes::HOME>"Go to maintenance windows"</A>
            </p>
        </main>
    }
}
