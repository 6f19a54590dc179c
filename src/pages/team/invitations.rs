//! Inviting a member (N17) and the invitations still open (N17a). Against a service
//! without N17a (the public one answers 404), the list is the invitations sent from this
//! tab, kept in sessionStorage, and says so.

use super::member_model::email_problem;
use crate::api::Refusal;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::time::{now_seconds, Time};
use crate::components::toasts::use_toasts;
use crate::components::words::said_or;
use crate::storage::Stored;
use gpudeck_wire::{Invitation, TeamRoleEntry};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// An invitation sent from this tab: e-mail, role and time only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SentHere {
    pub email: String,
    pub role: String,
    pub sent_at: f64,
}

fn sent_here() -> Stored<Vec<SentHere>> {
    Stored::in_session("gpudeck.sent-invitations")
}

/// The pending invitations as far as the console can tell.
#[derive(Clone, Debug, PartialEq)]
enum Pending {
    /// N17a's list.
    FromServer(Vec<Invitation>),
    /// The service has no N17a: what this tab sent.
    ThisTab(Vec<SentHere>),
}

#[component]
pub fn InviteForm(
    #[prop(into)] roles: Signal<Vec<TeamRoleEntry>>,
    sent: RwSignal<u32>,
) -> impl IntoView {
    let toasts = use_toasts();
    let email = RwSignal::new(String::new());
    let role = RwSignal::new(String::new());
    let email_error = RwSignal::new(None::<String>);
    let role_error = RwSignal::new(None::<String>);
    let invite = ConfirmedAction::new(
        |api, (email, role): (String, String)| async move { api.invite_member(&email, &role).await },
        move |(to, as_role), answer| {
            let said = said_or(answer.msg, format!("Invitation sent to {to}"));
            let mut list = sent_here().load().unwrap_or_default();
            list.insert(
                0,
                SentHere {
                    email: to,
                    role: as_role,
                    sent_at: now_seconds(),
                },
            );
            sent_here().save(&list);
            toasts.success(said.clone());
            email.try_set(String::new());
            sent.try_update(|n| *n += 1);
            said
        },
    );
    let check = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        invite.clear();
        let address = email.get_untracked().trim().to_owned();
        let chosen = role.get_untracked();
        email_error.set(email_problem(&address));
        role_error.set(
            chosen
                .is_empty()
                .then(|| "Choose the role the person gets.".to_owned()),
        );
        if email_error.with_untracked(Option::is_none) && role_error.with_untracked(Option::is_none)
        {
            invite.ask((address, chosen));
        }
    };
    // A role that does not exist is the role's fault; everything else the address's.
    let email_shown = move || {
        email_error
            .get()
            .or_else(|| invite.refusal_where(|kind| kind != Refusal::NotFound))
    };
    let role_shown = move || {
        role_error
            .get()
            .or_else(|| invite.refusal_where(|kind| kind == Refusal::NotFound))
    };
    view! {
        <form class="invite-form" on:submit=check novalidate aria-labelledby="invite-heading">
            <h2 id="invite-heading">"Invite a member"</h2>
            <FormField
                id="invite-email"
                label="E-mail address"
                error=Signal::derive(email_shown)
                class="short-field"
            >
                <TextInput kind=TextKind::Email text=email />
            </FormField>
            <FormField
                id="invite-role"
                label="Role"
                error=Signal::derive(role_shown)
                class="short-field"
            >
                <select on:change=move |ev| role.set(event_target_value(&ev))>
                    <option value="" selected=move || role.with(String::is_empty)>
                        "Choose a role…"
                    </option>
                    {move || {
                        roles
                            .get()
                            .into_iter()
                            .map(|r| {
                                let (value, label, name) = (r.name.clone(), r.name.clone(), r.name);
                                let selected = move || role.with(|chosen| *chosen == name);
                                view! {
                                    <option value=value selected=selected>
                                        {label}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </FormField>
            <div class="form-actions">
                <SubmitButton
                    pending=invite.pending()
                    idle="Send invitation…"
                    busy="Sending…"
                />
            </div>
        </form>
        {invite.failure_view()}
        <ActionDialog action=invite title="Send this invitation?" confirm_label="Send invitation">
            <p>
                {move || {
                    invite
                        .asked()
                        .map(|(to, as_role)| {
                            format!("{to} is invited to join your team with the role {as_role}.")
                        })
                }}
            </p>
        </ActionDialog>
    }
}

#[component]
pub fn PendingInvitations(sent: RwSignal<u32>) -> impl IntoView {
    let pending = use_api_resource(move |api| {
        sent.track();
        async move {
            match api.invitations().await {
                Ok(list) => Ok(Pending::FromServer(list)),
                Err(error) if error.refusal() == Some(Refusal::NotFound) => {
                    Ok(Pending::ThisTab(sent_here().load().unwrap_or_default()))
                }
                Err(error) => Err(error),
            }
        }
    });
    view! {
        <section class="pending-invitations" aria-labelledby="pending-heading">
            <h2 id="pending-heading">"Pending invitations"</h2>
            {ResourceView::new(pending, "Loading invitations…")
                .show(|pending: Pending| match pending {
                    Pending::FromServer(list) if list.is_empty() => {
                        view! {
                            <p class="empty-state">"No invitation is waiting for an answer."</p>
                        }
                            .into_any()
                    }
                    Pending::FromServer(list) => {
                        view! {
                            <ul class="invitation-list" data-testid="invitations">
                                {list
                                    .into_iter()
                                    .map(|i| {
                                        view! {
                                            <li>
                                                <span class="invitee">{i.email}</span>
                                                " as "
                                                <span class="badge">{i.role}</span>
                                                " — sent "
                                                <Time unix_seconds=i.created_at />
                                                ", expires "
                                                <Time unix_seconds=i.expires_at />
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }
                    Pending::ThisTab(list) => {
                        view! {
                            <p class="hint" data-testid="this-tab-only">
                                "This service does not list pending invitations, so these are the ones sent from this tab only."
                            </p>
                            {if list.is_empty() {
                                view! {
                                    <p class="empty-state">
                                        "No invitation was sent from this tab."
                                    </p>
                                }
                                    .into_any()
                            } else {
                                view! {
                                    <ul class="invitation-list" data-testid="invitations">
                                        {list
                                            .into_iter()
                                            .map(|i| {
                                                view! {
                                                    <li>
                                                        <span class="invitee">{i.email}</span>
                                                        " as "
                                                        <span class="badge">{i.role}</span>
                                                        " — sent "
                                                        <Time unix_seconds=i.sent_at />
                                                    </li>
                                                }
                                            })
                                            .collect_view()}
                                    </ul>
                                }
                                    .into_any()
                            }}
                        }
                            .into_any()
                    }
                })}
        </section>
    }
}
