//! The sign-in form as the served page writes it, before any wasm runs: the console takes
//! that markup over.

/// The served page, whose marked part is the one definition of the form's markup.
pub const SERVED_PAGE: &str = include_str!("../../../index.html");

pub const START: &str = "<!-- sign-in form -->";

pub const END: &str = "<!-- /sign-in form -->";

/// What the served form is marked with; `data-live` once the console has taken it over,
/// `data-submitted` when Enter was pressed before that.
pub const SERVED: &str = "[data-served-sign-in]";

pub const LIVE: &str = "data-live";

pub const SUBMITTED: &str = "data-submitted";

/// The form's markup, as the served page has it between its markers.
pub fn markup() -> &'static str {
    marked_part(SERVED_PAGE).expect("index.html marks its sign-in form")
}

pub fn marked_part(page: &str) -> Option<&str> {
    let start = page.find(START)? + START.len();
    let end = start + page[start..].find(END)?;
    Some(page[start..end].trim())
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
        let boot = include_str!("../../../boot.js");
        let key = format!("\"{}\"", crate::session::STORAGE_KEY);
        assert!(boot.contains(&key), "boot.js must check {key}");
        assert!(boot.contains(SERVED) && boot.contains(LIVE) && boot.contains("submitted"));
    }
}
