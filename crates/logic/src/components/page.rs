//! A page's tab title.

/// The tab title for `page`.
pub fn document_title(page: &str) -> String {
    format!("{page} · gpudeck")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_tab_names_the_page_then_the_console() {
        assert_eq!(
            super::document_title("Maintenance windows"),
            "Maintenance windows · gpudeck"
        );
    }
}
