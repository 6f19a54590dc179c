//! The role editor: create a role (N14), from scratch or from a copy of another, or edit
//! one (N15). Permission groups as a checkbox grid, route-level entries with their
//! constraints, the parts it does not recognise shown and kept, a raw-JSON mode, the
//! role in plain words, and the changes listed before anything is saved. The rules live
//! in [`crate::domain::role`].

use super::access::TEAM_PAGE;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::form_field::{FieldGroup, FormField};
use crate::components::page::Page;
use crate::components::permissions::pretty;
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::role_summary::RoleSummaryView;
use crate::components::toasts::use_toasts;
use crate::components::words::said_or;
use crate::domain::role::{
    constraint_problem, group_words, ConstraintDraft, RoleDiff, RoleDraft, RoleSummary, RouteDraft,
};
use crate::routes::{role_name_of, role_path, TEAM_ROLES};
pub use gpudeck_logic::pages::team::role_editor::*;
use gpudeck_wire::permissions::{Access, ConstraintOperator, UnrecognisedPart};
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
    /// From N13's list (list roles); `None` when the named role is not in it.
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

#[component]
pub fn RoleEditorPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let opened = Memo::new(move |_| match params.with(|p| p.get("name")) {
        Some(segment) => Opened::Edit(role_name_of(&segment)),
        None => Opened::Create(query.with(|q| q.get("from"))),
    });
    let entry = match opened.get_untracked() {
        Opened::Edit(_) => &gpudeck_pages::EDIT_ROLE,
        Opened::Create(_) => &gpudeck_pages::NEW_ROLE,
    };
    let roles = use_api_resource(|api| async move { api.team_roles().await });
    view! {
        <Page class="role-editor" out_of_reach=TEAM_PAGE entry=entry lede=PAGE_LEDE>
            <nav class="role-links" aria-label="Roles">
                <a href=TEAM_ROLES>"All roles"</a>
            </nav>
            {ResourceView::new(roles, "Loading team roles…")
                .show(move |list: Vec<TeamRoleEntry>| {
                    let opened = opened.get();
                    match Start::of(&opened, &list) {
                        Some(Ok(start)) => view! { <RoleEditor start=start /> }.into_any(),
                        Some(Err(problem)) => {
                            view! {
                                <div class="result nothing" role="alert">
                                    <p>{problem}</p>
                                </div>
                            }
                                .into_any()
                        }
                        None => {
                            let name = match opened {
                                Opened::Edit(n) | Opened::Create(Some(n)) => n,
                                Opened::Create(None) => String::new(),
                            };
                            view! {
                                <div class="result nothing" role="alert" data-testid="unknown-role">
                                    <h2>"No such role to edit"</h2>
                                    <p>
                                        {format!(
                                            "The team's list of roles has no role named {name}. The owner role is never listed and cannot be edited.",
                                        )}
                                    </p>
                                </div>
                            }
                                .into_any()
                        }
                    }
                })}
        </Page>
    }
}

/// Route entry `index` of the draft. Rows are keyed by position: removing one moves the
/// rest up, and every view of a row reads the draft again, so it shows what is there now.
#[derive(Clone, Copy)]
struct RouteAt {
    draft: RwSignal<RoleDraft>,
    index: usize,
}

impl RouteAt {
    /// Reads the entry, tracked; `None` once it is gone.
    fn read<T>(self, read: impl FnOnce(&RouteDraft) -> T) -> Option<T> {
        self.draft
            .with(|draft| draft.routes.get(self.index).map(read))
    }

    /// Changes the entry, if it is still there.
    fn update(self, change: impl FnOnce(&mut RouteDraft)) {
        self.draft.update(|draft| {
            if let Some(route) = draft.routes.get_mut(self.index) {
                change(route);
            }
        });
    }

    fn remove(self) {
        self.draft.update(|draft| {
            if self.index < draft.routes.len() {
                draft.routes.remove(self.index);
            }
        });
    }
}

/// Constraint `at` of a route entry, keyed by position like the entries.
#[derive(Clone, Copy)]
struct ConstraintAt {
    route: RouteAt,
    at: usize,
}

impl ConstraintAt {
    fn read<T>(self, read: impl FnOnce(&ConstraintDraft) -> T) -> Option<T> {
        self.route
            .read(|route| route.constraints.get(self.at).map(read))
            .flatten()
    }

    fn update(self, change: impl FnOnce(&mut ConstraintDraft)) {
        self.route.update(|route| {
            if let Some(constraint) = route.constraints.get_mut(self.at) {
                change(constraint);
            }
        });
    }

    fn remove(self) {
        self.route.update(|route| {
            if self.at < route.constraints.len() {
                route.constraints.remove(self.at);
            }
        });
    }

    /// What is wrong with it, given the constraints before it on its entry.
    fn problem(self) -> Option<String> {
        self.route
            .read(|route| {
                let constraint = route.constraints.get(self.at)?;
                constraint_problem(constraint, &route.constraints[..self.at])
            })
            .flatten()
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

const PAGE_LEDE: &str = "Choose the permission groups, narrow single routes with constraints, \
    and review the changes before saving. Parts the editor does not recognise are kept exactly \
    as they are.";
const NAME_HINT: &str = "2 to 50 characters, different from the team's other roles.";
const NOTHING_CHANGED: &str = "Nothing changed, so there is nothing to save.";

/// The editor's state: the one draft that the grid, the raw JSON, the summary and the
/// checks all read and change, the raw JSON being typed, and what the last review found.
#[derive(Clone, Copy)]
struct EditorState {
    role_id: Option<i64>,
    draft: RwSignal<RoleDraft>,
    mode: RwSignal<Mode>,
    /// What is typed in raw-JSON mode: the draft follows each text that reads as
    /// permissions.
    json_text: RwSignal<String>,
    json_problem: RwSignal<Option<String>>,
    problems: RwSignal<Vec<String>>,
    checked: RwSignal<bool>,
    nothing_changed: RwSignal<bool>,
    before: StoredValue<(String, Value)>,
    other_names: StoredValue<Vec<String>>,
}

impl EditorState {
    fn new(start: Start) -> Self {
        EditorState {
            role_id: start.role_id,
            draft: RwSignal::new(start.draft),
            mode: RwSignal::new(Mode::Grid),
            json_text: RwSignal::new(String::new()),
            json_problem: RwSignal::new(None),
            problems: RwSignal::new(Vec::new()),
            checked: RwSignal::new(false),
            nothing_changed: RwSignal::new(false),
            before: StoredValue::new(start.before),
            other_names: StoredValue::new(start.other_names),
        }
    }

    /// The draft, unless the raw JSON being typed does not read as permissions.
    fn current(self) -> Result<RoleDraft, String> {
        match self.json_problem.get() {
            Some(problem) => Err(problem),
            None => Ok(self.draft.get()),
        }
    }

    fn to_json(self) {
        let permissions = self.draft.with_untracked(RoleDraft::permissions);
        self.json_text.set(pretty(&permissions));
        self.json_problem.set(None);
        self.mode.set(Mode::Json);
    }

    /// Text that does not read keeps the raw-JSON mode, with its problem shown.
    fn to_grid(self) {
        if self.json_problem.with_untracked(Option::is_none) {
            self.mode.set(Mode::Grid);
        }
    }

    fn type_json(self, text: String) {
        let name = self.draft.with_untracked(|d| d.name.clone());
        match parse_permissions(&name, &text) {
            Ok(read) => {
                self.draft.set(read);
                self.json_problem.set(None);
            }
            Err(problem) => self.json_problem.set(Some(problem)),
        }
        self.json_text.set(text);
    }

    /// The save to confirm; `None` when the draft has problems (listed) or, for an edit,
    /// changes nothing (said).
    fn review(self) -> Option<Save> {
        self.checked.set(true);
        self.nothing_changed.set(false);
        let draft = match self.current() {
            Ok(draft) => draft,
            Err(problem) => {
                self.problems.set(vec![problem]);
                return None;
            }
        };
        let found = self.other_names.with_value(|names| draft.problems(names));
        self.problems.set(found.clone());
        if !found.is_empty() {
            return None;
        }
        let permissions = draft.permissions();
        let (old_name, old_permissions) = self.before.get_value();
        if self.role_id.is_some()
            && RoleDiff::between((&old_name, &old_permissions), (&draft.name, &permissions))
                .is_empty()
        {
            self.nothing_changed.set(true);
            return None;
        }
        Some(Save {
            role_id: self.role_id,
            name: draft.name.clone(),
            name_changed: draft.name != old_name,
            permissions_changed: permissions != old_permissions,
            permissions,
        })
    }

    /// The changes a save makes, line by line; a new role is said as created.
    fn diff_lines(self, asked: &Save) -> Vec<String> {
        let (old_name, old_permissions) = self.before.get_value();
        let mut lines = RoleDiff::between(
            (&old_name, &old_permissions),
            (&asked.name, &asked.permissions),
        )
        .lines();
        if self.role_id.is_none() {
            lines.retain(|line| !line.starts_with("Renamed"));
            lines.insert(0, format!("Creates the role {}", asked.name));
        }
        lines
    }

    /// For a copy, the role the diff is taken against.
    fn copied_from(self) -> Option<String> {
        let (old_name, _) = self.before.get_value();
        (self.role_id.is_none() && !old_name.is_empty())
            .then(|| format!("Changes compared with the role {old_name} it copies:"))
    }
}

/// Sends a save: N14 (create role) for a new role, N15 (update role) with only what
/// changed for an edit; then goes to the saved role.
fn use_save_action() -> ConfirmedAction<Save, String> {
    let toasts = use_toasts();
    let navigate = use_navigate();
    ConfirmedAction::new(
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
    )
}

#[component]
pub fn RoleEditor(start: Start) -> impl IntoView {
    let state = EditorState::new(start);
    let EditorState {
        draft,
        mode,
        json_text,
        json_problem,
        checked,
        nothing_changed,
        ..
    } = state;
    let summary = Memo::new(move |_| {
        json_problem
            .with(Option::is_none)
            .then(|| draft.with(|d| RoleSummary::of(&d.permissions())))
    });
    let save = use_save_action();
    let review = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        save.clear();
        if let Some(asked) = state.review() {
            save.ask(asked);
        }
    };
    // The changes the dialog asks about, a line each.
    let diff_items = move || {
        let lines = save
            .asked()
            .map(|asked| state.diff_lines(&asked))
            .unwrap_or_default();
        lines
            .into_iter()
            .map(|line| view! { <li>{line}</li> })
            .collect_view()
    };

    view! {
        <form class="role-form" on:submit=review novalidate>
            <FormField id="role-name-input" label="Role name" class="id-field" hint=NAME_HINT>
                <input
                    type="text"
                    autocomplete="off"
                    prop:value=move || draft.with(|d| d.name.clone())
                    on:input=move |ev| draft.update(|d| d.name = event_target_value(&ev))
                />
            </FormField>
            <div class="mode-switch" role="group" aria-label="Editing mode">
                <button
                    type="button"
                    class="button"
                    aria-pressed=move || (mode.get() == Mode::Grid).to_string()
                    on:click=move |_| state.to_grid()
                >
                    "Grid"
                </button>
                <button
                    type="button"
                    class="button"
                    aria-pressed=move || (mode.get() == Mode::Json).to_string()
                    on:click=move |_| state.to_json()
                >
                    "Raw JSON"
                </button>
            </div>
            <Show
                when=move || mode.get() == Mode::Json
                fallback=move || {
                    view! {
                        <GroupGrid draft=draft />
                        <RouteEntries draft=draft checked=checked />
                        <KeptParts parts=Memo::new(move |_| draft.with(|d| d.kept().to_vec())) />
                    }
                }
            >
                <FormField
                    id="role-json"
                    label="Permissions as JSON"
                    class="id-field"
                    error=json_problem
                >
                    <textarea
                        class="raw-json"
                        rows="16"
                        spellcheck="false"
                        prop:value=json_text
                        on:input=move |ev| state.type_json(event_target_value(&ev))
                    ></textarea>
                </FormField>
            </Show>
            <h2>"In plain words"</h2>
            {move || summary.get().map(|summary| view! { <RoleSummaryView summary=summary /> })}
            <EditorProblems problems=state.problems save=save />
            <p class="hint" role="status">
                {move || nothing_changed.get().then_some(NOTHING_CHANGED)}
            </p>
            <div class="form-actions">
                <button type="submit" class="button primary" disabled=save.pending()>
                    {move || if save.pending().get() { "Saving…" } else { "Review and save…" }}
                </button>
            </div>
        </form>
        {save.failure_view()}
        <ActionDialog action=save title="Save these changes?" confirm_label="Save role">
            {move || state.copied_from().map(|text| view! { <p>{text}</p> })}
            <ul class="role-diff" data-testid="role-diff">
                {diff_items}
            </ul>
        </ActionDialog>
    }
}

/// What the last review found, and the server's refusal of a save.
#[component]
fn EditorProblems(
    problems: RwSignal<Vec<String>>,
    save: ConfirmedAction<Save, String>,
) -> impl IntoView {
    view! {
        <div class="form-error" role="alert" data-testid="editor-problems">
            {move || {
                let list = problems.get();
                (!list.is_empty())
                    .then(|| {
                        view! {
                            <p>"Fix these before saving:"</p>
                            <ul>
                                {list.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                            </ul>
                        }
                    })
            }}
            <p>{move || save.refusal_where(|_| true)}</p>
        </div>
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
fn GroupGrid(draft: RwSignal<RoleDraft>) -> impl IntoView {
    view! {
        <div class="group-grid" data-testid="group-grid">
            {PermissionGroup::AREAS
                .into_iter()
                .map(|area| {
                    view! {
                        <fieldset class="group-area">
                            <legend>{area}</legend>
                            {PermissionGroup::ALL
                                .into_iter()
                                .filter(|g| g.area() == area)
                                .map(|group| {
                                    let id = format!("group-{group}");
                                    let access = match group.access() {
                                        Access::Read => "Read",
                                        Access::Write => "Write",
                                        Access::Any => "Use",
                                    };
                                    let granted = Memo::new(move |_| {
                                        draft.with(|d| d.grants(group))
                                    });
                                    let extra = Memo::new(move |_| {
                                        draft
                                            .with(|d| {
                                                d.base
                                                    .group(group)
                                                    .filter(|g| !g.is_plain())
                                                    .map(|g| g.entry.to_string())
                                            })
                                    });
                                    // A group entry with more than `{}` in it (constraints, say) is kept as it came.
                                    view! {
                                        <div class="group-choice">
                                            <input
                                                type="checkbox"
                                                id=id.clone()
                                                data-group=group.as_str()
                                                prop:checked=granted
                                                on:change=move |ev| {
                                                    let on = event_target_checked(&ev);
                                                    draft.update(|d| d.set_group(group, on));
                                                }
                                            />
                                            <label for=id>
                                                {access} " "
                                                <span class="hint">
                                                    {format!("({group}: {})", group_words(group))}
                                                </span>
                                            </label>
                                            {move || {
                                                extra
                                                    .get()
                                                    .map(|entry| {
                                                        view! {
                                                            <p class="extra">"Kept as it is: " <code>{entry}</code></p>
                                                        }
                                                    })
                                            }}
                                        </div>
                                    }
                                })
                                .collect_view()}
                        </fieldset>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Route-level entries, each with its constraints in a small form.
#[component]
fn RouteEntries(draft: RwSignal<RoleDraft>, checked: RwSignal<bool>) -> impl IntoView {
    let count = Memo::new(move |_| draft.with(|d| d.routes.len()));
    let add_route = move |_| draft.update(|d| d.routes.push(RouteDraft::new()));
    view! {
        <section class="route-editor" aria-labelledby="route-editor-heading">
            <h2 id="route-editor-heading">"Route-level permissions"</h2>
            <p class="hint">
                "Single routes, e.g. api.instance.request_logs, optionally only where a field equals (eq), is at most (lte) or at least (gte) a value."
            </p>
            <For each=move || 0..count.get() key=|index| *index let:index>
                <RouteEntry route=RouteAt { draft, index } checked=checked />
            </For>
            <button type="button" class="button" on:click=add_route>
                "Add a route entry"
            </button>
        </section>
    }
}

#[component]
fn RouteEntry(route: RouteAt, checked: RwSignal<bool>) -> impl IntoView {
    let name_id = format!("route-{}-name", route.index);
    let name = move || route.read(|r| r.name.clone()).unwrap_or_default();
    let label = move || {
        let name = name();
        if name.is_empty() {
            "this route entry".to_owned()
        } else {
            name
        }
    };
    let count = Memo::new(move |_| route.read(|r| r.constraints.len()).unwrap_or(0));
    let add_constraint = move |_| route.update(|r| r.constraints.push(ConstraintDraft::new()));
    view! {
        <fieldset class="route-entry-editor" data-route=name>
            <legend>{move || format!("Route entry {}", label())}</legend>
            <FormField id=name_id label="Route name" class="id-field">
                <input
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    placeholder="api.instance.request_logs"
                    prop:value=name
                    on:input=move |ev| route.update(|r| r.name = event_target_value(&ev))
                />
            </FormField>
            <For each=move || 0..count.get() key=|at| *at let:at>
                <ConstraintEditor constraint=ConstraintAt { route, at } checked=checked />
            </For>
            <div class="form-actions">
                <button type="button" class="button small" on:click=add_constraint>
                    "Add a constraint"
                    <span class="visually-hidden">{move || format!(" to {}", label())}</span>
                </button>
                // Said in full on screen: on a phone it sits right under the constraint's
                // own remove button.
                <button type="button" class="button small danger" on:click=move |_| route.remove()>
                    "Remove route entry"
                    <span class="visually-hidden">
                        {move || {
                            let name = name();
                            if name.is_empty() { String::new() } else { format!(" {name}") }
                        }}
                    </span>
                </button>
            </div>
        </fieldset>
    }
}

#[component]
fn ConstraintEditor(constraint: ConstraintAt, checked: RwSignal<bool>) -> impl IntoView {
    let group_id = format!("constraint-{}-{}", constraint.route.index, constraint.at);
    let id = |part: &str| format!("{group_id}-{part}");
    let (field_id, operator_id, value_id) = (id("field"), id("operator"), id("value"));
    let field = move || constraint.read(|c| c.field.clone()).unwrap_or_default();
    let operator = move || constraint.read(|c| c.operator.clone()).unwrap_or_default();
    let value = move || constraint.read(|c| c.value.clone()).unwrap_or_default();
    // One line for the three controls: a problem is about them together (`id ≤` needs a
    // number).
    let problem = Signal::derive(move || checked.get().then(|| constraint.problem()).flatten());
    view! {
        <FieldGroup
            id=group_id
            legend=format!("Constraint {}", constraint.at + 1)
            legend_class="visually-hidden"
            error=problem
            class="constraint-row"
            attr:data-testid="constraint-row"
        >
            <FormField id=field_id label="Field" class="id-field">
                <input
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=field
                    on:input=move |ev| constraint.update(|c| c.field = event_target_value(&ev))
                />
            </FormField>
            <FormField id=operator_id label="Operator" class="id-field">
                <select on:change=move |ev| {
                    constraint.update(|c| c.operator = event_target_value(&ev))
                }>
                    {ConstraintOperator::ALL
                        .map(|choice| {
                            view! {
                                <option
                                    value=choice.as_str()
                                    selected=move || operator() == choice.as_str()
                                >
                                    {operator_words(choice)}
                                </option>
                            }
                        })}
                </select>
            </FormField>
            <FormField id=value_id label="Value" class="id-field">
                <input
                    type="text"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=value
                    on:input=move |ev| constraint.update(|c| c.value = event_target_value(&ev))
                />
            </FormField>
            <button type="button" class="button small" on:click=move |_| constraint.remove()>
                "Remove"
                <span class="visually-hidden">" this"</span>
                " constraint"
            </button>
        </FieldGroup>
    }
}

fn operator_words(operator: ConstraintOperator) -> &'static str {
    match operator {
        ConstraintOperator::Eq => "equals (eq)",
        ConstraintOperator::Lte => "at most (lte)",
        ConstraintOperator::Gte => "at least (gte)",
    }
}

/// The parts the editor does not recognise, shown as they are.
#[component]
fn KeptParts(#[prop(into)] parts: Signal<Vec<UnrecognisedPart>>) -> impl IntoView {
    view! {
        <Show when=move || parts.with(|p| !p.is_empty())>
            <section class="unrecognised-permissions" aria-labelledby="kept-parts-heading">
                <h2 id="kept-parts-heading">"Kept as they are"</h2>
                <p class="hint">
                    "The editor does not recognise these parts; they are saved unchanged. Change them in Raw JSON."
                </p>
                <dl>
                    {move || {
                        parts
                            .get()
                            .into_iter()
                            .map(|part| {
                                view! {
                                    <dt>
                                        <code>{part.path()}</code>
                                    </dt>
                                    <dd>
                                        <pre>{pretty(&part.value)}</pre>
                                    </dd>
                                }
                            })
                            .collect_view()
                    }}
                </dl>
            </section>
        </Show>
    }
}
