//! The machine's findings, worst first, each with its severity in words, its evidence,
//! what helps, and the console's actions for it one click away.

use super::super::offers::{OfferAction, OfferActions};
use crate::api::ApiError;
use crate::domain::fleet::Fleet;
use crate::domain::health::{Finding, MachineHealth, Remedy};
use crate::routes::{with_machine_ids, MAINTENANCE, SCHEDULE};
use leptos::prelude::*;

pub type FleetResource = LocalResource<Result<Fleet, ApiError>>;

/// Where the page's offer section is, for the remedies that open its forms.
pub const OFFER_SECTION: &str = "machine-offer";
/// Where the page's renter reports are.
pub const REPORTS_SECTION: &str = "machine-reports";

#[component]
pub fn Findings(
    health: MachineHealth,
    id: i64,
    fleet: FleetResource,
    offers: OfferActions,
) -> impl IntoView {
    let count = health.findings.len();
    let list = health
        .findings
        .into_iter()
        .map(|finding| view! { <FindingItem finding=finding id=id fleet=fleet offers=offers /> })
        .collect_view();
    view! {
        <section
            class="machine-findings"
            aria-labelledby="machine-findings-title"
            data-testid="machine-findings"
        >
            <h2 id="machine-findings-title">"Findings"</h2>
            {if count == 0 {
                view! {
                    <p class="empty-state">"No finding: nothing in this read calls for you."</p>
                }
                    .into_any()
            } else {
                view! { <ul class="findings">{list}</ul> }.into_any()
            }}
        </section>
    }
}

#[component]
fn FindingItem(
    finding: Finding,
    id: i64,
    fleet: FleetResource,
    offers: OfferActions,
) -> impl IntoView {
    let Finding {
        rule,
        severity,
        evidence,
    } = finding;
    let actions = rule
        .remedies()
        .iter()
        .map(|&remedy| remedy_view(remedy, id, fleet, offers))
        .collect_view();
    view! {
        <li class="finding" data-rule=rule.key() data-severity=severity.key()>
            <p class="finding-head">
                <span class="severity">{severity.label()}</span>
                <strong>{rule.title()}</strong>
                {format!(": {evidence}")}
            </p>
            <p class="finding-advice">{rule.advice()}</p>
            {(!rule.remedies().is_empty())
                .then(|| {
                    view! {
                        <div
                            class="finding-actions"
                            role="group"
                            aria-label=format!("What helps with “{}”", rule.title())
                        >
                            {actions}
                        </div>
                    }
                })}
        </li>
    }
}

/// One action that helps: a link to the page that does it, or a button that does it here.
fn remedy_view(remedy: Remedy, id: i64, fleet: FleetResource, offers: OfferActions) -> AnyView {
    let link = |href: String| {
        view! {
            <a class="button" href=href data-remedy=remedy.key()>
                {remedy.label()}
            </a>
        }
        .into_any()
    };
    let open_offer_form = move |action: OfferAction| {
        move |_| {
            offers.open_action(action);
            scroll_to(OFFER_SECTION);
        }
    };
    let button = |on_click: Box<dyn Fn(leptos::ev::MouseEvent) + 'static>| {
        view! {
            <button type="button" class="button" data-remedy=remedy.key() on:click=on_click>
                {remedy.label()}
            </button>
        }
        .into_any()
    };
    match remedy {
        Remedy::ScheduleMaintenance => link(with_machine_ids(SCHEDULE, &[id])),
        Remedy::ShowMaintenance => link(with_machine_ids(MAINTENANCE, &[id])),
        Remedy::Reports => link(format!("#{REPORTS_SECTION}")),
        Remedy::ReadAgain => button(Box::new(move |_| fleet.refetch())),
        Remedy::EndOffers => button(Box::new(open_offer_form(OfferAction::EndOffers))),
        Remedy::ListAgain => button(Box::new(open_offer_form(OfferAction::Relist))),
    }
}

/// Brings the section `id` into view, its form having just been opened there.
fn scroll_to(id: &str) {
    if let Some(section) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        section.scroll_into_view();
    }
}
