//! A slower network and CPU for one browser session, through the DevTools protocol: what
//! the speed bench measures under, and what the whole-app suite uses to open the console
//! before its code has arrived.

use anyhow::{Context, Result};
use serde_json::json;
use thirtyfour::extensions::cdp::ChromeDevTools;
use thirtyfour::WebDriver;

/// Network and CPU conditions, as Lighthouse writes its presets.
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    /// Kbit/s (1 Kbit = 1,024 bits).
    pub download_kbits: f64,
    pub upload_kbits: f64,
    /// Added to every request's round trip.
    pub round_trip_ms: f64,
    /// How many times slower the page's CPU runs.
    pub cpu_slowdown: f64,
}

impl Throttle {
    pub fn describe(&self) -> String {
        format!(
            "{} Kbit/s down, {} Kbit/s up, {} ms round trip, CPU ×{}",
            self.download_kbits, self.upload_kbits, self.round_trip_ms, self.cpu_slowdown
        )
    }

    /// Slows the session's tab down to these conditions and turns its cache off.
    pub async fn apply(&self, driver: &WebDriver) -> Result<()> {
        let bytes_per_second = |kbits: f64| kbits * 1024.0 / 8.0;
        let devtools = ChromeDevTools::new(driver.handle.clone());
        let commands = [
            ("Network.enable", json!({})),
            ("Network.setCacheDisabled", json!({ "cacheDisabled": true })),
            (
                "Network.emulateNetworkConditions",
                json!({
                    "offline": false,
                    "latency": self.round_trip_ms,
                    "downloadThroughput": bytes_per_second(self.download_kbits),
                    "uploadThroughput": bytes_per_second(self.upload_kbits),
                }),
            ),
            (
                "Emulation.setCPUThrottlingRate",
                json!({ "rate": self.cpu_slowdown }),
            ),
        ];
        for (command, params) in commands {
            devtools
                .execute_cdp_with_params(command, params)
                .await
                .with_context(|| format!("{command} ({})", self.describe()))?;
        }
        Ok(())
    }
}
