//! Sending a contract-safe plan, one start after another: just before a start's offer steps
//! and windows go, its machines are read again (one N1 (list machines) for the batch), and
//! each machine is decided on what that read shows and on the clock then ([`at_send`]): a
//! machine rented since the plan was made is held back, the others have their offer made
//! to end (N22 (list machine)) and then their window sent (N4 (schedule many)).

use super::contract_safe::{at_send, AtSend, HeldBack, WINDOW_NOT_SENT};
use super::offer_steps::{end_offers, OfferResult};
use super::rules::SavedPlan;
use super::state::{Held, PlanRun, Sent};
use crate::api::{ApiClient, ApiError};
use crate::components::item_results::RunProgress;
use crate::components::time::now_seconds;
use crate::domain::bulk::{sort, Sorted};
use crate::domain::fleet::schedule_windows;
use crate::domain::schedule::{ItemOutcome, ItemResult};
use gpudeck_wire::{Machine, MaintenanceCategory};
use leptos::prelude::*;
use std::collections::BTreeSet;

/// Where a run marks each machine as its answer comes, so that a reload mid-way sends
/// nothing twice, and what it says of its progress.
#[derive(Clone, Copy)]
pub(super) struct RunMarks {
    pub(super) saved: RwSignal<SavedPlan>,
    pub(super) progress: RunProgress,
    /// Offers ended, of those the run means to end.
    pub(super) offers_done: RwSignal<(usize, usize)>,
}

impl RunMarks {
    fn offer_answered(self, result: &OfferResult) {
        self.offers_done.try_update(|(done, _)| *done += 1);
        if result.is_done() {
            self.saved
                .try_update(|s| s.offers_ended.insert(result.machine_id));
        }
    }

    pub(super) fn windows_answered(self, answered: &[ItemResult]) {
        self.progress.count(answered.len());
        self.saved.try_update(|s| {
            for result in answered {
                if matches!(result.outcome, ItemOutcome::Scheduled { .. }) {
                    s.scheduled.insert(result.machine_id);
                }
            }
        });
    }
}

/// Sends `sent`'s windows of `hours` and `category`, each start's machines read again
/// first; `api` keeps every operation's public pace from the first request.
pub(super) async fn send_contract_safe(
    api: &ApiClient,
    sent: &Sent,
    hours: i64,
    category: &MaintenanceCategory,
    marks: RunMarks,
) -> Result<PlanRun, ApiError> {
    let mut run = PlanRun::default();
    for (start, ids) in sent.batches() {
        let reread = match sort(api.machines().await)? {
            Sorted::Done(machines) => Ok(machines),
            Sorted::Refused(why) | Sorted::Unknown(why) => Err(why),
        };
        let offers_ended = marks.saved.with_untracked(|s| s.offers_ended.clone());
        let decided = decide(&ids, start as i64, &reread, &offers_ended, now_seconds());
        let planned = sent
            .offers
            .iter()
            .filter(|(id, _)| ids.contains(id))
            .count();
        marks.offers_done.try_update(|(_, total)| {
            *total = (*total + decided.offers.len()).saturating_sub(planned)
        });
        run.held.extend(decided.held);
        let machines: &[Machine] = reread.as_deref().unwrap_or_default();
        let offers =
            end_offers(api, &decided.offers, machines, |r| marks.offer_answered(r)).await?;
        let mut ready = decided.ready;
        ready.extend(offers.iter().filter(|r| r.is_done()).map(|r| r.machine_id));
        let not_sent: Vec<ItemResult> = offers
            .iter()
            .filter(|r| !r.is_done())
            .map(|r| ItemResult {
                machine_id: r.machine_id,
                outcome: ItemOutcome::Refused(WINDOW_NOT_SENT.into()),
            })
            .collect();
        run.offers.extend(offers);
        if !ready.is_empty() {
            let windows = schedule_windows(api, &[(start, ready)], hours, category, |answered| {
                marks.windows_answered(answered)
            })
            .await?;
            run.windows.extend(windows);
        }
        run.windows.extend(not_sent);
    }
    Ok(run)
}

/// One start's machines sorted by [`at_send`]: the offers to end first (machine, end
/// date), the windows ready to go, and the machines held back.
struct Decided {
    offers: Vec<(i64, f64)>,
    ready: Vec<i64>,
    held: Vec<Held>,
}

/// Decides each of `ids`, whose windows start at `start`, on the machines as `reread` gives
/// them at `now` (`Err`: the read failed, with why, and every one is held back).
fn decide(
    ids: &[i64],
    start: i64,
    reread: &Result<Vec<Machine>, String>,
    offers_ended: &BTreeSet<i64>,
    now: f64,
) -> Decided {
    let mut decided = Decided {
        offers: Vec::new(),
        ready: Vec::new(),
        held: Vec::new(),
    };
    for &id in ids {
        let at = match reread {
            Ok(machines) => at_send(
                machines.iter().find(|m| m.id == id),
                start,
                offers_ended.contains(&id),
                now,
            ),
            Err(why) => AtSend::Held(HeldBack::NotReread(why.clone())),
        };
        match at {
            AtSend::Held(why) => decided.held.push(Held {
                machine_id: id,
                why,
            }),
            AtSend::EndOffer(end) => decided.offers.push((id, end)),
            AtSend::Window => decided.ready.push(id),
        }
    }
    decided
}
