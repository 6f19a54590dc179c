//! "End offers at…": one offer end date for the selected listed machines (N22 (list
//! machine) with `end_date` only, every term kept). The preview says, per machine, which
//! running rentals this extends and to when, and who still has renters after it.

use super::rules::{check_end_offers, end_offer_request, end_offer_result, end_offers_line};
use super::rules::{EndOffersPlan, OfferResult};
use super::{reread_of, send_each, OfferResults, PreviewList};
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::form_field::FormField;
use crate::components::item_results::{RunProgress, RunProgressBar};
use crate::components::time::{
    format_absolute, local_zone, now_seconds, start_seconds, use_clock, use_utc, UtcToggle,
};
use crate::components::words::{counted, named_in_confirmation};
use crate::domain::bulk::PacedAction;
use gpudeck_wire::Machine;
use leptos::prelude::*;

/// The form's text, its problem and the run, kept by the page.
#[derive(Clone, Copy)]
pub struct EndOffersState {
    end_text: RwSignal<String>,
    problem: RwSignal<Option<String>>,
    progress: RunProgress,
    action: ConfirmedAction<EndOffersPlan, Vec<OfferResult>>,
}

impl EndOffersState {
    pub fn new(reload: impl Fn() + 'static) -> Self {
        let utc = use_utc();
        let progress = RunProgress::new();
        let action = ConfirmedAction::new(
            move |api, plan: EndOffersPlan| {
                let api = progress.start(&api, plan.machine_ids.len());
                async move {
                    let end = plan.end;
                    let send = move |api: crate::api::ApiClient, id| async move {
                        api.list_machine(&end_offer_request(id, end)).await
                    };
                    let (sorted, reread) =
                        send_each(&api, plan.machine_ids, send, move || progress.count(1)).await?;
                    let now = now_seconds();
                    let time = |t| format_absolute(t, utc.get_untracked());
                    Ok(sorted
                        .into_iter()
                        .map(|(id, s)| {
                            end_offer_result(id, end, s, reread_of(&reread, id), now, &time)
                        })
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
            end_text: RwSignal::new(String::new()),
            problem: RwSignal::new(None),
            progress,
            action,
        }
    }

    pub fn pending(self) -> bool {
        self.action.pending().get_untracked()
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
    let action = state.action;
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
    let zone = move || {
        if utc.get() {
            "UTC".to_owned()
        } else {
            local_zone()
        }
    };
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
            {move || {
                if preview.with(Vec::is_empty) {
                    view! {
                        <p class="hint">
                            "Enter the time to see what changes on each selected machine."
                        </p>
                    }
                        .into_any()
                } else {
                    view! { <PreviewList lines=preview label="What ending the offers changes" /> }
                        .into_any()
                }
            }}
            <div class="form-actions">
                <SubmitButton
                    pending=action.pending()
                    idle="End these offers…"
                    busy="Ending offers…"
                />
            </div>
        </form>
        <RunProgressBar
            progress=state.progress
            running=action.pending()
            done_verb="Answered for"
            id="end-offers-progress"
        />
        {action.failure_view()}
        {move || {
            action
                .done()
                .map(|results| {
                    view! {
                        <OfferResults results=results heading="Offers ended" schedule_link=true />
                    }
                })
        }}
        <ActionDialog action=action title="End these offers?" confirm_label="End the offers">
            <p>
                {move || {
                    asked()
                        .map(|plan| {
                            format!(
                                "{} end at {}: ",
                                counted(plan.machine_ids.len() as i64, "offer", "offers"),
                                time(plan.end),
                            )
                        })
                }}
                <strong class="id-list">
                    {move || asked().map(|plan| named_in_confirmation(&plan.machine_ids))}
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
                        PacedAction::ListEachOffer.duration_sentence(plan.machine_ids.len())
                    })
                    .map(|takes| {
                        view! { <p data-testid="paced-duration">{format!("{takes}.")}</p> }
                    })
            }}
        </ActionDialog>
    }
}
