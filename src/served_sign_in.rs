//! The sign-in form the served page carries (`index.html`), so that a person can type a
//! key before the console's code has arrived; `boot.js` shows it when the tab holds no
//! session and keeps an Enter pressed early. The sign-in page takes it over; any other
//! page that shows first discards it.

use leptos::prelude::document;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// The served page, whose marked part is the one definition of the form's markup.
const SERVED_PAGE: &str = include_str!("../index.html");
const START: &str = "<!-- sign-in form -->";
const END: &str = "<!-- /sign-in form -->";

/// What the served form is marked with; `data-live` once the console has taken it over,
/// `data-submitted` when Enter was pressed before that.
const SERVED: &str = "[data-served-sign-in]";
pub const LIVE: &str = "data-live";
pub const SUBMITTED: &str = "data-submitted";

/// The form's markup, as the served page has it between its markers.
pub fn markup() -> &'static str {
    marked_part(SERVED_PAGE).expect("index.html marks its sign-in form")
}

fn marked_part(page: &str) -> Option<&str> {
    let start = page.find(START)? + START.len();
    let end = start + page[start..].find(END)?;
    Some(page[start..end].trim())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markup_is_the_marked_part_of_the_served_page() {
        let form = markup();
        assert!(form.starts_with("<main class=\"sign-in\""), "{form}");
        assert!(form.ends_with("</main>"), "{form}");
        assert!(form.contains("id=\"api-key\""));
        assert!(form.contains("data-served-sign-in"));
        assert!(!form.contains(START) && !form.contains(END));
    }

    #[test]
    fn a_page_without_both_markers_has_no_marked_part() {
        assert_eq!(marked_part("<body></body>"), None);
        assert_eq!(marked_part(&format!("{START}<p></p>")), None);
        assert_eq!(
            marked_part(&format!("a{START}\n <p></p>\n{END}b")),
            Some("<p></p>")
        );
    }

    #[test]
    fn boot_js_reads_the_session_where_the_console_keeps_it() {
        let boot = include_str!("../boot.js");
        let key = format!("\"{}\"", crate::session::STORAGE_KEY);
        assert!(boot.contains(&key), "boot.js must check {key}");
        assert!(boot.contains(SERVED) && boot.contains(LIVE) && boot.contains("submitted"));
    }
}
