//! Reading what a person typed into a form field.

use std::num::IntErrorKind;

/// Reads a whole number of at least 1 (an id, a size) typed into the field called `what`
/// ("template id"), or says what is wrong, naming the field.
pub fn parse_positive_whole(what: &str, text: &str) -> Result<i64, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(format!("Enter the {what}."));
    }
    match trimmed.parse::<i64>() {
        Ok(value) if value >= 1 => Ok(value),
        Ok(_) => Err(format!("The {what} must be at least 1.")),
        Err(error) if *error.kind() == IntErrorKind::PosOverflow => {
            Err(format!("The {what} is too large."))
        }
        Err(_) => Err(format!("The {what} must be a whole number, like 42.")),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_positive_whole;

    #[test]
    fn whole_numbers_are_checked_naming_the_field() {
        assert_eq!(parse_positive_whole("template id", " 501 "), Ok(501));
        assert_eq!(
            parse_positive_whole("template id", ""),
            Err("Enter the template id.".into())
        );
        assert_eq!(
            parse_positive_whole("size in GB", "0"),
            Err("The size in GB must be at least 1.".into())
        );
        assert_eq!(
            parse_positive_whole("size in GB", "-3"),
            Err("The size in GB must be at least 1.".into())
        );
        for bad in ["1.5", "12abc", "1e3", "five"] {
            assert_eq!(
                parse_positive_whole("volume ask id", bad),
                Err("The volume ask id must be a whole number, like 42.".into()),
                "{bad}"
            );
        }
        assert_eq!(
            parse_positive_whole("template id", "99999999999999999999"),
            Err("The template id is too large.".into())
        );
    }
}
