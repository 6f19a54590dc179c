//! A team role's permissions as people read them: a grid of the permission groups by
//! read and write, the route-level entries with their constraints written out, and
//! whatever the console does not recognise, shown as sent rather than dropped.

use gpudeck_wire::permissions::{Access, RouteGrant, UnrecognisedPart};
use gpudeck_wire::{PermissionGroup, Permissions};
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
pub fn permission_grid(permissions: &Permissions) -> Vec<GridRow> {
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
                    let grant = permissions.group(group);
                    GridCell {
                        group,
                        granted: grant.is_some(),
                        constraints: grant
                            .map(|g| g.constraints().iter().map(ToString::to_string).collect())
                            .unwrap_or_default(),
                        extra: grant.and_then(|g| g.extra()).map(|e| e.to_string()),
                    }
                })
                .collect();
            GridRow { area, cells }
        })
        .collect()
}

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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::permission_grid;
    use gpudeck_wire::{PermissionGroup, Permissions};
    use serde_json::json as value;

    #[test]
    fn the_permission_grid_reads_known_groups_by_area_and_access() {
        let view = Permissions::read(&value!({
            "api": {"instance_read": {}, "instance_write": {"constraints": {"id": {"eq": 1227}}}, "misc": {}, "team_read": {}}
        }));
        let grid = permission_grid(&view);
        let areas: Vec<&str> = grid.iter().map(|row| row.area).collect();
        assert_eq!(
            areas,
            ["instance", "user", "billing", "machine", "team", "misc"]
        );
        let instance = &grid[0];
        assert_eq!(instance.cells.len(), 2);
        assert_eq!(instance.cells[0].group, PermissionGroup::InstanceRead);
        assert!(instance.cells[0].granted);
        assert!(instance.cells[0].constraints.is_empty());
        assert_eq!(instance.cells[1].group, PermissionGroup::InstanceWrite);
        assert_eq!(instance.cells[1].constraints, ["id = 1227"]);
        assert!(!grid[1].cells[0].granted && !grid[1].cells[1].granted);
        let team = &grid[4];
        assert!(team.cells[0].granted && !team.cells[1].granted);
        let misc = &grid[5];
        assert_eq!(misc.cells.len(), 1, "misc has one cell");
        assert_eq!(misc.cells[0].group, PermissionGroup::Misc);
        assert!(misc.cells[0].granted);
    }

    #[test]
    fn the_permission_grid_keeps_parts_of_unknown_shape() {
        let view = Permissions::read(&value!({
            "api": {"billing_write": {"constraints": "odd", "note": 1}}
        }));
        let cell = &permission_grid(&view)[2].cells[1];
        assert_eq!(cell.group, PermissionGroup::BillingWrite);
        assert!(cell.granted);
        assert_eq!(
            cell.extra.as_deref(),
            Some(r#"{"constraints":"odd","note":1}"#)
        );
        let empty = permission_grid(&Permissions::read(&value!(null)));
        assert!(empty.iter().all(|row| row.cells.iter().all(|c| !c.granted)));
    }
}
