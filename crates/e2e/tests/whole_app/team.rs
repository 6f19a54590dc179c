//! The team area in the real console against the demo server: a role copied, edited,
//! given, refused deletion while held and deleted; invitations and removing a member;
//! a second key in the same tab and switching between the accounts.

use gpudeck_e2e::{demo, Harness, PATIENCE};
use std::time::Duration;

/// Starts the harness, opens `path` and signs in as alice on the way.
async fn signed_in_at(name: &'static str, path: &str) -> anyhow::Result<Harness> {
    Harness::start_signed_in(name, path, demo::ALICE_KEY).await
}

/// Confirms the open dialog.
async fn confirm(app: &Harness) -> anyhow::Result<()> {
    app.click("dialog[open] .confirm-actions button:last-child")
        .await
}

/// Picks `value` in the select matching `css`, as a person choosing it would.
async fn choose(app: &Harness, css: &str, value: &str) -> anyhow::Result<()> {
    app.find(css).await?;
    let script = format!(
        "const s = document.querySelector({css:?}); s.value = {value:?}; s.dispatchEvent(new Event('change', {{bubbles: true}}));"
    );
    app.eval(&script).await?;
    Ok(())
}

/// Waits until nothing matches `css`.
async fn wait_until_gone(app: &Harness, css: &str) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let script = format!("return document.querySelector({css:?}) === null");
    while app.eval(&script).await? != true {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "{css} is still there"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_copied_role_is_edited_given_refused_deletion_while_held_and_deleted(
) -> anyhow::Result<()> {
    let app = signed_in_at("team_role_lifecycle", "/team/roles").await?;
    app.wait_for_text("tr[data-key=manager]", "dave").await?;

    // Copy member into a new role, narrow its route and add a group.
    app.click("tr[data-key=member] a[href='/team/new-role?from=member']")
        .await?;
    app.wait_for_address("/team/new-role?from=member").await?;
    app.find("#group-team_read").await?;
    assert_eq!(app.value_of("#role-name-input").await?, "member copy");
    app.fill("#role-name-input", "Auditor").await?;
    app.click("#group-team_read").await?;
    app.fill(".constraint-row input[id$='-value']", "1300")
        .await?;
    app.click("form.role-form button[type=submit]").await?;
    let diff = app
        .wait_for_text("[data-testid=role-diff]", "Creates the role Auditor")
        .await?;
    assert!(diff.contains("Adds team_read"), "{diff}");
    assert!(
        diff.contains("Constraints of api.instance.request_logs: id = 1227 → id = 1300"),
        "{diff}"
    );
    app.check_look("role-diff-dialog").await?;
    confirm(&app).await?;
    app.wait_for_address("/team/roles/Auditor").await?;
    app.wait_for_text("[data-testid=role-name]", "Auditor")
        .await?;
    app.wait_for_text(
        "[data-testid=role-summary]",
        "see the team's roles and members",
    )
    .await?;

    // Edit it: one more group, seen in the diff before saving.
    app.click(".role-header a[href='/team/roles/Auditor/edit']")
        .await?;
    app.find("#group-misc").await?;
    app.click("#group-misc").await?;
    app.click("form.role-form button[type=submit]").await?;
    let diff = app
        .wait_for_text("[data-testid=role-diff]", "Adds misc")
        .await?;
    assert!(!diff.contains("Renamed"), "{diff}");
    confirm(&app).await?;
    app.wait_for_address("/team/roles/Auditor").await?;
    app.wait_for_text("td[data-group=misc]", "granted").await?;

    // Give it to carol (her single role is replaced).
    app.open("/team/members").await?;
    choose(&app, "#member-3-role", "Auditor").await?;
    app.click("#member-3-role + button").await?;
    app.wait_for_text("dialog[open]", "Replace carol's role with Auditor")
        .await?;
    confirm(&app).await?;
    app.wait_for_text_where(
        "[data-testid=role-counts]",
        "\"Auditor 1\" among the roles",
        PATIENCE,
        |shown| {
            let per_role = shown.split(" — ").nth(1).unwrap_or_default();
            per_role.split(" · ").any(|count| count == "Auditor 1")
        },
    )
    .await?;

    // Deleting it is refused while carol holds it, and the page says so.
    app.open("/team/roles").await?;
    app.click("tr[data-key=Auditor] button.delete-role").await?;
    app.wait_for_text("dialog[open]", "It is held by carol")
        .await?;
    confirm(&app).await?;
    let refusal = app
        .wait_for_text("[data-testid=role-refusal]", "Auditor is held by: carol.")
        .await?;
    assert!(refusal.contains("Cannot delete role"), "{refusal}");

    // Remove carol, then the role goes.
    app.open("/team/members").await?;
    app.click("button.remove-member[aria-label='Remove carol from the team']")
        .await?;
    app.wait_for_text("dialog[open]", "carol leaves the team")
        .await?;
    confirm(&app).await?;
    app.wait_for_member_count(3).await?;
    app.open("/team/roles").await?;
    app.click("tr[data-key=Auditor] button.delete-role").await?;
    confirm(&app).await?;
    wait_until_gone(&app, "tr[data-key=Auditor]").await?;
    app.wait_for_text(".toast.success", "Auditor").await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invitation_is_checked_sent_and_listed_and_a_member_is_removed() -> anyhow::Result<()> {
    let app = signed_in_at("team_invite_and_remove", "/team/members").await?;
    app.wait_for_text("[data-testid=invitations]", demo::PENDING_INVITE_EMAIL)
        .await?;
    // The owner role is never offered; the owner and yourself cannot be removed.
    let offered = app
        .eval("return [...document.querySelectorAll('#invite-role option')].map(o => o.value)")
        .await?;
    assert!(!offered.to_string().contains("owner"), "{offered}");
    app.wait_for_text("tbody tr:not(.spacer)", "Owner").await?;

    app.fill("#invite-email", "erik@example").await?;
    app.click("form.invite-form button[type=submit]").await?;
    app.wait_for_text("#invite-email-error", "not an e-mail address")
        .await?;
    app.fill("#invite-email", "erik@example.org").await?;
    choose(&app, "#invite-role", "member").await?;
    app.click("form.invite-form button[type=submit]").await?;
    app.wait_for_text("dialog[open]", "erik@example.org is invited")
        .await?;
    confirm(&app).await?;
    let pending = app
        .wait_for_text("[data-testid=invitations]", "erik@example.org")
        .await?;
    assert!(pending.contains("expires"), "{pending}");

    app.click("button.remove-member[aria-label='Remove frank from the team']")
        .await?;
    app.wait_for_text("dialog[open]", "frank leaves the team")
        .await?;
    confirm(&app).await?;
    app.wait_for_member_count(3).await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_key_in_the_same_tab_acts_after_a_switch_and_back() -> anyhow::Result<()> {
    let app = signed_in_at("team_acting_account", "/team/members").await?;
    app.wait_for_text("[data-testid=identity] .identity-name", "alice")
        .await?;
    app.wait_for_text("[data-testid=identity]", "Acting as")
        .await?;
    app.click(".switch-link").await?;
    app.wait_for_address("/acting-account").await?;

    // A refused key is not kept; dave's team key is.
    app.fill("#extra-api-key", "not-a-key-anyone-has").await?;
    app.click("form.add-key button[type=submit]").await?;
    app.wait_for_text("#extra-api-key-error", "not kept")
        .await?;
    app.fill("#extra-api-key", demo::DAVE_TEAM_KEY).await?;
    app.click("form.add-key button[type=submit]").await?;
    app.wait_for_text("[data-testid=kept-keys]", "dave (dave@")
        .await?;
    let stored = app
        .eval("return JSON.stringify(localStorage) + location.href")
        .await?;
    assert!(
        !stored.to_string().contains(demo::DAVE_TEAM_KEY),
        "a key left the tab's storage"
    );

    // Switch to dave: every page now acts as dave.
    app.click("[data-testid=kept-keys] button.switch-account")
        .await?;
    app.wait_for_text("[data-testid=identity] .identity-name", "dave")
        .await?;
    app.wait_for_text("[data-testid=acting-now]", "dave")
        .await?;
    app.open("/team/members").await?;
    app.wait_for_member_count(4).await?;
    app.wait_for_text("[data-testid=identity]", "dave").await?;
    // dave is "you" now: no remove button for him.
    app.wait_for_text("tbody", "You").await?;

    // A key without team_read sees the team pages say so, and offers the switch back.
    app.open("/acting-account").await?;
    app.fill("#extra-api-key", demo::CAROL_TEAM_KEY).await?;
    app.click("form.add-key button[type=submit]").await?;
    app.wait_for_text("[data-testid=kept-keys]", "carol")
        .await?;
    app.click("[data-testid=kept-keys] li:last-child button.switch-account")
        .await?;
    app.wait_for_text("[data-testid=identity] .identity-name", "carol")
        .await?;
    // The members page: its three reads are refused, said once, and nothing is offered.
    app.open("/team/members").await?;
    app.wait_for_text("[data-testid=team-out-of-reach]", "team_read")
        .await?;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let shown = app
        .eval(
            "return [document.querySelectorAll('[data-testid=team-out-of-reach]').length, \
             document.querySelectorAll('.error-panel, .invite-form, .pending-invitations').length]",
        )
        .await?;
    assert_eq!(
        shown,
        serde_json::json!([1, 0]),
        "one notice, no panel, no form"
    );
    app.open("/team/roles").await?;
    app.wait_for_text("[data-testid=team-out-of-reach]", "team_read")
        .await?;
    app.wait_for_text("[data-testid=team-out-of-reach]", "Act as alice")
        .await?;
    app.check_look("team-out-of-reach").await?;
    app.click("[data-testid=team-out-of-reach] li:first-child button.switch-account")
        .await?;
    app.wait_for_text("[data-testid=identity] .identity-name", "alice")
        .await?;
    app.wait_for_text("tr[data-key=manager]", "dave").await?;
    app.finish().await
}

/// A kept key the server stops accepting (N18 revokes a removed member's team keys) gives
/// way to the next kept key: checked at `users/current`, forgotten, and said so, while the
/// person stays signed in.
#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_team_key_gives_way_to_the_next_kept_key() -> anyhow::Result<()> {
    let app = signed_in_at("team_revoked_key", "/acting-account").await?;
    app.fill("#extra-api-key", demo::DAVE_TEAM_KEY).await?;
    app.click("form.add-key button[type=submit]").await?;
    app.wait_for_text("[data-testid=kept-keys]", "dave (dave@")
        .await?;

    // Acting as alice, the owner removes dave: his team key is revoked at once.
    app.open("/team/members").await?;
    app.click("button.remove-member[aria-label='Remove dave from the team']")
        .await?;
    app.wait_for_text("dialog[open]", "dave leaves the team")
        .await?;
    confirm(&app).await?;
    app.wait_for_member_count(3).await?;

    // Switching to the revoked key: refused, forgotten, and alice acts again.
    app.open("/acting-account").await?;
    app.click("[data-testid=kept-keys] button.switch-account")
        .await?;
    app.wait_for_text(".toast-text", "no longer accepts the key acting as dave")
        .await?;
    app.wait_for_text("[data-testid=identity] .identity-name", "alice")
        .await?;
    app.wait_for_address("/acting-account").await?;
    let stored = app.eval("return JSON.stringify(sessionStorage)").await?;
    assert!(
        !stored.to_string().contains(demo::DAVE_TEAM_KEY),
        "the revoked key is still kept"
    );
    assert!(stored.to_string().contains(demo::ALICE_KEY));
    app.finish().await
}
