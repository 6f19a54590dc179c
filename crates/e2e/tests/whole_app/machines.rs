//! The machines area in the real console against the demo server: maintenance windows in
//! the table and the timeline, the server's refusals next to the ids, saved sets, and
//! defragmentation.

use gpudeck_e2e::{demo, Harness};
use std::collections::BTreeSet;

const SUBMIT: &str = "form.ids-form button[type=submit]";

/// Windows of `machines` as the database holds them: (active, excluded) ids, where
/// excluded ones are cancelled or already over.
async fn windows_in_db(
    app: &Harness,
    first: i64,
    last: i64,
) -> anyhow::Result<(BTreeSet<i64>, usize)> {
    let now = gpudeck_e2e::now();
    let rows = app
        .db_rows(
            "SELECT id, cancelled_at IS NULL AND start_time + duration_hours * 3600 > ?3
             FROM maintenances WHERE machine_id BETWEEN ?1 AND ?2",
            (first, last, now),
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, bool>(1)?)),
        )
        .await?;
    let active = rows
        .iter()
        .filter(|(_, active)| *active)
        .map(|(id, _)| *id)
        .collect();
    let excluded = rows.iter().filter(|(_, active)| !*active).count();
    Ok((active, excluded))
}

async fn signed_in(name: &'static str, path: &str) -> anyhow::Result<Harness> {
    let app = Harness::start(name).await?;
    app.open(path).await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;
    Ok(app)
}

#[tokio::test(flavor = "multi_thread")]
async fn maintenance_shows_exactly_the_active_windows_in_table_and_timeline() -> anyhow::Result<()>
{
    let app = signed_in("maintenance_active_windows", "/machines/maintenance").await?;
    app.fill("#machine-ids", "1001-1012").await?;
    app.click(SUBMIT).await?;
    app.wait_for_address("/machines/maintenance?ids=1001-1012")
        .await?;

    let (active, excluded) = windows_in_db(&app, 1001, 1012).await?;
    assert!(
        excluded > 0,
        "the demo data should hold cancelled and expired windows too"
    );
    app.wait_for_exact_text(".row-count", &format!("{} rows", active.len()))
        .await?;
    let bars = app.driver.find_all(thirtyfour::By::Css("rect.bar")).await?;
    let mut shown = BTreeSet::new();
    for bar in bars {
        shown.insert(
            bar.attr("data-window-id")
                .await?
                .unwrap_or_default()
                .parse::<i64>()?,
        );
    }
    assert_eq!(shown, active, "timeline bars are the active windows");
    let summary = app.find("figure.timeline figcaption").await?.text().await?;
    assert!(
        summary.starts_with(&format!(
            "{} active maintenance windows on 12 machines",
            active.len()
        )),
        "{summary}"
    );
    // Markup in a reason is text, not an element.
    let images = app
        .eval("return document.querySelectorAll('main img').length")
        .await?;
    assert_eq!(images, 0);
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn refusals_show_the_servers_message_next_to_the_ids() -> anyhow::Result<()> {
    let app = signed_in(
        "maintenance_refusals",
        "/machines/maintenance?ids=999998-999999",
    )
    .await?;
    app.wait_for_text(
        "#machine-ids-error",
        "the machine_ids do not exist: 999998,999999",
    )
    .await?;
    assert_eq!(app.value_of("#machine-ids").await?, "999998-999999");

    app.fill("#machine-ids", "2001, 2002").await?;
    app.click(SUBMIT).await?;
    app.wait_for_text(
        "#machine-ids-error",
        "Include only machine_ids that exist and are owned by you; none of 2001,2002 is yours",
    )
    .await?;
    assert_eq!(app.value_of("#machine-ids").await?, "2001, 2002");
    let invalid = app.find("#machine-ids").await?.attr("aria-invalid").await?;
    assert_eq!(invalid.as_deref(), Some("true"));

    app.open("/machines/maintenance?ids=").await?;
    app.wait_for_text("#machine-ids-error", "machine_ids cannot be empty")
        .await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_saved_set_reproduces_the_view() -> anyhow::Result<()> {
    let app = signed_in("maintenance_saved_set", "/machines/maintenance").await?;
    app.fill("#machine-ids", "1003 1001 1002").await?;
    app.fill("#saved-set-name", "rack A").await?;
    app.click(".saved-sets button:last-of-type").await?;
    app.wait_for_text(".saved-sets [role=status]", "Saved \"rack A\" (3 machines)")
        .await?;
    let stored = app
        .eval("return localStorage.getItem('gpudeck.machine-sets')")
        .await?;
    assert_eq!(stored, r#"{"rack A":"1003,1001,1002"}"#);

    app.open("/machines/maintenance").await?;
    app.find("#saved-set-pick option[value='rack A']").await?;
    app.eval(
        "const s = document.querySelector('#saved-set-pick');
         s.value = 'rack A'; s.dispatchEvent(new Event('change'));",
    )
    .await?;
    assert_eq!(app.value_of("#machine-ids").await?, "1003,1001,1002");
    app.click(SUBMIT).await?;
    app.wait_for_address("/machines/maintenance?ids=1003%2C1001%2C1002")
        .await?;
    app.find("rect.bar").await?;
    app.finish().await
}

/// Types `ids` on the defrag page and confirms in the dialog.
async fn defragment(app: &Harness, ids: &str) -> anyhow::Result<String> {
    app.fill("#machine-ids", ids).await?;
    app.click(SUBMIT).await?;
    let dialog = app.find("dialog.confirm[open]").await?.text().await?;
    app.click("dialog.confirm .button.primary").await?;
    Ok(dialog)
}

#[tokio::test(flavor = "multi_thread")]
async fn defragmenting_a_fragmented_machine_shows_what_changed() -> anyhow::Result<()> {
    let app = signed_in("defrag_fragmented", "/machines/defrag").await?;
    let ids = format!("{}, {}", demo::FRAGMENTED_MACHINE, demo::TIDY_MACHINE);
    let dialog = defragment(&app, &ids).await?;
    assert!(dialog.contains("2 machines: 1001, 1003"), "{dialog}");

    let result = app
        .wait_for_text("[data-testid=defrag-result]", "Defragmented (1): 1001")
        .await?;
    assert!(result.contains("Not changed (1): 1003"), "{result}");
    assert!(result.contains("Rentals moved (n0)"), "{result}");
    app.wait_for_text(".toast.success", "Defragmented 1 of 2 machines")
        .await?;

    // Machine 1001's layout is canonical now: a second run changes nothing.
    defragment(&app, &ids).await?;
    app.wait_for_text("[data-testid=defrag-result]", "Defragmented (0): none")
        .await?;
    // Nothing changed: news, not a success.
    app.wait_for_text(".toast.info", "Defragmented 0 of 2 machines")
        .await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn defragmenting_nothing_of_yours_says_so_plainly() -> anyhow::Result<()> {
    let app = signed_in("defrag_nothing_valid", "/machines/defrag").await?;
    defragment(&app, "2001").await?;
    app.wait_for_text(
        "[data-testid=defrag-result]",
        "None of these machines could be defragmented",
    )
    .await?;
    // Escape closes the confirmation without sending anything.
    app.click(SUBMIT).await?;
    app.find("dialog.confirm[open]").await?;
    app.driver
        .action_chain()
        .send_keys(thirtyfour::Key::Escape)
        .perform()
        .await?;
    let open = app
        .eval("return document.querySelector('dialog.confirm').open")
        .await?;
    assert_eq!(open, false);
    app.finish().await
}
