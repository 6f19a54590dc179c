//! One role of the caller's current team, by name: its permissions as a grid, its
//! route-level entries, and the raw JSON on request. The name comes from the address, so
//! any role can be linked to; the list of every role is one click away.

use super::access::TEAM_PAGE;
use crate::api::Refusal;
use crate::components::form_field::{FormField, TextInput, TextKind};
use crate::components::page::Page;
use crate::components::permissions::{pretty, RolePermissions};
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::role_summary::RoleSummaryView;
use crate::domain::role::RoleSummary;
use crate::routes::{new_role_path, role_edit_path, role_name_of, role_path, TEAM_ROLES};
use gpudeck_wire::{Permissions, TeamRole};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{query_signal_with_options, use_navigate, use_params_map};
use leptos_router::NavigateOptions;

#[component]
pub fn TeamRolePage() -> impl IntoView {
    let params = use_params_map();
    let name = Memo::new(move |_| {
        params.with(|p| p.get("name").map(|s| role_name_of(&s)).unwrap_or_default())
    });
    let (view_param, set_view_param) = query_signal_with_options::<String>(
        "view",
        NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        },
    );
    let raw_json = move || view_param.get().as_deref() == Some("json");

    let role = use_api_resource(move |api| {
        let name = name.get();
        async move { api.team_role(&name).await }
    });
    let role_view =
        ResourceView::new(role, "Loading the role…").refusals(|error, refusal| match refusal {
            Refusal::NotFound => Some(
                view! {
                    <div class="result nothing" role="alert" data-testid="unknown-role">
                        <h2>"No such role"</h2>
                        <p>{error.message()}</p>
                        <p>"Pick a role from the list of all roles, or look up another name."</p>
                    </div>
                }
                .into_any(),
            ),
            _ => None,
        });

    view! {
        <Page class="team-role" out_of_reach=TEAM_PAGE entry=&gpudeck_pages::TEAM_ROLE>
            <nav class="role-links" aria-label="Roles">
                <A href=TEAM_ROLES exact=true>
                    "All roles"
                </A>
            </nav>
            <RoleLookup />
            {role_view
                .show(move |TeamRole { id, name, permissions }| {
                    let read = Permissions::read(&permissions);
                    let json = pretty(&permissions);
                    let summary = RoleSummary::of(&permissions);
                    let (edit, copy) = (role_edit_path(&name), new_role_path(Some(&name)));
                    view! {
                        <div class="role-header">
                            <h2 class="role-name" data-testid="role-name">
                                {name.clone()}
                            </h2>
                            <span class="muted">{format!("role #{id}")}</span>
                            <button
                                type="button"
                                class="button"
                                aria-pressed=move || raw_json().to_string()
                                on:click=move |_| {
                                    set_view_param
                                        .set(
                                            if raw_json() { None } else { Some("json".to_owned()) },
                                        )
                                }
                            >
                                "Raw JSON"
                            </button>
                            <a href=edit class="button">
                                "Edit"
                            </a>
                            <a href=copy class="button">
                                "Copy to a new role"
                            </a>
                        </div>
                        <RoleSummaryView summary=summary />
                        <Show
                            when=raw_json
                            fallback=move || {
                                view! {
                                    <RolePermissions permissions=read.clone() role=name.clone() />
                                }
                            }
                        >
                            <pre class="raw-json" data-testid="raw-json">
                                {json.clone()}
                            </pre>
                        </Show>
                    }
                })}
        </Page>
    }
}

/// Looks up any role by name by going to its address.
#[component]
fn RoleLookup() -> impl IntoView {
    let navigate = use_navigate();
    let text = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let name = text.get_untracked().trim().to_owned();
        if name.is_empty() {
            problem.set(Some("Enter a role name.".into()));
            return;
        }
        problem.set(None);
        text.set(String::new());
        navigate(&role_path(&name), Default::default());
    };
    view! {
        <form class="role-lookup" on:submit=submit novalidate>
            <FormField
                id="role-name"
                label="Look up a role by name"
                class="field with-button"
                error=problem
                beside=|| {
                    view! {
                        <button type="submit" class="button">
                            "Show role"
                        </button>
                    }
                }
            >
                <TextInput kind=TextKind::Plain text=text />
            </FormField>
        </form>
    }
}
