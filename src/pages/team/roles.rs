//! Every role of the team (N13) with who holds it (seed op 7), and the ways into the
//! editor; deleting a role (N16) after a confirmation that names its holders.

use super::access::TEAM_PAGE;
use super::answers::said_or;
use super::member_model::holders;
use crate::api::Refusal;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::page::Page;
use crate::components::page_access::page_is_readable;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::toasts::use_toasts;
use crate::routes::{new_role_path, role_edit_path, role_path};
use gpudeck_wire::{TeamMember, TeamRoleEntry};
use leptos::prelude::*;

#[component]
pub fn RolesPage() -> impl IntoView {
    let toasts = use_toasts();
    let data = use_api_resource(|api| async move {
        futures::future::try_join(api.team_roles(), api.team_members()).await
    });
    let remove = ConfirmedAction::new(
        |api, name: String| async move { api.remove_role(&name).await },
        move |name, answer| {
            let said = said_or(answer.message, format!("Role {name} removed"));
            toasts.success(said);
            data.refetch();
            name
        },
    );
    let asked = move || remove.asked().unwrap_or_default();
    let held_by =
        move || with_loaded(data, |(_, members)| holders(members, &asked())).unwrap_or_default();
    // A role in use is refused (N16 409); the members list says by whom.
    let holders_line = move || {
        remove
            .refusal_where(|kind| kind == Refusal::Conflict)
            .map(|_| held_by())
            .filter(|names| !names.is_empty())
            .map(|names| format!("{} is held by: {}.", asked(), names.join(", ")))
    };

    view! {
        <Page class="team-roles" out_of_reach=TEAM_PAGE title="Team roles" lede="Every role of your current team, with the members who hold it. Open a role to see what it allows, edit it, copy it into a new role, or delete a role nobody holds.">
            <Show when=page_is_readable()>
                <div class="form-actions">
                    <a class="button primary" href=new_role_path(None)>"New role"</a>
                </div>
            </Show>
            {ResourceView::new(data, "Loading team roles…")
                .with_reload_button()
                .show(move |(roles, members): (Vec<TeamRoleEntry>, Vec<TeamMember>)| view! {
                    <RolesTable roles=roles members=members on_delete=Callback::new(move |name| remove.ask(name))/>
                })}
            <div class="form-error" role="alert" data-testid="role-refusal">
                <p>{move || remove.refusal_where(|_| true)}</p>
                <p>{holders_line}</p>
            </div>
            {remove.failure_view()}
            <ActionDialog action=remove title="Delete this role?" confirm_label="Delete role" danger=true>
                <p>{move || format!("The role {} is deleted from your team for good.", asked())}</p>
                {move || {
                    let names = held_by();
                    (!names.is_empty()).then(|| view! {
                        <p class="warning">{format!("It is held by {}; the server refuses to delete a role while members hold it.", names.join(", "))}</p>
                    })
                }}
            </ActionDialog>
        </Page>
    }
}

#[component]
fn RolesTable(
    roles: Vec<TeamRoleEntry>,
    members: Vec<TeamMember>,
    on_delete: Callback<String>,
) -> impl IntoView {
    let empty = roles.is_empty();
    view! {
        <div class="table-scroll cards-on-phone">
            <table class="roles-table" data-testid="roles-table">
                <caption>"Roles of your team"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Role"</th>
                        <th scope="col">"Kind"</th>
                        <th scope="col">"Held by"</th>
                        <th scope="col">"Actions"</th>
                    </tr>
                </thead>
                <tbody>
                    {roles.into_iter().map(|role| {
                        let names = holders(&members, &role.name);
                        let kind = role.identifier.clone().map_or("custom".to_owned(), |id| format!("built in ({id})"));
                        let name = role.name.clone();
                        view! {
                            <tr data-role=role.name.clone()>
                                <th scope="row"><a href=role_path(&role.name)>{role.name.clone()}</a></th>
                                <td data-label="Kind">{kind}</td>
                                <td data-label="Held by">
                                    <span class="count">{names.len()}</span>
                                    {(!names.is_empty()).then(|| format!(" — {}", names.join(", ")))}
                                </td>
                                <td class="row-actions" data-label="Actions">
                                    <a class="button small" href=role_edit_path(&role.name)>
                                        "Edit"<span class="visually-hidden">{format!(" {}", role.name)}</span>
                                    </a>
                                    <a class="button small" href=new_role_path(Some(&role.name))>
                                        "Copy"<span class="visually-hidden">{format!(" {}", role.name)}</span>
                                    </a>
                                    <button type="button" class="button small danger delete-role" on:click=move |_| on_delete.run(name.clone())>
                                        "Delete"<span class="visually-hidden">{format!(" {}", role.name)}</span>
                                    </button>
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        {empty.then(|| view! { <p class="empty-state">"Your team has no roles that can be given."</p> })}
    }
}
