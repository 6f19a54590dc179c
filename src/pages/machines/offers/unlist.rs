//! "Unlist…": N23 (unlist machine) on each selected machine. Unlisting stops new rentals
//! only: the preview says which machines still have renters and until when, and which
//! are unlisted already (N23 changes nothing on those, and is sent all the same).

use super::rules::{unlist_line, unlist_result, OfferResult, Reread};
use super::run::{OfferRun, OfferRunView, OfferSend};
use super::PreviewList;
use crate::api::{ApiClient, ApiError};
use crate::components::confirmed_action::{ActionDialog, SubmitButton};
use crate::components::time::{format_absolute, use_clock, use_utc};
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::bulk::{PacedAction, Sorted};
use crate::domain::listing::RentalsEnd;
use gpudeck_wire::Machine;
use leptos::prelude::*;

/// The form's problem and the run, kept by the page.
#[derive(Clone, Copy)]
pub struct UnlistState {
    problem: RwSignal<Option<String>>,
    run: OfferRun<Vec<Machine>>,
}

impl UnlistState {
    pub fn new(reload: impl Fn() + 'static) -> Self {
        Self {
            problem: RwSignal::new(None),
            run: OfferRun::new(reload),
        }
    }

    pub fn pending(self) -> bool {
        self.run.pending()
    }
}

/// One N23 for each selected machine, listed or not.
impl OfferSend for Vec<Machine> {
    type Answer = ();

    fn machine_ids(&self) -> Vec<i64> {
        self.iter().map(|m| m.id).collect()
    }

    async fn send(&self, api: ApiClient, id: i64) -> Result<(), ApiError> {
        api.unlist_machine(id).await.map(|_| ())
    }

    fn result(
        &self,
        id: i64,
        answer: Sorted<()>,
        reread: Reread<'_>,
        now: f64,
        time: &impl Fn(f64) -> String,
    ) -> OfferResult {
        let machine = self.iter().find(|m| m.id == id).expect("a machine sent to");
        unlist_result(machine, answer, reread, now, time)
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
    let action = state.run.action;
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
                <SubmitButton
                    pending=action.pending()
                    idle="Unlist these machines…"
                    busy="Unlisting…"
                    danger=true
                />
            </div>
        </form>
        <OfferRunView run=state.run id="unlist-progress" heading="Unlisted" schedule_link=true />
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
