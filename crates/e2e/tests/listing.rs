//! The Machines table's listing column (§1.7, offers and rental contracts) in the real
//! console against the demo server: the named demo machines at each stage, with their
//! listing and rentals' end in the tooltip, and the machines the table calls unlisted and
//! vacant exactly those the database holds so.

use gpudeck_e2e::{demo, Harness};
use std::collections::{BTreeMap, BTreeSet};

/// The stage and its tooltip of each shown row, by machine id.
const LISTING_CELLS: &str = r#"
return Object.fromEntries([...document.querySelectorAll('.data-table tbody tr[data-key]')]
  .map(row => {
    const stage = row.querySelector('.listing-stage');
    return [row.dataset.key, [stage.textContent, stage.title]];
  }));
"#;

async fn listing_cells(app: &Harness) -> anyhow::Result<BTreeMap<String, [String; 2]>> {
    Ok(serde_json::from_value(app.eval(LISTING_CELLS).await?)?)
}

#[tokio::test(flavor = "multi_thread")]
async fn each_demo_machine_shows_its_stage_listing_and_rentals_end() -> anyhow::Result<()> {
    let app = Harness::start_signed_in("listing_stages", "/machines", demo::ALICE_KEY).await?;
    app.wait_for_text(".row-count", "120 rows").await?;
    let cells = listing_cells(&app).await?;
    let of = |id: i64| cells[&id.to_string()].clone();

    let [stage, details] = of(demo::RENTALS_END_IN_HOURS);
    assert_eq!(stage, "Draining");
    assert!(
        details.starts_with("Draining: the offer ends at "),
        "{details}"
    );
    assert!(details.contains("; rentals end by "), "{details}");
    let [stage, details] = of(demo::RENTALS_WITHOUT_END);
    assert_eq!(stage, "Listed");
    assert!(
        details.ends_with("Listed: open-ended. Rentals end: no end date."),
        "{details}"
    );
    let [stage, details] = of(demo::WITHDRAWN_MACHINE);
    assert_eq!(stage, "Unlisted, rented");
    assert!(details.contains("Listed: no."), "{details}");
    let [idle_with_end, idle_open] = demo::IDLE_LISTED_MACHINES.map(of);
    assert!(
        idle_with_end[1].contains("Listed: until "),
        "{idle_with_end:?}"
    );
    assert!(
        idle_open[1].contains("Listed: open-ended."),
        "{idle_open:?}"
    );
    for [stage, details] in [idle_with_end, idle_open] {
        assert_eq!(stage, "Vacant");
        assert!(details.ends_with("Rentals end: none running."), "{details}");
    }

    // The stage is searchable: the filter finds every machine ready for maintenance.
    app.fill(".table-toolbar .filter input", "Unlisted, vacant")
        .await?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs_f64();
    let ready: Vec<i64> = app
        .db_rows(
            "SELECT id FROM machines m WHERE owner_id = 1
               AND NOT EXISTS (SELECT 1 FROM offers o WHERE o.machine_id = m.id
                     AND o.withdrawn_at IS NULL AND (o.end_date IS NULL OR o.end_date > ?1))
               AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.machine_id = m.id
                     AND (c.end_date IS NULL OR c.end_date > ?1))
             ORDER BY id",
            (now,),
            |row| row.get(0),
        )
        .await?;
    assert!(
        !ready.is_empty(),
        "the demo has machines ready for maintenance"
    );
    app.wait_for_text(".row-count", &format!("{} of 120 rows", ready.len()))
        .await?;
    let shown = listing_cells(&app).await?;
    assert!(shown.values().all(|[stage, _]| stage == "Unlisted, vacant"));
    let shown_ids: BTreeSet<i64> = shown.keys().map(|id| id.parse().unwrap()).collect();
    assert!(shown_ids.is_subset(&ready.into_iter().collect()));
    app.finish().await
}
