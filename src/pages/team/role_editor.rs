//! The role editor: create a role (N14), from scratch or from a copy of another, or edit
//! one (N15). Permission groups as a checkbox grid, route-level entries with their
//! constraints, the parts it does not recognise shown and kept, a raw-JSON mode, the
//! role in plain words, and the changes listed before anything is saved. The rules live
//! in [`super::role_model`].

use super::access::TEAM_PAGE;
use super::answers::said_or;
use super::role::RoleSummaryView;
use super::role_model::{
    constraint_problem, group_words, ConstraintDraft, Place, RoleDiff, RoleDraft, RoleSummary,
    RouteDraft,
};
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::page::Page;
use crate::components::permissions::pretty;
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::toasts::use_toasts;
use crate::routes::{role_name_of, role_path, TEAM_ROLES};
use gpudeck_wire::permissions::{Access, ConstraintOperator, GroupGrant, UnrecognisedPart};
use gpudeck_wire::{PermissionGroup, TeamRoleEntry};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use serde_json::Value;

/// What the editor was opened for.
#[derive(Clone, Debug, PartialEq)]
enum Opened {
    /// Editing the role of this name.
    Edit(String),
    /// A new role, starting from a copy of the named one when given.
    Create(Option<String>),
}

/// Where the editor starts and what a save compares with.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The role being edited (None for a new one).
    pub role_id: Option<i64>,
    /// The name and permissions the diff is taken against.
    pub before: (String, Value),
    /// The editor's first state.
    pub draft: RoleDraft,
    /// The team's other role names, which the name must differ from.
    pub other_names: Vec<String>,
}

impl Start {
    /// From N13's list; `None` when the named role is not in it.
    fn of(opened: &Opened, roles: &[TeamRoleEntry]) -> Option<Result<Start, String>> {
        let find = |name: &str| roles.iter().find(|r| r.name == name);
        let others = |except: Option<&str>| {
            roles
                .iter()
                .filter(|r| Some(r.name.as_str()) != except)
                .map(|r| r.name.clone())
                .collect()
        };
        Some(match opened {
            Opened::Edit(name) => {
                let role = find(name)?;
                RoleDraft::read(&role.name, &role.permissions).map(|draft| Start {
                    role_id: Some(role.id),
                    before: (role.name.clone(), role.permissions.clone()),
                    draft,
                    other_names: others(Some(name)),
                })
            }
            Opened::Create(Some(from)) => {
                let role = find(from)?;
                let name = copy_name(&role.name, roles);
                RoleDraft::read(&name, &role.permissions).map(|draft| Start {
                    role_id: None,
                    before: (role.name.clone(), role.permissions.clone()),
                    draft,
                    other_names: others(None),
                })
            }
            Opened::Create(None) => Ok(Start {
                role_id: None,
                before: (String::new(), Value::Object(Default::default())),
                draft: RoleDraft::empty(),
                other_names: others(None),
            }),
        })
    }
}

/// `manager copy`, or `manager copy 2`, … : a name no role has yet.
pub fn copy_name(name: &str, roles: &[TeamRoleEntry]) -> String {
    let taken = |candidate: &str| roles.iter().any(|r| r.name == candidate);
    let base: String = format!("{name} copy").chars().take(44).collect();
    (1..)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base} {n}")
            }
        })
        .find(|candidate| !taken(candidate))
        .unwrap_or(base)
}

#[component]
pub fn RoleEditorPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let opened = Memo::new(move |_| match params.with(|p| p.get("name")) {
        Some(segment) => Opened::Edit(role_name_of(&segment)),
        None => Opened::Create(query.with(|q| q.get("from"))),
    });
    let title = match opened.get_untracked() {
        Opened::Edit(_) => "Edit role",
        Opened::Create(_) => "New role",
    };
    let roles = use_api_resource(|api| async move { api.team_roles().await });
    view! {
        <Page class="role-editor" out_of_reach=TEAM_PAGE title=title lede="Choose the permission groups, narrow single routes with constraints, and review the changes before saving. Parts the editor does not recognise are kept exactly as they are.">
            <nav class="role-links" aria-label="Roles">
                <a href=TEAM_ROLES>"All roles"</a>
            </nav>
            {ResourceView::new(roles, "Loading team roles…")
                .show(move |list: Vec<TeamRoleEntry>| {
                    let opened = opened.get();
                    match Start::of(&opened, &list) {
                        Some(Ok(start)) => view! { <RoleEditor start=start/> }.into_any(),
                        Some(Err(problem)) => view! {
                            <div class="result nothing" role="alert"><p>{problem}</p></div>
                        }.into_any(),
                        None => {
                            let name = match opened { Opened::Edit(n) | Opened::Create(Some(n)) => n, Opened::Create(None) => String::new() };
                            view! {
                                <div class="result nothing" role="alert" data-testid="unknown-role">
                                    <h2>"No such role to edit"</h2>
                                    <p>{format!("The team's list of roles has no role named {name}. The owner role is never listed and cannot be edited.")}</p>
                                </div>
                            }.into_any()
                        }
                    }
                })}
        </Page>
    }
}

/// One constraint row: a stable key for its ids, and its fields as signals so typing
/// does not redraw the list.
#[derive(Clone, Copy)]
struct ConstraintRow {
    key: u64,
    field: RwSignal<String>,
    operator: RwSignal<String>,
    value: RwSignal<String>,
    was: StoredValue<Option<Value>>,
}

#[derive(Clone, Copy)]
struct RouteRow {
    key: u64,
    place: Place,
    name: RwSignal<String>,
    constraints: RwSignal<Vec<ConstraintRow>>,
    rest: StoredValue<serde_json::Map<String, Value>>,
}

impl ConstraintRow {
    fn draft(&self) -> ConstraintDraft {
        ConstraintDraft {
            field: self.field.get(),
            operator: self.operator.get(),
            value: self.value.get(),
            was: self.was.get_value(),
        }
    }
}

impl RouteRow {
    fn draft(&self) -> RouteDraft {
        RouteDraft {
            place: self.place,
            name: self.name.get(),
            constraints: self
                .constraints
                .get()
                .iter()
                .map(ConstraintRow::draft)
                .collect(),
            rest: self.rest.get_value(),
        }
    }
}

/// The editor's state: the grid's groups, the route rows, and the rest of the draft.
#[derive(Clone, Copy)]
struct EditorState {
    name: RwSignal<String>,
    groups: RwSignal<Vec<GroupGrant>>,
    routes: RwSignal<Vec<RouteRow>>,
    /// The draft as last loaded: the kept parts come from here.
    base: RwSignal<RoleDraft>,
    next_key: StoredValue<u64>,
}

impl EditorState {
    fn new(draft: RoleDraft) -> Self {
        let state = EditorState {
            name: RwSignal::new(String::new()),
            groups: RwSignal::new(Vec::new()),
            routes: RwSignal::new(Vec::new()),
            base: RwSignal::new(RoleDraft::empty()),
            next_key: StoredValue::new(0),
        };
        state.load(draft);
        state
    }

    fn key(&self) -> u64 {
        self.next_key.update_value(|k| *k += 1);
        self.next_key.get_value()
    }

    fn constraint_row(&self, draft: ConstraintDraft) -> ConstraintRow {
        ConstraintRow {
            key: self.key(),
            field: RwSignal::new(draft.field),
            operator: RwSignal::new(draft.operator),
            value: RwSignal::new(draft.value),
            was: StoredValue::new(draft.was),
        }
    }

    fn route_row(&self, draft: RouteDraft) -> RouteRow {
        let constraints = draft
            .constraints
            .into_iter()
            .map(|c| self.constraint_row(c))
            .collect();
        RouteRow {
            key: self.key(),
            place: draft.place,
            name: RwSignal::new(draft.name),
            constraints: RwSignal::new(constraints),
            rest: StoredValue::new(draft.rest),
        }
    }

    fn load(&self, draft: RoleDraft) {
        self.name.set(draft.name.clone());
        self.groups.set(draft.base.groups.clone());
        let rows = draft
            .routes
            .iter()
            .cloned()
            .map(|r| self.route_row(r))
            .collect();
        self.routes.set(rows);
        self.base.set(draft);
    }

    fn draft(&self) -> RoleDraft {
        let mut draft = self.base.get();
        draft.name = self.name.get();
        draft.base.groups = self.groups.get();
        draft.routes = self.routes.get().iter().map(RouteRow::draft).collect();
        draft
    }
}

/// What a save sends.
#[derive(Clone, Debug, PartialEq)]
struct Save {
    role_id: Option<i64>,
    name: String,
    /// For an edit: only what changed is sent.
    name_changed: bool,
    permissions: Value,
    permissions_changed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Grid,
    Json,
}

#[component]
pub fn RoleEditor(start: Start) -> impl IntoView {
    let toasts = use_toasts();
    let navigate = use_navigate();
    let Start {
        role_id,
        before,
        draft,
        other_names,
    } = start;
    let state = EditorState::new(draft);
    let mode = RwSignal::new(Mode::Grid);
    let json_text = RwSignal::new(String::new());
    let json_problem = RwSignal::new(None::<String>);
    let problems = RwSignal::new(Vec::<String>::new());
    let checked = RwSignal::new(false);
    let nothing_changed = RwSignal::new(false);
    let before = StoredValue::new(before);
    let other_names = StoredValue::new(other_names);

    // The permissions as they stand, whichever mode is on; Err when the JSON is not usable.
    let current = move || -> Result<RoleDraft, String> {
        match mode.get() {
            Mode::Grid => Ok(state.draft()),
            Mode::Json => parse_permissions(&state.name.get(), &json_text.get()),
        }
    };
    let to_json = move |_| {
        json_text.set(pretty(&state.draft().permissions()));
        json_problem.set(None);
        mode.set(Mode::Json);
    };
    let to_grid =
        move |_| match parse_permissions(&state.name.get_untracked(), &json_text.get_untracked()) {
            Ok(draft) => {
                state.load(draft);
                json_problem.set(None);
                mode.set(Mode::Grid);
            }
            Err(problem) => json_problem.set(Some(problem)),
        };

    let save = ConfirmedAction::new(
        |api, save: Save| async move {
            match save.role_id {
                None => api
                    .create_role(&save.name, save.permissions)
                    .await
                    .map(|answer| said_or(answer.msg, format!("Role {} created", save.name))),
                Some(id) => api
                    .update_role(
                        id,
                        save.name_changed.then(|| save.name.clone()),
                        save.permissions_changed.then_some(save.permissions),
                    )
                    .await
                    .map(|answer| answer.message().to_owned()),
            }
        },
        move |save, said: String| {
            toasts.success(said.clone());
            navigate(&role_path(&save.name), Default::default());
            said
        },
    );

    let review = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        checked.set(true);
        nothing_changed.set(false);
        save.clear();
        let draft = match current() {
            Ok(draft) => draft,
            Err(problem) => {
                problems.set(vec![problem]);
                return;
            }
        };
        let found = other_names.with_value(|names| draft.problems(names));
        problems.set(found.clone());
        if !found.is_empty() {
            return;
        }
        let permissions = draft.permissions();
        let (old_name, old_permissions) = before.get_value();
        if role_id.is_some()
            && RoleDiff::between((&old_name, &old_permissions), (&draft.name, &permissions))
                .is_empty()
        {
            nothing_changed.set(true);
            return;
        }
        save.ask(Save {
            role_id,
            name: draft.name.clone(),
            name_changed: draft.name != old_name,
            permissions_changed: permissions != old_permissions,
            permissions,
        });
    };
    let diff_lines = move || {
        let asked = save.asked()?;
        let (old_name, old_permissions) = before.get_value();
        let mut lines = RoleDiff::between(
            (&old_name, &old_permissions),
            (&asked.name, &asked.permissions),
        )
        .lines();
        if role_id.is_none() {
            lines.retain(|line| !line.starts_with("Renamed"));
            lines.insert(0, format!("Creates the role {}", asked.name));
        }
        Some(lines)
    };
    let copied_from = move || {
        let (old_name, _) = before.get_value();
        (role_id.is_none() && !old_name.is_empty())
            .then(|| format!("Changes compared with the role {old_name} it copies:"))
    };

    view! {
        <form class="role-form" on:submit=review novalidate>
            <div class="id-field">
                <label for="role-name-input">"Role name"</label>
                <input
                    id="role-name-input"
                    type="text"
                    autocomplete="off"
                    aria-describedby="role-name-hint"
                    prop:value=state.name
                    on:input=move |ev| state.name.set(event_target_value(&ev))
                />
                <p id="role-name-hint" class="hint">"2 to 50 characters, different from the team's other roles."</p>
            </div>
            <div class="mode-switch" role="group" aria-label="Editing mode">
                <button type="button" class="button" aria-pressed=move || (mode.get() == Mode::Grid).to_string() on:click=to_grid>"Grid"</button>
                <button type="button" class="button" aria-pressed=move || (mode.get() == Mode::Json).to_string() on:click=to_json>"Raw JSON"</button>
            </div>
            <Show
                when=move || mode.get() == Mode::Json
                fallback=move || view! {
                    <GroupGrid groups=state.groups/>
                    <RouteEntries state=state checked=checked/>
                    <KeptParts parts=Signal::derive(move || state.base.with(|d| d.kept().to_vec()))/>
                }
            >
                <div class="id-field">
                    <label for="role-json">"Permissions as JSON"</label>
                    <textarea
                        id="role-json"
                        class="raw-json"
                        rows="16"
                        spellcheck="false"
                        aria-describedby="role-json-error"
                        aria-invalid=move || json_problem.with(Option::is_some).to_string()
                        prop:value=json_text
                        on:input=move |ev| {
                            json_text.set(event_target_value(&ev));
                            json_problem.set(parse_permissions("", &json_text.get_untracked()).err());
                        }
                    ></textarea>
                    <p id="role-json-error" class="form-error" role="alert">{move || json_problem.get()}</p>
                </div>
            </Show>
            <h2>"In plain words"</h2>
            {move || current().ok().map(|draft| view! { <RoleSummaryView summary=RoleSummary::of(&draft.permissions())/> })}
            <div class="form-error" role="alert" data-testid="editor-problems">
                {move || {
                    let list = problems.get();
                    (!list.is_empty()).then(|| view! {
                        <p>"Fix these before saving:"</p>
                        <ul>{list.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                    })
                }}
                <p>{move || save.refusal_where(|_| true)}</p>
            </div>
            <p class="hint" role="status">{move || nothing_changed.get().then_some("Nothing changed, so there is nothing to save.")}</p>
            <div class="form-actions">
                <button type="submit" class="button primary" disabled=save.pending()>
                    {move || if save.pending().get() { "Saving…" } else { "Review and save…" }}
                </button>
            </div>
        </form>
        {save.failure_view()}
        <ActionDialog action=save title="Save these changes?" confirm_label="Save role">
            {move || copied_from().map(|text| view! { <p>{text}</p> })}
            <ul class="role-diff" data-testid="role-diff">
                {move || diff_lines().unwrap_or_default().into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
            </ul>
        </ActionDialog>
    }
}

/// The raw-JSON text read as a draft, or what is wrong with it.
fn parse_permissions(name: &str, text: &str) -> Result<RoleDraft, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("This is not valid JSON: {e}."))?;
    RoleDraft::read(name, &value)
}

/// The 11 groups as checkboxes, one fieldset per area.
#[component]
fn GroupGrid(groups: RwSignal<Vec<GroupGrant>>) -> impl IntoView {
    view! {
        <div class="group-grid" data-testid="group-grid">
            {PermissionGroup::AREAS.into_iter().map(|area| view! {
                <fieldset class="group-area">
                    <legend>{area}</legend>
                    {PermissionGroup::ALL.into_iter().filter(|g| g.area() == area).map(|group| {
                        let id = format!("group-{group}");
                        let access = match group.access() {
                            Access::Read => "Read",
                            Access::Write => "Write",
                            Access::Any => "Use",
                        };
                        let granted = move || groups.with(|list| list.iter().any(|g| g.group == group));
                        // A group entry with more than `{}` in it (constraints, say) is kept as it came.
                        let extra = move || groups.with(|list| {
                            list.iter()
                                .find(|g| g.group == group && g.entry.as_object().is_none_or(|o| !o.is_empty()))
                                .map(|g| g.entry.to_string())
                        });
                        view! {
                            <div class="group-choice">
                                <input
                                    type="checkbox"
                                    id=id.clone()
                                    data-group=group.as_str()
                                    prop:checked=granted
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        groups.update(|list| {
                                            list.retain(|g| g.group != group);
                                            if on {
                                                list.push(GroupGrant::new(group));
                                                list.sort_by_key(|g| g.group);
                                            }
                                        });
                                    }
                                />
                                <label for=id>
                                    {access} " "
                                    <span class="hint">{format!("({group}: {})", group_words(group))}</span>
                                </label>
                                {move || extra().map(|entry| view! { <p class="extra">"Kept as it is: " <code>{entry}</code></p> })}
                            </div>
                        }
                    }).collect_view()}
                </fieldset>
            }).collect_view()}
        </div>
    }
}

/// Route-level entries, each with its constraints in a small form.
#[component]
fn RouteEntries(state: EditorState, checked: RwSignal<bool>) -> impl IntoView {
    let add_route = move |_| {
        let row = state.route_row(RouteDraft::new());
        state.routes.update(|rows| rows.push(row));
    };
    view! {
        <section class="route-editor" aria-labelledby="route-editor-heading">
            <h2 id="route-editor-heading">"Route-level permissions"</h2>
            <p class="hint">"Single routes, e.g. api.instance.request_logs, optionally only where a field equals (eq), is at most (lte) or at least (gte) a value."</p>
            <For each=move || state.routes.get() key=|row| row.key let:row>
                <RouteEntry row=row state=state checked=checked/>
            </For>
            <button type="button" class="button" on:click=add_route>"Add a route entry"</button>
        </section>
    }
}

#[component]
fn RouteEntry(row: RouteRow, state: EditorState, checked: RwSignal<bool>) -> impl IntoView {
    let name_id = format!("route-{}-name", row.key);
    let label = move || {
        let name = row.name.get();
        if name.is_empty() {
            "this route entry".to_owned()
        } else {
            name
        }
    };
    let add_constraint = move |_| {
        let constraint = state.constraint_row(ConstraintDraft::new());
        row.constraints.update(|list| list.push(constraint));
    };
    let remove = move |_| {
        state
            .routes
            .update(|rows| rows.retain(|r| r.key != row.key))
    };
    view! {
        <fieldset class="route-entry-editor" data-route=move || row.name.get()>
            <legend>{move || format!("Route entry {}", label())}</legend>
            <div class="id-field">
                <label for=name_id.clone()>"Route name"</label>
                <input
                    id=name_id
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    placeholder="api.instance.request_logs"
                    prop:value=row.name
                    on:input=move |ev| row.name.set(event_target_value(&ev))
                />
            </div>
            <For each=move || row.constraints.get() key=|c| c.key let:constraint>
                <ConstraintEditor constraint=constraint route=row checked=checked/>
            </For>
            <div class="form-actions">
                <button type="button" class="button small" on:click=add_constraint>
                    "Add a constraint"<span class="visually-hidden">{move || format!(" to {}", label())}</span>
                </button>
                <button type="button" class="button small danger" on:click=remove>
                    "Remove"<span class="visually-hidden">{move || format!(" {}", label())}</span>
                </button>
            </div>
        </fieldset>
    }
}

#[component]
fn ConstraintEditor(
    constraint: ConstraintRow,
    route: RouteRow,
    checked: RwSignal<bool>,
) -> impl IntoView {
    let id = |part: &str| format!("constraint-{}-{part}", constraint.key);
    let (field_id, operator_id, value_id, error_id) =
        (id("field"), id("operator"), id("value"), id("error"));
    let problem = move || {
        if !checked.get() {
            return None;
        }
        route.constraints.with(|list| {
            let at = list.iter().position(|c| c.key == constraint.key)?;
            let earlier: Vec<ConstraintDraft> =
                list[..at].iter().map(ConstraintRow::draft).collect();
            constraint_problem(&constraint.draft(), &earlier)
        })
    };
    let remove = move |_| {
        route
            .constraints
            .update(|list| list.retain(|c| c.key != constraint.key))
    };
    view! {
        <div class="constraint-row" data-testid="constraint-row">
            <div class="id-field">
                <label for=field_id.clone()>"Field"</label>
                <input id=field_id type="text" autocomplete="off" spellcheck="false" aria-describedby=error_id.clone()
                    prop:value=constraint.field on:input=move |ev| constraint.field.set(event_target_value(&ev))/>
            </div>
            <div class="id-field">
                <label for=operator_id.clone()>"Operator"</label>
                <select id=operator_id on:change=move |ev| constraint.operator.set(event_target_value(&ev))>
                    {ConstraintOperator::ALL.map(ConstraintOperator::as_str).into_iter().map(|op| view! {
                        <option value=op selected=move || constraint.operator.get() == op>{operator_words(op)}</option>
                    }).collect_view()}
                    {move || {
                        let op = constraint.operator.get();
                        ConstraintOperator::parse(&op).is_none().then(|| view! { <option value=op.clone() selected=true>{op.clone()}</option> })
                    }}
                </select>
            </div>
            <div class="id-field">
                <label for=value_id.clone()>"Value"</label>
                <input id=value_id type="text" autocomplete="off" spellcheck="false" aria-describedby=error_id.clone()
                    aria-invalid=move || problem().is_some().to_string()
                    prop:value=constraint.value on:input=move |ev| constraint.value.set(event_target_value(&ev))/>
            </div>
            <button type="button" class="button small" on:click=remove>
                "Remove"<span class="visually-hidden">" this constraint"</span>
            </button>
            <p id=error_id class="form-error" role="alert">{problem}</p>
        </div>
    }
}

fn operator_words(operator: &str) -> &'static str {
    match operator {
        "eq" => "equals (eq)",
        "lte" => "at most (lte)",
        "gte" => "at least (gte)",
        _ => "other",
    }
}

/// The parts the editor does not recognise, shown as they are.
#[component]
fn KeptParts(#[prop(into)] parts: Signal<Vec<UnrecognisedPart>>) -> impl IntoView {
    view! {
        <Show when=move || parts.with(|p| !p.is_empty())>
            <section class="unrecognised-permissions" aria-labelledby="kept-parts-heading">
                <h2 id="kept-parts-heading">"Kept as they are"</h2>
                <p class="hint">"The editor does not recognise these parts; they are saved unchanged. Change them in Raw JSON."</p>
                <dl>
                    {move || parts.get().into_iter().map(|part| view! {
                        <dt><code>{part.path()}</code></dt>
                        <dd><pre>{pretty(&part.value)}</pre></dd>
                    }).collect_view()}
                </dl>
            </section>
        </Show>
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::copy_name;
    use gpudeck_wire::TeamRoleEntry;

    #[test]
    fn a_copy_gets_a_name_no_role_has() {
        let role = |name: &str| TeamRoleEntry {
            id: 1,
            name: name.into(),
            permissions: serde_json::json!({}),
            identifier: None,
        };
        assert_eq!(copy_name("manager", &[role("manager")]), "manager copy");
        assert_eq!(
            copy_name("manager", &[role("manager"), role("manager copy")]),
            "manager copy 2"
        );
        assert!(copy_name(&"x".repeat(50), &[]).chars().count() <= 50);
    }
}
