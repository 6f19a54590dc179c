//! Forms that send ids: checking an id before it is sent, and the labelled field that
//! shows what is wrong with it.

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
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    view! {
        <div class="id-field">
            <label for=id>{label}</label>
            <input
                id=id
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                aria-invalid=move || error.with(Option::is_some).to_string()
                aria-describedby=format!("{hint_id} {error_id}")
                prop:value=text
                on:input=move |ev| text.set(event_target_value(&ev))
            />
            <p id=hint_id class="hint">{hint}</p>
            <p id=error_id class="form-error" role="alert">{move || error.get()}</p>
        </div>
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
