//! The order machines are planned in: the first planned get the earliest windows.

use crate::request::MachineToPlan;
use std::collections::HashMap;

/// Indices of `machines` in planning order: pinned-first machines, then the unpinned, then
/// pinned-last ones; within each, fewest running rentals first (so idle machines lead and
/// the fewest renters wait), then fewest reserved GPUs, then machine id. The remaining
/// fields break what ties are left, so the order never depends on the input order, even
/// for a repeated id.
pub fn policy_order(machines: &[MachineToPlan]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..machines.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&machines[a], &machines[b]);
        (a.pin, a.running_rentals, a.reserved_gpus, a.id)
            .cmp(&(b.pin, b.running_rentals, b.reserved_gpus, b.id))
            .then_with(|| a.cmp(b))
    });
    order
}

/// Each id's machine; of a repeated id, the one the policy orders first (the one planned).
pub(crate) fn by_id(machines: &[MachineToPlan]) -> HashMap<i64, &MachineToPlan> {
    let mut found = HashMap::with_capacity(machines.len());
    for index in policy_order(machines) {
        let machine = &machines[index];
        found.entry(machine.id).or_insert(machine);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use crate::request::Pin;

    fn machine(id: i64, running_rentals: u32, reserved_gpus: u32, pin: Pin) -> MachineToPlan {
        MachineToPlan {
            reserved_gpus,
            pin,
            ..fixtures::machine(id, 8, running_rentals)
        }
    }

    #[test]
    fn idle_machines_lead_then_fewest_rentals_then_fewest_reserved_then_id() {
        let machines = [
            machine(1, 3, 0, Pin::Unpinned),
            machine(2, 1, 4, Pin::Unpinned),
            machine(3, 0, 8, Pin::Unpinned),
            machine(4, 1, 2, Pin::Unpinned),
            machine(5, 0, 8, Pin::Unpinned),
            machine(6, 9, 0, Pin::First),
            machine(7, 0, 0, Pin::Last),
        ];
        let ids: Vec<i64> = policy_order(&machines)
            .into_iter()
            .map(|i| machines[i].id)
            .collect();
        assert_eq!(ids, [6, 3, 5, 4, 2, 1, 7]);
    }

    #[test]
    fn a_repeated_id_resolves_to_the_machine_planned_first() {
        let machines = [
            machine(1, 2, 0, Pin::Unpinned),
            machine(1, 0, 0, Pin::Unpinned),
        ];
        assert_eq!(policy_order(&machines), [1, 0]);
        assert_eq!(by_id(&machines)[&1].running_rentals, 0);
    }
}
