//! The fleet in the real console against the demo server: landing on Machines, selecting
//! machines, scheduling a window on them (one request, then 150 machines in two batches
//! with a refusal), cancelling windows from the maintenance page, and defragmenting from
//! the selection. The database is checked after each change.

use gpudeck_e2e::{demo, Harness, Scheme, WebElement, LAPTOP, PHONE};
use std::collections::BTreeSet;
use std::time::Duration;
use thirtyfour::{By, Key};

/// Active (not cancelled, not over) windows of machines `first..=last`: (id, machine,
/// created_at).
async fn active_windows(
    app: &Harness,
    first: i64,
    last: i64,
) -> anyhow::Result<Vec<(i64, i64, f64)>> {
    let now = gpudeck_e2e::now();
    app.db_rows(
        "SELECT id, machine_id, created_at FROM maintenances
         WHERE machine_id BETWEEN ?1 AND ?2 AND cancelled_at IS NULL
           AND start_time + duration_hours * 3600 > ?3 ORDER BY id",
        (first, last, now),
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )
    .await
}

async fn signed_in_on_machines(name: &'static str) -> anyhow::Result<Harness> {
    let app = Harness::start(name).await?;
    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    Ok(app)
}

async fn checkbox(app: &Harness, machine: i64) -> anyhow::Result<WebElement> {
    app.find(&format!("td.select input[aria-label='Select {machine}']"))
        .await
}

async fn wait_gone(app: &Harness, css: &str) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + gpudeck_e2e::PATIENCE;
    while !app.driver.find_all(By::Css(css)).await?.is_empty() {
        if tokio::time::Instant::now() > deadline {
            anyhow::bail!("{css} is still shown");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// An extra screenshot at phone size (390×844), `target/e2e/<name>.png`, then back.
async fn phone_screenshot(app: &Harness, name: &str) -> anyhow::Result<()> {
    app.driver.set_window_rect(0, 0, 390, 844).await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sideways = app
        .eval("return document.documentElement.scrollWidth > document.documentElement.clientWidth")
        .await?;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e");
    std::fs::create_dir_all(&dir)?;
    app.driver
        .screenshot(&dir.join(format!("{name}.png")))
        .await?;
    app.driver.set_window_rect(0, 0, 1280, 900).await?;
    assert_eq!(
        sideways, false,
        "{name}: the page scrolls sideways at 390 px"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn schedule_on_three_machines_then_cancel_one_window_and_the_rest_of_a_machine(
) -> anyhow::Result<()> {
    let app = signed_in_on_machines("fleet_schedule_and_cancel").await?;
    app.wait_for_exact_text(".row-count", "120 rows").await?;
    // The link's text, then the count of machines needing attention beside it.
    let current = app.find("nav a[aria-current=page]").await?;
    let label = current.text().await?;
    assert!(label.starts_with("Machines"), "{label}");
    phone_screenshot(&app, "fleet_machines_phone").await?;

    // Three machines: one click, then a shift-click for the range.
    checkbox(&app, 1013).await?.click().await?;
    app.shift_click(&checkbox(&app, 1015).await?).await?;
    app.wait_for_exact_text(".selected-count", "3 selected")
        .await?;
    let before: BTreeSet<i64> = active_windows(&app, 1013, 1015)
        .await?
        .into_iter()
        .map(|w| w.0)
        .collect();

    app.click("[data-action=schedule]").await?;
    app.find(".schedule-form").await?;
    assert!(app
        .address()
        .await?
        .starts_with("/machines/schedule?ids=1013-1015"));
    app.fill_schedule_form("3").await?;
    app.wait_for_text("[data-testid=schedule-summary]", "Disk window")
        .await?;
    app.wait_for_text("[data-testid=schedule-summary]", "on 3 machines")
        .await?;
    let previews = app.driver.find_all(By::Css("rect.preview-bar")).await?;
    assert_eq!(previews.len(), 3, "one preview bar per machine");
    phone_screenshot(&app, "fleet_schedule_phone").await?;

    app.click(".schedule-form button[type=submit]").await?;
    let dialog = app.confirm().await?;
    assert!(dialog.contains("Disk"), "{dialog}");
    assert!(dialog.contains("1013, 1014, 1015"), "{dialog}");
    app.wait_for_text(
        "[data-testid=schedule-result]",
        "Scheduled on 3 of 3 machines",
    )
    .await?;

    let after = active_windows(&app, 1013, 1015).await?;
    let new: Vec<(i64, i64, f64)> = after
        .into_iter()
        .filter(|w| !before.contains(&w.0))
        .collect();
    assert_eq!(
        new.iter().map(|w| w.1).collect::<Vec<_>>(),
        [1013, 1014, 1015],
        "one new window per machine"
    );
    let done = app
        .wait_for_text("[data-testid=schedule-done]", "Disk window from ")
        .await?;
    assert!(
        done.contains("(3 h, UTC) scheduled on 3 machines: 1013, 1014, 1015."),
        "{done}"
    );

    // A fresh form on the same machines: a second click schedules nothing again.
    assert_eq!(app.value_of("#schedule-start").await?, "");
    assert_eq!(app.value_of("#schedule-machines").await?, "1013-1015");
    app.click(".schedule-form button[type=submit]").await?;
    app.wait_for_text("#schedule-start-error", "Choose a start date and time.")
        .await?;
    assert!(app
        .driver
        .find_all(By::Css("dialog[open]"))
        .await?
        .is_empty());
    assert_eq!(
        active_windows(&app, 1013, 1015).await?.len(),
        before.len() + new.len(),
        "no second window"
    );

    // The new windows on the maintenance page: bars and rows.
    app.click("[data-testid=schedule-result] a.button").await?;
    app.find("rect.bar").await?;
    for (id, _, _) in &new {
        app.find(&format!("rect.bar[data-window-id='{id}']"))
            .await?;
    }
    let active_now = before.len() + new.len();
    app.wait_for_exact_text(".row-count", &format!("{active_now} rows"))
        .await?;

    // Cancel one window from its row.
    let (first, first_machine, _) = new[0];
    app.click(&format!(
        "button[aria-label^='Cancel the Disk window #{first} ']"
    ))
    .await?;
    let dialog = app.confirm().await?;
    assert!(
        dialog.contains(&format!("Disk window #{first} on machine {first_machine}")),
        "{dialog}"
    );
    app.wait_for_text(".toasts", &format!("Cancelled the Disk window #{first}"))
        .await?;
    wait_gone(&app, &format!("rect.bar[data-window-id='{first}']")).await?;

    // A bar is a button too: Enter on it asks to cancel its window; Escape backs out.
    let (third, _, _) = new[2];
    let bar = app
        .find(&format!("rect.bar[data-window-id='{third}']"))
        .await?;
    bar.focus().await?;
    bar.send_keys(Key::Enter).await?;
    let dialog = app.find("dialog.confirm[open]").await?.text().await?;
    assert!(dialog.contains(&format!("#{third}")), "{dialog}");
    app.driver
        .action_chain()
        .send_keys(Key::Escape)
        .perform()
        .await?;

    // Cancel every window of the second machine: the result counts them in words.
    let (_, second_machine, _) = new[1];
    let cancelled = match active_windows(&app, second_machine, second_machine)
        .await?
        .len()
    {
        1 => "1 scheduled window cancelled".to_owned(),
        n => format!("{n} scheduled windows cancelled"),
    };
    app.set_value(
        "#cancel-machine-pick",
        &second_machine.to_string(),
        "change",
    )
    .await?;
    app.click(".cancel-machine button[type=submit]").await?;
    let dialog = app.confirm().await?;
    assert!(
        dialog.contains(&format!("Machine {second_machine}")),
        "{dialog}"
    );
    app.wait_for_text(".toasts", &format!("Machine {second_machine}: {cancelled}"))
        .await?;

    let left = active_windows(&app, 1013, 1015).await?;
    assert!(
        left.iter().all(|w| w.0 != first),
        "window {first} is cancelled"
    );
    assert!(
        left.iter().all(|w| w.1 != second_machine),
        "machine {second_machine} has no active window left: {left:?}"
    );
    assert!(left.iter().any(|w| w.0 == third), "window {third} stays");
    for gone in left_out(&new, &left) {
        wait_gone(&app, &format!("rect.bar[data-window-id='{gone}']")).await?;
    }
    app.wait_for_exact_text(".row-count", &format!("{} rows", left.len()))
        .await?;
    app.finish().await
}

/// Ids of `new` no longer among `left`.
fn left_out(new: &[(i64, i64, f64)], left: &[(i64, i64, f64)]) -> Vec<i64> {
    new.iter()
        .map(|w| w.0)
        .filter(|id| left.iter().all(|l| l.0 != *id))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_and_fifty_machines_go_in_two_batches_and_the_refused_one_is_reported(
) -> anyhow::Result<()> {
    let app = Harness::start("fleet_schedule_150").await?;
    // alice gets 29 more machines (149 in all); bob's 2001 makes 150 ids.
    for id in 1121..=1149 {
        app.db_execute(
            "INSERT INTO machines (id, owner_id, hostname, num_gpus) VALUES (?1, ?2, ?3, 4)",
            (id, demo::ALICE_ID, format!("extra-{id}")),
        )
        .await?;
    }
    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.wait_for_exact_text(".row-count", "149 rows").await?;
    app.click("th.select input").await?;
    app.wait_for_exact_text(".selected-count", "149 selected")
        .await?;
    let before = active_windows(&app, 1001, 1149).await?.len();

    app.click("[data-action=schedule]").await?;
    app.fill("#schedule-machines", "1001-1149, 2001").await?;
    app.wait_for_text(
        "#schedule-machines-status",
        "149 of your machines; 1 not among them (2001)",
    )
    .await?;
    app.wait_for_text("#schedule-machines-status", "Sent in 2 requests")
        .await?;
    app.fill_schedule_form("2").await?;
    app.click(".schedule-form button[type=submit]").await?;
    let dialog = app.confirm().await?;
    assert!(dialog.contains("on 150 machines"), "{dialog}");
    assert!(dialog.contains("Sent in 2 requests"), "{dialog}");

    let result = app
        .wait_for_text(
            "[data-testid=schedule-result]",
            "Scheduled on 149 of 150 machines",
        )
        .await?;
    let refused = app
        .find("[data-testid=schedule-result] li.refused")
        .await?
        .text()
        .await?;
    assert_eq!(refused, "Machine 2001: No such machine id or not owned");
    assert!(result.contains("Retry the 1 refused"), "{result}");

    let after = active_windows(&app, 1001, 1149).await?;
    assert_eq!(after.len(), before + 149);
    // Each batch is one transaction with one creation time: two batches, two times.
    let newest: BTreeSet<u64> = after.iter().skip(before).map(|w| w.2.to_bits()).collect();
    assert_eq!(newest.len(), 2, "two batch requests");

    // The retry offers exactly the refused machine.
    app.click("[data-testid=schedule-result] button.primary")
        .await?;
    let dialog = app.find("dialog.confirm[open]").await?.text().await?;
    assert!(dialog.contains("on 1 machine: 2001"), "{dialog}");
    app.driver
        .action_chain()
        .send_keys(Key::Escape)
        .perform()
        .await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn defragmenting_the_selection_shows_each_strip_before_and_after() -> anyhow::Result<()> {
    let app = signed_in_on_machines("fleet_defrag_strips").await?;
    app.wait_for_exact_text(".row-count", "120 rows").await?;
    checkbox(&app, demo::FRAGMENTED_MACHINE)
        .await?
        .click()
        .await?;
    checkbox(&app, demo::TIDY_MACHINE).await?.click().await?;
    app.wait_for_exact_text(".selected-count", "2 selected")
        .await?;
    app.click("[data-action=defrag]").await?;
    let dialog = app.confirm().await?;
    assert!(dialog.contains("2 machines: 1001, 1003"), "{dialog}");
    app.wait_for_text(
        "[data-testid=defrag-result]",
        "Defragmented 1 of 2 machines",
    )
    .await?;

    // Read in one script: the result is drawn again when the table reloads.
    let strip = |machine: i64, when: &'static str| {
        let app = &app;
        async move {
            let css = format!(
                "[data-testid=defrag-result] tr[data-machine-id='{machine}'] td.{when} .occupancy"
            );
            app.find(&css).await?;
            let value = app
                .eval(&format!(
                    "const s = document.querySelector({css:?}); return s ? s.dataset.occupancy : '';"
                ))
                .await?;
            anyhow::Ok(value.as_str().unwrap_or_default().to_owned())
        }
    };
    let (before, after) = (strip(1001, "before").await?, strip(1001, "after").await?);
    assert_ne!(before, after, "machine 1001's GPUs were packed");
    assert_eq!(before.split(' ').count(), after.split(' ').count());
    assert_eq!(strip(1003, "before").await?, strip(1003, "after").await?);
    // The table shows the new strip too, once reloaded.
    let deadline = tokio::time::Instant::now() + gpudeck_e2e::PATIENCE;
    loop {
        let shown = app
            .eval(
                "const box = document.querySelector(\"td.select input[aria-label='Select 1001']\");
                 const strip = box && box.closest('tr').querySelector('.occupancy');
                 return strip ? strip.dataset.occupancy : null;",
            )
            .await?;
        if shown.as_str() == Some(after.as_str()) {
            break;
        }
        if tokio::time::Instant::now() > deadline {
            anyhow::bail!("the table shows {shown} for 1001, not {after}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    phone_screenshot(&app, "fleet_defrag_phone").await?;
    app.finish().await
}

/// `target/e2e/<name>.png`.
async fn screenshot(app: &Harness, name: &str) -> anyhow::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e");
    std::fs::create_dir_all(&dir)?;
    app.driver
        .screenshot(&dir.join(format!("{name}.png")))
        .await?;
    Ok(())
}

/// Each button of the selection's bar: its label, the lines the label takes, and the top
/// of the button (the row of the bar it is on).
const BUTTON_LINES: &str = r#"
return [...document.querySelectorAll('.selection-actions .button')].map(b => {
  const range = document.createRange();
  range.selectNodeContents(b);
  const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top));
  return [b.textContent, new Set(tops).size, Math.round(b.getBoundingClientRect().top)];
});
"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_selections_buttons_fit_their_rows_at_laptop_width_each_label_on_one_line(
) -> anyhow::Result<()> {
    let app = signed_in_on_machines("fleet_selection_bar").await?;
    app.wait_for_exact_text(".row-count", "120 rows").await?;
    // On a phone the bar shows only once a machine is selected.
    checkbox(&app, 1013).await?.click().await?;
    app.wait_for_exact_text(".selected-count", "1 selected")
        .await?;
    for viewport in [LAPTOP, PHONE] {
        app.set_viewport(viewport).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let lines: Vec<(String, usize, i64)> =
            serde_json::from_value(app.eval(BUTTON_LINES).await?)?;
        let labels: Vec<&str> = lines.iter().map(|(label, ..)| label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Show maintenance",
                "Schedule maintenance…",
                "Plan rolling maintenance…",
                "Defragment…",
                "Cancel maintenance…",
                "End offers at…",
                "Unlist…",
                "List again…"
            ]
        );
        for (label, count, _) in &lines {
            assert_eq!(
                *count, 1,
                "{label:?} takes {count} lines at {}",
                viewport.name
            );
        }
        // From a laptop up, the five maintenance buttons are one row and the three offer
        // buttons the row below.
        if viewport.width >= LAPTOP.width {
            let (maintenance, offers) = lines.split_at(5);
            for (part, buttons) in [("maintenance", maintenance), ("offers", offers)] {
                let rows: BTreeSet<i64> = buttons.iter().map(|(.., top)| *top).collect();
                assert_eq!(
                    rows.len(),
                    1,
                    "the {part} buttons take {} rows: {lines:?}",
                    rows.len()
                );
            }
            assert!(offers[0].2 > maintenance[0].2, "{lines:?}");
        }
        assert_eq!(app.sideways_overflow().await?, None, "at {}", viewport.name);
        screenshot(&app, &format!("fleet_selection_bar_{}", viewport.name)).await?;
    }
    app.set_viewport(LAPTOP).await?;
    app.finish().await
}

/// Each preview bar: whether it lies whole inside the chart, and whether it is in the
/// scroll box's view (right of the sticky machine labels, left of the box's right edge).
const PREVIEW_BARS: &str = r#"
const view = document.querySelector('.timeline-scroll').getBoundingClientRect();
const chart = document.querySelector('svg.timeline-chart').getBoundingClientRect();
const labels = document.querySelector('svg.timeline-labels').getBoundingClientRect();
return [...document.querySelectorAll('rect.preview-bar')].map(r => {
  const b = r.getBoundingClientRect();
  return [b.width > 0 && b.left >= chart.left - 0.5 && b.right <= chart.right + 0.5,
          b.left >= labels.right - 0.5 && b.right <= view.right + 0.5];
});
"#;

/// Whether the machine labels are in the scroll box's view, and the tick labels that run
/// into the next one.
const LABELS: &str = r#"
const view = document.querySelector('.timeline-scroll').getBoundingClientRect();
const labels = document.querySelector('svg.timeline-labels').getBoundingClientRect();
const ticks = [...document.querySelectorAll('.timeline .tick text')];
const touching = ticks.slice(1).filter((t, i) =>
  t.getBoundingClientRect().left < ticks[i].getBoundingClientRect().right).map(t => t.textContent);
return [labels.left >= view.left - 0.5 && labels.right <= view.right + 0.5, touching];
"#;

/// How the disabled reason looks beside the enabled duration field.
const DISABLED_LOOK: &str = r#"
const reason = document.querySelector('#schedule-reason');
const off = getComputedStyle(reason), on = getComputedStyle(document.querySelector('#schedule-hours'));
return [reason.disabled, off.backgroundColor !== on.backgroundColor, off.color !== on.color,
        off.cursor, off.borderTopStyle];
"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_preview_shows_every_new_window_whole_and_a_disabled_reason_looks_disabled(
) -> anyhow::Result<()> {
    let app = Harness::start_signed_in(
        "fleet_schedule_preview",
        "/machines/schedule?ids=1013-1015",
        demo::ALICE_KEY,
    )
    .await?;
    app.fill_schedule_form("3").await?;
    // Later than every existing window, so the new ones end the timeline on the right.
    let late = app
        .eval("return new Date(Date.now() + 300 * 86400000).toISOString().slice(0, 13) + ':00'")
        .await?;
    app.set_value(
        "#schedule-start",
        late.as_str().unwrap_or_default(),
        "input",
    )
    .await?;
    app.wait_for_text("[data-testid=schedule-summary]", "on 3 machines")
        .await?;
    app.wait_for_text(
        "figure.timeline figcaption",
        "Previewed: 3 new windows (outlined).",
    )
    .await?;
    for viewport in [LAPTOP, PHONE] {
        app.set_viewport(viewport).await?;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let bars: Vec<(bool, bool)> = serde_json::from_value(app.eval(PREVIEW_BARS).await?)?;
        assert_eq!(
            bars,
            [(true, true); 3],
            "at {}: (whole in the chart, in view) per new window",
            viewport.name
        );
        let (labels_seen, touching): (bool, Vec<String>) =
            serde_json::from_value(app.eval(LABELS).await?)?;
        assert!(
            labels_seen,
            "the machine labels are out of view at {}",
            viewport.name
        );
        assert!(
            touching.is_empty(),
            "tick labels run into the one before at {}: {touching:?}",
            viewport.name
        );
        assert_eq!(app.sideways_overflow().await?, None, "at {}", viewport.name);
        for scheme in Scheme::BOTH {
            app.set_scheme(scheme).await?;
            let look = app.eval(DISABLED_LOOK).await?;
            assert_eq!(
                look,
                serde_json::json!([true, true, true, "not-allowed", "dashed"]),
                "the disabled reason at {}, {scheme:?}: [disabled, other background, other \
                 text colour, cursor, border]",
                viewport.name
            );
            let name = format!("{}_{scheme:?}", viewport.name).to_lowercase();
            app.find("#schedule-reason")
                .await?
                .scroll_into_view()
                .await?;
            screenshot(&app, &format!("fleet_schedule_reason_{name}")).await?;
            app.find("figure.timeline")
                .await?
                .scroll_into_view()
                .await?;
            screenshot(&app, &format!("fleet_schedule_preview_{name}")).await?;
        }
        app.set_scheme(Scheme::Light).await?;
    }
    app.set_viewport(LAPTOP).await?;
    app.finish().await
}
