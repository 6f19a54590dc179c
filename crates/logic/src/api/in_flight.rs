//! How many API requests are on their way, or answered but not yet read by the page that
//! waits for them. The split build preloads other pages' code only while none is, so that
//! it never competes with the data a person is waiting for.

use std::cell::Cell;

thread_local! {
    static IN_FLIGHT: Cell<usize> = const { Cell::new(0) };
}

/// Counts one request from its sending until its answer has been read (or it failed).
pub struct InFlight(());

impl InFlight {
    pub fn start() -> Self {
        IN_FLIGHT.set(IN_FLIGHT.get() + 1);
        Self(())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.set(IN_FLIGHT.get().saturating_sub(1));
    }
}

/// Whether any request counted by an [`InFlight`] is on its way or unread. The console's
/// `api::any_in_flight` adds the first reads started before its code had arrived.
pub fn any_counted() -> bool {
    IN_FLIGHT.get() > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_counts_until_it_is_dropped() {
        assert!(!any_counted());
        let first = InFlight::start();
        let second = InFlight::start();
        assert!(any_counted());
        drop(first);
        assert!(any_counted());
        drop(second);
        assert!(!any_counted());
    }
}
