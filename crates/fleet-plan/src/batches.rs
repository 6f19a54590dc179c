//! A plan as the N4 requests that schedule it: one start each, at most 100 machines.

use crate::planner::Placement;
use gpudeck_wire::maintenance::MAX_BATCH;

/// N4's public rate threshold (neighbours §1.5): send the batches at least this many
/// seconds apart.
pub const SECONDS_BETWEEN_BATCHES: f64 = 2.0;

/// One N4 request: these machines, all from `start`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub start: i64,
    pub machine_ids: Vec<i64>,
}

/// The placements grouped by start, in start order, at most [`MAX_BATCH`] machines a
/// batch; within a start the machines keep the placements' order.
pub fn batches(placements: &[Placement]) -> Vec<Batch> {
    let mut by_start = placements.to_vec();
    by_start.sort_by_key(|p| p.start);
    by_start
        .chunk_by(|a, b| a.start == b.start)
        .flat_map(|same_start| same_start.chunks(MAX_BATCH))
        .map(|chunk| Batch {
            start: chunk[0].start,
            machine_ids: chunk.iter().map(|p| p.machine_id).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: i64, ids: std::ops::RangeInclusive<i64>) -> Vec<Placement> {
        ids.map(|machine_id| Placement { machine_id, start })
            .collect()
    }

    #[test]
    fn one_batch_per_start_in_start_order_at_most_one_hundred_machines_each() {
        let placements = [at(7200, 1..=3), at(0, 4..=253), at(3600, 254..=254)].concat();
        let found = batches(&placements);
        let shape: Vec<(i64, usize, i64)> = found
            .iter()
            .map(|b| (b.start, b.machine_ids.len(), b.machine_ids[0]))
            .collect();
        assert_eq!(
            shape,
            [
                (0, 100, 4),
                (0, 100, 104),
                (0, 50, 204),
                (3600, 1, 254),
                (7200, 3, 1)
            ]
        );
        assert!(batches(&[]).is_empty());
        assert_eq!(batches(&at(0, 1..=100)).len(), 1);
    }
}
