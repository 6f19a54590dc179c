//! Creating a subaccount (N20): e-mail, username, password and whether it hosts or rents,
//! each checked before sending, with the server's refusals next to their field. The
//! password is read from its field when the request is sent, is never part of the
//! action's state, and leaves the form once the subaccount exists.

use super::rules::{check_email, check_password, check_username, field_of, NewField};
use crate::api::Refusal;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::toasts::use_toasts;
use gpudeck_wire::CreateSubaccountRequest;
use leptos::prelude::*;

/// A new subaccount as confirmed, without its password.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Draft {
    email: String,
    username: String,
    host_only: bool,
}

fn kind_name(host_only: bool) -> &'static str {
    if host_only {
        "host"
    } else {
        "client"
    }
}

#[component]
pub fn CreateSubaccount(
    /// After a creation, e.g. to reload the list that shows the new key.
    on_created: Callback<()>,
) -> impl IntoView {
    let toasts = use_toasts();
    let email = RwSignal::new(String::new());
    let username = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let host_only = RwSignal::new(false);
    let problems = RwSignal::new(Vec::<(NewField, String)>::new());

    let create = ConfirmedAction::new(
        move |api, draft: Draft| {
            let request = CreateSubaccountRequest::of_caller(
                draft.email,
                draft.username,
                password.get_untracked(),
                draft.host_only,
            );
            async move { api.create_subaccount(&request).await }
        },
        move |draft: Draft, created| {
            for field in [email, username, password] {
                field.try_set(String::new());
            }
            host_only.try_set(false);
            let named = if created.email.is_empty() {
                draft.email
            } else {
                created.email
            };
            // The answer may carry the key (N20 as the generated reference gives it) or not
            // (as the docs show it); the list (seed op 5) shows it masked either way.
            let message = format!("Subaccount {named} created; its API key is in the list.");
            toasts.success(message.clone());
            on_created.run(());
            message
        },
    );
    let pending = create.pending();

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        create.clear();
        let checked = (
            check_email(&email.get_untracked()),
            check_username(&username.get_untracked()),
            check_password(&password.get_untracked()),
        );
        let mut found = Vec::new();
        if let Err(p) = &checked.0 {
            found.push((NewField::Email, p.clone()));
        }
        if let Err(p) = &checked.1 {
            found.push((NewField::Username, p.clone()));
        }
        if let Err(p) = &checked.2 {
            found.push((NewField::Password, p.clone()));
        }
        problems.set(found);
        if let (Ok(email), Ok(username), Ok(())) = checked {
            create.ask(Draft {
                email,
                username,
                host_only: host_only.get_untracked(),
            });
        }
    };
    let problem_of = move |field: NewField| {
        Signal::derive(move || {
            problems
                .with(|p| p.iter().find(|(f, _)| *f == field).map(|(_, m)| m.clone()))
                .or_else(|| create.refused_where(|kind, message| field_of(kind, message) == field))
                .map(|message| {
                    // The server does not say which of the two is taken.
                    if field == NewField::Email
                        && create
                            .refusal_where(|kind| kind == Refusal::Conflict)
                            .is_some()
                    {
                        format!("{message} The e-mail address or the username is already taken.")
                    } else {
                        message
                    }
                })
        })
    };

    view! {
        <section class="create-subaccount" aria-labelledby="create-subaccount-heading">
            <h2 id="create-subaccount-heading">"Create a subaccount"</h2>
            <form class="create-form" on:submit=submit novalidate>
                <div class="create-fields">
                    <FormField
                        id="sub-email"
                        label="E-mail"
                        hint="Up to 64 characters; not already in use."
                        error=problem_of(NewField::Email)
                    >
                        <TextInput kind=TextKind::Email text=email />
                    </FormField>
                    <FormField
                        id="sub-username"
                        label="Username"
                        hint="Up to 64 characters."
                        error=problem_of(NewField::Username)
                    >
                        <TextInput kind=TextKind::Plain text=username />
                    </FormField>
                    <FormField
                        id="sub-password"
                        label="Password"
                        hint="At least 8 characters. It is sent once and kept nowhere here."
                        error=problem_of(NewField::Password)
                    >
                        <TextInput kind=TextKind::NewPassword text=password />
                    </FormField>
                </div>
                <AccountKind host_only=host_only />
                <p class="form-error" role="alert" id="sub-form-error">
                    {move || problem_of(NewField::Form).get()}
                </p>
                <div class="form-actions">
                    <SubmitButton pending=pending idle="Create subaccount…" busy="Creating…" />
                </div>
            </form>
            <CreateDialog create=create />
            {create.failure_view()}
            {move || {
                create
                    .done()
                    .map(|message| {
                        view! {
                            <p class="result" role="status" data-testid="subaccount-result">
                                {message}
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// Whether the new subaccount rents machines or only hosts them.
#[component]
fn AccountKind(host_only: RwSignal<bool>) -> impl IntoView {
    view! {
        <fieldset class="account-kind">
            <legend>"The subaccount"</legend>
            <label class="toggle">
                <input
                    type="radio"
                    name="sub-kind"
                    value="client"
                    prop:checked=move || !host_only.get()
                    on:change=move |_| host_only.set(false)
                />
                " Rents machines (client)"
            </label>
            <label class="toggle">
                <input
                    type="radio"
                    name="sub-kind"
                    value="host"
                    prop:checked=move || host_only.get()
                    on:change=move |_| host_only.set(true)
                />
                " Hosts machines only (host)"
            </label>
        </fieldset>
    }
}

/// Asks before creating, naming the account and what it gets.
#[component]
fn CreateDialog(create: ConfirmedAction<Draft, String>) -> impl IntoView {
    view! {
        <ActionDialog
            action=create
            title="Create this subaccount?"
            confirm_label="Create subaccount"
        >
            <p>
                {move || {
                    create
                        .asked()
                        .map(|d| {
                            format!(
                                "{} ({}), a {} account owned by yours, with a balance of $0.00 and its own API key.",
                                d.email,
                                d.username,
                                kind_name(d.host_only),
                            )
                        })
                }}
            </p>
        </ActionDialog>
    }
}
