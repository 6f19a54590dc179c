//! The Machines page's offer actions on 20 machines against a server that limits N22 and
//! N23 as the public service does: each keeps its operation's pace. A file of its own, as
//! it spends its minutes waiting on that pace (the whole-app suite runs it beside the
//! files that compute).

use gpudeck_e2e::offers::{minute_in_days, offers_between, open_offer_action, terms, times_in_utc};
use gpudeck_e2e::{demo, Config, Harness};
use gpudeck_server::limits::RefusalShape;
use std::time::Duration;

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
    app.click_found(&format!("the checkbox of machine {machine}"), || {
        checkbox(app, machine)
    })
    .await
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
