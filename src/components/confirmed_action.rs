//! How every page changes data: the request is asked for, confirmed in a dialog, sent once
//! (a second send while one runs is ignored), and its outcome lands in one of three
//! places: a refusal next to the field it concerns, a failure in the error panel (with Try
//! again, and a toast where the page wants one), or the page's success view.

use super::confirm::ConfirmDialog;
use super::error_panel::ErrorPanel;
use super::toasts::use_toasts;
use crate::api::{use_api, ApiClient, ApiError, Outcome, Refusal};
use leptos::prelude::*;
use std::future::Future;
use std::rc::Rc;

/// A refusal as shown next to a field: its kind (a 2xx answer that says it did not do it
/// is [`Refusal::Declined`]) and the sentence to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub kind: Refusal,
    pub message: String,
}

#[derive(Clone, Copy, Default)]
struct Rules {
    refusals_as_failures: bool,
    failure_toast: Option<&'static str>,
}

/// The state of one confirmed action; `I` is what is sent, `R` what a success leaves to
/// show. Cheap to copy into event handlers.
pub struct ConfirmedAction<I: 'static, R: 'static> {
    /// Whether the confirmation dialog is open; give it to `ConfirmDialog`'s `open`.
    pub confirming: RwSignal<bool>,
    asked: RwSignal<Option<I>>,
    refused: RwSignal<Option<Refused>>,
    failure: RwSignal<Option<ApiError>>,
    done: RwSignal<Option<R>>,
    rules: StoredValue<Rules>,
    action: Action<I, ()>,
}

impl<I, R> Clone for ConfirmedAction<I, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<I, R> Copy for ConfirmedAction<I, R> {}

impl<I, R> ConfirmedAction<I, R>
where
    I: Clone + Send + Sync + 'static,
    R: Clone + Send + Sync + 'static,
{
    /// `send` makes the request with the page's client. `on_success` turns the answer into
    /// what the page shows (and may toast, clear the form, ...). An answer that says
    /// nothing was done never gets there: the client makes it a refusal.
    pub fn new<O, Fut>(
        send: impl Fn(ApiClient, I) -> Fut + 'static,
        on_success: impl Fn(I, O) -> R + 'static,
    ) -> Self
    where
        O: 'static,
        Fut: Future<Output = Result<O, ApiError>> + 'static,
    {
        let api = use_api();
        let toasts = use_toasts();
        let refused = RwSignal::new(None::<Refused>);
        let failure = RwSignal::new(None::<ApiError>);
        let done = RwSignal::new(None::<R>);
        let rules = StoredValue::new(Rules::default());
        let on_success = Rc::new(on_success);
        let action = Action::new_local(move |input: &I| {
            let answer = send(api.clone(), input.clone());
            let input = input.clone();
            let on_success = on_success.clone();
            async move {
                let result = answer.await;
                let shown = match result {
                    Ok(answer) => Shown::Done(on_success(input, answer)),
                    Err(error) => {
                        let rules = rules.try_get_value().unwrap_or_default();
                        match error.outcome() {
                            Outcome::Aborted | Outcome::Unauthorised => return,
                            Outcome::Refused(kind) if !rules.refusals_as_failures => {
                                Shown::Refused(Refused {
                                    kind,
                                    message: error.message(),
                                })
                            }
                            // A write with no answer shows as unknown in its own words
                            // (`ApiError::NoAnswer`); the page's reload shows what is true.
                            Outcome::Refused(_) | Outcome::Failed | Outcome::Unknown => {
                                if let Some(what) = rules.failure_toast {
                                    toasts.error(format!("{what}: {}", error.message()));
                                }
                                Shown::Failed(error)
                            }
                        }
                    }
                };
                // One outcome replaces the last one, whichever it was.
                let (is_done, is_refused, is_failed) = match shown {
                    Shown::Done(kept) => (Some(kept), None, None),
                    Shown::Refused(refusal) => (None, Some(refusal), None),
                    Shown::Failed(error) => (None, None, Some(error)),
                };
                done.try_set(is_done);
                refused.try_set(is_refused);
                failure.try_set(is_failed);
            }
        });
        Self {
            confirming: RwSignal::new(false),
            asked: RwSignal::new(None),
            refused,
            failure,
            done,
            rules,
            action,
        }
    }

    /// Refusals go to the error panel like failures (for a form with no field they
    /// could stand next to).
    pub fn refusals_as_failures(self) -> Self {
        self.rules.update_value(|r| r.refusals_as_failures = true);
        self
    }

    /// Failures also raise an error toast: `"{what}: {message}"`.
    pub fn toast_failures(self, what: &'static str) -> Self {
        self.rules.update_value(|r| r.failure_toast = Some(what));
        self
    }

    /// Takes away the last refusal and failure, e.g. when the form is submitted again.
    pub fn clear(&self) {
        self.refused.set(None);
        self.failure.set(None);
    }

    /// Opens the confirmation for `input`; the last refusal or failure goes away.
    pub fn ask(&self, input: I) {
        self.clear();
        self.asked.set(Some(input));
        self.confirming.set(true);
    }

    /// Sends what was asked, unless a request is already running (a double click, a
    /// second Try again), so the same change is never sent twice at once.
    pub fn send(&self) {
        if self.action.pending().get_untracked() {
            return;
        }
        let Some(input) = self.asked.get_untracked() else {
            return;
        };
        self.clear();
        self.action.dispatch(input);
    }

    /// For `ConfirmDialog`'s `on_confirm`.
    pub fn on_confirm(&self) -> Callback<()> {
        let this = *self;
        Callback::new(move |_| this.send())
    }

    /// What is being confirmed, or was sent last.
    pub fn asked(&self) -> Option<I> {
        self.asked.get()
    }

    /// True while the request runs.
    pub fn pending(&self) -> Signal<bool> {
        self.action.pending().into()
    }

    /// The refusal shown next to the form, when `concerns` says it is about this field.
    pub fn refusal_where(&self, concerns: impl Fn(Refusal) -> bool) -> Option<String> {
        self.refused_where(|kind, _| concerns(kind))
    }

    /// Like [`Self::refusal_where`], for fields that only the sentence tells apart.
    pub fn refused_where(&self, concerns: impl Fn(Refusal, &str) -> bool) -> Option<String> {
        self.refused.with(|r| {
            r.as_ref()
                .filter(|r| concerns(r.kind, &r.message))
                .map(|r| r.message.clone())
        })
    }

    /// The last success's result.
    pub fn done(&self) -> Option<R> {
        self.done.get()
    }

    /// The error panel of the last failure, whose Try again sends the same request.
    pub fn failure_view(&self) -> impl IntoView {
        let this = *self;
        move || {
            this.failure.get().map(|error| {
                view! { <ErrorPanel error=error on_retry=Callback::new(move |_| this.send()) /> }
            })
        }
    }
}

enum Shown<R> {
    Done(R),
    Refused(Refused),
    Failed(ApiError),
}

/// The submit button of a form whose action can be pending: disabled while it runs, and
/// saying so (`busy`).
#[component]
pub fn SubmitButton(
    #[prop(into)] pending: Signal<bool>,
    idle: &'static str,
    busy: &'static str,
    /// Styles it as destructive.
    #[prop(optional)]
    danger: bool,
    /// Disabled for a reason other than a running request (a limit reached).
    #[prop(optional, into)]
    blocked: Signal<bool>,
) -> impl IntoView {
    view! {
        <button
            type="submit"
            class=if danger { "button danger" } else { "button primary" }
            disabled=move || pending.get() || blocked.get()
        >
            {move || if pending.get() { busy } else { idle }}
        </button>
    }
}

/// The confirmation of `action`: confirming sends it (once; see [`ConfirmedAction::send`]).
#[component]
pub fn ActionDialog<I, R>(
    action: ConfirmedAction<I, R>,
    title: &'static str,
    confirm_label: &'static str,
    /// Styles the confirm button as destructive.
    #[prop(optional)]
    danger: bool,
    children: Children,
) -> impl IntoView
where
    I: Clone + Send + Sync + 'static,
    R: Clone + Send + Sync + 'static,
{
    view! {
        <ConfirmDialog
            open=action.confirming
            title=title
            confirm_label=confirm_label
            danger=danger
            on_confirm=action.on_confirm()
        >
            {children()}
        </ConfirmDialog>
    }
}
