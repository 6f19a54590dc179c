//! Rolling maintenance in the real console against the demo server: from the Machines
//! page's selection to the planner, a plan of 20 machines at most 3 at once around the
//! windows they already have, scheduled; the database then holds exactly that plan.

use gpudeck_e2e::{demo, Harness};
use std::time::Duration;

/// Windows of machines `first..=last` not cancelled: (machine, start, end, created_at).
async fn windows_of(
    app: &Harness,
    first: i64,
    last: i64,
) -> anyhow::Result<Vec<(i64, f64, f64, f64)>> {
    app.server
        .state()
        .db
        .run(move |conn| {
            let mut statement = conn
                .prepare(
                    "SELECT machine_id, start_time, start_time + duration_hours * 3600, created_at
                     FROM maintenances
                     WHERE machine_id BETWEEN ?1 AND ?2 AND cancelled_at IS NULL ORDER BY id",
                )
                .map_err(gpudeck_server::db::DbError::from)?;
            let rows = statement
                .query_map((first, last), |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
                })
                .map_err(gpudeck_server::db::DbError::from)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(gpudeck_server::db::DbError::from)?;
            Ok(rows)
        })
        .await
        .map_err(|e| anyhow::anyhow!("{e:?}"))
}

/// The most windows down at one instant (touching ends do not overlap).
fn peak(windows: &[(f64, f64)]) -> usize {
    let mut events: Vec<(f64, i32)> = windows
        .iter()
        .flat_map(|&(start, end)| [(start, 1), (end, -1)])
        .collect();
    // Ends before starts at the same instant.
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut down = 0;
    let mut most = 0;
    for (_, change) in events {
        down += change;
        most = most.max(down);
    }
    most as usize
}

/// Sets a field's value the way typing would (date-time fields differ by locale).
async fn set_value(app: &Harness, css: &str, value: &str, event: &str) -> anyhow::Result<()> {
    app.eval(&format!(
        "const f = document.querySelector({css:?}); f.value = {value:?};
         f.dispatchEvent(new Event({event:?}, {{bubbles: true}}));"
    ))
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_machines_three_at_a_time_around_existing_windows() -> anyhow::Result<()> {
    let app = Harness::start("rolling_twenty").await?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs_f64();
    // Tomorrow on the hour (UTC), the plan's earliest start; machines 1001 and 1005 are
    // already down for its first four hours.
    let from = ((now / 3600.0).floor() + 24.0) * 3600.0;
    for machine in [1001, 1005] {
        app.server
            .state()
            .db
            .run(move |conn| {
                conn.execute(
                    "INSERT INTO maintenances (machine_id, start_time, duration_hours, category, created_at)
                     VALUES (?1, ?2, 4, 'power', ?3)",
                    (machine, from, now),
                )
                .map_err(gpudeck_server::db::DbError::from)?;
                Ok(())
            })
            .await
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    }
    let before = windows_of(&app, 1001, 1020).await?;

    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.find("td.select input[aria-label='Select 1001']")
        .await?
        .click()
        .await?;
    app.click("[data-action=rolling]").await?;
    app.find(".rolling-form").await?;
    assert!(app
        .address()
        .await?
        .starts_with("/machines/rolling?ids=1001"));

    app.fill("#rolling-machines", "1001-1020").await?;
    app.click(".rolling-form .toggle input").await?;
    let at = |t: f64| {
        format!(
            "return new Date({}).toISOString().slice(0, 16)",
            (t * 1000.0) as i64
        )
    };
    let from_text = app.eval(&at(from)).await?;
    let until_text = app.eval(&at(from + 24.0 * 3600.0)).await?;
    set_value(&app, "#rolling-from", from_text.as_str().unwrap(), "input").await?;
    set_value(
        &app,
        "#rolling-until",
        until_text.as_str().unwrap(),
        "input",
    )
    .await?;
    app.fill("#rolling-hours", "2").await?;
    app.fill("#rolling-cap", "3").await?;
    set_value(&app, "#rolling-category", "disk", "change").await?;
    app.click(".rolling-form button[type=submit]").await?;
    app.wait_for_text("[data-testid=planned-count]", "20")
        .await?;
    let peak_shown = app
        .find("[data-testid=peak-machines]")
        .await?
        .text()
        .await?;
    assert_eq!(peak_shown, "3");
    assert!(app.address().await?.contains("cap=3"));

    app.check_look("rolling-plan").await?;

    app.click("[data-action=schedule-plan]").await?;
    let dialog = app.find("dialog.confirm[open]").await?.text().await?;
    assert!(dialog.contains("20 windows of 2 hours"), "{dialog}");
    app.click("dialog.confirm[open] .confirm-actions button:last-child")
        .await?;
    app.wait_for_text("[data-testid=plan-done]", "All 20 windows are scheduled")
        .await?;
    assert!(app
        .driver
        .find_all(thirtyfour::By::Css(".error-panel, li.refused"))
        .await?
        .is_empty());

    let after = windows_of(&app, 1001, 1020).await?;
    let new: Vec<_> = after
        .iter()
        .filter(|w| !before.contains(w))
        .copied()
        .collect();
    assert_eq!(new.len(), 20, "{new:?}");
    let mut machines: Vec<i64> = new.iter().map(|w| w.0).collect();
    machines.sort_unstable();
    machines.dedup();
    assert_eq!(machines, (1001..=1020).collect::<Vec<_>>());
    let spans: Vec<(f64, f64)> = new.iter().map(|w| (w.1, w.2)).collect();
    assert!(peak(&spans) <= 3, "{spans:?}");
    for &(machine, start, end, _) in &new {
        assert!(start >= from && end <= from + 24.0 * 3600.0);
        assert_eq!(end - start, 2.0 * 3600.0);
        for &(other, s, e, _) in &before {
            assert!(
                other != machine || end <= s || e <= start,
                "machine {machine}'s new window overlaps an existing one"
            );
        }
    }
    // Scheduled: the plan is no longer kept for a reload.
    let kept = app
        .eval("return sessionStorage.getItem('gpudeck.rolling-plan')")
        .await?;
    assert!(kept.is_null(), "{kept}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    app.finish().await
}
