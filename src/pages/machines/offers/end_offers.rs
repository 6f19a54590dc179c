//! "End offers at…": one offer end date for the selected listed machines (N22 (list
//! machine) with the new `end_date` and every other term N1 gives, at its current value). The preview says, per machine, which
//! running rentals this extends and to when, and who still has renters after it.

use super::rules::{check_end_offers, end_offer_result, end_offers_line};
use super::rules::{EndOffersPlan, OfferResult, Reread};
use super::run::{planned, send_planned, OfferRun, OfferRunView, OfferSend};
use super::PreviewOrHint;
use crate::api::{ApiClient, ApiError};
use crate::components::confirmed_action::{ActionDialog, SubmitButton};
use crate::components::form_field::FormField;
use crate::components::time::{
    format_absolute, now_seconds, start_seconds, use_clock, use_utc, zone_words, UtcToggle,
};
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::bulk::{PacedAction, Sorted};
use gpudeck_wire::{ListMachineResponse, Machine};
use leptos::prelude::*;

/// The form's text, its problem and the run, kept by the page.
#[derive(Clone, Copy)]
pub struct EndOffersState {
    end_text: RwSignal<String>,
    problem: RwSignal<Option<String>>,
    run: OfferRun<EndOffersPlan>,
}

impl EndOffersState {
    pub fn new(reload: impl Fn() + 'static) -> Self {
        Self {
            end_text: RwSignal::new(String::new()),
            problem: RwSignal::new(None),
            run: OfferRun::new(reload),
        }
    }

    pub fn pending(self) -> bool {
        self.run.pending()
    }
}

/// One N22 for each listed machine: the new `end_date` and every term N1 gives.
impl OfferSend for EndOffersPlan {
    type Answer = ListMachineResponse;

    fn machine_ids(&self) -> Vec<i64> {
        self.requests.iter().map(|(id, _)| *id).collect()
    }

    async fn send(&self, api: ApiClient, id: i64) -> Result<ListMachineResponse, ApiError> {
        send_planned(api, id, planned(&self.requests, id)).await
    }

    fn result(
        &self,
        id: i64,
        answer: Sorted<ListMachineResponse>,
        reread: Reread<'_>,
        now: f64,
        time: &impl Fn(f64) -> String,
    ) -> OfferResult {
        let request = planned(&self.requests, id).cloned().unwrap_or_default();
        end_offer_result(id, self.end, &request, answer, reread, now, time)
    }
}

/// What ending the offers does, above the form.
const END_OFFERS_HINT: &str =
    "Each offer ends at this time: no new rental runs past it. A later end extends the \
    running rentals that end before it, at the same or a higher locked price (a longer \
    commitment for you). Machines that are not listed are skipped.";

#[component]
pub fn EndOffersPanel(state: EndOffersState, machines: Signal<Vec<Machine>>) -> impl IntoView {
    let utc = use_utc();
    let now = use_clock();
    let action = state.run.action;
    let end = move || start_seconds(&state.end_text.get(), utc.get());
    let time = move |t: f64| format_absolute(t, utc.get());
    let preview = Signal::derive(move || match end() {
        Some(end) => machines.with(|ms| {
            ms.iter()
                .map(|m| end_offers_line(m, end, now.get(), &time))
                .collect()
        }),
        None => Vec::new(),
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match check_end_offers(&machines.get_untracked(), end(), now_seconds()) {
            Ok(plan) => {
                state.problem.set(None);
                action.ask(plan);
            }
            Err(why) => state.problem.set(Some(why)),
        }
    };
    let zone = move || zone_words(utc.get());
    let asked = move || action.asked();
    view! {
        <p class="hint">{END_OFFERS_HINT}</p>
        <form class="offer-form" on:submit=submit novalidate>
            <FormField
                id="offer-end"
                label=view! {
                    "Offers end at "
                    <span class="zone">{move || format!("({})", zone())}</span>
                }
                error=Signal::derive(move || state.problem.get())
                beside=|| view! { <UtcToggle /> }
            >
                <input
                    type="datetime-local"
                    prop:value=state.end_text
                    on:input=move |ev| state.end_text.set(event_target_value(&ev))
                />
            </FormField>
            <PreviewOrHint
                lines=preview
                label="What ending the offers changes"
                hint="Enter the time to see what changes on each selected machine."
            />
            <div class="form-actions">
                <SubmitButton
                    pending=action.pending()
                    idle="End these offers…"
                    busy="Ending offers…"
                />
            </div>
        </form>
        <OfferRunView
            run=state.run
            id="end-offers-progress"
            heading="Offers ended"
            schedule_link=true
        />
        <ActionDialog action=action title="End these offers?" confirm_label="End the offers">
            <p>
                {move || {
                    asked()
                        .map(|plan| {
                            format!(
                                "{} end at {}: ",
                                counted(plan.requests.len() as i64, "offer", "offers"),
                                time(plan.end),
                            )
                        })
                }}
                <strong class="id-list">
                    {move || asked().map(|plan| named_in_confirmation(&plan.machine_ids()))}
                </strong>
            </p>
            {move || {
                asked()
                    .filter(|plan| !plan.skipped.is_empty())
                    .map(|plan| {
                        view! {
                            <p>
                                {format!(
                                    "Skipped, not listed: {}.",
                                    named_in_confirmation(&plan.skipped),
                                )}
                            </p>
                        }
                    })
            }}
            <p>
                "Rentals that end before then are extended to it, unless they locked a lower price."
            </p>
            {move || {
                asked()
                    .and_then(|plan| {
                        PacedAction::ListEachOffer.duration_sentence(plan.requests.len())
                    })
                    .map(|takes| {
                        view! { <p data-testid="paced-duration">{format!("{takes}.")}</p> }
                    })
            }}
        </ActionDialog>
    }
}
