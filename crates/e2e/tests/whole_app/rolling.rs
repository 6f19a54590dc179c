//! Rolling maintenance in the real console against the demo server: from the Machines
//! page's selection to the planner, a plan of 20 machines at most 3 at once around the
//! windows they already have, scheduled; the database then holds exactly that plan. And a
//! plan of 20 distinct starts against a server that limits N4 as the public service does,
//! its 429s in either shape (JSON with Retry-After, the public plain text without): the
//! console keeps N4's pace, says so, and schedules all 20 with no refusal shown. These
//! plan in the "notify renters now" mode. A contract-safe plan of 12 machines whose
//! rentals end at different times then waits for every rental and ends offers first.

use gpudeck_e2e::{demo, now, Config, Harness};
use gpudeck_server::limits::RefusalShape;
use std::collections::BTreeMap;
use std::time::Duration;

/// Windows of machines `first..=last` not cancelled: (machine, start, end, created_at).
async fn windows_of(
    app: &Harness,
    first: i64,
    last: i64,
) -> anyhow::Result<Vec<(i64, f64, f64, f64)>> {
    app.db_rows(
        "SELECT machine_id, start_time, start_time + duration_hours * 3600, created_at
         FROM maintenances
         WHERE machine_id BETWEEN ?1 AND ?2 AND cancelled_at IS NULL ORDER BY id",
        (first, last),
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
    )
    .await
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

/// Tomorrow on the hour (UTC): a plan's earliest start.
fn tomorrow_on_the_hour() -> f64 {
    ((now() / 3600.0).floor() + 24.0) * 3600.0
}

/// Fills in the planner (times in UTC) in `mode` (`contract-safe` or `notify`) and submits
/// it.
async fn plan(
    app: &Harness,
    mode: &str,
    machines: &str,
    (from, until): (f64, f64),
    hours: &str,
    cap: &str,
) -> anyhow::Result<()> {
    app.click(&format!("input[name=rolling-mode][value={mode}]"))
        .await?;
    app.fill("#rolling-machines", machines).await?;
    app.click(".rolling-form .toggle input").await?;
    let at = |t: f64| {
        format!(
            "return new Date({}).toISOString().slice(0, 16)",
            (t * 1000.0) as i64
        )
    };
    let from_text = app.eval(&at(from)).await?;
    let until_text = app.eval(&at(until)).await?;
    app.set_value("#rolling-from", from_text.as_str().unwrap(), "input")
        .await?;
    app.set_value("#rolling-until", until_text.as_str().unwrap(), "input")
        .await?;
    app.fill("#rolling-hours", hours).await?;
    app.fill("#rolling-cap", cap).await?;
    app.set_value("#rolling-category", "disk", "change").await?;
    app.click(".rolling-form button[type=submit]").await
}

/// Asks to schedule the plan and confirms it.
async fn schedule(app: &Harness) -> anyhow::Result<String> {
    app.click("[data-action=schedule-plan]").await?;
    let dialog = app.find("dialog.confirm[open]").await?.text().await?;
    app.click("dialog.confirm[open] .confirm-actions button:last-child")
        .await?;
    Ok(dialog)
}

/// Whether the page shows an error panel or a refused machine.
async fn shows_an_error(app: &Harness) -> anyhow::Result<bool> {
    Ok(!app
        .driver
        .find_all(thirtyfour::By::Css(".error-panel, li.refused"))
        .await?
        .is_empty())
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_machines_three_at_a_time_around_existing_windows() -> anyhow::Result<()> {
    let app = Harness::start("rolling_twenty").await?;
    let now = now();
    // Machines 1001 and 1005 are already down for the plan's first four hours.
    let from = tomorrow_on_the_hour();
    for machine in [1001, 1005] {
        app.db_execute(
            "INSERT INTO maintenances (machine_id, start_time, duration_hours, category, created_at)
             VALUES (?1, ?2, 4, 'power', ?3)",
            (machine, from, now),
        )
        .await?;
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

    plan(
        &app,
        "notify",
        "1001-1020",
        (from, from + 24.0 * 3600.0),
        "2",
        "3",
    )
    .await?;
    app.wait_for_exact_text("[data-testid=planned-count]", "20")
        .await?;
    let peak_shown = app
        .find("[data-testid=peak-machines]")
        .await?
        .text()
        .await?;
    assert_eq!(peak_shown, "3");
    assert!(app.address().await?.contains("cap=3"));

    app.check_look("rolling-plan").await?;

    let dialog = schedule(&app).await?;
    assert!(dialog.contains("20 windows of 2 hours"), "{dialog}");
    app.wait_for_text("[data-testid=plan-done]", "All 20 windows are scheduled")
        .await?;
    assert!(!shows_an_error(&app).await?);

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

/// A plan of 20 distinct starts (machines 1031 to 1050, one down at a time) against a
/// server that limits N4 as the public service does, answering its 429s in `shape`: the
/// console keeps N4's pace from the first request, says beforehand how long it takes,
/// shows no refusal, and the database then holds exactly the 20 windows asked.
async fn twenty_distinct_starts_at_the_public_pace(
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
    let (first, last) = (1031, 1050);
    let before = windows_of(&app, first, last).await?;
    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.open("/machines/rolling").await?;
    app.find(".rolling-form").await?;

    // One machine down at a time, an hour each: 20 starts, so 20 N4 calls, one every 2 s.
    let from = tomorrow_on_the_hour();
    plan(
        &app,
        "notify",
        "1031-1050",
        (from, from + 48.0 * 3600.0),
        "1",
        "1",
    )
    .await?;
    app.wait_for_exact_text("[data-testid=planned-count]", "20")
        .await?;
    let dialog = schedule(&app).await?;
    assert!(dialog.contains("sent in 20 requests"), "{dialog}");
    assert!(
        dialog.contains("20 starts: about 40 s at the public service's pace."),
        "{dialog}"
    );
    // Each call after the first waits its turn, saying so.
    app.wait_for_text("[data-testid=run-progress]", "waiting for the rate limit")
        .await?;
    app.wait_for_text_within(
        "[data-testid=plan-done]",
        "All 20 windows are scheduled",
        Duration::from_secs(120),
    )
    .await?;
    assert!(!shows_an_error(&app).await?);
    // The pace was kept, not found by trial: the server refused no N4. (Opening the page
    // by its address within N1's interval of the sign-in's read can meet a 429 on N1: the
    // served page's early read knows nothing of the page loaded before it.)
    let answers = app.api_answers().await?;
    let refused: Vec<&(String, u16)> = answers
        .iter()
        .filter(|(path, status)| path.contains("/maintenances/batch") && *status == 429)
        .collect();
    assert!(refused.is_empty(), "the server answered 429 to {refused:?}");
    let scheduled = answers
        .iter()
        .filter(|(path, status)| path.contains("/maintenances/batch") && *status == 200)
        .count();
    assert_eq!(scheduled, 20, "N4 answered 200 once per start: {answers:?}");

    let after = windows_of(&app, first, last).await?;
    let new: Vec<_> = after.iter().filter(|w| !before.contains(w)).collect();
    assert_eq!(new.len(), 20, "{new:?}");
    let mut machines: Vec<i64> = new.iter().map(|w| w.0).collect();
    machines.sort_unstable();
    machines.dedup();
    assert_eq!(machines, (first..=last).collect::<Vec<_>>());
    let mut starts: Vec<i64> = new.iter().map(|w| w.1 as i64).collect();
    starts.sort_unstable();
    starts.dedup();
    assert_eq!(starts.len(), 20, "one start per machine");
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_distinct_starts_meet_json_429s_with_retry_after() -> anyhow::Result<()> {
    twenty_distinct_starts_at_the_public_pace("rolling_paced_json", RefusalShape::Json).await
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_distinct_starts_meet_the_public_services_plain_429s() -> anyhow::Result<()> {
    twenty_distinct_starts_at_the_public_pace("rolling_paced_public", RefusalShape::Public).await
}

/// Per machine of `first..=last`: the latest rental end date among its active contracts,
/// and whether one has no end date.
async fn rentals_end(
    app: &Harness,
    first: i64,
    last: i64,
) -> anyhow::Result<Vec<(i64, Option<f64>, bool)>> {
    app.db_rows(
        "SELECT machine_id, MAX(end_date), SUM(end_date IS NULL) > 0 FROM contracts
         WHERE machine_id BETWEEN ?1 AND ?2 AND (end_date IS NULL OR end_date > ?3)
         GROUP BY machine_id",
        (first, last, now()),
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
    )
    .await
}

/// Per machine of `first..=last` with an offer: its end date, rolling duration, and
/// whether it is up (not withdrawn and not past its end).
async fn offers_of(
    app: &Harness,
    first: i64,
    last: i64,
) -> anyhow::Result<Vec<(i64, Option<f64>, Option<f64>, bool)>> {
    app.db_rows(
        "SELECT machine_id, end_date, duration,
                withdrawn_at IS NULL AND (end_date IS NULL OR end_date > ?3)
         FROM offers WHERE machine_id BETWEEN ?1 AND ?2",
        (first, last, now()),
        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
    )
    .await
}

/// The texts of the elements `css` finds.
async fn texts(app: &Harness, css: &str) -> anyhow::Result<Vec<String>> {
    let mut texts = Vec::new();
    for element in app.driver.find_all(thirtyfour::By::Css(css)).await? {
        texts.push(element.text().await?);
    }
    Ok(texts)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_contract_safe_plan_waits_for_every_rental_and_ends_offers_first() -> anyhow::Result<()> {
    let app = Harness::start("rolling_contract_safe").await?;
    // The first 12 of alice's machines from 1001 whose rentals all have an end date
    // (rentals ending in hours, days and weeks; unlisted machines whose rentals still run;
    // vacant listed ones), and 1002, whose rentals have none.
    let (first, last) = (1001, 1040);
    let rentals = rentals_end(&app, first, last).await?;
    let endless = |id: i64| rentals.iter().any(|r| r.0 == id && r.2);
    assert!(endless(1002));
    let planned: Vec<i64> = (first..=last).filter(|&id| !endless(id)).take(12).collect();
    for (id, what) in [
        (1001, "rentals end in hours"),
        (1004, "unlisted, rented"),
        (1007, "vacant, offer ending in 4 days"),
        (1011, "vacant, open-ended"),
    ] {
        assert!(
            planned.contains(&id),
            "{id} ({what}) is planned: {planned:?}"
        );
    }
    let mut asked = planned.clone();
    asked.push(1002);
    let ids = asked
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let planned_ends: Vec<f64> = rentals
        .iter()
        .filter(|r| planned.contains(&r.0))
        .filter_map(|r| r.1)
        .collect();
    let mut distinct: Vec<i64> = planned_ends.iter().map(|&e| e as i64).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() >= 6,
        "rentals ending at different times: {rentals:?}"
    );
    let latest_end = planned_ends.iter().copied().fold(0.0, f64::max);
    let before = windows_of(&app, first, last).await?;

    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.open("/machines/rolling").await?;
    app.find(".rolling-form").await?;
    // Contract-safe is the default, with the hosting guide's words beside it.
    assert!(
        app.find("input[name=rolling-mode][value=contract-safe]")
            .await?
            .is_selected()
            .await?
    );
    let mode = app.find(".mode-choice").await?.text().await?;
    assert!(
        mode.contains("a notification, not an action. It does not stop instances, unlist the machine, or block new rentals."),
        "{mode}"
    );

    // Two days after the last rental ends leaves room for every window.
    let from = tomorrow_on_the_hour();
    let until = latest_end.max(from) + 2.0 * 86_400.0;
    plan(&app, "contract-safe", &ids, (from, until), "2", "3").await?;
    app.wait_for_exact_text("[data-testid=planned-count]", "12")
        .await?;
    assert!(app.address().await?.contains("mode=contract-safe"));
    let unfit = app.find("[data-testid=plan-unfit]").await?.text().await?;
    assert!(
        unfit.contains("1 machine does not fit")
            && unfit.contains("Machine 1002: a rental has no end date"),
        "{unfit}"
    );
    // The preview names each offer change: 1004 is not listed; every listed machine's end
    // date is set, 1007's too, though it reads as ending in 4 days, and 1010's rolling one;
    // 1011's (open-ended, vacant) ends at its window.
    let changes = texts(&app, "[data-testid=offer-changes] li").await?;
    assert_eq!(changes.len(), 12, "{changes:?}");
    let said = |id: i64| {
        changes
            .iter()
            .find(|c| c.starts_with(&format!("Machine {id}:")))
            .cloned()
            .unwrap_or_default()
    };
    assert!(said(1004).contains("Not listed"), "{changes:?}");
    assert!(
        said(1011).contains("The offer has no end date; it will end at"),
        "{changes:?}"
    );
    assert!(said(1007).contains("reads as ending at"), "{changes:?}");
    assert!(said(1001).contains("may be extended"), "{changes:?}");
    let offers_to_end = changes.iter().filter(|c| !c.contains("Not listed")).count();
    assert!(offers_to_end >= 4, "{changes:?}");
    let why = app
        .find("[data-testid=offer-changes]")
        .await?
        .text()
        .await?;
    assert!(
        why.contains("rolling offers renew daily; the end date is set so that no new rental crosses the window"),
        "{why}"
    );

    app.check_look("rolling-contract-safe").await?;

    let dialog = schedule(&app).await?;
    assert!(
        dialog.contains(&format!(
            "First, {offers_to_end} machines' offers end no later than their windows' start"
        )),
        "{dialog}"
    );
    assert!(
        dialog.contains(&format!("{offers_to_end} offers: about")),
        "{dialog}"
    );
    assert!(dialog.contains("12 windows of 2 hours"), "{dialog}");
    app.wait_for_text_within(
        "[data-testid=plan-done]",
        "All 12 windows are scheduled",
        Duration::from_secs(240),
    )
    .await?;
    assert!(!shows_an_error(&app).await?);
    let offer_results = texts(&app, "[data-testid=offer-results] li").await?;
    // The rolling offer reads like a fixed one: its end date is set like every other.
    let rolling = demo::ROLLING_MACHINE;
    assert!(planned.contains(&rolling), "{planned:?}");
    assert!(said(rolling).contains("reads as ending at"), "{changes:?}");
    assert_eq!(offer_results.len(), offers_to_end, "{offer_results:?}");
    assert!(
        offer_results
            .iter()
            .any(|r| r.starts_with(&format!("Machine {rolling}: offer now ends at"))),
        "{offer_results:?}"
    );
    assert!(offer_results
        .iter()
        .all(|r| r.contains("offer now ends at")));
    app.check_look("rolling-contract-safe-done").await?;

    // The database: one new window per planned machine, none before its rentals end, no
    // instant with more than 3 down, and every listed machine's offer ending by its window.
    let after = windows_of(&app, first, last).await?;
    let new: Vec<_> = after
        .iter()
        .filter(|w| !before.contains(w))
        .copied()
        .collect();
    let mut machines: Vec<i64> = new.iter().map(|w| w.0).collect();
    machines.sort_unstable();
    assert_eq!(machines, planned, "{new:?}");
    let spans: Vec<(f64, f64)> = new.iter().map(|w| (w.1, w.2)).collect();
    assert!(peak(&spans) <= 3, "{spans:?}");
    // Each rented planned machine's latest rental end, and each planned machine's offer
    // that is up: the lists the windows are checked against, held to what the plan was
    // made from before any window is, so that no check is skipped for want of a row.
    let rental_ends: BTreeMap<i64, Option<f64>> = rentals_end(&app, first, last)
        .await?
        .into_iter()
        .filter(|r| planned.contains(&r.0))
        .map(|r| (r.0, r.1))
        .collect();
    let rented: Vec<i64> = planned
        .iter()
        .copied()
        .filter(|id| rentals.iter().any(|r| r.0 == *id))
        .collect();
    assert_eq!(
        rental_ends.keys().copied().collect::<Vec<_>>(),
        rented,
        "the planned machines' rentals"
    );
    assert!(
        rented.contains(&1001) && rented.contains(&1004),
        "{rented:?}"
    );
    let offers = offers_of(&app, first, last).await?;
    let listed: BTreeMap<i64, (Option<f64>, Option<f64>)> = offers
        .iter()
        .filter(|o| planned.contains(&o.0) && o.3)
        .map(|o| (o.0, (o.1, o.2)))
        .collect();
    let offers_ended: Vec<i64> = offer_results
        .iter()
        .filter_map(|r| r.strip_prefix("Machine ")?.split(':').next()?.parse().ok())
        .collect();
    assert_eq!(offers_ended.len(), offer_results.len(), "{offer_results:?}");
    for id in &offers_ended {
        assert!(
            listed.contains_key(id),
            "machine {id}'s offer is not up: {offers:?}"
        );
    }
    assert!(
        !listed.contains_key(&1004),
        "1004 is not listed: {offers:?}"
    );
    for &(machine, start, end, _) in &new {
        assert!(start >= from && end <= until);
        if let Some(rental_end) = rental_ends.get(&machine) {
            let rental_end = rental_end.expect("a planned machine's rentals end");
            assert!(
                start >= rental_end,
                "machine {machine}: window at {start}, rentals end at {rental_end}"
            );
        }
        if let Some(&(end_date, duration)) = listed.get(&machine) {
            assert_eq!(duration, None, "machine {machine}'s offer still rolls");
            let end_date = end_date.expect("a listed machine's offer ends");
            assert!(
                end_date <= start,
                "machine {machine}: offer ends at {end_date}, window at {start}"
            );
        }
    }
    // 1002 kept its offer and got no window.
    assert!(offers.iter().any(|o| o.0 == 1002 && o.1.is_none() && o.3));
    app.finish().await
}

/// A contract made after the plan is shown and before it is sent (spec §1.3 rule 10): 1007,
/// vacant when the plan was made, is rented for 20 days in the database meanwhile. The run
/// reads each start's machines again just before sending them: 1007 is held back and said
/// so, with neither its offer nor its window touched; 1011 is scheduled.
#[tokio::test(flavor = "multi_thread")]
async fn a_machine_rented_after_the_plan_was_shown_is_held_back() -> anyhow::Result<()> {
    let app = Harness::start("rolling_rented_since").await?;
    let (rented, vacant) = (1007, 1011);
    for id in [rented, vacant] {
        assert!(
            rentals_end(&app, id, id).await?.is_empty(),
            "{id} is vacant when planned"
        );
    }
    let offers_before = offers_of(&app, rented, rented).await?;
    let before = windows_of(&app, rented, vacant).await?;

    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    app.open("/machines/rolling").await?;
    app.find(".rolling-form").await?;
    let from = tomorrow_on_the_hour();
    let ids = format!("{rented},{vacant}");
    plan(
        &app,
        "contract-safe",
        &ids,
        (from, from + 86_400.0),
        "2",
        "1",
    )
    .await?;
    app.wait_for_exact_text("[data-testid=planned-count]", "2")
        .await?;

    // A renter takes 1007 for 20 days, at its offer's prices, while the plan is shown.
    let ends = now() + 20.0 * 86_400.0;
    app.db_execute(
        "INSERT INTO contracts (machine_id, renter_id, slot_start, gpu_count, kind, price_gpu,
             price_disk, price_inetu, price_inetd, end_date)
         SELECT machine_id, ?2, 0, 1, 'D', price_gpu, price_disk, price_inetu, price_inetd, ?3
         FROM offers WHERE machine_id = ?1",
        (rented, demo::GUSTAV_ID, ends),
    )
    .await?;
    assert_eq!(rentals_end(&app, rented, rented).await?.len(), 1);

    let dialog = schedule(&app).await?;
    assert!(
        dialog.contains("read again just before they are sent"),
        "{dialog}"
    );
    let held = app
        .wait_for_text_within(
            "[data-testid=held-back] li",
            "rented since the plan was made",
            Duration::from_secs(120),
        )
        .await?;
    assert!(
        held.starts_with("Machine 1007: rented since the plan was made; its rentals now end at ")
            && held.ends_with("; plan it again"),
        "{held}"
    );
    let results = texts(&app, "[data-testid=plan-result] li").await?;
    assert!(
        results
            .iter()
            .any(|r| r.starts_with("Machine 1011: scheduled")),
        "{results:?}"
    );
    assert!(
        !results
            .iter()
            .any(|r| r.starts_with("Machine 1007: offer")
                || r.starts_with("Machine 1007: scheduled")),
        "{results:?}"
    );
    assert!(app
        .driver
        .find_all(thirtyfour::By::Css(".error-panel"))
        .await?
        .is_empty());

    // The database: a new window on 1011 only, and 1007's offer as it was.
    let after = windows_of(&app, rented, vacant).await?;
    let new: Vec<i64> = after
        .iter()
        .filter(|w| !before.contains(w))
        .map(|w| w.0)
        .collect();
    assert_eq!(new, [vacant], "{after:?}");
    assert_eq!(offers_of(&app, rented, rented).await?, offers_before);
    app.finish().await
}
