//! The accounts area's lists in the real console against the demo server: an offer found,
//! accepted from its row, listed under My volumes and deleted; a template deleted from its
//! row; a subaccount created and listed with its masked key. The database is checked
//! after each change.

use gpudeck_e2e::{demo, Harness, PATIENCE};
use std::time::Duration;

/// The text of the first cell of each row shown in the table inside `section`.
async fn first_cells(app: &Harness, section: &str) -> anyhow::Result<Vec<String>> {
    let script = format!(
        "return [...document.querySelectorAll('{section} tbody tr:not(.spacer) td:first-child')].map(td => td.textContent)"
    );
    Ok(serde_json::from_value(app.eval(&script).await?)?)
}

/// Waits until the rows of the table in `section` satisfy `check`, and returns their
/// first cells.
async fn wait_for_rows(
    app: &Harness,
    section: &str,
    what: &str,
    check: impl Fn(&[String]) -> bool,
) -> anyhow::Result<Vec<String>> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let cells = first_cells(app, section).await?;
        if check(&cells) {
            return Ok(cells);
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "{section}: not {what}: {cells:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One integer from the demo database: `sql` with `id` as its one parameter.
async fn number_in_db(app: &Harness, sql: &'static str, id: i64) -> anyhow::Result<i64> {
    let rows = app.db_rows(sql, [id], |row| row.get::<_, i64>(0)).await?;
    rows.first()
        .copied()
        .ok_or_else(|| anyhow::anyhow!("{sql} selected no row for {id}"))
}

const CONFIRM: &str = "dialog[open] .confirm-actions button:last-child";

#[tokio::test(flavor = "multi_thread")]
async fn an_offer_is_found_accepted_from_its_row_listed_and_deleted() -> anyhow::Result<()> {
    let app =
        Harness::start_signed_in("volumes_offer_to_deletion", "/volumes", demo::ALICE_KEY).await?;
    wait_for_rows(&app, ".offer-search", "loaded", |c| !c.is_empty()).await?;
    wait_for_rows(&app, ".my-volumes", "alice's two volumes", |c| c.len() == 2).await?;

    // The search lives in the address: it survives a reload.
    app.fill("#offer-size", "25").await?;
    app.fill("#offer-max-price", "0.3").await?;
    app.click(".search-form button[type=submit]").await?;
    app.wait_for_address("/volumes?size=25&max_price=0.3")
        .await?;
    app.click("#offer-order option[value=price]").await?;
    app.wait_for_address("/volumes?size=25&max_price=0.3&order=price")
        .await?;
    app.driver.refresh().await?;
    app.find(".offer-search tbody tr:not(.spacer)").await?;
    assert_eq!(app.value_of("#offer-size").await?, "25");
    assert_eq!(app.value_of("#offer-max-price").await?, "0.3");
    assert_eq!(app.value_of("#offer-order").await?, "price");
    app.wait_for_text("[data-testid=offer-pricing]", "for the 25 GB wanted")
        .await?;
    let prices: Vec<String> = serde_json::from_value(
        app.eval(
            "return [...document.querySelectorAll('.offer-search tbody tr:not(.spacer) td:nth-child(5)')].map(td => td.textContent)",
        )
        .await?,
    )?;
    let prices: Vec<f64> = prices
        .iter()
        .map(|p| p.trim_start_matches('$').parse())
        .collect::<Result<_, _>>()?;
    assert!(!prices.is_empty());
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
    assert!(prices.iter().all(|&p| p <= 0.3), "{prices:?}");

    // Accept the cheapest from its row: the form is filled in with it and the size.
    app.click(".offer-search tbody tr:not(.spacer) button[aria-label^='Accept offer ']")
        .await?;
    let ask = app.value_of("#volume-ask-id").await?;
    assert_eq!(app.value_of("#volume-size").await?, "25");
    app.wait_for_text(
        "[data-testid=chosen-offer]",
        &format!("Offer {ask} on machine"),
    )
    .await?;
    app.fill("#volume-label", "scratch space").await?;
    app.click("form.narrow-form button[type=submit]").await?;
    app.wait_for_text("#volume-label-error", "not spaces")
        .await?;
    app.fill("#volume-label", "scratch_space").await?;
    app.click("form.narrow-form button[type=submit]").await?;
    app.wait_for_text("dialog[open]", "A 25 GB volume named scratch_space")
        .await?;
    app.click(CONFIRM).await?;
    let name = app.wait_for_text("[data-testid=volume-name]", "V.").await?;
    assert_eq!(name, "V.20118484");
    wait_for_rows(&app, ".my-volumes", "showing the new volume", |c| {
        c.iter().any(|cell| cell.contains("V.20118484"))
    })
    .await?;
    // Its size, the table's third column.
    app.wait_for_exact_text(
        ".my-volumes tbody tr[data-key='20118484'] td:nth-child(3)",
        "25",
    )
    .await?;
    assert_eq!(
        number_in_db(
            &app,
            "SELECT size FROM volumes WHERE id = ?1 AND deleted_at IS NULL",
            20118484
        )
        .await?,
        25
    );

    // A volume an instance uses is refused in plain words; the new one goes.
    app.click(".my-volumes button[aria-label='Delete volume V.20118470']")
        .await?;
    app.wait_for_text("dialog[open]", "Destroy that instance first")
        .await?;
    app.click(CONFIRM).await?;
    app.wait_for_text(
        "[data-testid=volume-refusal]",
        "V.20118470 is still used by instance 7001",
    )
    .await?;
    app.click(".my-volumes button[aria-label='Delete volume V.20118484']")
        .await?;
    app.wait_for_text("dialog[open]", "25 GB on machine")
        .await?;
    app.click(CONFIRM).await?;
    wait_for_rows(&app, ".my-volumes", "without the deleted volume", |c| {
        c.len() == 2 && !c.iter().any(|cell| cell.contains("V.20118484"))
    })
    .await?;
    assert_eq!(
        number_in_db(
            &app,
            "SELECT deleted_at IS NOT NULL FROM volumes WHERE id = ?1",
            20118484
        )
        .await?,
        1
    );
    app.finish().await
}

/// Deletes template `id` from its row, checking that the confirmation names it and
/// explains the in-use rule.
async fn delete_from_row(app: &Harness, id: i64, name: &str) -> anyhow::Result<()> {
    app.click(&format!(
        ".template-library button[aria-label^='Delete template {id} ']"
    ))
    .await?;
    app.wait_for_text(
        "[data-testid=delete-title]",
        &format!("Template {id} · {name}"),
    )
    .await?;
    app.wait_for_text("dialog[open]", "kept and the deletion is refused")
        .await?;
    app.click(CONFIRM).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_template_deleted_from_its_row_leaves_the_list() -> anyhow::Result<()> {
    let app =
        Harness::start_signed_in("templates_row_delete", "/templates", demo::ALICE_KEY).await?;
    // alice's active templates: 501–504 and 506.
    wait_for_rows(&app, ".template-library", "alice's five templates", |c| {
        c.len() == 5
    })
    .await?;

    // In use by other users: refused, named, and the row stays.
    let in_use = demo::TEMPLATE_IN_USE;
    delete_from_row(&app, in_use, "comfyui").await?;
    app.wait_for_text("[data-testid=template-refusal]", "in use by 2 other users")
        .await?;

    let id = demo::TEMPLATE_INACTIVE_USE;
    delete_from_row(&app, id, "old-jupyter").await?;
    let left = wait_for_rows(&app, ".template-library", "four templates", |c| {
        c.len() == 4
    })
    .await?;
    assert!(!left.iter().any(|name| name == "old-jupyter"), "{left:?}");
    assert!(left.iter().any(|name| name == "comfyui"), "{left:?}");
    app.wait_for_text("[data-testid=recently-deleted]", &id.to_string())
        .await?;
    let deleted = "SELECT deleted_at IS NOT NULL FROM templates WHERE id = ?1";
    assert_eq!(number_in_db(&app, deleted, id).await?, 1);
    assert_eq!(number_in_db(&app, deleted, in_use).await?, 0);
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_subaccount_is_listed_with_its_masked_key() -> anyhow::Result<()> {
    let app =
        Harness::start_signed_in("subaccounts_create", "/subaccounts", demo::ALICE_KEY).await?;
    let count = demo::ALICE_SUBACCOUNTS.len();
    wait_for_rows(&app, ".subaccounts", "alice's subaccounts", |c| {
        c.len() == count
    })
    .await?;

    // Checked before sending, each next to its field.
    app.fill("#sub-email", "not-an-address").await?;
    app.fill("#sub-password", "short").await?;
    app.click(".create-form button[type=submit]").await?;
    app.wait_for_text("#sub-email-error", "like name@example.com")
        .await?;
    app.wait_for_text("#sub-username-error", "Enter a username")
        .await?;
    app.wait_for_text("#sub-password-error", "at least 8")
        .await?;

    // Refused by the server: an e-mail already in use.
    app.fill("#sub-email", "Training@alice.example").await?;
    app.fill("#sub-username", "trainer").await?;
    app.fill("#sub-password", "correct horse battery").await?;
    app.click(".create-form button[type=submit]").await?;
    app.click(CONFIRM).await?;
    app.wait_for_text("#sub-email-error", "user already exists")
        .await?;

    app.fill("#sub-email", "render-two@alice.example").await?;
    app.click("input[name=sub-kind][value=host]").await?;
    app.click(".create-form button[type=submit]").await?;
    app.wait_for_text(
        "dialog[open]",
        "render-two@alice.example (trainer), a host account",
    )
    .await?;
    app.click(CONFIRM).await?;
    app.wait_for_text(
        "[data-testid=subaccount-result]",
        "render-two@alice.example created",
    )
    .await?;
    assert_eq!(app.value_of("#sub-password").await?, "");
    assert_eq!(app.value_of("#sub-email").await?, "");
    wait_for_rows(&app, ".subaccounts", "with the new one", |c| {
        c.len() == count + 1
    })
    .await?;
    let row = app
        .wait_for_text(".subaccounts tbody", "render-two@alice.example")
        .await?;
    let masked: Vec<String> = serde_json::from_value(
        app.eval("return [...document.querySelectorAll('.subaccounts tbody tr:not(.spacer)')].filter(r => r.textContent.includes('render-two@')).map(r => r.querySelector('.key-text').textContent)")
            .await?,
    )?;
    assert_eq!(masked.len(), 1, "{row}");
    assert!(
        masked[0].chars().count() == 16 && masked[0].contains("••••••••"),
        "{masked:?}"
    );
    let host_only =
        "SELECT host_only FROM users WHERE email = 'render-two@alice.example' AND parent_id = ?1";
    assert_eq!(number_in_db(&app, host_only, demo::ALICE_ID).await?, 1);

    // Each row's username and type, as the database holds them.
    let rows: Vec<(String, String, String)> = serde_json::from_value(
        app.eval(
            "const keys = [...document.querySelectorAll('.subaccounts thead th')].map(th => th.dataset.key);
             const cell = (r, key) => r.children[keys.indexOf(key)].textContent;
             return [...document.querySelectorAll('.subaccounts tbody tr:not(.spacer)')]
               .map(r => [cell(r, 'email'), cell(r, 'username'), cell(r, 'kind')]);",
        )
        .await?,
    )?;
    let in_db: Vec<(String, String, String)> = app
        .db_rows(
            "SELECT email, username, host_only FROM users WHERE parent_id = ?1 ORDER BY id",
            [demo::ALICE_ID],
            |row| {
                let host_only: bool = row.get(2)?;
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    if host_only { "Host" } else { "Client" }.to_owned(),
                ))
            },
        )
        .await?;
    assert_eq!(rows, in_db);
    assert!(rows.contains(&(
        "render-two@alice.example".into(),
        "trainer".into(),
        "Host".into()
    )));
    assert!(rows.iter().any(|r| r.2 == "Client"), "{rows:?}");
    app.finish().await
}
