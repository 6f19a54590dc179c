//! What each machine's run did, and which machines a contract-safe run held back.

use super::offer_steps::{OfferOutcome, OfferResult};
use super::state::PlanRun;
use crate::components::item_results::ItemResults;
use crate::components::time::format_absolute;
use crate::domain::health::Rule;
use crate::domain::schedule::{ItemOutcome, ItemResult};
use crate::routes::machines_held_by;
use leptos::prelude::*;

/// The machines whose window was scheduled: those the plan takes down.
fn taken_down(windows: &[ItemResult]) -> Vec<i64> {
    windows
        .iter()
        .filter(|r| {
            matches!(
                r.outcome,
                ItemOutcome::Scheduled { .. } | ItemOutcome::FoundAfterNoAnswer
            )
        })
        .map(|r| r.machine_id)
        .collect()
}

/// The way back to the market once the windows have ended: the Machines page, limited to
/// the machines the plan took down, showing those maintained and not listed, where "List
/// again…" lists them on their kept terms.
fn back_on_the_market(windows: &[ItemResult]) -> Option<impl IntoView> {
    let ids = taken_down(windows);
    (!ids.is_empty()).then(|| {
        view! {
            <p class="hint" data-testid="back-on-the-market">
                "Once their windows have ended: "
                <a href=machines_held_by(
                    Rule::UnlistedAfterMaintenance,
                    &ids,
                )>"list again the machines this plan took down"</a>
                " (the Machines page shows those maintained and not listed)."
            </p>
        }
    })
}

/// Each machine's result: its offer step first where there was one, then its window; then
/// the machines held back, unsent.
#[component]
pub(super) fn PlanResults(run: PlanRun, utc: RwSignal<bool>) -> impl IntoView {
    let offers = run.offers;
    let held = run.held;
    let class = |r: &OfferResult| match r.outcome {
        OfferOutcome::Refused(_) => "refused",
        OfferOutcome::Unknown(_) => "unknown",
        OfferOutcome::Ended { .. } | OfferOutcome::FoundAfterNoAnswer(_) => "ok",
    };
    view! {
        <section class="result" data-testid="plan-result" aria-labelledby="plan-result-heading">
            <h2 id="plan-result-heading">"Results"</h2>
            {(!offers.is_empty())
                .then(|| {
                    view! {
                        <h3>"Offers"</h3>
                        <ul class="item-results" data-testid="offer-results">
                            {offers
                                .iter()
                                .map(|r| {
                                    view! {
                                        <li class=class(r) data-machine-id=r.machine_id>
                                            {r.sentence(|t| format_absolute(t, utc.get_untracked()))}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                        <h3>"Windows"</h3>
                    }
                })}
            {back_on_the_market(&run.windows)}
            <ItemResults results=run.windows />
            {(!held.is_empty())
                .then(|| {
                    view! {
                        <h3>"Held back"</h3>
                        <ul class="item-results" data-testid="held-back">
                            {held
                                .iter()
                                .map(|h| {
                                    view! {
                                        <li class="refused" data-machine-id=h.machine_id>
                                            {h
                                                .why
                                                .sentence(
                                                    h.machine_id,
                                                    |t| format_absolute(t, utc.get_untracked()),
                                                )}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
        </section>
    }
}
