//! Every role of the team (N13) with who holds it (seed op 7), and the ways into the
//! editor; deleting a role (N16) after a confirmation that names its holders.

use super::access::TEAM_PAGE;
use super::member_model::holders;
use crate::api::Refusal;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::data_table::{Column, DataTable};
use crate::components::page::Page;
use crate::components::page_access::page_is_readable;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::toasts::use_toasts;
use crate::components::words::said_or;
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
        <Page
            class="team-roles"
            out_of_reach=TEAM_PAGE
            entry=&gpudeck_pages::TEAM_ROLES
            lede="Every role of your current team, with the members who hold it. Open a role to see what it allows, edit it, copy it into a new role, or delete a role nobody holds."
        >
            <Show when=page_is_readable()>
                <div class="form-actions">
                    <a class="button primary" href=new_role_path(None)>
                        "New role"
                    </a>
                </div>
            </Show>
            {ResourceView::new(data, "Loading team roles…")
                .with_reload_button()
                .show(move |(roles, members): (Vec<TeamRoleEntry>, Vec<TeamMember>)| {
                    view! {
                        <div class="roles-table" data-testid="roles-table">
                            <DataTable
                                rows=role_rows(roles, &members)
                                columns=role_columns(Callback::new(move |name| remove.ask(name)))
                                row_key=|r: &RoleRow| r.role.name.clone()
                                empty="Your team has no roles that can be given."
                                csv_name="team-roles"
                                caption="Roles of your team"
                            />
                        </div>
                    }
                })}
            <div class="form-error" role="alert" data-testid="role-refusal">
                <p>{move || remove.refusal_where(|_| true)}</p>
                <p>{holders_line}</p>
            </div>
            {remove.failure_view()}
            <ActionDialog
                action=remove
                title="Delete this role?"
                confirm_label="Delete role"
                danger=true
            >
                <p>{move || format!("The role {} is deleted from your team for good.", asked())}</p>
                {move || {
                    let names = held_by();
                    (!names.is_empty())
                        .then(|| {
                            view! {
                                <p class="warning">
                                    {format!(
                                        "It is held by {}; the server refuses to delete a role while members hold it.",
                                        names.join(", "),
                                    )}
                                </p>
                            }
                        })
                }}
            </ActionDialog>
        </Page>
    }
}

/// One role and who holds it.
#[derive(Clone)]
struct RoleRow {
    role: TeamRoleEntry,
    holders: Vec<String>,
}

fn role_rows(roles: Vec<TeamRoleEntry>, members: &[TeamMember]) -> Vec<RoleRow> {
    roles
        .into_iter()
        .map(|role| RoleRow {
            holders: holders(members, &role.name),
            role,
        })
        .collect()
}

/// `built in (owner)` or `custom`.
fn kind_text(role: &TeamRoleEntry) -> String {
    role.identifier
        .clone()
        .map_or("custom".to_owned(), |id| format!("built in ({id})"))
}

fn role_columns(on_delete: Callback<String>) -> Vec<Column<RoleRow>> {
    vec![
        Column::text("role", "Role", |r: &RoleRow| r.role.name.clone()).with_cell(|r| {
            view! { <a href=role_path(&r.role.name)>{r.role.name.clone()}</a> }.into_any()
        }),
        Column::text("kind", "Kind", |r: &RoleRow| kind_text(&r.role)),
        Column::number(
            "held_by",
            "Held by",
            |r: &RoleRow| r.holders.len() as f64,
            |r| match r.holders.len() {
                0 => "0".to_owned(),
                n => format!("{n} — {}", r.holders.join(", ")),
            },
        )
        .with_cell(|r| {
            let names = r.holders.clone();
            view! {
                <span class="count">{names.len()}</span>
                {(!names.is_empty()).then(|| format!(" — {}", names.join(", ")))}
            }
            .into_any()
        }),
        Column::actions(move |r: &RoleRow| {
            let name = r.role.name.clone();
            let hidden_name = format!(" {name}");
            view! {
                <span class="row-actions">
                    <a class="button small" href=role_edit_path(&name)>
                        "Edit"<span class="visually-hidden">{hidden_name.clone()}</span>
                    </a>
                    <a class="button small" href=new_role_path(Some(&name))>
                        "Copy"<span class="visually-hidden">{hidden_name.clone()}</span>
                    </a>
                    <button type="button" class="button small danger delete-role" on:click=move |_| on_delete.run(name.clone())>
                        "Delete"<span class="visually-hidden">{hidden_name}</span>
                    </button>
                </span>
            }
            .into_any()
        }),
    ]
}
