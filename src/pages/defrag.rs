//! Defragmentation of GPU offers: ids in, a confirmation that names the machines, then the
//! result with the counts explained.

use crate::api::{use_api, ApiError};
use crate::components::confirm::ConfirmDialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::machine_ids_field::{parsed, MachineIdsField, SavedSets};
use crate::components::toasts::use_toasts;
use gpudeck_wire::{DefragResult, MachineIdsError};
use leptos::prelude::*;

/// Machines named one by one in the confirmation; the rest are counted.
const NAMED_IN_CONFIRMATION: usize = 20;

/// One request and its answer.
#[derive(Clone)]
struct Outcome {
    asked: Vec<i64>,
    result: Result<DefragResult, ApiError>,
}

#[component]
pub fn DefragPage() -> impl IntoView {
    let api = use_api();
    let toasts = use_toasts();
    let text = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let confirming = RwSignal::new(false);
    let to_defragment = RwSignal::new(Vec::<i64>::new());

    let run = Action::new_local(move |ids: &Vec<i64>| {
        let api = api.clone();
        let asked = ids.clone();
        async move {
            let result = api.defrag_offers(&asked).await;
            match &result {
                Ok(DefragResult {
                    success: true,
                    defragmented: Some(changed),
                    ..
                }) => toasts.success(format!(
                    "Defragmented {} of {} machines.",
                    changed.len(),
                    asked.len()
                )),
                Err(ApiError::Aborted) | Ok(_) => {}
                Err(error) => toasts.error(format!("Defragmentation failed: {}", error.message())),
            }
            Outcome { asked, result }
        }
    });
    let pending = run.pending();

    let ask = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        problem.set(None);
        match parsed(&text.get_untracked()) {
            Ok(ids) => {
                to_defragment.set(ids);
                confirming.set(true);
            }
            Err(MachineIdsError::Empty) => {
                problem.set(Some("Enter at least one machine id.".into()))
            }
            Err(_) => {}
        }
    };
    let named = move || {
        to_defragment.with(|ids| {
            let shown: Vec<String> = ids
                .iter()
                .take(NAMED_IN_CONFIRMATION)
                .map(i64::to_string)
                .collect();
            match ids.len().saturating_sub(NAMED_IN_CONFIRMATION) {
                0 => shown.join(", "),
                more => format!("{} and {more} more", shown.join(", ")),
            }
        })
    };

    view! {
        <section class="defrag">
            <h1>"Defragment GPU offers"</h1>
            <p class="lede">
                "Moves the GPU slot assignments of rentals on your machines so that free GPUs form fewer, larger offers. Running rentals keep their GPU count; a machine whose layout cannot improve is left as it is."
            </p>
            <form class="ids-form" on:submit=ask novalidate>
                <MachineIdsField text=text problem=problem/>
                <SavedSets text=text/>
                <div class="form-actions">
                    <button type="submit" class="button primary" disabled=pending>
                        {move || if pending.get() { "Defragmenting…" } else { "Defragment…" }}
                    </button>
                </div>
            </form>
            <ConfirmDialog
                open=confirming
                title="Defragment these machines?"
                confirm_label="Defragment"
                on_confirm=Callback::new(move |_| {
                    if !run.pending().get_untracked() {
                        run.dispatch(to_defragment.get_untracked());
                    }
                })
            >
                <p>
                    {move || format!("{} machines: ", to_defragment.with(Vec::len))}
                    <strong class="id-list">{named}</strong>
                </p>
                <p>"Rentals on them may be assigned different GPU slots. Machines that are not yours are ignored."</p>
            </ConfirmDialog>
            {move || run.value().get().map(|outcome| view! { <OutcomeView outcome=outcome retry=Callback::new(move |_| { run.dispatch(to_defragment.get_untracked()); })/> })}
        </section>
    }
}

#[component]
fn OutcomeView(outcome: Outcome, retry: Callback<()>) -> impl IntoView {
    match outcome.result {
        Err(ApiError::Aborted) => ().into_any(),
        Err(error) => view! { <ErrorPanel error=error on_retry=retry/> }.into_any(),
        Ok(DefragResult { success: true, defragmented: Some(changed), n0, n1, n2 }) => {
            let unchanged: Vec<i64> = outcome.asked.iter().copied().filter(|id| !changed.contains(id)).collect();
            let list = |ids: &[i64]| ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            let count = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_else(|| "—".into());
            view! {
                <div class="result" data-testid="defrag-result">
                    <h2>"Result"</h2>
                    <dl class="figures">
                        <div><dt>"Rentals moved (n0)"</dt><dd>{count(n0)}</dd></div>
                        <div><dt>"Free-GPU offers before (n1)"</dt><dd>{count(n1)}</dd></div>
                        <div><dt>"Free-GPU offers after (n2)"</dt><dd>{count(n2)}</dd></div>
                    </dl>
                    <p class="defragmented">
                        <strong>{format!("Defragmented ({}): ", changed.len())}</strong>
                        {if changed.is_empty() { "none".to_owned() } else { list(&changed) }}
                    </p>
                    <p class="unchanged">
                        <strong>{format!("Not changed ({}): ", unchanged.len())}</strong>
                        {if unchanged.is_empty() { "none".to_owned() } else { list(&unchanged) }}
                        <span class="hint">" — already as compact as they can be, or not machines of yours."</span>
                    </p>
                </div>
            }
            .into_any()
        }
        Ok(_) => view! {
            <div class="result nothing" role="status" data-testid="defrag-result">
                <h2>"None of these machines could be defragmented"</h2>
                <p>"None of the ids names a machine of yours. Check the ids, or sign in with the key of the host that owns them."</p>
            </div>
        }
        .into_any(),
    }
}
