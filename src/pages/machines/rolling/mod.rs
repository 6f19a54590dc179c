//! Planning rolling maintenance for a selection of machines (`/machines/rolling?ids=…`):
//! the planner proposes a start for each machine so that no more than a cap is down at
//! once, around the windows they already have; a person may move any start (the plan is
//! checked again at once) and schedules it, one N4 (schedule many) request per distinct
//! start.
//!
//! The contract-safe mode, the default, honours every rental contract (§1.7): a machine
//! goes down only after its rentals end (a plan edited otherwise is not sent), each start's
//! machines are read again just before they are sent (one rented since is held back), and
//! each offer is first made to end no later than its window's start (N22 (list machine)),
//! so that no new rental crosses it. "Notify renters now" plans straight through rentals,
//! for unplanned work: a window only tells the renters.
//!
//! Everything asked for lives in the address; the plan itself, with the hand edits and
//! what is scheduled, is kept in this tab's storage until all of it is scheduled.
//!
//! The parts: [`form`] takes the settings into the address, [`state`] holds what the
//! address asks and the plan in use, [`plan`] shows it, [`table`] lists its windows,
//! [`violations`] words the rules an edited plan breaks, [`send`] confirms and sends it
//! ([`contract_run`] a contract-safe one), and [`results`] says what each machine's run did.
//! The page's own rules, pure and unit-tested, are [`rules`] (inputs, checks, the
//! planner's request, the kept plan) and [`contract_safe`] (the two modes).

mod contract_run;
mod form;
mod offer_steps;
mod plan;
mod results;
mod send;
mod state;
mod table;
mod violations;

use gpudeck_logic::pages::machines::rolling::{contract_safe, rules};

use crate::components::item_results::{RunProgress, RunProgressBar};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::domain::fleet::{load_fleet, Fleet};
use form::SettingsForm;
use leptos::prelude::*;
use plan::PlanSection;
use results::PlanResults;
use send::{schedule_action, ScheduleDialog};
use state::PlanState;

#[component]
pub fn RollingPage() -> impl IntoView {
    let data = use_api_resource(load_fleet);
    view! {
        <Page
            class="rolling"
            entry=&gpudeck_pages::ROLLING
            lede="Take a set of machines down for maintenance one group after another: the planner proposes when each goes down so that no more than you allow are down at once, around the windows they already have, with the busiest machines last."
        >
            {ResourceView::new(data, "Loading your machines…")
                .show(move |fleet| view! { <Planner fleet=fleet /> })}
        </Page>
    }
}

#[component]
fn Planner(fleet: Fleet) -> impl IntoView {
    let state = PlanState::new(fleet);
    let progress = RunProgress::new();
    let offers_done = RwSignal::new((0, 0));
    let schedule = schedule_action(state, progress, offers_done);
    let pending = schedule.pending();
    let ask_schedule = Callback::new(move |_: ()| {
        // The mode is a promise: no window inside a rental is ever asked to be sent.
        if !state.starts_in_rentals().is_empty() {
            return;
        }
        let sent = state.next_run();
        if !sent.windows.is_empty() {
            schedule.ask(sent);
        }
    });
    view! {
        <SettingsForm state=state />
        {move || {
            state
                .proposal
                .get()
                .map(|proposed| {
                    view! {
                        <PlanSection
                            state=state
                            proposed=proposed
                            pending=pending
                            ask_schedule=ask_schedule
                        />
                    }
                })
        }}
        <ScheduleDialog state=state schedule=schedule />
        {move || {
            pending
                .get()
                .then(|| {
                    let (done, total) = offers_done.get();
                    (total > 0)
                        .then(|| {
                            view! {
                                <p class="muted" data-testid="offer-progress">
                                    {format!("Offers ended: {done} of {total}.")}
                                </p>
                            }
                        })
                })
        }}
        <RunProgressBar
            progress=progress
            running=pending
            done_verb="Scheduled"
            id="rolling-progress"
        />
        {schedule.failure_view()}
        {move || schedule.done().map(|run| view! { <PlanResults run=run utc=state.utc /> })}
    }
}
