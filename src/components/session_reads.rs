//! The session's one history of N1 reads ([`ReadHistory`]), shared by every view that
//! judges fleet health: the Machines page, a machine's page and the navigation's count all
//! compare a read with the same earlier one (fleet-health §1.2, "since the last read"). The
//! shell provides it and gives its hook to the API client, so every N1 answer is recorded,
//! whichever page asked.

use crate::api::MachinesHook;
use crate::components::time::now_seconds;
use crate::domain::fleet::Fleet;
use crate::domain::health::history::ReadHistory;
use crate::domain::health::FleetHealth;
use gpudeck_wire::Machine;
use leptos::prelude::*;
use std::rc::Rc;

#[derive(Clone, Copy)]
pub struct SessionReads(RwSignal<ReadHistory>);

impl SessionReads {
    /// Made once per session's shell, and provided to every page under it.
    pub fn provide() -> Self {
        let reads = SessionReads(RwSignal::new(ReadHistory::default()));
        provide_context(reads);
        reads
    }

    /// What the shell's client tells each N1 answer.
    pub fn hook(self) -> MachinesHook {
        Rc::new(move |machines: &[Machine]| {
            self.0
                .try_update(|history| history.record(machines, now_seconds()));
        })
    }

    /// A page's fleet judged against the read before it; its windows become the latest
    /// known. Untracked, so that a page does not draw again for each read another view
    /// makes; the navigation's count follows, since the windows may change it.
    pub fn judge(self, fleet: &Fleet) -> FleetHealth {
        let health = self
            .0
            .try_update_untracked(|history| {
                history.judge(&fleet.machines, &fleet.windows, fleet.at)
            })
            .unwrap_or_default();
        self.0.notify();
        health
    }

    /// The latest read judged against the one before it, with the windows known
    /// (untracked: see [`SessionReads::track`]); `None` before the first N1 answer, and
    /// once the session's shell is gone.
    pub fn latest_health(self) -> Option<FleetHealth> {
        self.0
            .try_with_untracked(ReadHistory::judge_latest)
            .flatten()
    }

    /// Subscribes the running effect to every read and every page's judging.
    pub fn track(self) {
        self.0.track();
    }

    /// When the latest N1 answer was read (Unix seconds), untracked.
    pub fn latest_at(self) -> Option<f64> {
        self.0.with_untracked(ReadHistory::latest_at)
    }
}

/// The session's reads, as the shell provides them.
pub fn use_session_reads() -> SessionReads {
    expect_context::<SessionReads>()
}
