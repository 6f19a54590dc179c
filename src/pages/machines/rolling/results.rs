//! What each machine's run did, and which machines a contract-safe run held back.

use super::offer_steps::{OfferOutcome, OfferResult};
use super::state::PlanRun;
use crate::components::item_results::ItemResults;
use crate::components::time::format_absolute;
use leptos::prelude::*;

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
