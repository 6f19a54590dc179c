//! What the planner's parts share: the settings asked in the address, the plan in use
//! (kept in this tab's storage until scheduled), and what a run sends and gives back.

use super::contract_safe::{steps_left, HeldBack, Mode};
use super::offer_steps::{OfferResult, OfferStep};
use super::rules::{
    check_inputs, request_of, starts_in_rentals, Asked, Problem, RollingInputs, SavedPlan,
    Settings, StartsInRentals,
};
use crate::components::time::{now_seconds, start_seconds, use_utc};
use crate::domain::fleet::Fleet;
use crate::domain::schedule::ItemResult;
use crate::routes::rolling_path;
use crate::storage::Stored;
use gpudeck_fleet_plan::{batches, check_plan, plan, Placement, Plan, Review};
use gpudeck_wire::MaintenanceCategory;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// Where the plan is kept in this tab until it is scheduled.
const STORAGE_KEY: &str = "gpudeck.rolling-plan";

fn kept() -> Stored<SavedPlan> {
    Stored::in_session(STORAGE_KEY)
}

/// What the planner's parts share: the loaded fleet, what the address asks, the checked
/// settings, the planner's request and proposal, and the plan in use with its review.
#[derive(Clone, Copy)]
pub(super) struct PlanState {
    pub(super) fleet: StoredValue<Fleet>,
    pub(super) utc: RwSignal<bool>,
    pub(super) now: f64,
    pub(super) asked: Memo<RollingInputs>,
    pub(super) settings: Memo<Result<Settings, Vec<Problem>>>,
    pub(super) request: Memo<Option<Asked>>,
    pub(super) proposal: Memo<Option<Plan>>,
    pub(super) saved: RwSignal<SavedPlan>,
    pub(super) review: Memo<Option<Review>>,
}

impl PlanState {
    /// The state for `fleet`, the plan kept in this tab's storage while not all scheduled.
    pub(super) fn new(fleet: Fleet) -> Self {
        let utc = use_utc();
        let query = use_query_map();
        let fleet = StoredValue::new(fleet);
        let now = now_seconds();
        let asked =
            Memo::new(move |_| query.with(|q| RollingInputs::from_params(|name| q.get(name))));
        let settings = Memo::new(move |_| {
            let inputs = asked.get();
            let utc = utc.get();
            check_inputs(
                &inputs,
                start_seconds(&inputs.from, utc),
                start_seconds(&inputs.until, utc),
                now,
            )
        });
        let request = Memo::new(move |_| {
            let settings = settings.get().ok()?;
            Some(fleet.with_value(|f| request_of(&settings, &f.machines, &f.windows)))
        });
        let proposal = Memo::new(move |_| request.with(|r| r.as_ref().map(|a| plan(&a.request))));
        let saved = RwSignal::new(SavedPlan::default());
        let review = Memo::new(move |_| {
            request.with(|r| {
                r.as_ref()
                    .map(|a| saved.with(|s| check_plan(&a.request, &s.placements())))
            })
        });
        let state = Self {
            fleet,
            utc,
            now,
            asked,
            settings,
            request,
            proposal,
            saved,
            review,
        };
        state.keep_the_plan();
        state
    }

    /// The plan in use is the one kept for this address, else the planner's; it is kept
    /// until every machine is scheduled.
    fn keep_the_plan(self) {
        let Self {
            asked,
            proposal,
            saved,
            ..
        } = self;
        Effect::new(move |_| {
            let key = asked.with(RollingInputs::query);
            let next = match proposal.get() {
                None => SavedPlan::default(),
                Some(proposed) => kept()
                    .load()
                    .filter(|s| s.query == key)
                    .unwrap_or_else(|| SavedPlan::new(key, &proposed.placements)),
            };
            saved.set(next);
        });
        Effect::new(move |_| {
            saved.with(|s| {
                if s.is_finished() {
                    kept().take();
                } else if !s.starts.is_empty() {
                    kept().save(s);
                }
            })
        });
    }

    pub(super) fn duration(self) -> u32 {
        self.settings
            .with(|s| s.as_ref().map_or(1, |s| s.duration_hours))
    }

    pub(super) fn category(self) -> MaintenanceCategory {
        self.settings.with(|s| {
            s.as_ref()
                .map_or(MaintenanceCategory::Other, |s| s.category.clone())
        })
    }

    pub(super) fn mode(self) -> Mode {
        self.asked.with(|a| a.mode)
    }

    /// The machines not sent yet whose start is before their rentals end: while there is
    /// one, a contract-safe plan is not sent.
    pub(super) fn starts_in_rentals(self) -> Vec<StartsInRentals> {
        self.request.with(|r| {
            r.as_ref()
                .map(|a| self.saved.with(|s| starts_in_rentals(&a.request, s)))
                .unwrap_or_default()
        })
    }

    /// The same plan, as edited, to notify renters now: kept under that address's key, so
    /// that opening the address it returns brings it back rather than a fresh plan.
    pub(super) fn notify_now_instead(self) -> String {
        let query = RollingInputs {
            mode: Mode::NotifyNow,
            ..self.asked.get_untracked()
        }
        .query();
        self.saved.update(|s| s.query = query.clone());
        self.saved.with_untracked(|s| kept().save(s));
        rolling_path(&query)
    }

    /// Each machine not scheduled yet with what a contract-safe plan does to its offer
    /// first, in plan order; empty when the plan notifies renters now.
    pub(super) fn offer_steps(self) -> Vec<(i64, OfferStep)> {
        if self.mode() != Mode::ContractSafe {
            return Vec::new();
        }
        let now = self.now;
        self.fleet.with_value(|f| {
            self.saved.with(|s| {
                s.remaining()
                    .into_iter()
                    .filter_map(|p| {
                        let machine = f.machines.iter().find(|m| m.id == p.machine_id)?;
                        Some((p.machine_id, OfferStep::of(machine, p.start, now)))
                    })
                    .collect()
            })
        })
    }

    /// What the next run sends: the offers the plan expects to end first and the windows.
    pub(super) fn next_run(self) -> Sent {
        let steps = self.offer_steps();
        let windows = self.saved.with(SavedPlan::remaining);
        let ended = self.saved.with(|s| s.offers_ended.clone());
        let (offers, _) = steps_left(&steps, &ended);
        Sent {
            offers,
            contract_safe: self.mode() == Mode::ContractSafe,
            windows,
        }
    }
}

/// What one run sends: in a contract-safe plan, the offers to end (machine, end date for
/// N22 (list machine)) as the plan expects them from the fleet as loaded; then the windows.
/// The run decides each machine again on its rentals as read just before it is sent.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Sent {
    pub(super) offers: Vec<(i64, f64)>,
    pub(super) contract_safe: bool,
    pub(super) windows: Vec<Placement>,
}

impl Sent {
    /// The windows as N4 (schedule many) takes them: one start and its machines each.
    pub(super) fn batches(&self) -> Vec<(f64, Vec<i64>)> {
        batches(&self.windows)
            .into_iter()
            .map(|b| (b.start as f64, b.machine_ids))
            .collect()
    }
}

/// How a run ended, machine by machine: each offer step, then each window, and the
/// machines a contract-safe run held back.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct PlanRun {
    pub(super) offers: Vec<OfferResult>,
    pub(super) windows: Vec<ItemResult>,
    pub(super) held: Vec<Held>,
}

/// A machine a contract-safe run did not send, and why.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Held {
    pub(super) machine_id: i64,
    pub(super) why: HeldBack,
}
