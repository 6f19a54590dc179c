//! The Machines page's fleet health (fleet-health §1.2): a summary above the table, with
//! how many machines each rule holds (each count filters the table to them, and offers the
//! actions that help), and the table's Health column, the worst finding in words.

use super::FleetRow;
use crate::components::data_table::{Column, RowFilter};
use crate::components::machine_ids_field::parsed;
use crate::domain::health::{FleetHealth, MachineHealth, Remedy, Rule, Severity};
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

/// The fleet's health limited to the machines `ids` (sorted), when the address gives them:
/// the summary then counts those machines only.
pub fn within(mut health: FleetHealth, ids: Option<&[i64]>) -> FleetHealth {
    if let Some(ids) = ids {
        health
            .machines
            .retain(|id, _| ids.binary_search(id).is_ok());
    }
    health
}

/// The Health column's text (searched and exported): the worst finding with its
/// severity and evidence, or that there is none.
pub fn health_words(health: &MachineHealth) -> String {
    health.worst().map_or_else(
        || "No finding".to_owned(),
        |worst| format!("{} · {}", worst.severity.label(), worst.words()),
    )
}

/// What the Health cell shows: the worst finding's severity and rule, whole at a laptop's
/// width. Its evidence is in the cell's tooltip, the CSV and the machine's page.
pub fn health_headline(health: &MachineHealth) -> String {
    health.worst().map_or_else(
        || "No finding".to_owned(),
        |worst| format!("{} · {}", worst.severity.label(), worst.rule.title()),
    )
}

/// The worst severity as a number, for sorting: no finding 0, info 1, warning 2, critical 3.
fn health_rank(health: &MachineHealth) -> f64 {
    health.worst().map_or(0.0, |worst| match worst.severity {
        Severity::Info => 1.0,
        Severity::Warning => 2.0,
        Severity::Critical => 3.0,
    })
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

/// `2 critical · 5 warnings · 30 info · 83 without a finding`.
fn severity_line(health: &FleetHealth) -> String {
    let (counts, none) = health.by_worst_severity();
    let mut parts: Vec<String> = counts
        .iter()
        .map(|(severity, count)| format!("{count} {}", severity.label().to_lowercase()))
        .collect();
    parts.push(format!("{none} without a finding"));
    format!("Worst finding per machine: {}.", parts.join(" · "))
}

/// The remedies the Machines page can carry out on the selected machines.
pub fn page_remedies(rule: Rule) -> Vec<Remedy> {
    rule.remedies()
        .iter()
        .copied()
        .filter(|r| *r != Remedy::Reports)
        .collect()
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

/// The worst severity `rule` has on any machine (a rule's severity can depend on the
/// machine: offline while rented is critical, vacant a warning).
fn rule_severity(health: &FleetHealth, rule: Rule) -> Severity {
    health
        .machines
        .values()
        .flat_map(|h| h.findings.iter())
        .filter(|f| f.rule == rule)
        .map(|f| f.severity)
        .max()
        .unwrap_or(Severity::Info)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::domain::health::Finding;

    fn finding(rule: Rule, severity: Severity, evidence: &str) -> Finding {
        Finding {
            rule,
            severity,
            evidence: evidence.into(),
        }
    }

    #[test]
    fn the_column_says_the_worst_finding_and_sorts_by_its_severity() {
        let none = MachineHealth::default();
        let hot = MachineHealth {
            findings: vec![finding(
                Rule::Hot,
                Severity::Warning,
                "hottest GPU at 88 °C",
            )],
        };
        assert_eq!(health_words(&none), "No finding");
        assert_eq!(health_words(&hot), "Warning · Hot: hottest GPU at 88 °C");
        assert!(health_rank(&hot) > health_rank(&none));
    }

    #[test]
    fn the_severity_line_counts_worst_findings() {
        let mut health = FleetHealth::default();
        health.machines.insert(1, MachineHealth::default());
        health.machines.insert(
            2,
            MachineHealth {
                findings: vec![
                    finding(Rule::MachineError, Severity::Critical, "x"),
                    finding(Rule::Hot, Severity::Warning, "y"),
                ],
            },
        );
        assert_eq!(
            severity_line(&health),
            "Worst finding per machine: 1 critical · 0 warning · 0 info · 1 without a finding."
        );
        assert_eq!(rule_severity(&health, Rule::Hot), Severity::Warning);
        assert_eq!(page_remedies(Rule::RecentReports), []);
        assert_eq!(
            page_remedies(Rule::UnlistedAfterMaintenance),
            [Remedy::ListAgain]
        );
    }
}
