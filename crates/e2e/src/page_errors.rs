//! What a page reports as going wrong: `console.error` calls, uncaught errors and
//! unhandled promise rejections (a split chunk that fails to load shows up as these).

use crate::Harness;
use anyhow::{Context, Result};
use serde_json::json;
use thirtyfour::extensions::cdp::ChromeDevTools;

/// Runs in every document before the page's own scripts and keeps what it sees in
/// `window.__pageErrors`.
const RECORDER: &str = r#"
window.__pageErrors = [];
const originalError = console.error;
console.error = (...args) => {
  window.__pageErrors.push(args.map(String).join(' '));
  originalError.apply(console, args);
};
window.addEventListener('error', e => window.__pageErrors.push(`error: ${e.message}`));
window.addEventListener('unhandledrejection', e => window.__pageErrors.push(`unhandled rejection: ${e.reason}`));
"#;

/// Runs in every document before the page's own scripts: room for every file in the
/// browser's resource timing (it keeps 250 entries by default, fewer than the split
/// build's files), so tests can see what was fetched.
const ROOM_FOR_EVERY_FETCH: &str = "performance.setResourceTimingBufferSize(10000);";

impl Harness {
    /// From now on every document this session opens runs `script` before its own
    /// scripts; `what` names it in an error.
    pub async fn run_before_page_scripts(&self, script: &str, what: &str) -> Result<()> {
        ChromeDevTools::new(self.driver.handle.clone())
            .execute_cdp_with_params(
                "Page.addScriptToEvaluateOnNewDocument",
                json!({ "source": script }),
            )
            .await
            .with_context(|| format!("installing {what}"))?;
        Ok(())
    }

    /// From now on every page this session opens records its errors for [`Self::page_errors`].
    pub async fn record_page_errors(&self) -> Result<()> {
        self.run_before_page_scripts(RECORDER, "the page-error recorder")
            .await
    }

    /// From now on every page this session opens lists all its fetches in
    /// `performance.getEntriesByType('resource')`, not only the first 250.
    pub async fn record_every_fetch(&self) -> Result<()> {
        self.run_before_page_scripts(ROOM_FOR_EVERY_FETCH, "room in the resource timing buffer")
            .await
    }

    /// The errors the current page reported since it was opened.
    pub async fn page_errors(&self) -> Result<Vec<String>> {
        let errors = self
            .eval("return window.__pageErrors ?? ['the recorder is missing']")
            .await?;
        Ok(serde_json::from_value(errors)?)
    }

    /// The API answers the current page had since it was opened, as (path, status), in
    /// the order they were asked for; [`Self::record_every_fetch`] keeps room for all.
    pub async fn api_answers(&self) -> Result<Vec<(String, u16)>> {
        let answers = self
            .eval(
                "return performance.getEntriesByType('resource')
                   .map(r => [new URL(r.name).pathname, r.responseStatus])
                   .filter(([path]) => path.startsWith('/api/'));",
            )
            .await?;
        Ok(serde_json::from_value(answers)?)
    }
}
