//! The Machines page's bulk cancel of 20 machines against a server that limits N5 as the
//! public service does (one call per 2.5 s per key), its 429s in either shape (JSON with
//! Retry-After, the public plain text without): the console keeps N5's pace from the first
//! machine, says beforehand how long it takes, shows no refusal, and every window the host
//! scheduled on the 20 machines is cancelled, and no other.

use gpudeck_e2e::{demo, now, Config, Harness};
use gpudeck_server::limits::RefusalShape;
use std::time::Duration;
use thirtyfour::By;

const FIRST: i64 = 1031;
const LAST: i64 = 1050;

/// Windows not cancelled nor over, the host's own (N5 cancels these): on machines
/// `FIRST..=LAST`, and elsewhere.
async fn open_windows(app: &Harness) -> anyhow::Result<(i64, i64)> {
    let counts = app
        .db_rows(
            "SELECT SUM(machine_id BETWEEN ?1 AND ?2), SUM(machine_id NOT BETWEEN ?1 AND ?2)
             FROM maintenances WHERE cancelled_at IS NULL AND scheduled_by_marketplace = 0
               AND start_time + duration_hours * 3600 > ?3",
            (FIRST, LAST, now()),
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .await?;
    Ok(counts[0])
}

/// The row checkbox of `machine`, scrolled into view first (the table draws only the rows
/// near the view).
async fn checkbox(app: &Harness, machine: i64) -> anyhow::Result<thirtyfour::WebElement> {
    let css = format!("td.select input[aria-label='Select {machine}']");
    app.eval(&format!(
        "const rows = [...document.querySelectorAll('tbody tr[aria-rowindex]')];
         const row = rows.find(r => r.textContent.includes('{machine}'));
         (row || rows[rows.length - 1]).scrollIntoView({{block: 'center'}});"
    ))
    .await?;
    // Up to 10 s, the whole-app tests' patience: on a loaded machine the table may draw
    // the next rows slowly (4 s once fell short of machine 1050).
    for _ in 0..50 {
        if let Ok(found) = app.driver.find(By::Css(&css)).await {
            return Ok(found);
        }
        app.eval(
            "const rows = [...document.querySelectorAll('tbody tr[aria-rowindex]')];
             rows[rows.length - 1].scrollIntoView({block: 'center'});",
        )
        .await?;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.find(&css).await
}

async fn cancel_twenty_at_the_public_pace(
    name: &'static str,
    shape: RefusalShape,
) -> anyhow::Result<()> {
    let app = Harness::start_with_options(name, |config| Config {
        public_rate_limits: true,
        rate_limit_shape: shape,
        ..config
    })
    .await?;
    app.record_every_fetch().await?;
    let now = now();
    let start = ((now / 3600.0).floor() + 24.0) * 3600.0;
    for machine in FIRST..=LAST {
        app.db_execute(
            "INSERT INTO maintenances (machine_id, start_time, duration_hours, category, created_at)
             VALUES (?1, ?2, 2, 'disk', ?3)",
            (machine, start, now),
        )
        .await?;
    }
    let (_, elsewhere) = open_windows(&app).await?;
    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.wait_for_text(".row-count", "rows").await?;

    // Machines 1031 to 1050: one click, then a shift-click for the range.
    checkbox(&app, FIRST).await?.click().await?;
    app.shift_click(&checkbox(&app, LAST).await?).await?;
    app.wait_for_exact_text(".selected-count", "20 selected")
        .await?;
    app.click("[data-action=cancel]").await?;
    let dialog = app.find("dialog.confirm[open]").await?.text().await?;
    assert!(
        dialog.contains("20 machines: about 50 s at the public service's pace."),
        "{dialog}"
    );
    app.click("dialog.confirm[open] .button.danger").await?;
    app.wait_for_text("[data-testid=run-progress]", "waiting for the rate limit")
        .await?;
    app.wait_for_text_within(
        ".toasts",
        "Cancelled the maintenance of 20 of 20 machines.",
        Duration::from_secs(120),
    )
    .await?;
    let refusals = app
        .driver
        .find_all(By::Css(".error-panel, li.refused, li.unknown"))
        .await?;
    assert!(refusals.is_empty(), "a refusal or failure is shown");
    // The pace was kept, not found by trial: the server refused nothing.
    let answers = app.api_answers().await?;
    let refused: Vec<&(String, u16)> = answers.iter().filter(|a| a.1 == 429).collect();
    assert!(refused.is_empty(), "the server answered 429 to {refused:?}");
    let cancelled = answers
        .iter()
        .filter(|(path, status)| path.contains("/cancel_maint") && *status == 200)
        .count();
    assert_eq!(
        cancelled, 20,
        "N5 answered 200 once per machine: {answers:?}"
    );

    let (left, elsewhere_after) = open_windows(&app).await?;
    assert_eq!(left, 0, "every window on the 20 machines is cancelled");
    assert_eq!(elsewhere_after, elsewhere, "no other window is touched");
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_machines_cancelled_against_json_429s_with_retry_after() -> anyhow::Result<()> {
    cancel_twenty_at_the_public_pace("paced_cancel_json", RefusalShape::Json).await
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_machines_cancelled_against_the_public_services_plain_429s() -> anyhow::Result<()> {
    cancel_twenty_at_the_public_pace("paced_cancel_public", RefusalShape::Public).await
}
