//! The defragmentation model: pure functions over one machine's GPU slots.
//!
//! A machine has `num_gpus` slots `0..num_gpus`. Each contract occupies the contiguous run
//! `[slot_start, slot_start + gpu_count)`. Free slots are offered to renters as aligned
//! power-of-two blocks: every maximal run of free slots is split greedily into the largest
//! blocks that fit, where a block of `2^k` slots must start at a multiple of `2^k` (so a
//! 4-GPU offer sits on slots 0-3 or 4-7, never 2-5). These blocks are the machine's
//! *offers*.
//!
//! Defragmenting computes a canonical layout — contracts sorted by `gpu_count` descending,
//! then contract id, packed from slot 0 so that all free slots form one run at the end — and
//! adopts it only when it is strictly better: a larger biggest free block, or the same
//! biggest block with fewer offers. Otherwise the current layout stays. Hence:
//!
//! * no contract gains or loses slots, and contracts never overlap;
//! * the number of free slots is conserved;
//! * the largest free block never shrinks;
//! * running it again on its own result changes nothing.
//!
//! The route reports, summed over the machines asked for: `n0` contracts moved, `n1`
//! offers before, `n2` offers after.

/// One contract's slot assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contract {
    pub id: i64,
    pub slot_start: u32,
    pub gpu_count: u32,
}

/// An offer: `size` free slots starting at `start`; `size` is a power of two and
/// `start` a multiple of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    pub start: u32,
    pub size: u32,
}

/// The outcome of [`defragment`] for one machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The layout to keep: the canonical one if adopted, else the input unchanged.
    pub contracts: Vec<Contract>,
    /// Whether any contract moved.
    pub changed: bool,
    /// Contracts whose `slot_start` changed.
    pub moved: usize,
    /// Offers before.
    pub offers_before: usize,
    /// Offers after.
    pub offers_after: usize,
}

/// Which slots are taken. Slots outside `0..num_gpus` are ignored.
fn occupancy(num_gpus: u32, contracts: &[Contract]) -> Vec<bool> {
    let mut taken = vec![false; num_gpus as usize];
    for contract in contracts {
        let end = contract
            .slot_start
            .saturating_add(contract.gpu_count)
            .min(num_gpus);
        for slot in contract.slot_start..end {
            taken[slot as usize] = true;
        }
    }
    taken
}

/// Splits the free run `[start, end)` into the largest aligned power-of-two blocks.
fn split_run(mut start: u32, end: u32, out: &mut Vec<Block>) {
    while start < end {
        let align = if start == 0 {
            u32::MAX
        } else {
            1 << start.trailing_zeros()
        };
        let mut size = 1u32 << (31 - (end - start).leading_zeros());
        while size > align {
            size /= 2;
        }
        out.push(Block { start, size });
        start += size;
    }
}

/// The offers of a machine: its free slots as aligned power-of-two blocks, in slot order.
pub fn offers(num_gpus: u32, contracts: &[Contract]) -> Vec<Block> {
    let taken = occupancy(num_gpus, contracts);
    let mut blocks = Vec::new();
    let mut slot = 0u32;
    while slot < num_gpus {
        if taken[slot as usize] {
            slot += 1;
            continue;
        }
        let run_start = slot;
        while slot < num_gpus && !taken[slot as usize] {
            slot += 1;
        }
        split_run(run_start, slot, &mut blocks);
    }
    blocks
}

/// How good a layout is for renters: bigger largest block first, then fewer offers.
/// Larger is better.
fn score(blocks: &[Block]) -> (u32, std::cmp::Reverse<usize>) {
    let largest = blocks.iter().map(|b| b.size).max().unwrap_or(0);
    (largest, std::cmp::Reverse(blocks.len()))
}

/// Contracts sorted by size (largest first, then id) and packed from slot 0.
pub fn canonical(contracts: &[Contract]) -> Vec<Contract> {
    let mut order: Vec<Contract> = contracts.to_vec();
    order.sort_by(|a, b| b.gpu_count.cmp(&a.gpu_count).then(a.id.cmp(&b.id)));
    let mut next = 0u32;
    for contract in &mut order {
        contract.slot_start = next;
        // Saturating: an impossible layout (more slots than a u32 holds) must not panic;
        // it is refused by `is_valid` in `defragment` anyway.
        next = next.saturating_add(contract.gpu_count);
    }
    order
}

/// Whether the contracts fit the machine without overlapping; [`defragment`] expects this.
pub fn is_valid(num_gpus: u32, contracts: &[Contract]) -> bool {
    let mut taken = vec![false; num_gpus as usize];
    for contract in contracts {
        let Some(end) = contract.slot_start.checked_add(contract.gpu_count) else {
            return false;
        };
        if contract.gpu_count == 0 || end > num_gpus {
            return false;
        }
        for slot in contract.slot_start..end {
            if std::mem::replace(&mut taken[slot as usize], true) {
                return false;
            }
        }
    }
    true
}

/// Defragments one machine (see the module documentation). The returned contracts are in
/// the input order, so callers can persist them by id.
pub fn defragment(num_gpus: u32, contracts: &[Contract]) -> Outcome {
    let before = offers(num_gpus, contracts);
    let candidate = canonical(contracts);
    let after = offers(num_gpus, &candidate);
    if !is_valid(num_gpus, contracts) || score(&after) <= score(&before) {
        return Outcome {
            contracts: contracts.to_vec(),
            changed: false,
            moved: 0,
            offers_before: before.len(),
            offers_after: before.len(),
        };
    }
    let placed: Vec<Contract> = contracts
        .iter()
        .map(|c| {
            *candidate
                .iter()
                .find(|p| p.id == c.id)
                .expect("same contracts")
        })
        .collect();
    let moved = contracts
        .iter()
        .zip(&placed)
        .filter(|(old, new)| old.slot_start != new.slot_start)
        .count();
    Outcome {
        changed: moved > 0,
        contracts: placed,
        moved,
        offers_before: before.len(),
        offers_after: after.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn c(id: i64, slot_start: u32, gpu_count: u32) -> Contract {
        Contract {
            id,
            slot_start,
            gpu_count,
        }
    }

    fn b(start: u32, size: u32) -> Block {
        Block { start, size }
    }

    #[test]
    fn free_runs_split_into_aligned_blocks() {
        assert_eq!(offers(8, &[]), vec![b(0, 8)]);
        assert_eq!(offers(8, &[c(1, 0, 1)]), vec![b(1, 1), b(2, 2), b(4, 4)]);
        assert_eq!(offers(6, &[]), vec![b(0, 4), b(4, 2)]);
        assert_eq!(offers(7, &[]), vec![b(0, 4), b(4, 2), b(6, 1)]);
        assert_eq!(
            offers(16, &[c(1, 3, 1)]),
            vec![b(0, 2), b(2, 1), b(4, 4), b(8, 8)]
        );
        assert_eq!(offers(4, &[c(1, 0, 4)]), vec![]);
    }

    #[test]
    fn two_single_gpu_contracts_are_packed() {
        // 8 GPUs, 1-GPU contracts at slots 1 and 5: offers 0, 2-3, 4, 6-7.
        let layout = [c(10, 1, 1), c(11, 5, 1)];
        assert_eq!(offers(8, &layout), vec![b(0, 1), b(2, 2), b(4, 1), b(6, 2)]);
        let outcome = defragment(8, &layout);
        assert!(outcome.changed);
        assert_eq!(outcome.contracts, vec![c(10, 0, 1), c(11, 1, 1)]);
        assert_eq!(outcome.moved, 2);
        // After: free block 4-7 (4) + 2-3 (2).
        assert_eq!(offers(8, &outcome.contracts), vec![b(2, 2), b(4, 4)]);
        assert_eq!((outcome.offers_before, outcome.offers_after), (4, 2));
    }

    #[test]
    fn larger_contracts_go_first() {
        // 2 GPUs at 2, 1 GPU at 5 → the 2-GPU contract moves to 0, the 1-GPU one to 2.
        let outcome = defragment(8, &[c(1, 2, 2), c(2, 5, 1)]);
        assert_eq!(outcome.contracts, vec![c(1, 0, 2), c(2, 2, 1)]);
        assert_eq!(offers(8, &outcome.contracts), vec![b(3, 1), b(4, 4)]);
        assert_eq!(outcome.moved, 2);
    }

    #[test]
    fn tidy_and_empty_machines_do_not_change() {
        for layout in [vec![], vec![c(1, 0, 4), c(2, 4, 2)], vec![c(1, 0, 8)]] {
            let outcome = defragment(8, &layout);
            assert!(!outcome.changed);
            assert_eq!(outcome.moved, 0);
            assert_eq!(outcome.contracts, layout);
            assert_eq!(outcome.offers_before, outcome.offers_after);
        }
    }

    #[test]
    fn a_layout_no_better_is_kept() {
        // 1 GPU at slot 7: offers 0-3, 4-5, 6 (largest 4). Packed: 1-1, 2-3, 4-7 (largest 4,
        // 3 offers). Same score, so nothing moves.
        let layout = [c(1, 7, 1)];
        let outcome = defragment(8, &layout);
        assert!(!outcome.changed);
        assert_eq!(outcome.contracts, layout);
    }

    #[test]
    fn invalid_layouts_are_left_alone() {
        assert!(!is_valid(4, &[c(1, 0, 2), c(2, 1, 2)]));
        assert!(!is_valid(4, &[c(1, 3, 2)]));
        let outcome = defragment(4, &[c(1, 0, 2), c(2, 1, 2)]);
        assert!(!outcome.changed);
    }

    /// Random valid layouts: walk the slots, starting a contract or leaving a gap.
    fn layouts() -> impl Strategy<Value = (u32, Vec<Contract>)> {
        (1u32..=16).prop_flat_map(|n| {
            proptest::collection::vec((any::<bool>(), 1u32..=8), 0..16).prop_map(move |steps| {
                let mut contracts = Vec::new();
                let mut slot = 0u32;
                for (i, (place, size)) in steps.into_iter().enumerate() {
                    if slot >= n {
                        break;
                    }
                    if place && slot + size <= n {
                        contracts.push(c(100 + i as i64, slot, size));
                        slot += size;
                    } else {
                        slot += 1;
                    }
                }
                // Shuffle-ish: reverse so input order differs from slot order.
                contracts.reverse();
                (n, contracts)
            })
        })
    }

    fn free_slots(blocks: &[Block]) -> u32 {
        blocks.iter().map(|b| b.size).sum()
    }

    fn largest(blocks: &[Block]) -> u32 {
        blocks.iter().map(|b| b.size).max().unwrap_or(0)
    }

    proptest! {
        #[test]
        fn contracts_keep_their_size_and_stay_valid((n, layout) in layouts()) {
            let outcome = defragment(n, &layout);
            prop_assert!(is_valid(n, &outcome.contracts));
            prop_assert_eq!(outcome.contracts.len(), layout.len());
            for (old, new) in layout.iter().zip(&outcome.contracts) {
                prop_assert_eq!(old.id, new.id);
                prop_assert_eq!(old.gpu_count, new.gpu_count);
            }
        }

        #[test]
        fn free_slots_are_conserved((n, layout) in layouts()) {
            let outcome = defragment(n, &layout);
            let used: u32 = layout.iter().map(|c| c.gpu_count).sum();
            prop_assert_eq!(free_slots(&offers(n, &layout)), n - used);
            prop_assert_eq!(free_slots(&offers(n, &outcome.contracts)), n - used);
        }

        #[test]
        fn the_largest_free_block_never_shrinks((n, layout) in layouts()) {
            let outcome = defragment(n, &layout);
            prop_assert!(largest(&offers(n, &outcome.contracts)) >= largest(&offers(n, &layout)));
            prop_assert_eq!(outcome.offers_after, offers(n, &outcome.contracts).len());
            prop_assert_eq!(outcome.offers_before, offers(n, &layout).len());
        }

        #[test]
        fn a_second_run_changes_nothing((n, layout) in layouts()) {
            let first = defragment(n, &layout);
            let second = defragment(n, &first.contracts);
            prop_assert!(!second.changed);
            prop_assert_eq!(second.moved, 0);
            prop_assert_eq!(&second.contracts, &first.contracts);
        }

        /// Anything at all, as a database edited by hand might hold: overlapping,
        /// empty, out-of-range and huge contracts. Never a panic; an invalid layout is
        /// left exactly as it is; a valid one keeps every invariant.
        #[test]
        fn arbitrary_layouts_never_panic_and_invalid_ones_stay(
            n in 0u32..=64,
            raw in proptest::collection::vec(
                (
                    prop_oneof![0u32..70, any::<u32>()],
                    prop_oneof![0u32..=9, any::<u32>()],
                ),
                0..12,
            ),
        ) {
            let layout: Vec<Contract> = raw
                .iter()
                .enumerate()
                .map(|(i, (start, count))| c(i as i64, *start, *count))
                .collect();
            let outcome = defragment(n, &layout);
            let blocks = offers(n, &layout);
            prop_assert!(blocks.iter().all(|b| b.start + b.size <= n));
            if is_valid(n, &layout) {
                prop_assert!(is_valid(n, &outcome.contracts));
                prop_assert_eq!(free_slots(&offers(n, &outcome.contracts)), free_slots(&blocks));
                prop_assert!(largest(&offers(n, &outcome.contracts)) >= largest(&blocks));
                prop_assert!(!defragment(n, &outcome.contracts).changed);
            } else {
                prop_assert!(!outcome.changed);
                prop_assert_eq!(outcome.moved, 0);
                prop_assert_eq!(&outcome.contracts, &layout);
            }
        }

        #[test]
        fn blocks_are_aligned_powers_of_two((n, layout) in layouts()) {
            for block in offers(n, &layout) {
                prop_assert!(block.size.is_power_of_two());
                prop_assert_eq!(block.start % block.size, 0);
                prop_assert!(block.start + block.size <= n);
            }
        }
    }
}
