//! Reading query strings the way the wire rules say (form decoding, the first of repeated
//! parameters counts). A leaf module, so the routes that read queries need nothing else.

use std::borrow::Cow;

/// The first value of parameter `name` in a query string, decoded by form rules (`+` is a
/// space); later repetitions are ignored.
pub fn first_query_value(query: Option<&str>, name: &str) -> Option<String> {
    form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .find(|(key, _)| key == name)
        .map(|(_, value): (Cow<'_, str>, Cow<'_, str>)| value.into_owned())
}

#[cfg(test)]
mod tests {
    use super::first_query_value;

    #[test]
    fn the_first_of_repeated_parameters_counts_decoded_by_form_rules() {
        let query = Some("type=all+volumes&type=local&id=%37");
        assert_eq!(
            first_query_value(query, "type").as_deref(),
            Some("all volumes")
        );
        assert_eq!(first_query_value(query, "id").as_deref(), Some("7"));
        assert_eq!(first_query_value(query, "name"), None);
        assert_eq!(first_query_value(None, "type"), None);
    }
}
