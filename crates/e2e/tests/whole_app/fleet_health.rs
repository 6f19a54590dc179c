//! The Machines page's fleet-health summary against the demo database (issue 55): each
//! count the page shows for a rule whose condition is one of a machine's own rows equals
//! that condition counted here with SQL, independently of the API, of N1's wire form and
//! of the console's rules (`crates/logic/src/domain/health`, unit-tested at each
//! threshold's edges). A rule that holds no machine has no count on the page.
//!
//! The rules that need the rentals, the derived disk figures or the rest of the fleet
//! (rentals outlast the listing, idle while listed, disk low, under the requirements,
//! driver drift, maintained and not listed) are left to the unit tests and the page tests;
//! new renter reports need a read before, which a page opened cold does not have.

use gpudeck_e2e::{demo, Harness};
use std::collections::BTreeMap;

/// Each rule's key (as the page's `data-rule`) and the SQL that counts alice's machines it
/// holds at `?1`, now (fleet-health §1.2's conditions, on the columns N1 is made from).
/// Every query takes `?1`; one whose rule does not depend on the time names it in `?1 > 0`.
const RULES: &[(&str, &str)] = &[
    (
        "not-seen",
        "SELECT count(*) FROM machines WHERE owner_id = 1
           AND offline_since IS NOT NULL AND ?1 - offline_since > 0
           AND ?1 - offline_since <= 300",
    ),
    (
        "offline",
        "SELECT count(*) FROM machines WHERE owner_id = 1
           AND offline_since IS NOT NULL AND ?1 - offline_since > 300",
    ),
    (
        "machine-error",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0
           AND coalesce(error_description, '') <> ''",
    ),
    (
        "vm-error",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0
           AND coalesce(vm_error_msg, '') <> '' AND coalesce(error_description, '') = ''",
    ),
    (
        "verification-lost",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0
           AND verification = 'deverified'",
    ),
    (
        "unverified",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0
           AND verification = 'unverified'",
    ),
    (
        "reliability-under-gate",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0 AND reliability2 <= 0.90",
    ),
    (
        "reliability-near-gate",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0
           AND reliability2 > 0.90 AND reliability2 <= 0.92",
    ),
    (
        "recent-reports",
        "SELECT count(*) FROM machines m WHERE owner_id = 1
           AND EXISTS (SELECT 1 FROM machine_reports r
                       WHERE r.machine_id = m.id AND r.created_at >= ?1 - 7 * 86400)",
    ),
    (
        "listing-ends-soon",
        "SELECT count(*) FROM machines m WHERE owner_id = 1
           AND EXISTS (SELECT 1 FROM offers o
                       WHERE o.machine_id = m.id AND o.withdrawn_at IS NULL
                         AND o.duration IS NULL AND o.end_date > ?1
                         AND o.end_date - ?1 < 7 * 86400)",
    ),
    (
        "cuda-too-old",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0 AND cuda_max_good < 12.0",
    ),
    (
        "hot",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0 AND gpu_max_cur_temp >= 85",
    ),
    (
        "maintenance-announced",
        "SELECT count(*) FROM machines m WHERE owner_id = 1
           AND EXISTS (SELECT 1 FROM maintenances w
                       WHERE w.machine_id = m.id AND w.cancelled_at IS NULL
                         AND w.start_time + w.duration_hours * 3600 > ?1)",
    ),
    (
        "duplicate-hostname",
        "SELECT count(*) FROM machines WHERE owner_id = 1 AND ?1 > 0
           AND hostname IN (SELECT hostname FROM machines WHERE owner_id = 1
                            GROUP BY hostname HAVING count(*) > 1)",
    ),
];

/// The summary's counts, by rule key, as the page shows them.
async fn shown_counts(app: &Harness) -> anyhow::Result<BTreeMap<String, i64>> {
    let shown = app
        .eval(
            "return [...document.querySelectorAll('.fleet-health .health-rule')]
               .map(b => [b.dataset.rule, b.querySelector('.count').textContent]);",
        )
        .await?;
    let shown: Vec<(String, String)> = serde_json::from_value(shown)?;
    shown
        .into_iter()
        .map(|(rule, count)| Ok((rule, count.trim().parse()?)))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_summary_counts_what_the_database_holds() -> anyhow::Result<()> {
    let app = Harness::start_signed_in("fleet_health_counts", "/machines", demo::ALICE_KEY).await?;
    app.find(".fleet-health .health-rule").await?;
    let shown = shown_counts(&app).await?;
    let now = gpudeck_e2e::now();
    let mut wrong = Vec::new();
    let mut held = 0;
    for (rule, sql) in RULES {
        let expected = app.db_rows(sql, [now], |row| row.get::<_, i64>(0)).await?[0];
        let on_page = shown.get(*rule).copied().unwrap_or(0);
        if on_page != expected {
            wrong.push(format!(
                "{rule}: {on_page} on the page, {expected} in the database"
            ));
        }
        held += usize::from(expected > 0);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // The demo holds machines for most of these rules, so the comparison is not of zeros.
    assert!(held >= 8, "only {held} of the rules hold a demo machine");
    app.finish().await
}
