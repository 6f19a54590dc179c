//! The Machines page's offer actions on its selection (§1.7, offers and rental contracts):
//! "End offers at…" (N22 (list machine) with an offer end date), "Unlist…" (N23 (unlist
//! machine)) and "List again…" (N22 with the kept terms). Each shows, machine by machine,
//! what will change before anything is sent, sends one request per machine at the public
//! service's pace, and says how each ended. Their state is made once for the page, so the
//! results stay when the table reloads after a run.

pub mod end_offers;
pub mod relist;
pub mod run;
pub mod unlist;

pub use gpudeck_logic::pages::machines::offers::rules;

use end_offers::{EndOffersPanel, EndOffersState};
use gpudeck_wire::Machine;
use leptos::prelude::*;
use relist::{RelistPanel, RelistState};
use rules::PreviewLine;
use unlist::{UnlistPanel, UnlistState};

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

    /// The action whose form is open, if any (tracked).
    pub fn open(self) -> Option<OfferAction> {
        self.open.get()
    }

    /// Opens `action`'s form (fleet health's remedies open them for the machines a
    /// finding holds).
    pub fn open_action(self, action: OfferAction) {
        self.open.set(Some(action));
    }

    /// "List again…" on `machines` with their kept terms, straight to its confirmation.
    pub fn relist_as_kept(self, machines: &[Machine]) {
        self.relist.ask_kept(machines);
        self.open.set(Some(OfferAction::Relist));
    }
}

/// The form, preview and results of `action` for the selected `machines`. The page shows it
/// as one of its parts (`pages::machines::parts`), loaded after the page has painted.
pub fn offer_panel(
    actions: OfferActions,
    action: OfferAction,
    machines: Signal<Vec<Machine>>,
) -> AnyView {
    let open = actions.open;
    let close = move |_| {
        if !actions.pending() {
            open.set(None);
        }
    };
    let form = match action {
        OfferAction::EndOffers => {
            view! { <EndOffersPanel state=actions.end_offers machines=machines /> }.into_any()
        }
        OfferAction::Unlist => {
            view! { <UnlistPanel state=actions.unlist machines=machines /> }.into_any()
        }
        OfferAction::Relist => {
            view! { <RelistPanel state=actions.relist machines=machines /> }.into_any()
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
    .into_any()
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

/// The preview once the form says enough to make one, else `hint` on what it still needs.
#[component]
fn PreviewOrHint(
    lines: Signal<Vec<PreviewLine>>,
    /// What the list is, for screen readers.
    label: &'static str,
    hint: &'static str,
) -> impl IntoView {
    move || {
        if lines.with(Vec::is_empty) {
            view! { <p class="hint">{hint}</p> }.into_any()
        } else {
            view! { <PreviewList lines=lines label=label /> }.into_any()
        }
    }
}
