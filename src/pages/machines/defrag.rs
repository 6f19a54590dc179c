//! Defragmentation of GPU offers: ids in, a confirmation that names the machines, then the
//! result with the counts explained.

use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::machine_ids_field::MachineIdsForm;
use crate::components::page::Page;
use crate::components::toasts::use_toasts;
use crate::components::words::named_in_confirmation;
use gpudeck_wire::DefragResult;
use leptos::prelude::*;

/// One request and its answer.
#[derive(Clone)]
struct Outcome {
    asked: Vec<i64>,
    result: DefragResult,
}

#[component]
pub fn DefragPage() -> impl IntoView {
    let toasts = use_toasts();
    let text = RwSignal::new(String::new());

    // The form has no field a refusal could stand next to: refusals show as failures.
    let run = ConfirmedAction::new(
        |api, ids: Vec<i64>| async move { api.defrag_offers(&ids).await },
        move |asked: Vec<i64>, result: DefragResult| {
            if let DefragResult {
                success: true,
                defragmented: Some(changed),
                ..
            } = &result
            {
                let text = format!(
                    "Defragmented {} of {} machines.",
                    changed.len(),
                    asked.len()
                );
                if changed.is_empty() {
                    toasts.info(text);
                } else {
                    toasts.success(text);
                }
            }
            Outcome { asked, result }
        },
    )
    .refusals_as_failures()
    .toast_failures("Defragmentation failed");
    let pending = run.pending();

    let to_defragment = move || run.asked().unwrap_or_default();
    let named = move || named_in_confirmation(&to_defragment());

    view! {
        <Page
            class="defrag"
            entry=&gpudeck_pages::DEFRAG
            lede="Moves the GPU slot assignments of rentals on your machines so that free GPUs form fewer, larger offers. Running rentals keep their GPU count; a machine whose layout cannot improve is left as it is."
        >
            <MachineIdsForm text=text on_ids=move |ids| run.ask(ids)>
                <SubmitButton pending=pending idle="Defragment…" busy="Defragmenting…" />
            </MachineIdsForm>
            <ActionDialog action=run title="Defragment these machines?" confirm_label="Defragment">
                <p>
                    {move || format!("{} machines: ", to_defragment().len())}
                    <strong class="id-list">{named}</strong>
                </p>
                <p>
                    "Rentals on them may be assigned different GPU slots. Machines that are not yours are ignored."
                </p>
            </ActionDialog>
            {run.failure_view()}
            {move || run.done().map(|outcome| view! { <OutcomeView outcome=outcome /> })}
        </Page>
    }
}

#[component]
fn OutcomeView(outcome: Outcome) -> impl IntoView {
    match outcome.result {
        DefragResult { success: true, defragmented: Some(changed), n0, n1, n2 } => {
            let unchanged: Vec<i64> = outcome.asked.iter().copied().filter(|id| !changed.contains(id)).collect();
            let list = |ids: &[i64]| ids.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
            let count = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_else(|| "—".into());
            view! {
                <div class="result" data-testid="defrag-result">
                    <h2>"Result"</h2>
                    <dl class="figures">
                        <div>
                            <dt>"Rentals moved (n0)"</dt>
                            <dd>{count(n0)}</dd>
                        </div>
                        <div>
                            <dt>"Free-GPU offers before (n1)"</dt>
                            <dd>{count(n1)}</dd>
                        </div>
                        <div>
                            <dt>"Free-GPU offers after (n2)"</dt>
                            <dd>{count(n2)}</dd>
                        </div>
                    </dl>
                    <p class="defragmented">
                        <strong>{format!("Defragmented ({}): ", changed.len())}</strong>
                        {if changed.is_empty() { "none".to_owned() } else { list(&changed) }}
                    </p>
                    <p class="unchanged">
                        <strong>{format!("Not changed ({}): ", unchanged.len())}</strong>
                        {if unchanged.is_empty() { "none".to_owned() } else { list(&unchanged) }}
                        <span class="hint">
                            " — already as compact as they can be, or not machines of yours."
                        </span>
                    </p>
                </div>
            }
            .into_any()
        }
        _ => view! {
            <div class="result nothing" role="status" data-testid="defrag-result">
                <h2>"None of these machines could be defragmented"</h2>
                <p>
                    "None of the ids names a machine of yours. Check the ids, or sign in with the key of the host that owns them."
                </p>
            </div>
        }
        .into_any(),
    }
}
