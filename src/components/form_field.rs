//! The one form field: a label, the control it names, a hint and the error that belongs
//! to it, linked for screen readers. Every form of the console builds on it; a group of
//! controls that share one hint and one error is a [`FieldGroup`] of such fields.

use crate::domain::form_problem::{said_for, Problem};
pub use gpudeck_logic::components::form_field::parse_positive_whole;
use leptos::attr::{aria_describedby, aria_invalid, id as id_attr, Attribute};
use leptos::context::Provider;
use leptos::prelude::*;

/// A labelled control, given as the only child (an `<input>`, `<select>` or `<textarea>`).
/// The field sets the control's `id`, its `aria-describedby` (the hint, the status and the
/// error, those it has) and its `aria-invalid` (while there is an error), so no form writes
/// them by hand. Inside a [`FieldGroup`], the group's hint and error count as its own too.
#[component]
pub fn FormField(
    /// The control's id; the hint, status and error ids are built from it.
    #[prop(into)]
    id: String,
    /// What the control holds, as text or as a view (a time zone beside the words).
    label: impl IntoView + 'static,
    /// The label's class: `visually-hidden` where the row around it says the same.
    #[prop(optional)]
    label_class: Option<&'static str>,
    /// A sentence under the control on what to type (`{id}-hint`).
    #[prop(optional, into)]
    hint: Option<TextProp>,
    /// A line under the control that reports on the value as it is typed (`3 machines`),
    /// announced politely (`{id}-status`).
    #[prop(optional, into)]
    status: Option<TextProp>,
    /// What is wrong with the value, from the check before sending or from the server
    /// (`{id}-error`). A field that cannot be wrong has no error line.
    #[prop(optional, into)]
    error: Option<Signal<Option<String>>>,
    /// The wrapper's class; `field` unless given.
    #[prop(optional)]
    class: Option<&'static str>,
    /// Controls on the control's line that are not the value itself (a unit, a button).
    #[prop(optional, into)]
    beside: Option<ViewFnOnce>,
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let status_id = format!("{id}-status");
    let error_id = format!("{id}-error");
    let own = Lines::new(
        [
            hint.as_ref().map(|_| hint_id.clone()),
            status.as_ref().map(|_| status_id.clone()),
            error.map(|_| error_id.clone()),
        ],
        error,
    );
    let control = children().add_any_attr((id_attr(id.clone()), own.with_group().attributes()));
    view! {
        <div class=class.unwrap_or("field")>
            <label for=id class=label_class>
                {label}
            </label>
            {control}
            {beside.map(ViewFnOnce::run)}
            {hint_line(hint_id, hint)}
            {status
                .map(|status| {
                    view! {
                        <p id=status_id class="hint" aria-live="polite">
                            {move || status.get()}
                        </p>
                    }
                })}
            {error_line(error_id, error)}
        </div>
    }
}

/// Controls that one legend names and one hint and one error describe together, such as a
/// constraint's field, operator and value: a `<fieldset>` whose controls are
/// [`FormField`]s. Each of them gets the group's hint and error in its `aria-describedby`,
/// and is `aria-invalid` while the group has an error.
#[component]
pub fn FieldGroup(
    /// The hint and error ids are built from it (`{id}-hint`, `{id}-error`).
    #[prop(into)]
    id: String,
    /// What the controls make together.
    legend: impl IntoView + 'static,
    /// The legend's class: `visually-hidden` where the page around it says the same.
    #[prop(optional)]
    legend_class: Option<&'static str>,
    /// A sentence under the controls on what to give.
    #[prop(optional, into)]
    hint: Option<TextProp>,
    /// What is wrong with the controls' values together.
    #[prop(optional, into)]
    error: Option<Signal<Option<String>>>,
    /// The fieldset's class.
    #[prop(optional)]
    class: Option<&'static str>,
    /// The group's fields, and any buttons that go with them.
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let lines = Lines::new(
        [
            hint.as_ref().map(|_| hint_id.clone()),
            error.map(|_| error_id.clone()),
        ],
        error,
    );
    view! {
        <fieldset class=class>
            <legend class=legend_class>{legend}</legend>
            // The fields below read the group's lines from here, and nothing after it does.
            <Provider value=lines>{children()}</Provider>
            {hint_line(hint_id, hint)}
            {error_line(error_id, error)}
        </fieldset>
    }
}

/// The lines that describe a control: their ids, and the errors among them.
#[derive(Clone)]
struct Lines {
    ids: Vec<String>,
    errors: Vec<Signal<Option<String>>>,
}

impl Lines {
    /// The lines there are (`None` for those left out), `error` among them if given.
    fn new(
        ids: impl IntoIterator<Item = Option<String>>,
        error: Option<Signal<Option<String>>>,
    ) -> Self {
        Lines {
            ids: ids.into_iter().flatten().collect(),
            errors: error.into_iter().collect(),
        }
    }

    /// These lines and those of the [`FieldGroup`] the field is in, if any.
    fn with_group(mut self) -> Self {
        if let Some(group) = use_context::<Lines>() {
            self.ids.extend(group.ids);
            self.errors.extend(group.errors);
        }
        self
    }

    /// `aria-describedby` naming the lines, and `aria-invalid` while any error is showing;
    /// neither when there is nothing to name.
    fn attributes(self) -> impl Attribute {
        let described_by = (!self.ids.is_empty()).then(|| self.ids.join(" "));
        let errors = self.errors;
        let invalid = move || {
            (!errors.is_empty()).then(|| errors.iter().any(|e| e.with(Option::is_some)).to_string())
        };
        (aria_describedby(described_by), aria_invalid(invalid))
    }
}

fn hint_line(id: String, hint: Option<TextProp>) -> impl IntoView {
    hint.map(|hint| {
        view! {
            <p id=id class="hint">
                {move || hint.get()}
            </p>
        }
    })
}

fn error_line(id: String, error: Option<Signal<Option<String>>>) -> impl IntoView {
    error.map(|error| {
        view! {
            <p id=id class="form-error" role="alert">
                {move || error.get()}
            </p>
        }
    })
}

/// The input's kind of text: what the browser offers to fill in and which keyboard a
/// phone shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A whole number (`inputmode=numeric`).
    Whole,
    /// A whole number the browser steps with arrow keys (`type=number`); its bounds and
    /// step are given as `attr:min`, `attr:max`, `attr:step`.
    Stepped,
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
            TextKind::Stepped => "number",
            TextKind::NewPassword | TextKind::Secret => "password",
            _ => "text",
        }
    }

    fn inputmode(self) -> &'static str {
        match self {
            TextKind::Whole | TextKind::Stepped => "numeric",
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

/// A one-line text input bound to `text`, the control of a [`FormField`].
#[component]
pub fn TextInput(kind: TextKind, text: RwSignal<String>) -> impl IntoView {
    view! {
        <input
            type=kind.input_type()
            inputmode=kind.inputmode()
            autocomplete=kind.autocomplete()
            spellcheck="false"
            prop:value=text
            on:input=move |ev| text.set(event_target_value(&ev))
        />
    }
}

/// What a field's error line says: every problem of `problems` with `field`, in one line,
/// or `None`. The schedule form and the rolling planner both show their problems so.
pub fn problem_for<F>(problems: Signal<Vec<Problem<F>>>, field: F) -> Signal<Option<String>>
where
    F: PartialEq + Copy + Send + Sync + 'static,
{
    Signal::derive(move || problems.with(|p| said_for(p, field)))
}
