//! Forms that send ids: checking an id before it is sent, and the labelled field that
//! shows what is wrong with it.

use super::text_field::{TextField, TextKind};
use leptos::prelude::*;
use std::num::IntErrorKind;

/// Reads a whole number of at least 1 typed into the field called `field` ("template id"),
/// or says what is wrong, naming the field.
pub fn parse_id(field: &str, text: &str) -> Result<i64, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(format!("Enter the {field}."));
    }
    match trimmed.parse::<i64>() {
        Ok(value) if value >= 1 => Ok(value),
        Ok(_) => Err(format!("The {field} must be at least 1.")),
        Err(error) if *error.kind() == IntErrorKind::PosOverflow => {
            Err(format!("The {field} is too large."))
        }
        Err(_) => Err(format!("The {field} must be a whole number, like 42.")),
    }
}

/// The form of the id pages: `on_submit` runs instead of the browser's submit.
#[component]
pub fn IdForm(on_submit: impl Fn() + 'static, children: Children) -> impl IntoView {
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        on_submit();
    };
    view! {
        <form class="id-form" on:submit=submit novalidate>
            {children()}
        </form>
    }
}

/// A labelled text field for an id, with a hint and an error linked to it.
#[component]
pub fn IdField(
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    text: RwSignal<String>,
    /// What is wrong with the value, from the check before sending or from the server.
    #[prop(into)]
    error: Signal<Option<String>>,
) -> impl IntoView {
    view! {
        <TextField id=id label=label hint=hint text=text error=error kind=TextKind::Whole class="id-field"/>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::parse_id;

    #[test]
    fn ids_are_checked_naming_the_field() {
        assert_eq!(parse_id("template id", " 501 "), Ok(501));
        assert_eq!(
            parse_id("template id", ""),
            Err("Enter the template id.".into())
        );
        assert_eq!(
            parse_id("size in GB", "0"),
            Err("The size in GB must be at least 1.".into())
        );
        assert_eq!(
            parse_id("size in GB", "-3"),
            Err("The size in GB must be at least 1.".into())
        );
        for bad in ["1.5", "12abc", "1e3", "five"] {
            assert_eq!(
                parse_id("volume ask id", bad),
                Err("The volume ask id must be a whole number, like 42.".into()),
                "{bad}"
            );
        }
        assert_eq!(
            parse_id("template id", "99999999999999999999"),
            Err("The template id is too large.".into())
        );
    }
}
