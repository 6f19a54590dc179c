//! The Machines page's fleet health (fleet-health §1.2): a summary above the table, with
//! how many machines each rule holds (each count filters the table to them, and offers the
//! actions that help), and the table's Health column, the worst finding in words.

use super::FleetRow;
use crate::components::data_table::{Column, RowFilter};
use crate::components::machine_ids_field::parsed;
use crate::domain::health::{FleetHealth, Remedy, Rule};
pub use gpudeck_logic::pages::machines::health::*;
use leptos::prelude::*;
use leptos_router::hooks::query_signal_with_options;
use leptos_router::NavigateOptions;
use std::sync::Arc;

/// What the page's address asks for: the rule the summary filters by (`health=`, a
/// [`Rule::key`]) and the only machines to show (`ids=`, as the machines pages' addresses
/// give them), so that another page (the rolling plan's results) can link to them.
#[derive(Clone, Copy)]
pub struct Scope {
    rule: Memo<Option<String>>,
    set_rule: SignalSetter<Option<String>>,
    ids: Memo<Option<String>>,
}

impl Scope {
    pub fn from_address() -> Self {
        let options = NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        };
        let (rule, set_rule) = query_signal_with_options::<String>("health", options.clone());
        let (ids, _) = query_signal_with_options::<String>("ids", options);
        Scope {
            rule,
            set_rule,
            ids,
        }
    }

    /// The rule picked, if the address names one.
    pub fn rule(self) -> Option<Rule> {
        self.rule.get().as_deref().and_then(Rule::from_key)
    }

    pub fn pick(self, rule: Option<Rule>) {
        self.set_rule.set(rule.map(|r| r.key().to_owned()));
    }

    /// The machines the address limits the page to (sorted), if it names any.
    pub fn ids(self) -> Option<Vec<i64>> {
        let mut ids = parsed(&self.ids.get()?).ok()?;
        ids.sort_unstable();
        Some(ids)
    }
}

/// The Health column: sorted by the worst severity, searched and exported as its words.
pub fn health_column() -> Column<FleetRow> {
    Column::number(
        "health",
        "Health",
        |r: &FleetRow| health_rank(&r.health),
        |r| health_words(&r.health),
    )
    .with_cell(|r| {
        let severity = r.health.worst().map_or("none", |w| w.severity.key());
        view! {
            <span class="health" data-severity=severity title=health_words(&r.health)>
                {health_headline(&r.health)}
            </span>
        }
        .into_any()
    })
}

/// The table's extra filter: only the machines of the address's `ids=`, and of those only
/// the ones the picked rule holds.
pub fn scope_filter(scope: Scope) -> Signal<Option<RowFilter<FleetRow>>> {
    Signal::derive(move || {
        let (rule, ids) = (scope.rule(), scope.ids());
        if rule.is_none() && ids.is_none() {
            return None;
        }
        let keep: RowFilter<FleetRow> = Arc::new(move |r: &FleetRow| {
            rule.is_none_or(|rule| r.health.has(rule))
                && ids
                    .as_ref()
                    .is_none_or(|ids| ids.binary_search(&r.machine.id).is_ok())
        });
        Some(keep)
    })
}

/// The summary: the machines per worst severity, then a button per rule that holds any,
/// which filters the table to them (and says so in the address); with a rule picked, what
/// helps and its actions on those machines. `act` carries out a remedy for a rule on the
/// machines given.
#[component]
pub fn HealthSummary(
    health: FleetHealth,
    scope: Scope,
    act: Callback<(Rule, Remedy, Vec<i64>)>,
) -> impl IntoView {
    let counts = health.counts();
    let line = severity_line(&health);
    let buttons = counts
        .into_iter()
        .map(|(rule, count)| {
            let severity = rule_severity(&health, rule);
            let pressed = move || scope.rule() == Some(rule);
            let toggle = move |_| scope.pick((!pressed()).then_some(rule));
            view! {
                <li>
                    <button
                        type="button"
                        class="health-rule"
                        data-rule=rule.key()
                        data-severity=severity.key()
                        aria-pressed=move || pressed().to_string()
                        on:click=toggle
                    >
                        {rule.title()}
                        ": "
                        <span class="count">{count}</span>
                    </button>
                </li>
            }
        })
        .collect_view();
    let picked = move || {
        let rule = scope.rule()?;
        let ids = health.held_by(rule);
        let count = ids.len();
        let actions = page_remedies(rule)
            .into_iter()
            .map(|remedy| {
                let ids = ids.clone();
                view! {
                    <button
                        type="button"
                        class="button"
                        data-remedy=remedy.key()
                        on:click=move |_| act.run((rule, remedy, ids.clone()))
                    >
                        {remedy.label()}
                    </button>
                }
            })
            .collect_view();
        Some(view! {
            <div class="health-picked" role="status">
                <p>
                    {format!(
                        "Showing the {count} machine{} with “{}”. {}",
                        if count == 1 { "" } else { "s" },
                        rule.title(),
                        rule.advice(),
                    )}
                </p>
                <div class="health-actions">
                    {actions}
                    <button type="button" class="button" on:click=move |_| scope.pick(None)>
                        "Show all machines"
                    </button>
                </div>
            </div>
        })
    };
    view! {
        <section class="fleet-health" aria-labelledby="fleet-health-title">
            <h2 id="fleet-health-title">"Fleet health"</h2>
            <p class="health-severities">{line}</p>
            <ul class="health-rules">{buttons}</ul>
            {picked}
        </section>
    }
}
