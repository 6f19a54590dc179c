//! The Machines page's offer actions on its selection (§1.7, offers and rental contracts):
//! "End offers at…" (N22 (list machine) with an offer end date), "Unlist…" (N23 (unlist
//! machine)) and "List again…" (N22 with the kept terms). Each shows, machine by machine,
//! what will change before anything is sent, sends one request per machine at the public
//! service's pace, and says how each ended. Their state is made once for the page, so the
//! results stay when the table reloads after a run.

pub mod end_offers;
pub mod relist;
pub mod rules;
pub mod unlist;

use crate::api::{ApiClient, ApiError};
use crate::components::words::counted;
use crate::domain::bulk::{sort, Sorted};
use crate::routes::{with_machine_ids, SCHEDULE};
use end_offers::{EndOffersPanel, EndOffersState};
use futures::stream::{self, StreamExt, TryStreamExt};
use gpudeck_wire::Machine;
use leptos::prelude::*;
use relist::{RelistPanel, RelistState};
use rules::{OfferResult, PreviewLine, Reread, ResultKind};
use std::future::Future;
use unlist::{UnlistPanel, UnlistState};

/// Requests of one run in flight at once: as many as a browser opens to one HTTP/1.1
/// server. The client's pacing then spaces them as the operation's limit asks.
const IN_FLIGHT: usize = 6;

/// The offer action whose form is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferAction {
    EndOffers,
    Unlist,
    Relist,
}

impl OfferAction {
    const ALL: [OfferAction; 3] = [
        OfferAction::EndOffers,
        OfferAction::Unlist,
        OfferAction::Relist,
    ];

    fn label(self) -> &'static str {
        match self {
            OfferAction::EndOffers => "End offers at…",
            OfferAction::Unlist => "Unlist…",
            OfferAction::Relist => "List again…",
        }
    }

    fn key(self) -> &'static str {
        match self {
            OfferAction::EndOffers => "end-offers",
            OfferAction::Unlist => "unlist",
            OfferAction::Relist => "relist",
        }
    }
}

/// The three actions' state and which one is open.
#[derive(Clone, Copy)]
pub struct OfferActions {
    open: RwSignal<Option<OfferAction>>,
    end_offers: EndOffersState,
    unlist: UnlistState,
    relist: RelistState,
}

impl OfferActions {
    /// `reload` runs after each run that sent anything, to show the machines as they are.
    pub fn new(reload: impl Fn() + Copy + 'static) -> Self {
        Self {
            open: RwSignal::new(None),
            end_offers: EndOffersState::new(reload),
            unlist: UnlistState::new(reload),
            relist: RelistState::new(reload),
        }
    }

    /// Whether any of the three is sending.
    fn pending(self) -> bool {
        self.end_offers.pending() || self.unlist.pending() || self.relist.pending()
    }

    /// The buttons that open each action's form, for the selection's button group.
    pub fn buttons(self, none_selected: Signal<bool>) -> impl IntoView {
        OfferAction::ALL.map(|action| {
            let open = self.open;
            let is_open = move || open.get() == Some(action);
            let toggle = move |_| {
                open.update(|o| {
                    *o = if *o == Some(action) {
                        None
                    } else {
                        Some(action)
                    }
                })
            };
            view! {
                <button
                    type="button"
                    class="button"
                    data-action=action.key()
                    aria-expanded=move || is_open().to_string()
                    aria-controls="offer-panel"
                    disabled=move || none_selected.get() && !is_open()
                    on:click=toggle
                >
                    {action.label()}
                </button>
            }
        })
    }

    /// The open action's form, preview and results, for the selected `machines`.
    pub fn panel(self, machines: Signal<Vec<Machine>>) -> impl IntoView {
        let open = self.open;
        move || {
            open.get().map(|action| {
                let close = move |_| {
                    if !self.pending() {
                        open.set(None);
                    }
                };
                let form = match action {
                    OfferAction::EndOffers => {
                        view! { <EndOffersPanel state=self.end_offers machines=machines /> }
                            .into_any()
                    }
                    OfferAction::Unlist => {
                        view! { <UnlistPanel state=self.unlist machines=machines /> }.into_any()
                    }
                    OfferAction::Relist => {
                        view! { <RelistPanel state=self.relist machines=machines /> }.into_any()
                    }
                };
                view! {
                    <section
                        id="offer-panel"
                        class="offer-panel"
                        data-testid=action.key()
                        aria-labelledby="offer-panel-heading"
                    >
                        <div class="offer-panel-head">
                            <h2 id="offer-panel-heading">
                                {action.label().trim_end_matches('…').to_owned()}
                            </h2>
                            <button type="button" class="button" on:click=close>
                                "Close"
                            </button>
                        </div>
                        {form}
                    </section>
                }
            })
        }
    }
}

/// Sends one request per machine of `ids` (made by `send`), keeping the operation's public
/// pace from the first, and sorts each answer (`domain::bulk::sort`), telling `answered`
/// as each comes. When any answer was lost, N1 is read again, so that each such machine
/// is said as it is now and never sent twice: the re-read comes back beside the results
/// (`None` when it was not needed or failed).
pub async fn send_each<T, Fut>(
    api: &ApiClient,
    ids: Vec<i64>,
    send: impl Fn(ApiClient, i64) -> Fut,
    answered: impl Fn() + Clone,
) -> Result<(Vec<(i64, Sorted<T>)>, Option<Vec<Machine>>), ApiError>
where
    Fut: Future<Output = Result<T, ApiError>>,
{
    let paced = api.paced_from_the_start();
    let sorted: Vec<(i64, Sorted<T>)> = stream::iter(ids)
        .map(|id| {
            let answer = send(paced.clone(), id);
            let answered = answered.clone();
            async move {
                let answer = answer.await;
                answered();
                Ok::<_, ApiError>((id, sort(answer)?))
            }
        })
        .buffered(IN_FLIGHT)
        .try_collect()
        .await?;
    let lost = sorted.iter().any(|(_, s)| matches!(s, Sorted::Unknown));
    let reread = if lost {
        match sort(api.machines().await)? {
            Sorted::Done(machines) => Some(machines),
            _ => None,
        }
    } else {
        None
    };
    Ok((sorted, reread))
}

/// Machine `id` in the re-read, for [`rules`]' results.
pub fn reread_of(reread: &Option<Vec<Machine>>, id: i64) -> Reread<'_> {
    match reread {
        None => Reread::Failed,
        Some(machines) => machines
            .iter()
            .find(|m| m.id == id)
            .map_or(Reread::Missing, Reread::Shows),
    }
}

/// A preview: one line per machine, those skipped marked so.
#[component]
fn PreviewList(
    #[prop(into)] lines: Signal<Vec<PreviewLine>>,
    /// What the list is, for screen readers.
    label: &'static str,
) -> impl IntoView {
    view! {
        <ul class="offer-preview" aria-label=label data-testid="offer-preview">
            <For each=move || lines.get() key=|line| (line.machine_id, line.text.clone()) let:line>
                <li class:skipped=!line.sent data-machine-id=line.machine_id>
                    <strong>{format!("Machine {}", line.machine_id)}</strong>
                    {format!(": {}", line.text)}
                </li>
            </For>
        </ul>
    }
}

/// Each machine's result, what did not happen first; and a link to schedule maintenance
/// of the machines done, when `schedule_link` (they may now be on their way to it).
#[component]
fn OfferResults(
    results: Vec<OfferResult>,
    heading: &'static str,
    #[prop(optional)] schedule_link: bool,
) -> impl IntoView {
    let done: Vec<i64> = results
        .iter()
        .filter(|r| r.outcome == ResultKind::Done)
        .map(|r| r.machine_id)
        .collect();
    let summary = format!(
        "{heading}: {} of {} done",
        done.len(),
        counted(results.len() as i64, "machine", "machines")
    );
    let (first, rest): (Vec<OfferResult>, Vec<OfferResult>) = results
        .into_iter()
        .partition(|r| r.outcome != ResultKind::Done);
    let link = (schedule_link && !done.is_empty()).then(|| {
        view! {
            <p>
                <a href=with_machine_ids(
                    SCHEDULE,
                    &done,
                )>
                    {format!(
                        "Schedule maintenance of the {}",
                        counted(done.len() as i64, "machine done", "machines done"),
                    )}
                </a>
            </p>
        }
    });
    view! {
        <section class="result" data-testid="offer-result" aria-labelledby="offer-result-heading">
            <h3 id="offer-result-heading">{summary}</h3>
            <ul class="item-results">
                {first
                    .into_iter()
                    .chain(rest)
                    .map(|r| {
                        view! {
                            <li class=r.outcome.class() data-machine-id=r.machine_id>
                                <strong>{format!("Machine {}", r.machine_id)}</strong>
                                {format!(": {}", r.text)}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            {link}
        </section>
    }
}
