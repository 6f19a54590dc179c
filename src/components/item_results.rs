//! A run of per-machine requests as it goes and as it ended: its progress (machines
//! answered, and the wait when the server's rate limit holds it back), and one result line
//! a machine, the refused first so they are seen without scrolling. Every bulk action
//! shows these, so all of them read the same.

use crate::api::ApiClient;
use crate::components::words::counted;
use crate::domain::schedule::{ItemOutcome, ItemResult};
pub use gpudeck_logic::components::item_results::{one_more_or_less, rate_limit_text};
use leptos::prelude::*;
use std::rc::Rc;

/// How far a run has come: machines answered of all, and while a request waits for the
/// rate limit, the whole seconds it waits.
#[derive(Clone, Copy)]
pub struct RunProgress {
    counts: RwSignal<(usize, usize)>,
    /// Requests waiting for their slot, and the seconds the latest to start waiting waits.
    /// Several wait at once when a paced run has requests in flight together, so one that
    /// stops waiting must not hide the others' wait.
    waiting: RwSignal<(usize, u32)>,
}

impl Default for RunProgress {
    fn default() -> Self {
        Self::new()
    }
}

impl RunProgress {
    pub fn new() -> Self {
        Self {
            counts: RwSignal::new((0, 0)),
            waiting: RwSignal::new((0, 0)),
        }
    }

    /// Starts counting a run of `total` machines sent through `api`; the client returned
    /// tells this progress whenever one of its requests waits for the rate limit.
    pub fn start(self, api: &ApiClient, total: usize) -> ApiClient {
        self.counts.try_set((0, total));
        self.waiting.try_set((0, 0));
        api.on_rate_limit_wait(Rc::new(move |wait| {
            self.waiting
                .try_update(|waiting| *waiting = one_more_or_less(*waiting, wait));
        }))
    }

    /// `answered` more machines have their result.
    pub fn count(self, answered: usize) {
        self.counts
            .try_update(|(done, total)| *done = (*done + answered).min(*total));
    }

    /// `Scheduled 3 of 30 machines, waiting for the rate limit, 2 s`, with `done` the verb.
    fn text(self, done_verb: &str) -> String {
        let (done, total) = self.counts.get();
        format!(
            "{done_verb} {done} of {}{}",
            counted(total as i64, "machine", "machines"),
            rate_limit_text(self.waiting.get())
        )
    }
}

/// The progress of a run while `running`: `Scheduled 3 of 30 machines` over a bar, and the
/// wait for the rate limit when there is one. `id` names the bar for its label.
#[component]
pub fn RunProgressBar(
    progress: RunProgress,
    #[prop(into)] running: Signal<bool>,
    /// What is done to each machine, as a past participle: `Scheduled`, `Cancelled`.
    done_verb: &'static str,
    id: &'static str,
) -> impl IntoView {
    move || {
        running.get().then(|| {
            let (done, total) = progress.counts.get();
            view! {
                <div class="batch-progress" data-testid="run-progress">
                    <label for=id>{progress.text(done_verb)}</label>
                    <progress id=id max=total value=done>
                        {format!("{done} of {total}")}
                    </progress>
                </div>
            }
        })
    }
}

#[component]
pub fn ItemResults(results: Vec<ItemResult>) -> impl IntoView {
    // What did not happen, or may not have, first.
    let class = |r: &ItemResult| match r.outcome {
        ItemOutcome::Refused(_) => "refused",
        ItemOutcome::Unknown => "unknown",
        ItemOutcome::Scheduled { .. } | ItemOutcome::FoundAfterNoAnswer => "ok",
    };
    let (first, rest): (Vec<ItemResult>, Vec<ItemResult>) =
        results.into_iter().partition(|r| class(r) != "ok");
    view! {
        <ul class="item-results">
            {first
                .into_iter()
                .chain(rest)
                .map(|r| {
                    let class = class(&r);
                    view! {
                        <li class=class data-machine-id=r.machine_id>
                            {r.sentence()}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
