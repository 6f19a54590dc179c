//! The per-machine results of a scheduling run, one line a machine, the refused first so
//! they are seen without scrolling.

use crate::domain::schedule::{ItemOutcome, ItemResult};
use leptos::prelude::*;

#[component]
pub fn ItemResults(results: Vec<ItemResult>) -> impl IntoView {
    let refused = |r: &ItemResult| matches!(r.outcome, ItemOutcome::Refused(_));
    let (first, rest): (Vec<ItemResult>, Vec<ItemResult>) = results.into_iter().partition(refused);
    view! {
        <ul class="item-results">
            {first.into_iter().chain(rest).map(|r| {
                let class = if refused(&r) { "refused" } else { "ok" };
                view! { <li class=class data-machine-id=r.machine_id>{r.sentence()}</li> }
            }).collect_view()}
        </ul>
    }
}
