//! A labelled text field with an optional hint and the error that belongs to it, linked
//! for screen readers; every form of the console builds on it.

use leptos::prelude::*;

/// The input's kind of text: what the browser offers to fill in and which keyboard a
/// phone shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A whole number (`inputmode=numeric`).
    Whole,
    /// A number with decimals (`inputmode=decimal`).
    Decimal,
    /// Free text.
    Plain,
    Email,
    /// A new password: hidden, and the browser may offer to generate one.
    NewPassword,
    /// A secret to paste, such as an API key: hidden, and never offered for filling in.
    Secret,
}

impl TextKind {
    fn input_type(self) -> &'static str {
        match self {
            TextKind::Email => "email",
            TextKind::NewPassword | TextKind::Secret => "password",
            _ => "text",
        }
    }

    fn inputmode(self) -> &'static str {
        match self {
            TextKind::Whole => "numeric",
            TextKind::Decimal => "decimal",
            TextKind::Email => "email",
            TextKind::Plain | TextKind::NewPassword | TextKind::Secret => "text",
        }
    }

    fn autocomplete(self) -> &'static str {
        match self {
            TextKind::NewPassword => "new-password",
            _ => "off",
        }
    }
}

#[component]
pub fn TextField(
    id: &'static str,
    label: &'static str,
    /// A sentence under the field on what to type, linked to it.
    #[prop(optional)]
    hint: Option<&'static str>,
    text: RwSignal<String>,
    /// What is wrong with the value, from the check before sending or from the server.
    #[prop(into)]
    error: Signal<Option<String>>,
    kind: TextKind,
    /// The wrapper's class; `field` unless given.
    #[prop(optional)]
    class: Option<&'static str>,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let described_by = match hint {
        Some(_) => format!("{hint_id} {error_id}"),
        None => error_id.clone(),
    };
    view! {
        <div class=class.unwrap_or("field")>
            <label for=id>{label}</label>
            <input
                id=id
                type=kind.input_type()
                inputmode=kind.inputmode()
                autocomplete=kind.autocomplete()
                spellcheck="false"
                aria-invalid=move || error.with(Option::is_some).to_string()
                aria-describedby=described_by
                prop:value=text
                on:input=move |ev| text.set(event_target_value(&ev))
            />
            {hint.map(|hint| view! { <p id=hint_id class="hint">{hint}</p> })}
            <p id=error_id class="form-error" role="alert">{move || error.get()}</p>
        </div>
    }
}
