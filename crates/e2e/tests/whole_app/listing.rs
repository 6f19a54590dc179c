//! The Machines page's offers (§1.7, offers and rental contracts) in the real console
//! against the demo server: the listing column's stage of the named demo machines, and
//! the offer actions on the selection ("End offers at…", "Unlist…", "List again…"), each
//! previewed, sent, and checked in the database. The same actions at the public
//! service's pace: `paced_offers.rs`.

use gpudeck_e2e::offers::{
    minute_in_days, offers_between, open_offer_action, terms, times_in_utc, OfferRow,
};
use gpudeck_e2e::{demo, now, Harness};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

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
    app.wait_for_exact_text(".row-count", "120 rows").await?;
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
    app.wait_for_exact_text(".row-count", &format!("{} of 120 rows", ready.len()))
        .await?;
    let shown = listing_cells(&app).await?;
    assert!(shown.values().all(|[stage, _]| stage == "Unlisted, vacant"));
    let shown_ids: BTreeSet<i64> = shown.keys().map(|id| id.parse().unwrap()).collect();
    assert!(shown_ids.is_subset(&ready.into_iter().collect()));
    app.finish().await
}

/// Selects the machines `ids` in the table (each row near the top, so drawn), one click
/// each, or a click and a shift-click for a range `first..=last`.
async fn select_range(app: &Harness, first: i64, last: i64) -> anyhow::Result<()> {
    let checkbox = |id: i64| format!("td.select input[aria-label='Select {id}']");
    app.click(&checkbox(first)).await?;
    if last != first {
        app.shift_click(&app.find(&checkbox(last)).await?).await?;
    }
    app.wait_for_exact_text(".selected-count", &format!("{} selected", last - first + 1))
        .await?;
    Ok(())
}

/// Each contract of machines 1001 to 1012: (id, machine, rental end date, locked price,
/// its machine's offer price).
type ContractRow = (i64, i64, Option<f64>, f64, f64);

async fn showcase_contracts(app: &Harness) -> anyhow::Result<Vec<ContractRow>> {
    app.db_rows(
        "SELECT c.id, c.machine_id, c.end_date, c.price_gpu, o.price_gpu
         FROM contracts c JOIN offers o ON o.machine_id = c.machine_id
         WHERE c.machine_id BETWEEN 1001 AND 1012 ORDER BY c.id",
        (),
        |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        },
    )
    .await
}

/// Every offer row of machines 1001 to 1012.
async fn showcase_offers(app: &Harness) -> anyhow::Result<Vec<OfferRow>> {
    offers_between(app, 1001, 1012).await
}

/// The preview's or the results' line of `machine`, read in one script: the table's
/// reload after a run draws the panel again, so an element found earlier may be gone.
async fn line_of(app: &Harness, list: &str, machine: i64) -> anyhow::Result<String> {
    let css = format!("{list} li[data-machine-id='{machine}']");
    let script =
        format!("const e = document.querySelector({css:?}); return e ? e.innerText : null;");
    let deadline = tokio::time::Instant::now() + gpudeck_e2e::PATIENCE;
    loop {
        if let Some(text) = app.eval(&script).await?.as_str() {
            return Ok(text.to_owned());
        }
        anyhow::ensure!(tokio::time::Instant::now() < deadline, "no {css}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the table shows `machine` at `stage`: it has been loaded again.
async fn wait_for_stage(app: &Harness, machine: i64, stage: &str) -> anyhow::Result<()> {
    app.wait_for_text(&format!("tr[data-key='{machine}'] .listing-stage"), stage)
        .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn ending_offers_extends_the_contracts_the_server_counts() -> anyhow::Result<()> {
    let app = Harness::start_signed_in("offers_end", "/machines", demo::ALICE_KEY).await?;
    app.wait_for_exact_text(".row-count", "120 rows").await?;
    // 1001 to 1006: 1004 is not listed and is skipped; five offers end.
    select_range(&app, 1001, 1006).await?;
    open_offer_action(&app, "end-offers").await?;
    app.wait_for_text(
        "#offer-panel .hint",
        "Each offer ends at this time: no new rental",
    )
    .await?;
    times_in_utc(&app).await?;
    let (typed, end, written) = minute_in_days(40.0);
    app.set_value("#offer-end", &typed, "input").await?;

    let preview = "[data-testid=offer-preview]";
    let hours_ahead = line_of(&app, preview, demo::RENTALS_END_IN_HOURS).await?;
    assert!(
        hours_ahead.contains(&format!(
            "the offer ends at {written}; extends its rentals that end before {written} \
             (latest now ends at "
        )),
        "{hours_ahead}"
    );
    // Every other term goes with the end date, at its current value (§1.3 rule 8); the
    // machine list gives no volume size, and the line says so.
    assert!(
        hours_ahead.contains(
            "unless a rental locked a lower price. Its other terms are sent as listed; the \
             machine list gives no "
        ),
        "{hours_ahead}"
    );
    assert!(hours_ahead.contains("volume size"), "{hours_ahead}");
    let endless = line_of(&app, preview, demo::RENTALS_WITHOUT_END).await?;
    assert!(
        endless.contains("its rentals have no end date; each ends when the renter stops it."),
        "{endless}"
    );
    assert_eq!(
        line_of(&app, preview, demo::WITHDRAWN_MACHINE).await?,
        "Machine 1004: skipped: not listed. Setting an offer end date would list it again; \
         List again… does that."
    );
    app.check_look_showing("offers_end_preview", Some("#offer-panel"))
        .await?;

    let before = showcase_contracts(&app).await?;
    let sent = [1001, 1002, 1003, 1005, 1006];
    let at = now();
    let extends = |(_, machine, ends, locked, price): &ContractRow| {
        sent.contains(machine) && ends.is_some_and(|e| e > at && e < end) && locked >= price
    };
    let offers_before = showcase_offers(&app).await?;

    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    let asked = app.confirm().await?;
    assert!(asked.contains("5 offers end at"), "{asked}");
    assert!(asked.contains("Skipped, not listed: 1004."), "{asked}");
    assert!(
        asked.contains("5 offers: about 20 s at the public service's pace."),
        "{asked}"
    );
    app.wait_for_text_within(
        "[data-testid=offer-result] h3",
        "Offers ended: 5 of 5 machines done",
        Duration::from_secs(90),
    )
    .await?;
    // The open-ended machine now has an offer end date.
    wait_for_stage(&app, demo::RENTALS_WITHOUT_END, "Draining").await?;
    for machine in sent {
        let count = before
            .iter()
            .filter(|c| c.1 == machine && extends(c))
            .count();
        let extended = match count {
            0 => "no contract extended".to_owned(),
            1 => format!("extended 1 contract to {written}"),
            n => format!("extended {n} contracts to {written}"),
        };
        assert_eq!(
            line_of(&app, "[data-testid=offer-result]", machine).await?,
            format!("Machine {machine}: the offer ends at {written}; {extended}")
        );
    }
    // The tidy machine's cheaper contract stays; the three ending in hours all move.
    assert_eq!(
        before.iter().filter(|c| c.1 == 1001 && extends(c)).count(),
        3
    );
    assert!(!before
        .iter()
        .any(|c| c.0 == demo::CHEAPER_CONTRACT && extends(c)));

    let ends: Vec<(i64, Option<f64>, Option<f64>)> = app
        .db_rows(
            "SELECT machine_id, end_date, duration FROM offers
             WHERE machine_id IN (1001, 1002, 1003, 1005, 1006) ORDER BY machine_id",
            (),
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .await?;
    assert_eq!(ends.len(), 5);
    for (machine, offer_end, duration) in ends {
        assert_eq!(offer_end, Some(end), "machine {machine}'s offer end date");
        assert_eq!(duration, None);
    }
    let after = showcase_contracts(&app).await?;
    assert_eq!(after.len(), before.len());
    for (was, now) in before.iter().zip(&after) {
        let expected = if extends(was) { Some(end) } else { was.2 };
        assert_eq!(now.2, expected, "contract {} of machine {}", was.0, was.1);
    }
    // The skipped machine's offer is as it was, and every machine's terms too.
    let offers_after = showcase_offers(&app).await?;
    assert_eq!(terms(&offers_after), terms(&offers_before));
    let of_1004 = |offers: &[OfferRow]| offers.iter().find(|o| o.0 == 1004).cloned();
    assert_eq!(
        of_1004(&offers_after),
        of_1004(&offers_before),
        "machine 1004's offer"
    );
    app.check_look_showing("offers_end_result", Some("[data-testid=offer-result]"))
        .await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn unlisting_then_listing_again_keeps_each_machines_terms() -> anyhow::Result<()> {
    let app = Harness::start_signed_in("offers_round_trip", "/machines", demo::ALICE_KEY).await?;
    app.wait_for_exact_text(".row-count", "120 rows").await?;
    let idle = demo::IDLE_LISTED_MACHINES[0];
    let before = showcase_offers(&app).await?;
    select_range(&app, 1006, 1007).await?;
    open_offer_action(&app, "unlist").await?;
    assert!(line_of(&app, "[data-testid=offer-preview]", idle)
        .await?
        .ends_with("no rental is running: once unlisted it is ready for maintenance."));
    app.check_look_showing("offers_unlist_preview", Some("#offer-panel"))
        .await?;
    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    let asked = app.confirm().await?;
    assert!(asked.contains("2 machines: 1006, 1007"), "{asked}");
    app.wait_for_text_within(
        "[data-testid=offer-result] h3",
        "Unlisted: 2 of 2 machines done",
        Duration::from_secs(30),
    )
    .await?;
    // Unlisted and vacant during the window the demo runs on it: in maintenance.
    wait_for_stage(&app, idle, "In maintenance").await?;
    assert_eq!(
        line_of(&app, "[data-testid=offer-result]", idle).await?,
        "Machine 1007: unlisted; no rental is running: ready for maintenance"
    );
    let withdrawn: Vec<(i64, bool, Option<f64>)> = app
        .db_rows(
            "SELECT machine_id, withdrawn_at IS NOT NULL, end_date FROM offers
             WHERE machine_id IN (1006, 1007) ORDER BY machine_id",
            (),
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .await?;
    assert_eq!(withdrawn, [(1006, true, None), (1007, true, None)]);
    let unlisted = showcase_offers(&app).await?;
    assert_eq!(terms(&unlisted), terms(&before), "the terms stay");

    open_offer_action(&app, "relist").await?;
    app.fill("#relist-duration", "2").await?;
    app.set_value("#offer-panel .duration-unit", "weeks", "change")
        .await?;
    let line = app
        .wait_for_text(
            &format!("[data-testid=offer-preview] li[data-machine-id='{idle}']"),
            "rolling, always 2 weeks ahead",
        )
        .await?;
    assert!(
        line.starts_with("Machine 1007: Not listed now. Listed rolling, always 2 weeks ahead, $"),
        "{line}"
    );
    assert!(line.contains("/GPU-hour (kept), at least"), "{line}");
    app.check_look_showing("offers_relist_preview", Some("#offer-panel"))
        .await?;
    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    app.confirm().await?;
    app.wait_for_text_within(
        "[data-testid=offer-result] h3",
        "Listed again: 2 of 2 machines done",
        Duration::from_secs(30),
    )
    .await?;
    wait_for_stage(&app, idle, "Vacant").await?;
    assert!(line_of(&app, "[data-testid=offer-result]", idle)
        .await?
        .starts_with("Machine 1007: listed rolling, always 2 weeks ahead; "));
    let relisted: Vec<(i64, bool, Option<f64>, Option<f64>)> = app
        .db_rows(
            "SELECT machine_id, withdrawn_at IS NOT NULL, end_date, duration FROM offers
             WHERE machine_id IN (1006, 1007) ORDER BY machine_id",
            (),
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
        )
        .await?;
    let two_weeks = Some(14.0 * 86_400.0);
    assert_eq!(
        relisted,
        [
            (1006, false, None, two_weeks),
            (1007, false, None, two_weeks)
        ]
    );
    assert_eq!(terms(&showcase_offers(&app).await?), terms(&before));
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_offer_input_is_named_and_nothing_is_sent() -> anyhow::Result<()> {
    let app = Harness::start_signed_in("offers_bad_input", "/machines", demo::ALICE_KEY).await?;
    app.wait_for_exact_text(".row-count", "120 rows").await?;
    let before = showcase_offers(&app).await?;
    let contracts = showcase_contracts(&app).await?;
    select_range(&app, 1001, 1003).await?;

    open_offer_action(&app, "end-offers").await?;
    times_in_utc(&app).await?;
    let (past, _, _) = minute_in_days(-1.0);
    app.set_value("#offer-end", &past, "input").await?;
    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    app.wait_for_text("#offer-end-error", "The offer end must be later than now.")
        .await?;

    open_offer_action(&app, "relist").await?;
    app.fill("#relist-price", "-1").await?;
    app.fill("#relist-min-chunk", "3").await?;
    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    app.wait_for_text("#relist-price-error", "The price must be 0 or more.")
        .await?;
    let chunk = app.find("#relist-min-chunk-error").await?.text().await?;
    assert!(
        chunk.starts_with(
            "The minimum GPUs must be 1 or a power of two up to the machine's GPUs; 3 does \
             not fit machine 1001"
        ),
        "{chunk}"
    );
    let (later, _, _) = minute_in_days(3.0);
    app.set_value("#relist-price", "", "input").await?;
    app.set_value("#relist-min-chunk", "", "input").await?;
    app.set_value("#relist-end", &later, "input").await?;
    app.fill("#relist-duration", "3").await?;
    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    app.wait_for_text(
        "#relist-duration-error",
        "Give an offer end date or a rolling duration, not both.",
    )
    .await?;
    assert!(
        app.driver
            .find_all(gpudeck_e2e::By::Css("dialog.confirm[open]"))
            .await?
            .is_empty(),
        "no confirmation opens for bad input"
    );
    app.check_look_showing("offers_bad_input", Some("#offer-panel"))
        .await?;
    assert_eq!(showcase_offers(&app).await?, before);
    assert_eq!(showcase_contracts(&app).await?, contracts);
    app.finish().await
}
