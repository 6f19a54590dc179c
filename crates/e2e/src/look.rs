//! How a page works for everyone: axe-core's accessibility rules in both colour schemes,
//! three screen sizes with no sideways scrolling, and a screenshot of each combination.

use crate::{workspace_root, Harness};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::PathBuf;
use thirtyfour::extensions::cdp::ChromeDevTools;

/// A screen size the console must work at.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub name: &'static str,
    pub width: u32,
    pub height: u32,
}

pub const PHONE: Viewport = Viewport {
    name: "phone",
    width: 390,
    height: 844,
};
pub const LAPTOP: Viewport = Viewport {
    name: "laptop",
    width: 1280,
    height: 900,
};
pub const DESKTOP: Viewport = Viewport {
    name: "desktop",
    width: 1920,
    height: 1080,
};
pub const VIEWPORTS: [Viewport; 3] = [PHONE, LAPTOP, DESKTOP];

/// The `prefers-color-scheme` the page is shown with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    Light,
    Dark,
}

impl Scheme {
    pub const BOTH: [Scheme; 2] = [Scheme::Light, Scheme::Dark];

    fn name(self) -> &'static str {
        match self {
            Scheme::Light => "light",
            Scheme::Dark => "dark",
        }
    }
}

/// Runs axe-core on the document and hands back each violation as one readable line.
/// WebDriver's async script gets its callback as the last argument.
const RUN_AXE: &str = r#"
const done = arguments[arguments.length - 1];
axe.run(document, { resultTypes: ['violations'] })
  .then(results => done(results.violations.map(v =>
    `${v.id} (${v.impact}): ${v.help} — ` +
    v.nodes.slice(0, 5).map(n => n.target.join(' ') + (n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ')}]` : '')).join('; ') +
    (v.nodes.length > 5 ? `; and ${v.nodes.length - 5} more` : ''))))
  .catch(error => done([`axe-core failed: ${error}`]));
"#;

/// Names the elements that stick out when the document is wider than the window. What
/// sticks out inside a box that scrolls or clips sideways (a wide table) does not count.
const SIDEWAYS: &str = r#"
const limit = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth <= limit) return null;
const clipped = e => {
  for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== 'visible') return true;
  }
  return false;
};
const wide = [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > limit + 1 && !clipped(e))
  .slice(0, 5)
  .map(e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} ends at ${Math.round(e.getBoundingClientRect().right)} px`);
return `the page is ${document.documentElement.scrollWidth} px wide in a ${limit} px window: ${wide.join('; ')}`;
"#;

/// Names what the tables hide at the current size: a table wider than its box (needing
/// sideways scrolling) at any size and, from a laptop up (`arguments[0]`), a column folded
/// into its rows' detail.
const HIDDEN_IN_TABLES: &str = r#"
const laptopUp = arguments[0];
const problems = [];
for (const box of document.querySelectorAll('.table-scroll')) {
  const name = box.querySelector('caption')?.textContent ?? 'a table';
  if (box.scrollWidth > box.clientWidth + 1) {
    problems.push(`${name} is ${box.scrollWidth} px wide in ${box.clientWidth} px`);
  }
  if (!laptopUp) continue;
  const folded = [...box.querySelectorAll('thead th.folded')].map(th => th.textContent.trim());
  if (folded.length) problems.push(`${name} folds ${folded.join(', ')}`);
}
return problems;
"#;

/// Names the first cells of the table in `arguments[0]` (a scroll box's selector) whose
/// text is cut short.
const CUT_CELLS: &str = r#"
return [...document.querySelectorAll(`${arguments[0]} tbody tr:not(.spacer):not(.row-detail) > td`)]
  .filter(td => td.scrollWidth > td.clientWidth + 1)
  .slice(0, 5)
  .map(td => `${td.dataset.label}: "${td.textContent.trim()}"`);
"#;

impl Harness {
    fn dev_tools(&self) -> ChromeDevTools {
        ChromeDevTools::new(self.driver.handle.clone())
    }

    /// Shows the page at `viewport`'s size (a phone size also gets a touch screen).
    pub async fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        self.dev_tools()
            .execute_cdp_with_params(
                "Emulation.setDeviceMetricsOverride",
                json!({
                    "width": viewport.width,
                    "height": viewport.height,
                    "deviceScaleFactor": 1,
                    "mobile": viewport.width < 600,
                }),
            )
            .await
            .with_context(|| format!("resizing to {viewport:?}"))?;
        Ok(())
    }

    pub async fn set_scheme(&self, scheme: Scheme) -> Result<()> {
        self.dev_tools()
            .execute_cdp_with_params(
                "Emulation.setEmulatedMedia",
                json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme.name() }] }),
            )
            .await
            .with_context(|| format!("switching to the {} scheme", scheme.name()))?;
        Ok(())
    }

    /// axe-core's violations on the page as it is now, one line each.
    pub async fn axe_violations(&self) -> Result<Vec<String>> {
        let loaded = self.eval("return typeof axe === 'object'").await?;
        if loaded != json!(true) {
            self.driver.execute(&axe_source()?, vec![]).await?;
        }
        let found = self.driver.execute_async(RUN_AXE, vec![]).await?;
        Ok(serde_json::from_value(found.json().clone())?)
    }

    /// Fails when axe-core finds anything, in either colour scheme; leaves the light one on.
    pub async fn assert_accessible(&self, state: &str) -> Result<()> {
        let mut problems = Vec::new();
        for scheme in Scheme::BOTH {
            self.set_scheme(scheme).await?;
            for violation in self.axe_violations().await? {
                problems.push(format!("{state}, {}: {violation}", scheme.name()));
            }
        }
        self.set_scheme(Scheme::Light).await?;
        if !problems.is_empty() {
            bail!("axe-core found:\n  {}", problems.join("\n  "));
        }
        Ok(())
    }

    /// What the tables hide at the current size ([`HIDDEN_IN_TABLES`]), once the width
    /// policy has settled: a resize folds or unfolds one step a frame, so an answer with
    /// something hidden is asked again for up to two seconds before it counts.
    pub async fn hidden_in_tables(&self, laptop_up: bool) -> Result<Vec<String>> {
        let mut hidden = Vec::new();
        for _ in 0..20 {
            let found = self
                .driver
                .execute(HIDDEN_IN_TABLES, vec![json!(laptop_up)])
                .await?;
            hidden = serde_json::from_value(found.json().clone())?;
            if hidden.is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        Ok(hidden)
    }

    /// The cells of the table in the scroll box `scroll_box` (a selector) whose text is
    /// cut short: at most five, as `label: "text"`.
    pub async fn cut_cells(&self, scroll_box: &str) -> Result<Vec<String>> {
        let found = self
            .driver
            .execute(CUT_CELLS, vec![json!(scroll_box)])
            .await?;
        Ok(serde_json::from_value(found.json().clone())?)
    }

    /// `None` when the page fits the window's width, else what sticks out.
    pub async fn sideways_overflow(&self) -> Result<Option<String>> {
        Ok(self.eval(SIDEWAYS).await?.as_str().map(str::to_owned))
    }

    /// The page as it is now at every size and in both schemes: no axe-core violation, no
    /// sideways scrolling, a screenshot of each in `target/e2e/look/<state>-<size>-<scheme>.png`.
    /// Ends at the laptop size in the light scheme, where every test starts.
    pub async fn check_look(&self, state: &str) -> Result<()> {
        self.check_look_showing(state, None).await
    }

    /// [`Harness::check_look`], with the element `shown` (a CSS selector) scrolled to the
    /// middle of the window at each size, so that the pictures show it even when it is
    /// below the first screen.
    pub async fn check_look_showing(&self, state: &str, shown: Option<&str>) -> Result<()> {
        let mut problems = Vec::new();
        for viewport in VIEWPORTS {
            self.set_viewport(viewport).await?;
            if let Some(selector) = shown {
                self.driver
                    .execute(
                        "document.querySelector(arguments[0]).scrollIntoView({ block: 'center' })",
                        vec![json!(selector)],
                    )
                    .await
                    .with_context(|| format!("showing {selector}"))?;
            }
            if let Some(overflow) = self.sideways_overflow().await? {
                problems.push(format!("{state} at {}: {overflow}", viewport.name));
            }
            // No table hides a column: on a phone its rows are cards, from a laptop up every
            // column is in view.
            let hidden = self
                .hidden_in_tables(viewport.width >= LAPTOP.width)
                .await?;
            for table in hidden {
                problems.push(format!("{state} at {}: {table}", viewport.name));
            }
            for scheme in Scheme::BOTH {
                self.set_scheme(scheme).await?;
                for violation in self.axe_violations().await? {
                    problems.push(format!(
                        "{state} at {}, {}: {violation}",
                        viewport.name,
                        scheme.name()
                    ));
                }
                let shot =
                    look_dir()?.join(format!("{state}-{}-{}.png", viewport.name, scheme.name()));
                self.driver.screenshot(&shot).await?;
            }
        }
        self.set_viewport(LAPTOP).await?;
        self.set_scheme(Scheme::Light).await?;
        if !problems.is_empty() {
            bail!("{} problems:\n  {}", problems.len(), problems.join("\n  "));
        }
        Ok(())
    }
}

fn look_dir() -> Result<PathBuf> {
    let dir = workspace_root().join("target/e2e/look");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// axe-core's script, installed by `cargo xtask setup --browser` (path in `GPUDECK_AXE`).
fn axe_source() -> Result<String> {
    let path = std::env::var_os("GPUDECK_AXE")
        .map(PathBuf::from)
        .context("GPUDECK_AXE names no axe.min.js: run the suite through `cargo xtask test`")?;
    std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
}
