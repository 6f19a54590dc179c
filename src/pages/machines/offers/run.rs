//! What the three offer actions share once a form is sent: one request per machine at the
//! public service's pace, the progress, a re-read after a lost answer, the failure, and
//! each machine's result. Each action says only what it sends ([`OfferSend`]).

use super::rules::{OfferResult, Reread, ResultKind};
use crate::api::{ApiClient, ApiError};
use crate::components::confirmed_action::ConfirmedAction;
use crate::components::item_results::{RunProgress, RunProgressBar};
use crate::components::time::{format_absolute, now_seconds, use_utc};
use crate::components::words::counted;
use crate::domain::bulk::{sort, Sorted};
use crate::routes::{with_machine_ids, SCHEDULE};
use futures::stream::{self, StreamExt, TryStreamExt};
use gpudeck_wire::{ListMachineRequest, ListMachineResponse, Machine};
use leptos::prelude::*;
use std::future::Future;

/// Requests of one run in flight at once: as many as a browser opens to one HTTP/1.1
/// server. The client's pacing then spaces them as the operation's limit asks.
const IN_FLIGHT: usize = 6;

/// What one offer action sends, machine by machine, and how it says each result.
pub trait OfferSend: Clone + Send + Sync + 'static {
    /// What the server answers for one machine when it is done.
    type Answer: 'static;

    /// The machines sent to, in the order their results are said.
    fn machine_ids(&self) -> Vec<i64>;

    /// The one request for machine `id`.
    fn send(&self, api: ApiClient, id: i64)
        -> impl Future<Output = Result<Self::Answer, ApiError>>;

    /// Machine `id`'s result: its sorted answer, or after no answer, what `reread` shows.
    fn result(
        &self,
        id: i64,
        answer: Sorted<Self::Answer>,
        reread: Reread<'_>,
        now: f64,
        time: &impl Fn(f64) -> String,
    ) -> OfferResult;
}

/// One offer action's run, kept by the page so its results stay when the table reloads:
/// its progress and the action a confirmation sends.
pub struct OfferRun<P: 'static> {
    pub progress: RunProgress,
    pub action: ConfirmedAction<P, Vec<OfferResult>>,
}

impl<P: 'static> Clone for OfferRun<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: 'static> Copy for OfferRun<P> {}

impl<P: OfferSend> OfferRun<P> {
    /// `reload` runs after each run that sent anything, to show the machines as they are.
    pub fn new(reload: impl Fn() + 'static) -> Self {
        let utc = use_utc();
        let progress = RunProgress::new();
        let action = ConfirmedAction::new(
            move |api, plan: P| {
                let ids = plan.machine_ids();
                let api = progress.start(&api, ids.len());
                async move {
                    let send = |api, id| plan.send(api, id);
                    let (sorted, reread) =
                        send_each(&api, ids, send, move || progress.count(1)).await?;
                    let now = now_seconds();
                    let time = |t| format_absolute(t, utc.get_untracked());
                    Ok(sorted
                        .into_iter()
                        .map(|(id, s)| plan.result(id, s, reread_of(&reread, id), now, &time))
                        .collect::<Vec<_>>())
                }
            },
            move |_, results: Vec<OfferResult>| {
                reload();
                results
            },
        )
        .refusals_as_failures();
        Self { progress, action }
    }

    pub fn pending(self) -> bool {
        self.action.pending().get_untracked()
    }
}

/// Sends one request per machine of `ids` (made by `send`), keeping the operation's public
/// pace from the first, and sorts each answer (`domain::bulk::sort`), telling `answered`
/// as each comes. When any answer was lost, N1 (list machines) is read again, so that each
/// such machine is said as it is now and never sent twice: the re-read comes back beside
/// the results (`None` when it was not needed or failed).
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
    let lost = sorted.iter().any(|(_, s)| matches!(s, Sorted::Unknown(_)));
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

/// The request planned for machine `id`, of a plan's `(machine, request)` pairs.
pub fn planned(requests: &[(i64, ListMachineRequest)], id: i64) -> Option<&ListMachineRequest> {
    requests.iter().find(|(of, _)| *of == id).map(|(_, r)| r)
}

/// Sends `request` (N22) for machine `id`; a machine with none planned is not sent to, and
/// says so as a refusal.
pub async fn send_planned(
    api: ApiClient,
    id: i64,
    request: Option<&ListMachineRequest>,
) -> Result<ListMachineResponse, ApiError> {
    match request {
        Some(request) => api.list_machine(request).await,
        None => Err(ApiError::Declined {
            error: None,
            msg: format!("no request was planned for machine {id}"),
        }),
    }
}

/// Machine `id` in the re-read, for [`super::rules`]' results.
pub fn reread_of(reread: &Option<Vec<Machine>>, id: i64) -> Reread<'_> {
    match reread {
        None => Reread::Failed,
        Some(machines) => machines
            .iter()
            .find(|m| m.id == id)
            .map_or(Reread::Missing, Reread::Shows),
    }
}

/// Below a sent form: the run's progress (`id` names the bar), its failure, and each
/// machine's result under `heading`, with a link to schedule maintenance of the machines
/// done when `schedule_link`.
#[component]
pub fn OfferRunView<P: OfferSend>(
    run: OfferRun<P>,
    id: &'static str,
    heading: &'static str,
    #[prop(optional)] schedule_link: bool,
) -> impl IntoView {
    let action = run.action;
    view! {
        <RunProgressBar
            progress=run.progress
            running=action.pending()
            done_verb="Answered for"
            id=id
        />
        {action.failure_view()}
        {move || {
            action
                .done()
                .map(|results| {
                    view! {
                        <OfferResults results=results heading=heading schedule_link=schedule_link />
                    }
                })
        }}
    }
}

/// Each machine's result, what did not happen first; and a link to schedule maintenance
/// of the machines done, when `schedule_link` (they may now be on their way to it).
#[component]
pub fn OfferResults(
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
