//! The whole-app test harness: the reference server with demo data serving the release
//! build of the console on a free loopback port, ChromeDriver on another, and headless
//! Chromium driven through WebDriver. Every test ends with axe-core's check of the page in
//! both colour schemes and a screenshot in `target/e2e/`.

mod forms;
mod look;
pub mod offers;
mod page_errors;
mod routes;
mod throttle;

use anyhow::{bail, Context, Result};
use gpudeck_server::db::DbError;
use gpudeck_server::RunningServer;
use std::path::{Path, PathBuf};
use std::time::Duration;
use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;
use tokio::process::{Child, Command};

pub use gpudeck_server::{demo, Config};
pub use look::{Scheme, Viewport, DESKTOP, LAPTOP, PHONE, VIEWPORTS};
pub use routes::{Route, ROUTES};
pub use thirtyfour::prelude::{By, WebDriver, WebElement};
pub use throttle::Throttle;

/// Flags that keep Chromium quiet on a closed network and inside a container.
const CHROMIUM_ARGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,900",
    // Whole numbers for performance.memory, which the benchmarks read.
    "--enable-precise-memory-info",
];

/// How long to wait for the console to show something before failing.
pub const PATIENCE: Duration = Duration::from_secs(15);

/// Now, in Unix seconds: what the demo database's times are compared with.
pub fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs_f64()
}

/// Whether `error` says the element was drawn anew (the page replaced it) since it was found.
fn is_stale(error: &WebDriverError) -> bool {
    matches!(
        error.as_inner(),
        WebDriverErrorInner::StaleElementReference(_)
    )
}

/// How [`Harness::open`] waits for a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageLoad {
    /// Until the load event: every file the page names, the console's code among them.
    Complete,
    /// Until the document is parsed and boot.js has run: on a slow network the console's
    /// code may still be on its way.
    Parsed,
}

pub struct Harness {
    name: &'static str,
    pub server: RunningServer,
    pub driver: WebDriver,
    _chromedriver: Child,
}

impl Harness {
    /// Starts everything for the test `name` (used for the screenshot's file name).
    pub async fn start(name: &'static str) -> Result<Self> {
        Self::start_serving(name, dist_dir()?).await
    }

    /// Starts everything for the test `name`, [`Harness::open`] waiting only as `page_load`
    /// says.
    pub async fn start_with(name: &'static str, page_load: PageLoad) -> Result<Self> {
        Self::launch(name, dist_dir()?, page_load, |config| config).await
    }

    /// Starts everything for the test `name`, the server serving the console built in `dist`.
    pub async fn start_serving(name: &'static str, dist: PathBuf) -> Result<Self> {
        Self::launch(name, dist, PageLoad::Complete, |config| config).await
    }

    /// Starts everything for the test `name`, with the server's options as `options` makes
    /// them from the usual ones (e.g. turning on its rate limits).
    pub async fn start_with_options(
        name: &'static str,
        options: impl FnOnce(Config) -> Config,
    ) -> Result<Self> {
        Self::launch(name, dist_dir()?, PageLoad::Complete, options).await
    }

    async fn launch(
        name: &'static str,
        dist: PathBuf,
        page_load: PageLoad,
        options: impl FnOnce(Config) -> Config,
    ) -> Result<Self> {
        let server = gpudeck_server::start(options(Config {
            addr: "127.0.0.1:0".parse()?,
            demo: true,
            static_dir: Some(dist),
            ..Config::default()
        }))
        .await
        .context("starting the reference server")?;

        let port = free_port()?;
        let chromedriver_path = env_or("CHROMEDRIVER", "/usr/bin/chromedriver");
        let chromedriver = Command::new(&chromedriver_path)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .with_context(|| {
                format!("starting {chromedriver_path} (install Debian's chromium-driver, or run `cargo xtask test`)")
            })?;
        wait_for_port(port).await?;

        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary(&env_or("CHROMIUM", "/usr/bin/chromium"))?;
        for arg in CHROMIUM_ARGS {
            caps.add_arg(arg)?;
        }
        if page_load == PageLoad::Parsed {
            caps.set_page_load_strategy(thirtyfour::PageLoadStrategy::Eager)?;
        }
        let driver = open_session(port, caps).await?;
        Ok(Self {
            name,
            server,
            driver,
            _chromedriver: chromedriver,
        })
    }

    /// Starts everything for the test `name`, opens `path` and signs in with `key` on the
    /// way there.
    pub async fn start_signed_in(name: &'static str, path: &str, key: &str) -> Result<Self> {
        let app = Self::start(name).await?;
        app.open(path).await?;
        app.sign_in(key).await?;
        app.wait_for_address(path).await?;
        Ok(app)
    }

    /// The console's address for `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.server.url(), path)
    }

    pub async fn open(&self, path: &str) -> Result<()> {
        self.driver.goto(self.url(path)).await?;
        Ok(())
    }

    /// Waits for the first element matching `css`.
    pub async fn find(&self, css: &str) -> Result<WebElement> {
        self.driver
            .query(By::Css(css))
            .wait(PATIENCE, Duration::from_millis(50))
            .first()
            .await
            .with_context(|| format!("waiting for {css}"))
    }

    /// Clicks the first element matching `css` once it is there (see [`Harness::click_found`]).
    pub async fn click(&self, css: &str) -> Result<()> {
        self.click_found(css, || self.find(css)).await
    }

    /// Clicks what `find` finds, found again when the page drew it anew between finding and
    /// clicking (a page that reloads its data after an action redraws what shows it; a
    /// click on the old element did nothing). `what` names it if that keeps happening.
    pub async fn click_found(
        &self,
        what: &str,
        find: impl AsyncFn() -> Result<WebElement>,
    ) -> Result<()> {
        for _ in 0..10 {
            match find().await?.click().await {
                Err(error) if is_stale(&error) => continue,
                clicked => return Ok(clicked?),
            }
        }
        bail!("{what} was drawn anew ten times while being clicked")
    }

    /// Clicks `element` with Shift held: a table's range selection from the row clicked last.
    pub async fn shift_click(&self, element: &WebElement) -> Result<()> {
        self.driver
            .action_chain()
            .key_down(Key::Shift)
            .click_element(element)
            .key_up(Key::Shift)
            .perform()
            .await?;
        Ok(())
    }

    /// Replaces the text of the field matching `css` by typing `text`.
    pub async fn fill(&self, css: &str, text: &str) -> Result<()> {
        let field = self.find(css).await?;
        field.clear().await?;
        field.send_keys(text).await?;
        Ok(())
    }

    /// The current value of the field matching `css`.
    pub async fn value_of(&self, css: &str) -> Result<String> {
        Ok(self
            .find(css)
            .await?
            .prop("value")
            .await?
            .unwrap_or_default())
    }

    /// Waits until the element matching `css` contains `text`. Not for a number: "20" is in
    /// "120" too; see [`Harness::wait_for_exact_text`].
    pub async fn wait_for_text(&self, css: &str, text: &str) -> Result<String> {
        self.wait_for_text_within(css, text, PATIENCE).await
    }

    /// [`Harness::wait_for_text`] for what takes longer than [`PATIENCE`], e.g. a run
    /// paced by a rate limit.
    pub async fn wait_for_text_within(
        &self,
        css: &str,
        text: &str,
        patience: Duration,
    ) -> Result<String> {
        self.wait_for_text_where(css, &format!("{text:?}"), patience, |shown| {
            shown.contains(text)
        })
        .await
    }

    /// Waits until the element matching `css` shows `text` and nothing else: what a count
    /// is awaited with, which a wrong count cannot meet.
    pub async fn wait_for_exact_text(&self, css: &str, text: &str) -> Result<String> {
        self.wait_for_exact_text_within(css, text, PATIENCE).await
    }

    /// [`Harness::wait_for_exact_text`] for what takes longer than [`PATIENCE`].
    pub async fn wait_for_exact_text_within(
        &self,
        css: &str,
        text: &str,
        patience: Duration,
    ) -> Result<String> {
        self.wait_for_text_where(css, &format!("exactly {text:?}"), patience, |shown| {
            shown == text
        })
        .await
    }

    /// Waits until the team members page counts `members` members: the text of its counts
    /// before the roles' (`4 members — owner 1 · manager 1`).
    pub async fn wait_for_member_count(&self, members: usize) -> Result<String> {
        let wanted = format!("{members} members");
        self.wait_for_text_where(
            "[data-testid=role-counts]",
            &format!("{wanted:?} before the roles"),
            PATIENCE,
            |shown| shown.split(" — ").next() == Some(wanted.as_str()),
        )
        .await
    }

    /// Waits until the text of the element matching `css` is one `wanted` accepts (`what`
    /// says which, when it gives up).
    pub async fn wait_for_text_where(
        &self,
        css: &str,
        what: &str,
        patience: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String> {
        let deadline = tokio::time::Instant::now() + patience;
        // Each look is two WebDriver commands the browser answers: over the minutes of a
        // wait on the public service's pace, a look every 50 ms kept a fifth of a core
        // busy, taken from the test files running beside it.
        let between_looks = if patience > PATIENCE {
            Duration::from_millis(250)
        } else {
            Duration::from_millis(50)
        };
        loop {
            if let Ok(Some(element)) = self.driver.query(By::Css(css)).nowait().first_opt().await {
                let shown = element.text().await.unwrap_or_default();
                if wanted(&shown) {
                    return Ok(shown);
                }
                if tokio::time::Instant::now() > deadline {
                    bail!("{css} shows {shown:?}, not {what}");
                }
            } else if tokio::time::Instant::now() > deadline {
                bail!("nothing matches {css}");
            }
            tokio::time::sleep(between_looks).await;
        }
    }

    /// The rows `sql` selects from the demo database with `params`, each read by `read`:
    /// what the server holds, for a test to check against what the page shows.
    pub async fn db_rows<P, T>(
        &self,
        sql: &'static str,
        params: P,
        read: fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>>
    where
        P: rusqlite::Params + Send + 'static,
        T: Send + 'static,
    {
        self.server
            .state()
            .db
            .run(move |conn| {
                let mut statement = conn.prepare(sql).map_err(DbError::from)?;
                let rows = statement
                    .query_map(params, read)
                    .map_err(DbError::from)?
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(DbError::from)?;
                Ok(rows)
            })
            .await
            .map_err(|e| anyhow::anyhow!("{e:?}"))
    }

    /// Runs `sql` with `params` on the demo database, to set up what a test needs.
    pub async fn db_execute<P>(&self, sql: &'static str, params: P) -> Result<()>
    where
        P: rusqlite::Params + Send + 'static,
    {
        self.server
            .state()
            .db
            .run(move |conn| {
                conn.execute(sql, params).map_err(DbError::from)?;
                Ok(())
            })
            .await
            .map_err(|e| anyhow::anyhow!("{e:?}"))
    }

    /// Waits until the address (path and query) is `expected`.
    pub async fn wait_for_address(&self, expected: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let address = self.address().await?;
            if address == expected {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the address is {address}, not {expected}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the browser tab is titled `expected`: the console sets it once the page
    /// shows, and the served page has a title of its own before that.
    pub async fn wait_for_title(&self, expected: &str) -> Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let title = self.driver.title().await?;
            if title == expected {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                bail!("the tab is titled {title:?}, not {expected:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Path and query of the current page.
    pub async fn address(&self) -> Result<String> {
        let url = self.driver.current_url().await?;
        Ok(match url.query() {
            Some(query) => format!("{}?{query}", url.path()),
            None => url.path().to_owned(),
        })
    }

    /// Runs `script` in the page and returns its JSON result.
    pub async fn eval(&self, script: &str) -> Result<serde_json::Value> {
        Ok(self.driver.execute(script, vec![]).await?.json().clone())
    }

    /// Fills in the sign-in form and submits it.
    pub async fn sign_in(&self, key: &str) -> Result<()> {
        self.fill("#api-key", key).await?;
        self.click(".sign-in form button").await
    }

    /// Checks the page the test ended on with axe-core (light and dark), saves a
    /// screenshot as `target/e2e/<test name>.png`, then ends the browser session.
    pub async fn finish(self) -> Result<()> {
        let dir = workspace_root().join("target/e2e");
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("{}.png", self.name));
        self.driver.screenshot(&path).await?;
        let accessible = self
            .assert_accessible(&format!("the end of {}", self.name))
            .await;
        self.driver.quit().await?;
        self.server.shutdown().await?;
        accessible
    }
}

pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Chromium session through the ChromeDriver on `port`. On a machine whose two cores the
/// other test files keep busy, Chromium now and then exits while it starts ("session not
/// created: Chrome instance exited", once in a new user's first `cargo xtask test`):
/// nothing of the test has run yet, so it is started once more.
async fn open_session(port: u16, caps: thirtyfour::ChromeCapabilities) -> Result<WebDriver> {
    let url = format!("http://127.0.0.1:{port}");
    match WebDriver::new(&url, caps.clone()).await {
        Err(error) if matches!(error.as_inner(), WebDriverErrorInner::SessionNotCreated(_)) => {
            eprintln!("Chromium did not start ({error}); starting it once more");
            tokio::time::sleep(Duration::from_secs(1)).await;
            WebDriver::new(&url, caps).await
        }
        opened => opened,
    }
    .context("opening a Chromium session through ChromeDriver")
}

/// The built console the harness serves: `GPUDECK_DIST`, else `dist/`.
pub fn dist_dir() -> Result<PathBuf> {
    let dist = std::env::var_os("GPUDECK_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("dist"));
    if !dist.join("index.html").exists() {
        bail!(
            "no built console in {}: run `trunk build --release` first (`cargo xtask test` does)",
            dist.display()
        );
    }
    Ok(dist)
}

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

async fn wait_for_port(port: u16) -> Result<()> {
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bail!("ChromeDriver did not start listening on port {port}")
}
