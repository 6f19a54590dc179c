//! Text quoted back to a client in a refusal. A leaf module: the query language, the
//! routes and the errors all quote input, and none of them should need another to do it.

/// Shortens text quoted back to a client, so huge inputs give short errors.
pub fn quote(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quotes_are_bounded() {
        assert_eq!(quote("abc", 5), "abc");
        assert_eq!(quote("äöüßx", 3), "äöü…");
    }
}
