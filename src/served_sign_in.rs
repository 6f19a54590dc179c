//! The sign-in form the served page carries (`index.html`), so that a person can type a
//! key before the console's code has arrived; `boot.js` shows it when the tab holds no
//! session and keeps an Enter pressed early. The sign-in page takes it over; any other
//! page that shows first discards it.

pub use gpudeck_logic::served_sign_in::*;
use leptos::prelude::document;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// The served form, when it is still in the page and no one has taken it over: with what
/// was typed into it.
pub fn take_served() -> Option<HtmlElement> {
    let form = served()?;
    (!form.has_attribute(LIVE)).then_some(form)
}

/// A new form from the markup (after signing out, and in tests).
pub fn build() -> HtmlElement {
    let template: web_sys::HtmlTemplateElement = document()
        .create_element("template")
        .expect("a template element")
        .unchecked_into();
    template.set_inner_html(markup());
    template
        .content()
        .first_element_child()
        .expect("the sign-in markup has an element")
        .unchecked_into()
}

/// Takes the served form out of the page when another page shows first (a tab with a
/// session, or an unknown address), so it never sits under that page.
pub fn discard_served() {
    if let Some(form) = take_served() {
        form.remove();
    }
}

fn served() -> Option<HtmlElement> {
    document()
        .query_selector(SERVED)
        .ok()
        .flatten()
        .map(JsCast::unchecked_into)
}
