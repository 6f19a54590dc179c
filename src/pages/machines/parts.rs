//! The Machines page's parts: what it shows only when asked, the offer actions' panel
//! ([`offers`](super::offers)), and the confirmations and results of Defragment… and Cancel
//! maintenance… ([`bulk_actions`](super::bulk_actions)). With the `split` feature they are
//! one part, a split of its own loaded after the page has painted (`crate::page_part`), so
//! that their code, a fifth of the page's, is not in its pack.
//!
//! One part rather than one per view: wasm-split cuts the code that splits share into a
//! chunk per set of splits using it, so each split more makes every page's pack and the
//! split loader larger (docs/load-path.md, "Parts shown on demand").

use super::bulk_actions::{
    self, CancelAction, CancelOutcome, DefragAction, DefragOutcome, FleetResource,
};
use super::offers::{self, OfferAction, OfferActions};
use gpudeck_wire::Machine;
use leptos::prelude::*;

/// What the part is asked to show.
#[allow(
    clippy::large_enum_variant,
    reason = "made once for each view shown and moved into it, never kept"
)]
enum Shown {
    OfferPanel {
        actions: OfferActions,
        action: OfferAction,
        machines: Signal<Vec<Machine>>,
    },
    Confirmations {
        defrag: DefragAction,
        cancel_all: CancelAction,
        data: FleetResource,
    },
    DefragResult(DefragOutcome),
    CancelResult(CancelOutcome),
}

/// The page's one part: every view it shows only when asked.
#[cfg_attr(feature = "split", leptos::lazy)]
async fn machines_part(shown: Shown) -> AnyView {
    match shown {
        Shown::OfferPanel {
            actions,
            action,
            machines,
        } => offers::offer_panel(actions, action, machines),
        Shown::Confirmations {
            defrag,
            cancel_all,
            data,
        } => bulk_actions::confirmations(defrag, cancel_all, data),
        Shown::DefragResult(outcome) => bulk_actions::defrag_result(outcome),
        Shown::CancelResult(outcome) => bulk_actions::cancel_result(outcome),
    }
}

crate::page_part!(pub PART = __preload_machines_part);

/// The open offer action's form, preview and results, for the selected `machines`.
pub fn offer_panel(actions: OfferActions, machines: Signal<Vec<Machine>>) -> impl IntoView {
    move || {
        actions.open().map(|action| {
            Suspend::new(machines_part(Shown::OfferPanel {
                actions,
                action,
                machines,
            }))
        })
    }
}

/// Both confirmations, mounted once either action is first asked for, then kept.
pub fn confirmations(
    defrag: DefragAction,
    cancel_all: CancelAction,
    data: FleetResource,
) -> impl IntoView {
    crate::split::part_once(
        move || defrag.asked().is_some() || cancel_all.asked().is_some(),
        move || {
            machines_part(Shown::Confirmations {
                defrag,
                cancel_all,
                data,
            })
        },
    )
}

/// What the last defragmentation changed, once there is one.
pub fn defrag_result(defrag: DefragAction) -> impl IntoView {
    move || {
        defrag
            .done()
            .map(|outcome| Suspend::new(machines_part(Shown::DefragResult(outcome))))
    }
}

/// What the last cancelling did, once there is one.
pub fn cancel_result(cancel_all: CancelAction) -> impl IntoView {
    move || {
        cancel_all
            .done()
            .map(|outcome| Suspend::new(machines_part(Shown::CancelResult(outcome))))
    }
}
