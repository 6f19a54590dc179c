//! A team role's permissions as people read them: a grid of the permission groups by
//! read and write, the route-level entries with their constraints written out, and
//! whatever the console does not recognise, shown as sent rather than dropped.

use gpudeck_wire::permissions::Access;
use gpudeck_wire::{Permission, PermissionGroup, PermissionsView};
use leptos::prelude::*;
use serde_json::Value;

/// One cell of the grid: a permission group and whether the role grants it.
#[derive(Debug, Clone, PartialEq)]
pub struct GridCell {
    pub group: PermissionGroup,
    pub granted: bool,
    /// Constraints on the group, written out (`id = 1227`).
    pub constraints: Vec<String>,
    /// Parts of the group's entry of unknown shape, as JSON.
    pub extra: Option<String>,
}

/// One area (`instance`, ..., `misc`): Read and Write cells, or a single cell for `misc`.
#[derive(Debug, Clone, PartialEq)]
pub struct GridRow {
    pub area: &'static str,
    pub cells: Vec<GridCell>,
}

/// The grid for `permissions`, one row per area in display order.
pub fn permission_grid(permissions: &PermissionsView) -> Vec<GridRow> {
    PermissionGroup::AREAS
        .into_iter()
        .map(|area| {
            let accesses: &[Access] = if area == "misc" {
                &[Access::Any]
            } else {
                &[Access::Read, Access::Write]
            };
            let cells = accesses
                .iter()
                .filter_map(|&access| PermissionGroup::of(area, access))
                .map(|group| {
                    let entry = permissions.group(group);
                    GridCell {
                        group,
                        granted: entry.is_some(),
                        constraints: entry.map(constraints_of).unwrap_or_default(),
                        extra: entry.and_then(|e| e.extra.as_ref()).map(Value::to_string),
                    }
                })
                .collect();
            GridRow { area, cells }
        })
        .collect()
}

fn constraints_of(permission: &Permission) -> Vec<String> {
    permission
        .constraints
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The grid, the route-level entries and the unrecognised parts of one role.
#[component]
pub fn RolePermissions(permissions: PermissionsView, #[prop(into)] role: String) -> impl IntoView {
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
                {rows.into_iter().map(|row| {
                    let single = row.cells.len() == 1;
                    view! {
                        <tr data-area=row.area>
                            <th scope="row">{row.area}</th>
                            {row.cells.into_iter().map(|cell| view! { <GridCellView cell=cell span_both=single/> }).collect_view()}
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        <section class="route-permissions" aria-labelledby="route-permissions-heading">
            <h3 id="route-permissions-heading">"Route-level permissions"</h3>
            {if routes.is_empty() {
                view! { <p class="muted">"None: this role has no permissions for single routes."</p> }.into_any()
            } else {
                view! {
                    <ul>
                        {routes.into_iter().map(|route| view! { <RouteEntry route=route/> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
        {(!unrecognised.is_empty()).then(|| view! {
            <section class="unrecognised-permissions" aria-labelledby="unrecognised-permissions-heading">
                <h3 id="unrecognised-permissions-heading">"Entries this console does not recognise"</h3>
                <p class="hint">"Shown as the server sent them."</p>
                <dl>
                    {unrecognised.into_iter().map(|(path, value)| view! {
                        <dt><code>{if path.is_empty() { "(the whole permissions value)".to_owned() } else { path }}</code></dt>
                        <dd><pre>{pretty(&value)}</pre></dd>
                    }).collect_view()}
                </dl>
            </section>
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
            <span class="tick" aria-hidden="true">{tick}</span>
            <span class="visually-hidden">{said}</span>
            {(!cell.constraints.is_empty()).then(|| view! {
                <ul class="constraints" aria-label="Only where">
                    {cell.constraints.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                </ul>
            })}
            {cell.extra.map(|extra| view! {
                <p class="extra">"Also: " <code>{extra}</code></p>
            })}
        </td>
    }
}

#[component]
fn RouteEntry(route: Permission) -> impl IntoView {
    let constraints = constraints_of(&route);
    view! {
        <li class="route-entry">
            <code class="route-name">{route.name}</code>
            {if constraints.is_empty() {
                view! { <span class="muted">" — without constraints"</span> }.into_any()
            } else {
                view! { " — only where " <span class="constraints">{constraints.join(", ")}</span> }.into_any()
            }}
            {route.extra.map(|extra| view! {
                <p class="extra">"Also: " <code>{extra.to_string()}</code></p>
            })}
        </li>
    }
}

/// Pretty-printed JSON, for showing values as the server sent them.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
