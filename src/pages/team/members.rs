//! The members of the caller's current team: counts per role, a role filter kept in the
//! address, a table whose role chips lead to each role's page and whose row actions change
//! who holds what (N19) and remove a member (N18), inviting one (N17), and the pending
//! invitations (N17a).

use super::access::TEAM_PAGE;
use super::invitations::{InviteForm, PendingInvitations};
use super::member_model::{display_name, owner_id, RoleChange};
use crate::api::{ApiClient, ApiError};
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::data_table::{Column, DataTable, RowFilter};
use crate::components::form_field::FormField;
use crate::components::page::Page;
use crate::components::page_access::page_is_readable;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::toasts::use_toasts;
use crate::components::words::said_or;
use crate::routes::role_path;
use crate::session::use_session;
pub use gpudeck_logic::pages::team::members::*;
use gpudeck_wire::{TeamMember, TeamRoleEntry};
use leptos::prelude::*;
use leptos_router::hooks::query_signal_with_options;
use leptos_router::NavigateOptions;
use std::sync::Arc;

/// The two changes the table's controls ask for: a member's roles (N19) and removal (N18).
#[derive(Clone, Copy)]
struct MemberControls {
    change: ConfirmedAction<(RoleChange, String), String>,
    remove: ConfirmedAction<(i64, String), String>,
}

/// The member rows' context: the assignable roles, the owner and the acting user.
#[derive(Clone)]
struct Team {
    roles: Arc<Vec<TeamRoleEntry>>,
    owner: Option<i64>,
    me: i64,
}

fn member_columns(team: Team, controls: MemberControls) -> Vec<Column<TeamMember>> {
    let owner = team.owner;
    vec![
        Column::text("username", "Username", |m: &TeamMember| m.username.clone()),
        Column::text("fullname", "Full name", |m: &TeamMember| m.fullname.clone()),
        Column::text("email", "Email", |m: &TeamMember| m.email.clone()),
        Column::text("roles", "Roles", |m: &TeamMember| m.roles.join(", ")).with_cell(move |m| {
            let touchable = owner != Some(m.id);
            view! { <RoleChips member=m.clone() touchable=touchable controls=controls/> }.into_any()
        }),
        Column::actions(move |m| {
            let who = display_name(m);
            let id = m.id;
            let removal = if team.owner == Some(id) {
                view! { <span class="muted">"Owner"</span> }.into_any()
            } else if team.me == id {
                view! { <span class="muted">"You"</span> }.into_any()
            } else {
                let label = format!("Remove {who} from the team");
                view! {
                    <button type="button" class="button small danger remove-member" aria-label=label
                        on:click=move |_| controls.remove.ask((id, who.clone()))>
                        "Remove"
                    </button>
                }
                .into_any()
            };
            // The owner's role is not the team's to change.
            let offer = (team.owner != Some(id))
                .then(|| view! { <RoleOffer member=m.clone() roles=team.roles.clone() controls=controls/> });
            view! { <span class="row-actions">{offer}{removal}</span> }.into_any()
        }),
    ]
}

/// A member's role chips, each a link to the role, with a button that takes the role away
/// while the member holds others: the button acts on its chip, so it stays on it.
#[component]
fn RoleChips(member: TeamMember, touchable: bool, controls: MemberControls) -> impl IntoView {
    let who = display_name(&member);
    member
        .roles
        .iter()
        .map(|role| {
            let take = touchable
                .then(|| RoleChange::to_take(&member, role))
                .flatten();
            let label = format!("Take the role {role} away from {who}");
            let who = who.clone();
            view! {
                <span class="role-chip-group">
                    <a class="badge role-link" href=role_path(role)>
                        {role.clone()}
                    </a>
                    {take
                        .map(|change| {
                            view! {
                                <button
                                    type="button"
                                    class="chip-remove"
                                    aria-label=label
                                    on:click=move |_| {
                                        controls.change.ask((change.clone(), who.clone()))
                                    }
                                >
                                    "×"
                                </button>
                            }
                        })}
                </span>
            }
        })
        .collect_view()
}

/// The choice of a role to give a member who has none, or to replace their one role with;
/// nothing when no role can be given.
#[component]
fn RoleOffer(
    member: TeamMember,
    roles: Arc<Vec<TeamRoleEntry>>,
    controls: MemberControls,
) -> impl IntoView {
    let who = display_name(&member);
    let offers: Vec<(String, RoleChange)> = roles
        .iter()
        .filter_map(|role| RoleChange::to_give(&member, role).map(|c| (role.name.clone(), c)))
        .collect();
    let (verb, label) = if member.roles.is_empty() {
        ("Give", format!("Role to give {who}"))
    } else {
        ("Replace", format!("Role to replace {who}'s role with"))
    };
    let chosen = RwSignal::new(String::new());
    let select_id = format!("member-{}-role", member.id);
    (!offers.is_empty()).then(move || {
        let offers = StoredValue::new(offers);
        let who_for_offer = who.clone();
        let ask = move |_| {
            let name = chosen.get_untracked();
            if let Some(change) =
                offers.with_value(|o| o.iter().find(|(n, _)| *n == name).map(|(_, c)| c.clone()))
            {
                controls.change.ask((change, who_for_offer.clone()));
            }
        };
        let options = offers.with_value(|offered| {
            offered
                .iter()
                .map(|(name, _)| view! { <option value=name.clone()>{name.clone()}</option> })
                .collect_view()
        });
        view! {
            <FormField
                id=select_id
                label=label
                label_class="visually-hidden"
                class="role-offer"
                beside=move || {
                    view! {
                        <button
                            type="button"
                            class="button small"
                            on:click=ask
                            disabled=move || chosen.with(String::is_empty)
                        >
                            {verb}
                            <span class="visually-hidden">{format!(" a role for {who}")}</span>
                        </button>
                    }
                }
            >
                <select on:change=move |ev| chosen.set(event_target_value(&ev))>
                    <option value="">"Role…"</option>
                    {options}
                </select>
            </FormField>
        }
    })
}

/// N19 (give, replace or take a role), as the row's change asks; what the server said, or
/// the console's own sentence when it said nothing.
async fn send_role_change(api: ApiClient, change: RoleChange) -> Result<String, ApiError> {
    match change {
        RoleChange::Give { member, role } => api
            .give_member_role(member, &role)
            .await
            .map(|a| said_or(a.msg, format!("Gave the role {role}"))),
        RoleChange::Replace {
            member,
            role_id,
            role,
        } => api
            .replace_member_role(member, role_id)
            .await
            .map(|a| said_or(a.msg, format!("The role is now {role}"))),
        RoleChange::Take { member, role } => api
            .take_member_role(member, &role)
            .await
            .map(|a| said_or(a.msg, format!("Took the role {role} away"))),
    }
}

/// A chip per role with its member count; pressing one shows only its members.
#[component]
fn RoleFilter(
    counts: Vec<(String, usize)>,
    role_param: Memo<Option<String>>,
    toggle_role: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="filters" role="group" aria-label="Filter members by role">
            <span class="filter-label">"Role"</span>
            {counts
                .into_iter()
                .map(|(role, count)| {
                    let name = role.clone();
                    let pressed = move || {
                        role_param.with(|r| r.as_deref() == Some(name.as_str()))
                    };
                    let chosen = role.clone();
                    view! {
                        <button
                            type="button"
                            class="chip badge role-chip"
                            aria-pressed=move || pressed().to_string()
                            on:click=move |_| toggle_role.run(chosen.clone())
                        >
                            {role}
                            " "
                            <span class="chip-count">{count}</span>
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[component]
pub fn TeamMembersPage() -> impl IntoView {
    let toasts = use_toasts();
    let session = use_session();
    let (role_param, set_role_param) = query_signal_with_options::<String>(
        "role",
        NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        },
    );
    let data = use_api_resource(|api| async move {
        futures::future::try_join(api.team_members(), api.team_roles()).await
    });
    // The invitation form, outside the list, offers the roles the list loaded.
    let roles =
        Signal::derive(move || with_loaded(data, |(_, roles)| roles.clone()).unwrap_or_default());
    let role_filter = Signal::derive(move || {
        let role = role_param.get()?;
        let keep: RowFilter<TeamMember> = Arc::new(move |m: &TeamMember| m.roles.contains(&role));
        Some(keep)
    });
    let toggle_role = Callback::new(move |role: String| {
        let same = role_param.get_untracked().as_deref() == Some(role.as_str());
        set_role_param.set((!same).then_some(role));
    });
    let change = ConfirmedAction::new(
        |api, (change, _who): (RoleChange, String)| send_role_change(api, change),
        move |_, said: String| {
            toasts.success(said.clone());
            data.refetch();
            said
        },
    );
    let remove = ConfirmedAction::new(
        |api, (id, _who): (i64, String)| async move { api.remove_member(id).await },
        move |(_, who), answer| {
            let said = said_or(answer.message, format!("{who} was removed from the team"));
            toasts.success(format!("{who}: {said}"));
            data.refetch();
            said
        },
    );
    let controls = MemberControls { change, remove };
    // Bumped by each invitation sent, so the pending list loads again.
    let sent = RwSignal::new(0u32);
    // Untracked: read while the member table is built, a tracked read would build the
    // table again when the session changes, and signing out then rebuilt it while the page
    // was being disposed (a panic: "RuntimeError: unreachable").
    let me = move || {
        session
            .get_untracked()
            .map(|s| s.user.id)
            .unwrap_or_default()
    };

    view! {
        <Page
            class="team-members"
            out_of_reach=TEAM_PAGE
            entry=&gpudeck_pages::TEAM_MEMBERS
            lede="Members of your current team and their roles. Invite people, change who holds which role, or remove a member. Select a role to see only its members, or open a role to see its permissions."
        >
            // Nothing here would be let through once the page's reads were refused.
            <Show when=page_is_readable()>
                <InviteForm roles=roles sent=sent />
                <PendingInvitations sent=sent />
                <h2>"Members"</h2>
            </Show>
            {ResourceView::new(data, "Loading team members…")
                .with_reload_button()
                .show(move |(list, roles): (Vec<TeamMember>, Vec<TeamRoleEntry>)| {
                    let counts = role_counts(&list);
                    let summary = counts
                        .iter()
                        .map(|(role, count)| format!("{role} {count}"))
                        .collect::<Vec<_>>()
                        .join(" · ");
                    let team = Team {
                        owner: owner_id(&list, &roles),
                        roles: Arc::new(roles),
                        me: me(),
                    };
                    let count = list.len();
                    view! {
                        <p class="role-counts" data-testid="role-counts">
                            {format!("{count} members")}
                            {(!summary.is_empty()).then(|| format!(" — {summary}"))}
                        </p>
                        <RoleFilter counts=counts role_param=role_param toggle_role=toggle_role />
                        <DataTable
                            rows=list
                            columns=member_columns(team, controls)
                            row_key=|m: &TeamMember| m.id.to_string()
                            empty="Your team has no members yet."
                            csv_name="team-members"
                            caption="Team members"
                            also_filter=role_filter
                        />
                    }
                })}
            <div class="form-error" role="alert" data-testid="member-refusal">
                <p>{move || change.refusal_where(|_| true)}</p>
                <p>{move || remove.refusal_where(|_| true)}</p>
            </div>
            {change.failure_view()}
            {remove.failure_view()}
            <ActionDialog
                action=change
                title="Change this member's roles?"
                confirm_label="Change role"
            >
                <p>{move || change.asked().map(|(c, who)| c.sentence(&who))}</p>
            </ActionDialog>
            <ActionDialog
                action=remove
                title="Remove this member?"
                confirm_label="Remove member"
                danger=true
            >
                <p>
                    {move || {
                        remove
                            .asked()
                            .map(|(_, who)| {
                                format!(
                                    "{who} leaves the team, and their team keys stop working at once. Their personal keys are not touched.",
                                )
                            })
                    }}
                </p>
            </ActionDialog>
        </Page>
    }
}
