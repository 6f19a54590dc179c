//! The Machines page's offers (§1.7, offers and rental contracts) in the real console
//! against the demo server: the listing column's stage of the named demo machines, and
//! the offer actions on the selection ("End offers at…", "Unlist…", "List again…"), each
//! previewed, sent, and checked in the database.

use gpudeck_e2e::{demo, Config, Harness};
use gpudeck_server::limits::RefusalShape;
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

fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs_f64()
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

/// Opens the offer action `key`'s form and switches its times to UTC.
async fn open_offer_action(app: &Harness, key: &str) -> anyhow::Result<()> {
    app.click(&format!(".selection-actions [data-action={key}]"))
        .await?;
    app.find(&format!("#offer-panel[data-testid={key}]"))
        .await?;
    Ok(())
}

async fn times_in_utc(app: &Harness) -> anyhow::Result<()> {
    let toggle = app.find("#offer-panel .toggle input").await?;
    if toggle.prop("checked").await?.as_deref() != Some("true") {
        toggle.click().await?;
    }
    app.wait_for_text("#offer-panel .zone", "UTC").await?;
    Ok(())
}

/// A whole minute `days` from now: the `datetime-local` value in UTC, the Unix seconds,
/// and the way the console writes it in UTC.
fn minute_in_days(days: f64) -> (String, f64, String) {
    let at = ((now() + days * 86_400.0) / 60.0).floor() * 60.0;
    let seconds = at as i64;
    let (day, minute) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400) / 60);
    let (y, m, d) = civil_from_days(day);
    let date = format!("{y:04}-{m:02}-{d:02}");
    let clock = format!("{:02}:{:02}", minute / 60, minute % 60);
    (format!("{date}T{clock}"), at, format!("{date} {clock} UTC"))
}

/// Howard Hinnant's days-to-civil: the proleptic Gregorian date of a day since 1970.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
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

/// Every offer row of machines 1001 to 1012: machine, its terms, end date, duration and
/// whether withdrawn, to compare before and after.
type OfferRow = (
    i64,
    Vec<rusqlite::types::Value>,
    Option<f64>,
    Option<f64>,
    bool,
);

async fn showcase_offers(app: &Harness) -> anyhow::Result<Vec<OfferRow>> {
    offers_between(app, 1001, 1012).await
}

/// Every offer row of machines `first..=last`, as [`showcase_offers`].
async fn offers_between(app: &Harness, first: i64, last: i64) -> anyhow::Result<Vec<OfferRow>> {
    app.db_rows(
        "SELECT machine_id, price_gpu, price_min_bid, price_disk, price_inetu, price_inetd,
                min_chunk, credit_discount_max, vol_size, vol_price, end_date, duration,
                withdrawn_at IS NOT NULL
         FROM offers WHERE machine_id BETWEEN ?1 AND ?2 ORDER BY machine_id",
        (first, last),
        |row| {
            let terms = (1..10)
                .map(|i| row.get::<_, rusqlite::types::Value>(i))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((row.get(0)?, terms, row.get(10)?, row.get(11)?, row.get(12)?))
        },
    )
    .await
}

/// Each machine's terms only.
fn terms(offers: &[OfferRow]) -> Vec<(i64, Vec<rusqlite::types::Value>)> {
    offers.iter().map(|o| (o.0, o.1.clone())).collect()
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

/// Machines 1031 to 1050: 20 of alice's, 16 of them listed (every fifth is not).
const PACED: (i64, i64) = (1031, 1050);

/// The row checkbox of `machine`, scrolled into view first (the table draws only the rows
/// near the view), waiting as long as the whole-app tests do.
async fn checkbox(app: &Harness, machine: i64) -> anyhow::Result<thirtyfour::WebElement> {
    let css = format!("td.select input[aria-label='Select {machine}']");
    for _ in 0..50 {
        app.eval(&format!(
            "const rows = [...document.querySelectorAll('tbody tr[aria-rowindex]')];
             const row = rows.find(r => r.dataset.key === '{machine}');
             (row || rows[rows.length - 1]).scrollIntoView({{block: 'center'}});"
        ))
        .await?;
        if let Ok(found) = app.driver.find(gpudeck_e2e::By::Css(&css)).await {
            return Ok(found);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.find(&css).await
}

/// Clicks the row checkbox of `machine`, again if the table drew its row anew between
/// finding and clicking it (it reloads after each run).
async fn click_checkbox(app: &Harness, machine: i64) -> anyhow::Result<()> {
    for _ in 0..10 {
        match checkbox(app, machine).await?.click().await {
            Err(stale)
                if matches!(
                    stale.as_inner(),
                    thirtyfour::error::WebDriverErrorInner::StaleElementReference(_)
                ) =>
            {
                continue
            }
            clicked => return Ok(clicked?),
        }
    }
    anyhow::bail!("the checkbox of machine {machine} went stale ten times")
}

/// Confirms the open form, waits up to `within` for its results' heading to read `done`,
/// and checks that no machine is refused or unknown and no failure shows.
async fn send_and_wait(app: &Harness, done: &str, within: Duration) -> anyhow::Result<String> {
    app.click("#offer-panel .form-actions button[type=submit]")
        .await?;
    let asked = app.confirm().await?;
    app.wait_for_text_within("[data-testid=offer-result] h3", done, within)
        .await?;
    let refusals = app
        .driver
        .find_all(gpudeck_e2e::By::Css(
            "#offer-panel .error-panel, [data-testid=offer-result] li.refused, \
             [data-testid=offer-result] li.unknown",
        ))
        .await?;
    anyhow::ensure!(refusals.is_empty(), "a refusal or failure is shown");
    Ok(asked)
}

/// The three offer actions on 20 machines against a server that limits N22 and N23 as the
/// public service does and refuses as it does (plain-text 429, no `Retry-After`): each
/// keeps its operation's pace from the first machine, none shows a refusal, and every
/// machine's offer ends, is withdrawn and is listed again with its terms as they were.
#[tokio::test(flavor = "multi_thread")]
async fn the_offer_actions_on_twenty_machines_keep_the_public_pace() -> anyhow::Result<()> {
    let app = Harness::start_with_options("offers_paced_public", |config| Config {
        public_rate_limits: true,
        rate_limit_shape: RefusalShape::Public,
        ..config
    })
    .await?;
    app.record_every_fetch().await?;
    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.wait_for_text(".row-count", "120 rows").await?;
    let (first, last) = PACED;
    let before = offers_between(&app, first, last).await?;
    let listed: Vec<i64> = (first..=last)
        .filter(|id| demo::alice_listed(*id))
        .collect();
    assert_eq!(listed.len(), 16);

    checkbox(&app, first).await?.click().await?;
    app.shift_click(&checkbox(&app, last).await?).await?;
    app.wait_for_exact_text(".selected-count", "20 selected")
        .await?;

    open_offer_action(&app, "end-offers").await?;
    times_in_utc(&app).await?;
    let (typed, end, _) = minute_in_days(40.0);
    app.set_value("#offer-end", &typed, "input").await?;
    app.find("[data-testid=offer-preview]").await?;
    let asked = send_and_wait(
        &app,
        "Offers ended: 16 of 16 machines done",
        Duration::from_secs(240),
    )
    .await?;
    assert!(asked.contains("at the public service's pace"), "{asked}");
    let ended = offers_between(&app, first, last).await?;
    assert_eq!(terms(&ended), terms(&before), "every term kept");
    for offer in &ended {
        let expected = if listed.contains(&offer.0) {
            Some(end)
        } else {
            before.iter().find(|o| o.0 == offer.0).and_then(|o| o.2)
        };
        assert_eq!(offer.2, expected, "machine {}'s offer end date", offer.0);
    }

    open_offer_action(&app, "unlist").await?;
    app.find("[data-testid=offer-preview]").await?;
    send_and_wait(
        &app,
        "Unlisted: 20 of 20 machines done",
        Duration::from_secs(180),
    )
    .await?;
    let unlisted = offers_between(&app, first, last).await?;
    assert!(
        unlisted.iter().all(|o| o.4 && o.2.is_none()),
        "every offer withdrawn: {unlisted:?}"
    );

    // The four machines that never had an offer keep no price to list again with: the
    // host leaves them out. With no end given, each of the others is listed open-ended.
    for never_listed in (first..=last).filter(|id| !listed.contains(id)) {
        click_checkbox(&app, never_listed).await?;
    }
    app.wait_for_exact_text(".selected-count", "16 selected")
        .await?;
    open_offer_action(&app, "relist").await?;
    app.find("[data-testid=offer-preview]").await?;
    send_and_wait(
        &app,
        "Listed again: 16 of 16 machines done",
        Duration::from_secs(240),
    )
    .await?;
    let relisted = offers_between(&app, first, last).await?;
    assert_eq!(
        relisted.len(),
        16,
        "no offer made for a never-listed machine"
    );
    assert_eq!(terms(&relisted), terms(&before), "every term kept");
    assert!(
        relisted
            .iter()
            .all(|o| !o.4 && o.2.is_none() && o.3.is_none()),
        "every machine listed open-ended: {relisted:?}"
    );
    // The pace was kept, not found by trial: N22 and N23 were refused nothing.
    let answers = app.api_answers().await?;
    let offer_requests = |status: u16| -> Vec<&str> {
        answers
            .iter()
            .filter(|(path, answered)| {
                *answered == status && (path.ends_with("/create_asks/") || path.ends_with("/asks/"))
            })
            .map(|(path, _)| path.as_str())
            .collect()
    };
    assert_eq!(
        offer_requests(429),
        Vec::<&str>::new(),
        "429s on N22 or N23"
    );
    let listed_twice = offer_requests(200)
        .iter()
        .filter(|path| path.ends_with("/create_asks/"))
        .count();
    assert_eq!(
        listed_twice, 32,
        "N22 answered once per listed machine in each action"
    );
    app.finish().await
}
