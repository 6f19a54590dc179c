//! The accounts and team area in the real console against the demo server: deleting
//! templates, accepting volume asks, subaccounts with masked keys, the roles and
//! the members filtered by role.

use gpudeck_e2e::{demo, By, Harness, PATIENCE};
use std::time::Duration;
use thirtyfour::extensions::cdp::ChromeDevTools;
use thirtyfour::prelude::ElementQueryable;

/// Starts the harness, opens `path` and signs in as alice on the way.
async fn signed_in_at(name: &'static str, path: &str) -> anyhow::Result<Harness> {
    Harness::start_signed_in(name, path, demo::ALICE_KEY).await
}

/// Submits the page's id form and confirms in the dialog.
async fn submit_and_confirm(app: &Harness) -> anyhow::Result<()> {
    app.click("form.narrow-form button[type=submit]").await?;
    app.click("dialog[open] .confirm-actions button:last-child")
        .await
}

/// How many table rows are rendered (the windowing spacers left out).
async fn row_count(app: &Harness) -> anyhow::Result<u64> {
    let count = app
        .eval("return document.querySelectorAll('tbody tr:not(.spacer)').length")
        .await?;
    Ok(count.as_u64().unwrap_or_default())
}

async fn wait_for_rows(app: &Harness, expected: u64) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let rows = row_count(app).await?;
        if rows == expected {
            return Ok(());
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "{rows} rows, not {expected}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_free_template_is_deleted_and_is_gone_on_a_second_attempt() -> anyhow::Result<()> {
    let app = signed_in_at("templates_delete_free", "/templates").await?;
    let id = demo::TEMPLATE_FREE.to_string();
    app.fill("#template-id", &id).await?;
    submit_and_confirm(&app).await?;
    app.wait_for_text(
        "[data-testid=template-result]",
        &format!("Template {id} deleted"),
    )
    .await?;
    app.wait_for_text("[data-testid=recently-deleted]", &id)
        .await?;
    assert_eq!(app.value_of("#template-id").await?, "");

    app.fill("#template-id", &id).await?;
    submit_and_confirm(&app).await?;
    app.wait_for_text("#template-id-error", &format!("template {id} not found"))
        .await?;
    assert_eq!(app.value_of("#template-id").await?, id);
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn deleting_a_template_in_use_is_refused_next_to_the_form() -> anyhow::Result<()> {
    let app = signed_in_at("templates_in_use", "/templates").await?;
    let id = demo::TEMPLATE_IN_USE.to_string();
    app.fill("#template-id", &id).await?;
    submit_and_confirm(&app).await?;
    let shown = app
        .wait_for_text("#template-id-error", "in use by 2 other users")
        .await?;
    assert!(shown.contains("it was not deleted"), "{shown}");
    assert_eq!(app.value_of("#template-id").await?, id);
    let invalid = app.find("#template-id").await?.attr("aria-invalid").await?;
    assert_eq!(invalid.as_deref(), Some("true"));
    assert!(app
        .driver
        .query(By::Css("[data-testid=template-result]"))
        .nowait()
        .first_opt()
        .await?
        .is_none());
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn accepting_a_volume_ask_shows_the_new_volume_name() -> anyhow::Result<()> {
    let app = signed_in_at("volumes_accept", "/volumes").await?;
    app.fill("#volume-ask-id", &demo::ASK_500_FREE.to_string())
        .await?;
    app.fill("#volume-size", "20").await?;
    submit_and_confirm(&app).await?;
    let name = app.wait_for_text("[data-testid=volume-name]", "V.").await?;
    assert_eq!(name, "V.20118484");
    app.wait_for_text("[data-testid=volume-result]", "-v V.20118484:/data")
        .await?;
    app.wait_for_text(".toasts", "Volume V.20118484 created")
        .await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oversized_volume_is_refused_with_the_capacity_left() -> anyhow::Result<()> {
    // A search for 100 GB leaves ask 7 out, so the console cannot check its capacity
    // itself and the server's refusal is what shows.
    let app = signed_in_at("volumes_oversized", "/volumes?size=100").await?;
    app.find(".offer-search tbody tr:not(.spacer)").await?;
    app.fill("#volume-ask-id", &demo::ASK_30_LEFT.to_string())
        .await?;
    app.fill("#volume-size", "50").await?;
    submit_and_confirm(&app).await?;
    app.wait_for_text(
        "#volume-size-error",
        "volume ask 7 has 30 GB left; 50 GB asked",
    )
    .await?;
    assert_eq!(app.value_of("#volume-size").await?, "50");
    assert!(app
        .driver
        .query(By::Css("[data-testid=volume-name]"))
        .nowait()
        .first_opt()
        .await?
        .is_none());
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn subaccounts_show_masked_keys_and_one_can_be_copied() -> anyhow::Result<()> {
    let app = signed_in_at("subaccounts_masked_copy", "/subaccounts").await?;
    // Headless Chromium grants no clipboard access by itself.
    let origin = app.url("");
    ChromeDevTools::new(app.driver.handle.clone())
        .execute_cdp_with_params(
            "Browser.grantPermissions",
            serde_json::json!({
                "origin": origin.trim_end_matches('/'),
                "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
            }),
        )
        .await?;
    wait_for_rows(&app, demo::ALICE_SUBACCOUNTS.len() as u64).await?;
    app.wait_for_exact_text(".server-message", "4 subaccounts")
        .await?;
    app.wait_for_text("tbody", "$1,200.75").await?;
    app.wait_for_text("tbody", "<b>sub</b>@alice.example")
        .await?;

    let masked = app
        .eval("return [...document.querySelectorAll('tbody .key-text')].map(k => k.textContent)")
        .await?;
    let masked: Vec<String> = serde_json::from_value(masked)?;
    assert_eq!(masked.len(), 4);
    for key in &masked {
        assert!(
            key.chars().count() == 16 && key.contains("••••••••"),
            "{key}"
        );
    }

    // Copy the first key, then reveal it to compare with the clipboard.
    app.click("tbody tr:not(.spacer) .copy button").await?;
    let status = app
        .wait_for_text_where(
            "tbody .copy-status",
            "\"Copied\" or \"Press Ctrl+C to copy\"",
            PATIENCE,
            |shown| shown == "Copied" || shown == "Press Ctrl+C to copy",
        )
        .await?;
    app.click("tbody tr:not(.spacer) button.reveal").await?;
    let full = app
        .find("tbody .key-text[data-revealed=true]")
        .await?
        .text()
        .await?;
    assert_eq!(full.len(), 64, "the derived key is 64 hex digits: {full}");
    assert!(full.starts_with(&masked[0][..4]) && full.ends_with(&masked[0][masked[0].len() - 4..]));
    if status == "Copied" {
        let copied = app
            .driver
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 navigator.clipboard.readText().then(done, (e) => done('unreadable: ' + e));",
                vec![],
            )
            .await?;
        assert_eq!(copied.json().as_str(), Some(full.as_str()));
    } else {
        assert_eq!(status, "Press Ctrl+C to copy");
        assert_eq!(app.value_of("tbody .copy-fallback").await?, full);
    }
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn each_role_opens_with_its_permissions_from_the_list_of_roles() -> anyhow::Result<()> {
    let app = signed_in_at("team_roles_defaults", "/team/roles/owner").await?;
    app.wait_for_text("[data-testid=role-name]", "owner")
        .await?;
    app.find("[data-testid=permission-grid]").await?;
    let granted = "return document.querySelectorAll('.permission-grid td.granted').length";
    assert_eq!(app.eval(granted).await?, 11);
    app.wait_for_text(".route-permissions", "api.team.delete")
        .await?;
    app.click(".role-header button").await?;
    app.wait_for_address("/team/roles/owner?view=json").await?;
    app.wait_for_text("pre.raw-json", "\"team_write\": {}")
        .await?;
    app.click(".role-header button").await?;
    app.wait_for_address("/team/roles/owner").await?;
    app.find("[data-testid=permission-grid]").await?;

    // The other roles are one click away in the list of every role.
    app.click(".role-links a[href='/team/roles']").await?;
    app.click("tr[data-key=manager] a[href='/team/roles/manager']")
        .await?;
    app.wait_for_address("/team/roles/manager").await?;
    app.wait_for_text("[data-testid=role-name]", "manager")
        .await?;
    assert_eq!(app.eval(granted).await?, 11);

    app.click(".role-links a[href='/team/roles']").await?;
    app.click("tr[data-key=member] a[href='/team/roles/member']")
        .await?;
    app.wait_for_address("/team/roles/member").await?;
    app.wait_for_text("[data-testid=role-name]", "member")
        .await?;
    assert_eq!(app.eval(granted).await?, 2);
    app.wait_for_text(".route-permissions", "id = 1227").await?;
    let machine_write = app.find("td[data-group=machine_write]").await?;
    assert_eq!(
        machine_write.attr("class").await?.as_deref(),
        Some("not-granted")
    );
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn members_are_filtered_by_role() -> anyhow::Result<()> {
    let app = signed_in_at("team_members_by_role", "/team/members").await?;
    wait_for_rows(&app, 4).await?;
    let counts = app.wait_for_member_count(4).await?;
    let per_role: Vec<&str> = counts
        .split(" — ")
        .nth(1)
        .unwrap_or_default()
        .split(" · ")
        .collect();
    for expected in ["owner 1", "manager 2", "member 2"] {
        assert!(per_role.contains(&expected), "{counts}");
    }
    app.driver
        .query(By::XPath(
            "//button[contains(@class, 'role-chip')][starts-with(normalize-space(.), 'manager')]",
        ))
        .first()
        .await?
        .click()
        .await?;
    app.wait_for_address("/team/members?role=manager").await?;
    wait_for_rows(&app, 2).await?;
    let usernames = app
        .eval("return [...document.querySelectorAll('tbody tr:not(.spacer) td:first-child')].map(td => td.textContent).sort()")
        .await?;
    assert_eq!(usernames, serde_json::json!(["dave", "frank"]));
    let pressed = app
        .find(".role-chip[aria-pressed=true]")
        .await?
        .text()
        .await?;
    assert!(pressed.starts_with("manager"), "{pressed}");

    // A role chip in a row opens that role.
    app.click("tbody a.role-link[href='/team/roles/manager']")
        .await?;
    app.wait_for_address("/team/roles/manager").await?;
    app.wait_for_text("[data-testid=role-name]", "manager")
        .await?;
    app.driver.back().await?;
    app.wait_for_address("/team/members?role=manager").await?;
    wait_for_rows(&app, 2).await?;
    app.finish().await
}
