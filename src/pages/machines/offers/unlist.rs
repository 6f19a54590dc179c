//! "Unlist…": N23 (unlist machine) on each selected machine. Unlisting stops new rentals
//! only: the preview says which machines still have renters and until when, and which
//! are unlisted already (N23 changes nothing on those, and is sent all the same).

use super::rules::{unlist_line, unlist_result, OfferResult};
use super::{reread_of, send_each, OfferResults, PreviewList};
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::item_results::{RunProgress, RunProgressBar};
use crate::components::time::{format_absolute, now_seconds, use_clock, use_utc};
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::bulk::PacedAction;
use crate::domain::listing::RentalsEnd;
use gpudeck_wire::Machine;
use leptos::prelude::*;

/// The form's problem and the run, kept by the page.
#[derive(Clone, Copy)]
pub struct UnlistState {
    problem: RwSignal<Option<String>>,
    progress: RunProgress,
    action: ConfirmedAction<Vec<Machine>, Vec<OfferResult>>,
}

impl UnlistState {
    pub fn new(reload: impl Fn() + 'static) -> Self {
        let utc = use_utc();
        let progress = RunProgress::new();
        let action = ConfirmedAction::new(
            move |api, machines: Vec<Machine>| {
                let api = progress.start(&api, machines.len());
                async move {
                    let ids = machines.iter().map(|m| m.id).collect();
                    let send = |api: crate::api::ApiClient, id| async move {
                        api.unlist_machine(id).await.map(|_| ())
                    };
                    let (sorted, reread) =
                        send_each(&api, ids, send, move || progress.count(1)).await?;
                    let now = now_seconds();
                    let time = |t| format_absolute(t, utc.get_untracked());
                    Ok(machines
                        .iter()
                        .zip(sorted)
                        .map(|(m, (id, s))| unlist_result(m, s, reread_of(&reread, id), now, &time))
                        .collect::<Vec<_>>())
                }
            },
            move |_, results: Vec<OfferResult>| {
                reload();
                results
            },
        )
        .refusals_as_failures();
        Self {
            problem: RwSignal::new(None),
            progress,
            action,
        }
    }

    pub fn pending(self) -> bool {
        self.action.pending().get_untracked()
    }
}

/// What unlisting does, above the preview.
const UNLIST_HINT: &str =
    "Unlisting stops new rentals at once. Running rentals go on to their end: the machine \
    is ready for maintenance once they have.";

#[component]
pub fn UnlistPanel(state: UnlistState, machines: Signal<Vec<Machine>>) -> impl IntoView {
    let utc = use_utc();
    let now = use_clock();
    let action = state.action;
    let time = move |t: f64| format_absolute(t, utc.get());
    let preview = Signal::derive(move || {
        machines.with(|ms| {
            ms.iter()
                .map(|m| unlist_line(m, now.get(), &time))
                .collect()
        })
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let chosen = machines.get_untracked();
        if chosen.is_empty() {
            state
                .problem
                .set(Some("Select the machines in the table first.".into()));
            return;
        }
        state.problem.set(None);
        action.ask(chosen);
    };
    let asked = move || action.asked().unwrap_or_default();
    let still_rented = move || {
        asked()
            .iter()
            .filter(|m| RentalsEnd::of(m) != RentalsEnd::NoRentals)
            .count()
    };
    view! {
        <p class="hint">{UNLIST_HINT}</p>
        <form class="offer-form" on:submit=submit novalidate>
            <PreviewList lines=preview label="What unlisting changes" />
            <p class="form-error" role="alert" id="unlist-error">
                {move || state.problem.get()}
            </p>
            <div class="form-actions">
                <button type="submit" class="button danger" disabled=action.pending()>
                    {move || {
                        if action.pending().get() {
                            "Unlisting…"
                        } else {
                            "Unlist these machines…"
                        }
                    }}
                </button>
            </div>
        </form>
        <RunProgressBar
            progress=state.progress
            running=action.pending()
            done_verb="Answered for"
            id="unlist-progress"
        />
        {action.failure_view()}
        {move || {
            action
                .done()
                .map(|results| {
                    view! { <OfferResults results=results heading="Unlisted" schedule_link=true /> }
                })
        }}
        <ActionDialog
            action=action
            title="Unlist these machines?"
            confirm_label="Unlist them"
            danger=true
        >
            <p>
                {move || format!("{}: ", counted(asked().len() as i64, "machine", "machines"))}
                <strong class="id-list">
                    {move || named_in_confirmation(
                        &asked().iter().map(|m| m.id).collect::<Vec<_>>(),
                    )}
                </strong>
            </p>
            <p>
                {move || match still_rented() {
                    0 => "None of them has a rental running.".to_owned(),
                    n => {
                        format!(
                            "{} still {} renters: their rentals go on to their end.",
                            counted(n as i64, "machine", "machines"),
                            if n == 1 { "has" } else { "have" },
                        )
                    }
                }}
            </p>
            {move || {
                PacedAction::UnlistEachMachine
                    .duration_sentence(asked().len())
                    .map(|takes| {
                        view! { <p data-testid="paced-duration">{format!("{takes}.")}</p> }
                    })
            }}
        </ActionDialog>
    }
}
