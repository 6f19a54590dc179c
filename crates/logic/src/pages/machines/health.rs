//! The Machines page's fleet health in words: the Health column's text and rank, the
//! severity line, the remedies the page carries out, and the fleet limited to the machines
//! an address names.

use crate::domain::health::{FleetHealth, MachineHealth, Remedy, Rule, Severity};

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
pub fn health_rank(health: &MachineHealth) -> f64 {
    health.worst().map_or(0.0, |worst| match worst.severity {
        Severity::Info => 1.0,
        Severity::Warning => 2.0,
        Severity::Critical => 3.0,
    })
}

/// `2 critical · 5 warnings · 30 info · 83 without a finding`.
pub fn severity_line(health: &FleetHealth) -> String {
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

/// The worst severity `rule` has on any machine (a rule's severity can depend on the
/// machine: offline while rented is critical, vacant a warning).
pub fn rule_severity(health: &FleetHealth, rule: Rule) -> Severity {
    health
        .machines
        .values()
        .flat_map(|h| h.findings.iter())
        .filter(|f| f.rule == rule)
        .map(|f| f.severity)
        .max()
        .unwrap_or(Severity::Info)
}

#[cfg(test)]
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
