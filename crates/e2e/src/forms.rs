//! Filling the console's forms as a person would, for the tests that change data.

use crate::Harness;
use anyhow::Result;

impl Harness {
    /// Sets a field's value the way typing would (date-time fields differ by locale).
    pub async fn set_value(&self, css: &str, value: &str, event: &str) -> Result<()> {
        self.eval(&format!(
            "const f = document.querySelector({css:?}); f.value = {value:?};
             f.dispatchEvent(new Event({event:?}, {{bubbles: true}}));"
        ))
        .await?;
        Ok(())
    }

    /// Fills the schedule form: tomorrow at this hour in UTC, `hours` long, category `disk`.
    pub async fn fill_schedule_form(&self, hours: &str) -> Result<()> {
        self.find("#schedule-start").await?;
        // The UTC toggle is kept between forms: switch it on only when it is off. Its
        // state, not the zone's text: a browser whose own zone is UTC says "UTC" either way.
        let toggle = self.find(".schedule-fields .toggle input").await?;
        if toggle.prop("checked").await?.as_deref() != Some("true") {
            toggle.click().await?;
        }
        self.wait_for_text("[data-testid=zone]", "UTC").await?;
        let start = self
            .eval("return new Date(Date.now() + 86400000).toISOString().slice(0, 13) + ':00'")
            .await?;
        self.set_value(
            "#schedule-start",
            start.as_str().unwrap_or_default(),
            "input",
        )
        .await?;
        self.fill("#schedule-hours", hours).await?;
        self.set_value("#schedule-category", "disk", "change").await
    }

    /// Confirms the open confirmation dialog; returns what it said.
    pub async fn confirm(&self) -> Result<String> {
        let text = self.find("dialog.confirm[open]").await?.text().await?;
        self.click("dialog.confirm[open] .confirm-actions button:last-child")
            .await?;
        Ok(text)
    }
}
