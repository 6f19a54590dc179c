//! Browser-side security promises, checked in the real console against the demo server:
//! server strings are text (no markup, no script), the API key stays out of URLs, history,
//! localStorage, the console log, resource timings and the page, sign-out forgets it, and
//! a second tab must sign in on its own. A new subaccount's password is not kept either.

use gpudeck_e2e::{demo, Harness};

/// Installed before any page script: records console output and any `alert` call.
const WATCHER: &str = r#"
    window.__consoleText = [];
    window.__alerts = 0;
    for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
        const original = console[level].bind(console);
        console[level] = (...args) => {
            window.__consoleText.push(args.map(String).join(' '));
            original(...args);
        };
    }
    window.alert = () => { window.__alerts += 1; };
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI);
    });
"#;

/// Pages that render server strings, among them the demo data's markup.
const PAGES: [&str; 8] = [
    "/machines/maintenance?ids=1001-1012",
    "/machines/defrag",
    "/templates",
    "/volumes",
    "/subaccounts",
    "/team/members",
    "/team/roles/%3Cb%3Eauditor%3C%2Fb%3E",
    "/notifications",
];

async fn watched(name: &'static str) -> anyhow::Result<Harness> {
    let app = Harness::start(name).await?;
    app.run_before_page_scripts(WATCHER, "the watcher").await?;
    Ok(app)
}

/// Everything the page could leak the key into, as one text.
async fn observable_surfaces(app: &Harness) -> anyhow::Result<String> {
    let surfaces = app
        .eval(
            "return JSON.stringify({
                url: location.href,
                history: (window.navigation ? navigation.entries().map(e => e.url) : []),
                local: Object.assign({}, localStorage),
                console: window.__consoleText || [],
                resources: performance.getEntriesByType('resource').map(e => e.name),
                title: document.title,
                page: document.documentElement.outerHTML,
            })",
        )
        .await?;
    Ok(surfaces.as_str().unwrap_or_default().to_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn server_strings_render_as_text_and_no_script_runs() -> anyhow::Result<()> {
    let app = watched("markup_is_text").await?;
    app.open("/sign-in").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;
    for path in PAGES {
        app.open(path).await?;
        // The shell's heading: the served sign-in form's hidden one is there at once.
        app.find("main.page h1").await?;
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        let injected = app
            .eval("return document.querySelectorAll('main img, main b, main script, main iframe').length")
            .await?;
        assert_eq!(
            injected, 0,
            "markup from the server became elements on {path}"
        );
    }
    // The demo reasons carry `<img src=x onerror=alert(1)>`: it shows as text.
    app.open("/machines/maintenance?ids=1001-1012").await?;
    app.find("rect.bar").await?;
    let titles = app
        .eval("return [...document.querySelectorAll('rect.bar title')].map(t => t.textContent).join('\\n')")
        .await?;
    assert!(
        titles.as_str().unwrap_or_default().contains(demo::MARKUP),
        "the markup reason is shown as text"
    );
    assert_eq!(app.eval("return window.__alerts").await?, 0);
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_subaccounts_password_is_sent_once_and_kept_nowhere() -> anyhow::Result<()> {
    const PASSWORD: &str = "password-that-must-not-linger";
    let app = watched("password_hygiene").await?;
    app.open("/subaccounts").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find(".subaccounts tbody tr:not(.spacer)").await?;
    // Refused first (an e-mail in use), so the error paths run with the password typed.
    app.fill("#sub-email", "training@alice.example").await?;
    app.fill("#sub-username", "hygiene").await?;
    app.fill("#sub-password", PASSWORD).await?;
    app.click(".create-form button[type=submit]").await?;
    app.click("dialog[open] .confirm-actions button:last-child")
        .await?;
    app.wait_for_text("#sub-email-error", "already").await?;
    app.fill("#sub-email", "hygiene@alice.example").await?;
    app.click(".create-form button[type=submit]").await?;
    app.click("dialog[open] .confirm-actions button:last-child")
        .await?;
    app.find("[data-testid=subaccount-result]").await?;
    assert_eq!(app.value_of("#sub-password").await?, "");
    let surfaces = observable_surfaces(&app).await?;
    let session = app
        .eval("return JSON.stringify(Object.assign({}, sessionStorage))")
        .await?;
    for (what, text) in [
        ("a surface", surfaces.as_str()),
        ("sessionStorage", session.as_str().unwrap_or_default()),
    ] {
        assert!(
            !text.contains(PASSWORD),
            "the password is in {what}: {text:.2000}"
        );
    }
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_key_stays_out_of_urls_history_storage_logs_and_the_page() -> anyhow::Result<()> {
    let app = watched("key_hygiene").await?;
    app.open("/machines/maintenance?ids=1001-1003").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("rect.bar").await?;
    for path in PAGES {
        app.open(path).await?;
        // The shell's main, not the served sign-in form's, which every page load carries
        // (hidden in a tab with a session) until the console has built its page.
        app.find("main.page h1").await?;
    }
    // A refused request, so error paths have run too.
    app.open("/machines/maintenance?ids=999999").await?;
    app.wait_for_text("#machine-ids-error", "do not exist")
        .await?;
    let surfaces = observable_surfaces(&app).await?;
    assert!(
        !surfaces.contains(demo::ALICE_KEY),
        "the key leaked: {surfaces:.2000}"
    );
    assert!(
        surfaces.contains("/api/v0/"),
        "the resource timings were read"
    );

    // A wrong key typed at sign-in is not echoed anywhere either.
    app.find("header button").await?.click().await?;
    app.sign_in("wrong-key-that-must-not-echo").await?;
    app.wait_for_text("#api-key-error", "Invalid user key")
        .await?;
    let surfaces = observable_surfaces(&app).await?;
    assert!(!surfaces.contains("wrong-key-that-must-not-echo"));
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_out_empties_session_storage_and_a_new_tab_needs_its_own_sign_in() -> anyhow::Result<()>
{
    let app = watched("session_per_tab").await?;
    app.open("/sign-in").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;

    let url = app.url("/team/members");
    let second_tab = app
        .driver
        .in_new_tab(|| async {
            app.driver.goto(&url).await?;
            let field = app
                .find("#api-key")
                .await
                .map_err(|e| thirtyfour::error::WebDriverError::FatalError(e.to_string()))?;
            let stored = app
                .driver
                .execute("return sessionStorage.length", vec![])
                .await?;
            Ok((field.attr("type").await?, stored.json().clone()))
        })
        .await?;
    assert_eq!(
        second_tab.0.as_deref(),
        Some("password"),
        "the new tab asks for a key"
    );
    assert_eq!(second_tab.1, 0, "the new tab has no session");

    app.find("header button").await?.click().await?;
    app.find("#api-key").await?;
    assert_eq!(app.eval("return sessionStorage.length").await?, 0);
    app.finish().await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_console_runs_under_a_strict_content_security_policy() -> anyhow::Result<()> {
    let app = watched("content_security_policy").await?;
    app.open("/sign-in").await?;
    let policy = app
        .eval("return fetch('/').then(r => r.headers.get('content-security-policy'))")
        .await?;
    let policy = policy.as_str().unwrap_or_default().to_owned();
    assert!(
        policy.contains("script-src 'self' 'wasm-unsafe-eval';"),
        "{policy}"
    );
    assert!(policy.contains("connect-src 'self';"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");

    // The whole console works under it: sign in, visit every area, no violation.
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;
    for path in PAGES {
        app.open(path).await?;
        // The shell's main, not the served sign-in form's, which every page load carries
        // (hidden in a tab with a session) until the console has built its page.
        app.find("main.page h1").await?;
    }
    let violations = app.eval("return window.__cspViolations").await?;
    assert_eq!(violations, serde_json::json!([]), "{violations}");

    // What an injection would try is refused.
    let inline = app
        .eval(
            "const s = document.createElement('script');
             s.textContent = 'window.__inlineRan = true';
             document.body.append(s);
             return window.__inlineRan === true",
        )
        .await?;
    assert_eq!(inline, false, "inline script ran");
    // The shape of the demo data's payload: an inline event handler. (Scripts sent through
    // WebDriver bypass the page's policy themselves, so they can only set the trap.)
    let handler = app
        .eval(
            "const b = document.createElement('button');
             b.setAttribute('onclick', 'window.__handlerRan = true');
             document.body.append(b); b.click(); b.remove();
             return window.__handlerRan === true",
        )
        .await?;
    assert_eq!(handler, false, "an inline event handler ran");
    app.finish().await
}
