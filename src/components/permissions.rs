//! A team role's permissions as people read them: a grid of the permission groups by
//! read and write, the route-level entries with their constraints written out, and
//! whatever the console does not recognise, shown as sent rather than dropped.

pub use gpudeck_logic::components::permissions::*;
use gpudeck_wire::permissions::{RouteGrant, UnrecognisedPart};
use gpudeck_wire::Permissions;
use leptos::prelude::*;
use serde_json::Value;

/// The grid, the route-level entries and the unrecognised parts of one role.
#[component]
pub fn RolePermissions(permissions: Permissions, #[prop(into)] role: String) -> impl IntoView {
    let rows = permission_grid(&permissions);
    let routes = permissions.routes.clone();
    let unrecognised = permissions.unrecognised.clone();
    view! {
        <table class="permission-grid" data-testid="permission-grid">
            <caption>{format!("Permission groups of the role {role}")}</caption>
            <thead>
                <tr>
                    <th scope="col">"Area"</th>
                    <th scope="col">"Read"</th>
                    <th scope="col">"Write"</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|row| {
                        let single = row.cells.len() == 1;
                        view! {
                            <tr data-area=row.area>
                                <th scope="row">{row.area}</th>
                                {row
                                    .cells
                                    .into_iter()
                                    .map(|cell| {
                                        view! { <GridCellView cell=cell span_both=single /> }
                                    })
                                    .collect_view()}
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        <section class="route-permissions" aria-labelledby="route-permissions-heading">
            <h3 id="route-permissions-heading">"Route-level permissions"</h3>
            {if routes.is_empty() {
                view! {
                    <p class="muted">"None: this role has no permissions for single routes."</p>
                }
                    .into_any()
            } else {
                view! {
                    <ul>
                        {routes
                            .into_iter()
                            .map(|route| view! { <RouteEntry route=route /> })
                            .collect_view()}
                    </ul>
                }
                    .into_any()
            }}
        </section>
        {(!unrecognised.is_empty())
            .then(|| {
                view! {
                    <section
                        class="unrecognised-permissions"
                        aria-labelledby="unrecognised-permissions-heading"
                    >
                        <h3 id="unrecognised-permissions-heading">
                            "Entries this console does not recognise"
                        </h3>
                        <p class="hint">"Shown as the server sent them."</p>
                        <dl>
                            {unrecognised
                                .into_iter()
                                .map(|part| {
                                    view! {
                                        <dt>
                                            <code>{whole_or_path(&part)}</code>
                                        </dt>
                                        <dd>
                                            <pre>{pretty(&part.value)}</pre>
                                        </dd>
                                    }
                                })
                                .collect_view()}
                        </dl>
                    </section>
                }
            })}
    }
}

#[component]
fn GridCellView(cell: GridCell, span_both: bool) -> impl IntoView {
    let (tick, said) = if cell.granted {
        ("✓", "granted")
    } else {
        ("—", "not granted")
    };
    view! {
        <td
            class=if cell.granted { "granted" } else { "not-granted" }
            colspan=if span_both { "2" } else { "1" }
            data-group=cell.group.as_str()
        >
            <span class="tick" aria-hidden="true">
                {tick}
            </span>
            <span class="visually-hidden">{said}</span>
            {(!cell.constraints.is_empty())
                .then(|| {
                    view! {
                        <ul class="constraints" aria-label="Only where">
                            {cell
                                .constraints
                                .into_iter()
                                .map(|c| view! { <li>{c}</li> })
                                .collect_view()}
                        </ul>
                    }
                })}
            {cell.extra.map(|extra| view! { <p class="extra">"Also: " <code>{extra}</code></p> })}
        </td>
    }
}

fn whole_or_path(part: &UnrecognisedPart) -> String {
    match part.path() {
        path if path.is_empty() => "(the whole permissions value)".to_owned(),
        path => path,
    }
}

#[component]
fn RouteEntry(route: RouteGrant) -> impl IntoView {
    let constraints = route.entry.written_constraints();
    view! {
        <li class="route-entry">
            <code class="route-name">{route.name}</code>
            {if constraints.is_empty() {
                view! { <span class="muted">" — without constraints"</span> }.into_any()
            } else {
                view! {
                    " — only where "
                    <span class="constraints">{constraints.join(", ")}</span>
                }
                    .into_any()
            }}
            {route
                .entry
                .extra()
                .map(|extra| {
                    view! { <p class="extra">"Also: " <code>{extra.to_string()}</code></p> }
                })}
        </li>
    }
}

/// Pretty-printed JSON, for showing values as the server sent them.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
