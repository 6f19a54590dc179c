//! The Machines page's Defragment… (seed op 2) and Cancel maintenance… (N5) on the
//! selection: their actions, confirmations and results. The page shows the confirmations
//! and results as its parts (`pages::machines::parts`), whose code is not in its pack.

use crate::api::Outcome;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::item_results::RunProgress;
use crate::components::occupancy::OccupancyStrip;
use crate::components::resource_view::with_loaded;
use crate::components::toasts::use_toasts;
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::bulk::PacedAction;
use crate::domain::cancellation::{cancel_each, marketplace_windows_stay, Cancelled};
use crate::domain::fleet::Fleet;
use gpudeck_wire::DefragResult;
use leptos::prelude::*;
use std::collections::HashMap;

/// The page's fleet, which both actions read and reload.
pub type FleetResource = LocalResource<Result<Fleet, crate::api::ApiError>>;

/// Defragment…: asked with each machine's id and occupancy strip before.
pub type DefragAction = ConfirmedAction<Vec<(i64, String)>, DefragOutcome>;

/// Cancel maintenance…: asked with the machines' ids.
pub type CancelAction = ConfirmedAction<Vec<i64>, CancelOutcome>;

/// A defragmentation from the selection: each machine's strip before and after.
#[derive(Clone)]
pub struct DefragOutcome {
    /// The answer; `None` when the request was sent and no answer came, so that only the
    /// re-read of the machines tells what changed.
    result: Option<DefragResult>,
    strips: Vec<(i64, String, Option<String>)>,
}

/// What cancelling the windows of each selected machine did: what was cancelled, or the
/// server's refusal.
pub type CancelOutcome = Vec<(i64, Cancelled)>;

/// Defragmenting the selection (seed op 2): each machine's strip before, the answer, and
/// the strips after, read again.
pub fn defrag_action(data: FleetResource) -> DefragAction {
    let toasts = use_toasts();
    ConfirmedAction::new(
        |api, asked: Vec<(i64, String)>| async move {
            let ids: Vec<i64> = asked.iter().map(|(id, _)| *id).collect();
            let result = match api.defrag_offers(&ids).await {
                Ok(result) => Some(result),
                Err(error) if error.outcome() == Outcome::Unknown => None,
                Err(error) => return Err(error),
            };
            // The strips after: N1 again, for these machines.
            let after: HashMap<i64, String> = api
                .machines()
                .await?
                .into_iter()
                .map(|m| (m.id, m.gpu_occupancy))
                .collect();
            let strips = asked
                .into_iter()
                .map(|(id, before)| (id, before, after.get(&id).cloned()))
                .collect();
            Ok(DefragOutcome { result, strips })
        },
        move |_, outcome: DefragOutcome| {
            if let Some(changed) = outcome
                .result
                .as_ref()
                .and_then(|r| r.defragmented.as_ref())
            {
                toasts.success(format!(
                    "Defragmented {} of {} machines.",
                    changed.len(),
                    outcome.strips.len()
                ));
            }
            data.refetch();
            outcome
        },
    )
    .refusals_as_failures()
    .toast_failures("Defragmentation failed")
}

/// Cancelling every window of each selected machine (N5), at N5's public pace.
pub fn cancel_action(data: FleetResource, progress: RunProgress) -> CancelAction {
    let toasts = use_toasts();
    ConfirmedAction::new(
        move |api: crate::api::ApiClient, ids: Vec<i64>| {
            // N5 keeps its public pace from the first machine; the progress says when a
            // request waits for its slot.
            let api = progress.start(&api, ids.len());
            async move { cancel_each(&api, ids, move || progress.count(1)).await }
        },
        move |_, outcome: CancelOutcome| {
            let done = outcome
                .iter()
                .filter(|(_, r)| matches!(r, Cancelled::Done(_)))
                .count();
            toasts.success(format!(
                "Cancelled the maintenance of {done} of {}.",
                counted(outcome.len() as i64, "machine", "machines")
            ));
            data.refetch();
            outcome
        },
    )
    .refusals_as_failures()
}

/// Both confirmations.
pub fn confirmations(
    defrag: DefragAction,
    cancel_all: CancelAction,
    data: FleetResource,
) -> AnyView {
    view! {
        <DefragDialog defrag=defrag />
        <CancelDialog cancel_all=cancel_all data=data />
    }
    .into_any()
}

/// What a defragmentation changed, machine by machine.
pub fn defrag_result(outcome: DefragOutcome) -> AnyView {
    view! { <DefragView outcome=outcome /> }.into_any()
}

/// What cancelling each machine's windows did.
pub fn cancel_result(outcome: CancelOutcome) -> AnyView {
    view! { <CancelView outcome=outcome /> }.into_any()
}

#[component]
fn DefragDialog(defrag: DefragAction) -> impl IntoView {
    view! {
        <ActionDialog action=defrag title="Defragment these machines?" confirm_label="Defragment">
            <p>
                {move || format!("{} machines: ", defrag.asked().map_or(0, |a| a.len()))}
                <strong class="id-list">
                    {move || {
                        let ids: Vec<i64> = defrag
                            .asked()
                            .unwrap_or_default()
                            .iter()
                            .map(|(id, _)| *id)
                            .collect();
                        named_in_confirmation(&ids)
                    }}
                </strong>
            </p>
            <p>"Rentals on them may be assigned different GPU slots; their GPU counts stay."</p>
        </ActionDialog>
    }
}

#[component]
fn CancelDialog(cancel_all: CancelAction, data: FleetResource) -> impl IntoView {
    let windows_of_selection = move || {
        let ids = cancel_all.asked().unwrap_or_default();
        with_loaded(data, |fleet| {
            let mine = fleet.windows.iter().filter(|w| ids.contains(&w.machine_id));
            let (marketplace, own): (Vec<_>, Vec<_>) =
                mine.partition(|w| w.scheduled_by_marketplace);
            (own.len(), marketplace.len())
        })
        .unwrap_or((0, 0))
    };
    view! {
        <ActionDialog
            action=cancel_all
            title="Cancel the maintenance of these machines?"
            confirm_label="Cancel their windows"
            danger=true
        >
            <p>
                {move || format!("{} machines: ", cancel_all.asked().map_or(0, |a| a.len()))}
                <strong class="id-list">
                    {move || named_in_confirmation(&cancel_all.asked().unwrap_or_default())}
                </strong>
            </p>
            <p>
                {move || {
                    let (own, marketplace) = windows_of_selection();
                    let kept = marketplace_windows_stay(marketplace as i64)
                        .map(|stays| format!(" {stays}."))
                        .unwrap_or_default();
                    format!(
                        "Every upcoming and ongoing window you scheduled on them is cancelled: {own} in all.{kept} Their renters are no longer told about them.",
                    )
                }}
            </p>
            {move || {
                let count = cancel_all.asked().map_or(0, |a| a.len());
                PacedAction::CancelEachMachine
                    .duration_sentence(count)
                    .map(|takes| {
                        view! { <p data-testid="paced-duration">{format!("{takes}.")}</p> }
                    })
            }}
        </ActionDialog>
    }
}

#[component]
fn DefragView(outcome: DefragOutcome) -> impl IntoView {
    let heading = match outcome.result.as_ref().map(|r| &r.defragmented) {
        None => {
            "No answer came: these machines may have been defragmented. As they are now:".to_owned()
        }
        Some(None) => "None of these machines could be defragmented".to_owned(),
        Some(Some(changed)) => format!(
            "Defragmented {} of {} machines",
            changed.len(),
            outcome.strips.len()
        ),
    };
    // Without an answer, what changed is what the re-read shows changed.
    let changed: Vec<i64> = match &outcome.result {
        Some(result) => result.defragmented.clone().unwrap_or_default(),
        None => outcome
            .strips
            .iter()
            .filter(|(_, before, after)| after.as_ref().is_some_and(|after| after != before))
            .map(|(id, _, _)| *id)
            .collect(),
    };
    view! {
        <section
            class="result defrag-strips"
            data-testid="defrag-result"
            aria-labelledby="defrag-strips-heading"
        >
            <h2 id="defrag-strips-heading">{heading}</h2>
            <div
                class="table-wrap"
                tabindex="0"
                role="region"
                aria-label="GPU occupancy before and after, scrollable"
            >
                <table class="before-after">
                    <caption class="visually-hidden">
                        "GPU occupancy of each machine before and after"
                    </caption>
                    <thead>
                        <tr>
                            <th scope="col">"Machine"</th>
                            <th scope="col">"Before"</th>
                            <th scope="col">"After"</th>
                            <th scope="col">"Changed"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {outcome
                            .strips
                            .into_iter()
                            .map(|(id, before, after)| {
                                let moved = changed.contains(&id);
                                view! {
                                    <tr data-machine-id=id>
                                        <th scope="row">{id}</th>
                                        <td class="before">
                                            <OccupancyStrip occupancy=before />
                                        </td>
                                        <td class="after">
                                            {match after {
                                                Some(after) => {
                                                    view! { <OccupancyStrip occupancy=after /> }.into_any()
                                                }
                                                None => {
                                                    view! {
                                                        <span class="muted">"not one of your machines"</span>
                                                    }
                                                        .into_any()
                                                }
                                            }}
                                        </td>
                                        <td>{if moved { "Yes" } else { "No" }}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn CancelView(outcome: CancelOutcome) -> impl IntoView {
    view! {
        <section class="result" data-testid="cancel-result" aria-labelledby="cancel-result-heading">
            <h2 id="cancel-result-heading">"Maintenance cancelled"</h2>
            <ul class="item-results">
                {outcome
                    .into_iter()
                    .map(|(id, result)| {
                        let (class, text) = match result {
                            Cancelled::Done(text) => ("ok", text),
                            Cancelled::Refused(text) => ("refused", text),
                            Cancelled::Unknown(text) => ("unknown", text),
                        };
                        view! {
                            <li class=class data-machine-id=id>
                                {text}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}
