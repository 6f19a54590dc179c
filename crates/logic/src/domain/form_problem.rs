//! A problem with one field of a form, found before anything is sent: the schedule form
//! and the rolling planner check their inputs the same way and say it under each field.
//! And how a field that may be left blank is read.

/// What is wrong with the field `F` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem<F> {
    pub field: F,
    pub message: String,
}

impl<F> Problem<F> {
    pub fn new(field: F, message: impl Into<String>) -> Self {
        Problem {
            field,
            message: message.into(),
        }
    }
}

/// Every problem with `field`, in one line; `None` when there is none.
pub fn said_for<F: PartialEq>(problems: &[Problem<F>], field: F) -> Option<String> {
    let said: Vec<&str> = problems
        .iter()
        .filter(|problem| problem.field == field)
        .map(|problem| problem.message.as_str())
        .collect();
    (!said.is_empty()).then(|| said.join(" "))
}

/// A field that may be left blank: `Ok(None)` when it is (spaces count as blank), else
/// what `read` makes of its trimmed text.
pub fn optional_field<T, E>(
    text: &str,
    read: impl Fn(&str) -> Result<T, E>,
) -> Result<Option<T>, E> {
    let text = text.trim();
    if text.is_empty() {
        Ok(None)
    } else {
        read(text).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_field_is_none_and_a_filled_one_is_read_trimmed() {
        let read = |t: &str| t.parse::<u32>().map_err(|_| format!("{t:?} is no number"));
        assert_eq!(optional_field("", read), Ok(None));
        assert_eq!(optional_field("  ", read), Ok(None));
        assert_eq!(optional_field(" 42 ", read), Ok(Some(42)));
        assert_eq!(
            optional_field(" x ", read),
            Err("\"x\" is no number".to_owned())
        );
    }

    #[test]
    fn a_field_hears_all_its_problems_and_no_other() {
        let problems = [
            Problem::new('a', "Too early."),
            Problem::new('b', "Not a number."),
            Problem::new('a', "Not a whole hour."),
        ];
        assert_eq!(
            said_for(&problems, 'a').as_deref(),
            Some("Too early. Not a whole hour.")
        );
        assert_eq!(said_for(&problems, 'b').as_deref(), Some("Not a number."));
        assert_eq!(said_for(&problems, 'c'), None);
    }
}
