//! A role's permissions as a grid of areas by access, keeping any part of unknown shape.

use gpudeck_wire::permissions::Access;
use gpudeck_wire::{PermissionGroup, Permissions};

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

#[cfg(test)]
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
