//! Sign-in, identity, sign-out and deep links, in the real console against the demo server.

use gpudeck_e2e::{demo, Harness, PageLoad, Throttle};
use thirtyfour::Key;

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_with_a_demo_key_shows_who_is_signed_in() -> anyhow::Result<()> {
    let app = Harness::start("sign_in_shows_identity").await?;
    app.open("/").await?;
    app.wait_for_address("/sign-in?next=%2F").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    let identity = app.wait_for_text("[data-testid=identity]", "alice").await?;
    assert!(identity.contains("user #1"), "{identity}");
    assert!(identity.contains("Acting as"), "{identity}");
    assert_eq!(
        app.find("[data-testid=key-scope]").await?.text().await?,
        "personal key"
    );
    assert!(identity.contains("$4,200.50"), "the balance: {identity}");
    app.wait_for_address("/machines").await?;
    assert_eq!(
        app.eval("return document.title").await?,
        "Machines · gpudeck"
    );
    let current = app.find("nav a[aria-current=page]").await?;
    let label = current.text().await?;
    assert!(label.starts_with("Machines"), "{label}");
    // Beside it, the machines needing attention: a number, and the same in words.
    let count = app
        .find("[data-testid=attention-count]")
        .await?
        .text()
        .await?;
    let (shown, said) = count.split_once('\n').unwrap_or_default();
    assert!(shown.parse::<usize>().is_ok_and(|n| n > 0), "{count:?}");
    assert_eq!(said, format!(", {shown} need attention"), "{count:?}");
    let stored = app
        .eval("return sessionStorage.getItem('gpudeck.session')")
        .await?;
    assert!(stored
        .as_str()
        .unwrap_or_default()
        .contains(demo::ALICE_KEY));
    let local = app.eval("return JSON.stringify(localStorage)").await?;
    assert!(!local.as_str().unwrap_or_default().contains(demo::ALICE_KEY));
    assert!(!app
        .driver
        .current_url()
        .await?
        .as_str()
        .contains(demo::ALICE_KEY));
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_key_shows_the_servers_message_and_stores_nothing() -> anyhow::Result<()> {
    let app = Harness::start("sign_in_wrong_key").await?;
    app.open("/sign-in").await?;
    app.sign_in("not-a-real-key").await?;
    let shown = app
        .wait_for_text("#api-key-error", "Invalid user key")
        .await?;
    assert!(shown.contains("401"), "{shown}");
    let stored = app.eval("return sessionStorage.length").await?;
    assert_eq!(stored, 0);
    assert!(app.address().await?.starts_with("/sign-in"));
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_out_returns_to_sign_in_and_forgets_the_key() -> anyhow::Result<()> {
    let app = Harness::start("sign_out").await?;
    app.open("/sign-in").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_text("[data-testid=identity]", "alice").await?;
    app.find("header button").await?.click().await?;
    app.find("#api-key").await?;
    assert!(app.address().await?.starts_with("/sign-in"));
    app.wait_for_text(".notice", "You signed out").await?;
    assert_eq!(
        app.eval("return document.title").await?,
        "Sign in · gpudeck"
    );
    let stored = app.eval("return sessionStorage.length").await?;
    assert_eq!(stored, 0);
    // Back in history the pages still need a session.
    app.driver.back().await?;
    app.find("#api-key").await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_deep_link_leads_through_sign_in_back_to_the_page() -> anyhow::Result<()> {
    let app = Harness::start("deep_link").await?;
    app.open("/team/roles/manager?view=grid").await?;
    app.wait_for_address("/sign-in?next=%2Fteam%2Froles%2Fmanager%3Fview%3Dgrid")
        .await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/team/roles/manager?view=grid")
        .await?;
    app.wait_for_text("main", "manager").await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_key_sends_the_user_through_sign_in_and_back() -> anyhow::Result<()> {
    let app = Harness::start("revoked_key").await?;
    app.open("/sign-in").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_text("[data-testid=identity]", "alice").await?;
    // The key stops working while the session is open.
    app.eval(
        "const s = JSON.parse(sessionStorage.getItem('gpudeck.session'));
         s.api_key = 'revoked-key'; sessionStorage.setItem('gpudeck.session', JSON.stringify(s));",
    )
    .await?;
    app.open("/volumes").await?;
    app.wait_for_text(".notice", "Invalid user key").await?;
    app.wait_for_address("/sign-in?next=%2Fvolumes").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/volumes").await?;
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_team_key_is_named_as_such_in_the_header_at_every_size() -> anyhow::Result<()> {
    let app =
        Harness::start_signed_in("team_key_in_header", "/machines", demo::CAROL_TEAM_KEY).await?;
    for viewport in gpudeck_e2e::VIEWPORTS {
        app.set_viewport(viewport).await?;
        let identity = app.wait_for_text("[data-testid=identity]", "carol").await?;
        let scope = app.find("[data-testid=key-scope]").await?;
        assert!(scope.is_displayed().await?, "at {viewport:?}");
        assert_eq!(
            scope.text().await?,
            "team key · Alice Compute",
            "at {viewport:?}"
        );
        assert!(
            identity.contains("Acting as"),
            "at {viewport:?}: {identity}"
        );
        assert!(
            app.find("header .switch-link")
                .await?
                .is_displayed()
                .await?,
            "the account switch at {viewport:?}"
        );
    }
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_console_says_so_and_offers_a_reload() -> anyhow::Result<()> {
    let app = Harness::start_signed_in("internal_error", "/machines", demo::ALICE_KEY).await?;
    app.find(".data-table").await?;
    // What a panic in the release build ends in: the wasm traps, and the trap reaches the
    // page as an uncaught RuntimeError (here as from a task). A rejection made by a script
    // WebDriver runs never reaches the page's listeners, so the event is dispatched.
    app.eval(
        "window.dispatchEvent(new PromiseRejectionEvent('unhandledrejection', \
         { promise: Promise.resolve(), reason: new WebAssembly.RuntimeError('unreachable') })); \
         return null",
    )
    .await?;
    app.wait_for_text(".internal-error[role=alert]", "internal error")
        .await?;
    app.click(".internal-error button").await?;
    app.wait_for_text("main h1", "Machines").await?;
    let notices = app
        .eval("return document.querySelectorAll('.internal-error').length")
        .await?;
    assert_eq!(notices, serde_json::json!(0), "the reloaded page is whole");
    app.finish().await
}

/// A network on which the page (a few KB) arrives at once and the console's code (some
/// 200 KB) takes seconds: long enough to type before it runs.
const SLOW_NETWORK: Throttle = Throttle {
    download_kbits: 320.0,
    upload_kbits: 320.0,
    round_trip_ms: 0.0,
    cpu_slowdown: 1.0,
};
/// The served form before the console has taken it over.
const SERVED_FORM: &str = "[data-served-sign-in]:not([data-live])";
const TAKEN_OVER: &str = "[data-served-sign-in][data-live]";

/// Opens /sign-in on [`SLOW_NETWORK`] and checks the served form is usable while the
/// console's code is still on its way.
async fn open_before_the_code(name: &'static str) -> anyhow::Result<Harness> {
    let app = Harness::start_with(name, PageLoad::Parsed).await?;
    SLOW_NETWORK.apply(&app.driver).await?;
    app.open("/sign-in").await?;
    let field = app.find(&format!("{SERVED_FORM} #api-key")).await?;
    anyhow::ensure!(
        field.is_displayed().await?,
        "the served key field is hidden"
    );
    anyhow::ensure!(
        field.is_enabled().await?,
        "the served key field is disabled"
    );
    Ok(app)
}

async fn taken_over(app: &Harness) -> anyhow::Result<bool> {
    Ok(app
        .eval(&format!(
            "return document.querySelector('{TAKEN_OVER}') !== null"
        ))
        .await?
        == true)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_enter_pressed_before_the_console_runs_still_signs_in() -> anyhow::Result<()> {
    let app = open_before_the_code("sign_in_early_enter").await?;
    let field = app.find("#api-key").await?;
    field.send_keys(demo::ALICE_KEY).await?;
    field.send_keys(Key::Enter).await?;
    anyhow::ensure!(
        !taken_over(&app).await?,
        "the console ran before Enter: the network is not slow enough for this test"
    );
    assert_eq!(
        app.eval(
            "return document.querySelector('[data-served-sign-in]').hasAttribute('data-submitted')"
        )
        .await?,
        true,
        "boot.js kept the early Enter"
    );
    assert_eq!(
        app.find(".sign-in form button").await?.text().await?,
        "Signing in…"
    );
    app.wait_for_address("/machines").await?;
    app.wait_for_text("[data-testid=identity]", "alice").await?;
    assert_eq!(
        app.eval("return document.querySelectorAll('#api-key').length")
            .await?,
        0
    );
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn what_was_typed_before_the_console_runs_is_kept() -> anyhow::Result<()> {
    let app = open_before_the_code("sign_in_typed_early").await?;
    let field = app.find("#api-key").await?;
    field.send_keys(demo::ALICE_KEY).await?;
    anyhow::ensure!(
        !taken_over(&app).await?,
        "the console ran before the key was typed: the network is not slow enough"
    );
    app.find(TAKEN_OVER).await?;
    assert_eq!(app.value_of("#api-key").await?, demo::ALICE_KEY);
    assert_eq!(
        app.eval("return document.querySelectorAll('#api-key').length")
            .await?,
        1
    );
    assert_eq!(
        app.eval("return document.activeElement.id").await?,
        "api-key",
        "the field keeps the focus"
    );
    assert!(
        app.address().await?.starts_with("/sign-in"),
        "nothing was sent before Enter"
    );
    app.find("#api-key").await?.send_keys(Key::Enter).await?;
    app.wait_for_address("/machines").await?;
    app.wait_for_text("[data-testid=identity]", "alice").await?;
    app.finish().await
}
