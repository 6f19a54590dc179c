//! The members of the caller's current team: counts per role, a role filter kept in the
//! address, and a table whose role chips lead to each role's page.

use super::team_roles::role_path;
use crate::components::data_table::{Column, DataTable, RowFilter};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, ResourceView};
use gpudeck_wire::TeamMember;
use leptos::prelude::*;
use leptos_router::hooks::query_signal_with_options;
use leptos_router::NavigateOptions;
use std::sync::Arc;

/// Each role with how many members hold it, in the order the roles first appear.
pub fn role_counts(members: &[TeamMember]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for role in members.iter().flat_map(|m| &m.roles) {
        match counts.iter_mut().find(|(name, _)| name == role) {
            Some((_, count)) => *count += 1,
            None => counts.push((role.clone(), 1)),
        }
    }
    counts
}

fn member_columns() -> Vec<Column<TeamMember>> {
    vec![
        Column::text("username", "Username", |m: &TeamMember| m.username.clone()),
        Column::text("fullname", "Full name", |m: &TeamMember| m.fullname.clone()),
        Column::text("email", "Email", |m: &TeamMember| m.email.clone()),
        Column::text("roles", "Roles", |m: &TeamMember| m.roles.join(", ")).with_cell(|m| {
            m.roles
                .iter()
                .map(|role| view! { <a class="badge role-link" href=role_path(role)>{role.clone()}</a> })
                .collect_view()
                .into_any()
        }),
    ]
}

#[component]
pub fn TeamMembersPage() -> impl IntoView {
    let (role_param, set_role_param) = query_signal_with_options::<String>(
        "role",
        NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        },
    );
    let data = use_api_resource(|api| async move { api.team_members().await });
    let members = Signal::derive(move || data.get().and_then(Result::ok).unwrap_or_default());
    let role_filter = Signal::derive(move || {
        let role = role_param.get()?;
        let keep: RowFilter<TeamMember> = Arc::new(move |m: &TeamMember| m.roles.contains(&role));
        Some(keep)
    });
    let toggle_role = move |role: String| {
        let same = role_param.get_untracked().as_deref() == Some(role.as_str());
        set_role_param.set((!same).then_some(role));
    };

    view! {
        <Page class="team-members" title="Team members" lede="Members of your current team and their roles. Select a role to see only its members, or open a role to see its permissions.">
            {ResourceView::new(data, "Loading team members…").with_reload_button().show(move |list: Vec<TeamMember>| {
                let counts = role_counts(&list);
                let summary = counts
                    .iter()
                    .map(|(role, count)| format!("{role} {count}"))
                    .collect::<Vec<_>>()
                    .join(" · ");
                view! {
                    <p class="role-counts" data-testid="role-counts">
                        {format!("{} members", list.len())}
                        {(!summary.is_empty()).then(|| format!(" — {summary}"))}
                    </p>
                    <div class="filters" role="group" aria-label="Filter members by role">
                        <span class="filter-label">"Role"</span>
                        {counts.into_iter().map(|(role, count)| {
                            let name = role.clone();
                            let pressed = move || role_param.with(|r| r.as_deref() == Some(name.as_str()));
                            let chosen = role.clone();
                            view! {
                                <button
                                    type="button"
                                    class="chip badge role-chip"
                                    aria-pressed=move || pressed().to_string()
                                    on:click=move |_| toggle_role(chosen.clone())
                                >
                                    {role}" "
                                    <span class="chip-count">{count}</span>
                                </button>
                            }
                        }).collect_view()}
                    </div>
                    <DataTable
                        rows=members
                        columns=member_columns()
                        row_key=|m: &TeamMember| m.id.to_string()
                        empty="Your team has no members yet."
                        csv_name="team-members"
                        caption="Team members"
                        also_filter=role_filter
                    />
                }
            })}
        </Page>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::role_counts;
    use gpudeck_wire::TeamMember;

    const MEMBERS: &str = r#"[
        {"id": 1, "username": "alice", "email": "alice@example.test", "fullname": "Alice Example", "roles": ["owner"]},
        {"id": 3, "username": "carol", "email": "carol@example.test", "fullname": "Zoë Ångström", "roles": ["member"]},
        {"id": 4, "username": "dave", "email": "dave@example.test", "fullname": null, "roles": ["manager"]},
        {"id": 6, "username": "frank", "email": "frank@example.test", "fullname": "Frank <img src=x onerror=alert(1)>", "roles": ["member", "manager"]}
    ]"#;

    #[test]
    fn roles_are_counted_in_order_of_appearance() {
        let members: Vec<TeamMember> = serde_json::from_str(MEMBERS).unwrap();
        assert_eq!(
            role_counts(&members),
            [
                ("owner".to_owned(), 1),
                ("member".to_owned(), 2),
                ("manager".to_owned(), 2)
            ]
        );
    }
}
