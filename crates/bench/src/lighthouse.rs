//! The web's own yardstick beside the felt bench's: Lighthouse (npm, pinned by `cargo xtask
//! setup`'s `ensure_lighthouse`) on each page opened cold in a tab that holds a session,
//! with its mobile or desktop preset and its throttling applied to the browser. For each
//! page it gives the largest contentful paint (LCP), the element it chose and the total
//! blocking time (TBT). A heading can be the largest paint while rows still arrive, so
//! neither this nor the felt bench's "content painted" replaces the other.
//!
//! The measuring itself is `lighthouse/flow.mjs`, run by Node in the folder Lighthouse is
//! installed in (so that it finds Lighthouse and puppeteer-core).

use crate::report::{kb, Table};
use anyhow::{Context, Result};
use gpudeck_e2e::demo;
use gpudeck_server::Config;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The user flow Node runs: sign in once, then one Lighthouse navigation per page.
const FLOW: &str = include_str!("../lighthouse/flow.mjs");

/// What Lighthouse reported for one page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageReport {
    pub path: String,
    pub lcp_ms: Option<f64>,
    /// The element of the largest paint, as Lighthouse (or the page, where Lighthouse's
    /// audit fails) names it.
    pub lcp_element: Option<String>,
    pub tbt_ms: Option<f64>,
    /// Why Lighthouse gave no figures for the page, if it did not.
    pub error: Option<String>,
}

impl PageReport {
    /// One line printed by `flow.mjs`.
    fn parse(line: &str) -> Result<Self> {
        let value: Value =
            serde_json::from_str(line).with_context(|| format!("a line of flow.mjs: {line}"))?;
        let text = |key: &str| value[key].as_str().map(str::to_owned);
        Ok(Self {
            path: text("path").context("a Lighthouse report without its page")?,
            lcp_ms: value["lcp_ms"].as_f64(),
            lcp_element: text("lcp_element"),
            tbt_ms: value["tbt_ms"].as_f64(),
            error: text("error"),
        })
    }
}

/// Where `cargo xtask` installed Lighthouse (`GPUDECK_LIGHTHOUSE_DIR`), if it did.
pub fn installed() -> Option<PathBuf> {
    std::env::var_os("GPUDECK_LIGHTHOUSE_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.join("node_modules/lighthouse").exists())
}

/// Lighthouse's `preset` ("mobile" or "desktop") on each of `paths`, against the console
/// built in `dist` served by a fresh demo server.
pub async fn measure(
    installed_in: &Path,
    dist: PathBuf,
    preset: &str,
    paths: &[&str],
) -> Result<Vec<PageReport>> {
    let server = gpudeck_server::start(Config {
        addr: "127.0.0.1:0".parse()?,
        demo: true,
        static_dir: Some(dist),
        ..Config::default()
    })
    .await
    .context("starting the reference server for Lighthouse")?;
    let script = installed_in.join("gpudeck-flow.mjs");
    std::fs::write(&script, FLOW).with_context(|| format!("writing {}", script.display()))?;
    let settings = installed_in.join(format!("gpudeck-flow-{preset}.json"));
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
    let flow_settings = json!({
        "chromium": chromium,
        "base": server.url(),
        "key": demo::ALICE_KEY,
        "preset": preset,
        "paths": paths,
    });
    std::fs::write(&settings, flow_settings.to_string())?;
    let output = tokio::process::Command::new("node")
        .arg(&script)
        .arg(&settings)
        .current_dir(installed_in)
        .output()
        .await
        .context("running Lighthouse with node")?;
    let mut reports: Vec<PageReport> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| line.starts_with('{'))
        .map(PageReport::parse)
        .collect::<Result<_>>()?;
    if !output.status.success() {
        // The pages measured before the flow ended keep their figures; the others say why
        // they have none, and the felt figures beside them are still reported.
        let why = format!(
            "Lighthouse's flow ended ({}): {}",
            output.status,
            last_line(&String::from_utf8_lossy(&output.stderr))
        );
        eprintln!("  {why}");
        reports.extend(unmeasured(paths, &reports, &why));
    }
    Ok(reports)
}

/// A report saying `why` for each of `paths` that `reports` lacks.
fn unmeasured(paths: &[&str], reports: &[PageReport], why: &str) -> Vec<PageReport> {
    paths
        .iter()
        .filter(|path| !reports.iter().any(|r| r.path == **path))
        .map(|path| PageReport {
            path: (*path).to_owned(),
            lcp_ms: None,
            lcp_element: None,
            tbt_ms: None,
            error: Some(why.to_owned()),
        })
        .collect()
}

/// The last line of `text` that says something.
fn last_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .unwrap_or("(nothing on stderr)")
}

/// One page's figures from both yardsticks.
pub struct BothYardsticks<'a> {
    pub path: &'a str,
    /// The felt bench's median "content painted", ms.
    pub painted_ms: f64,
    /// The felt bench's median bytes received by then.
    pub bytes: f64,
    /// That median against its target, and the bytes against their budget.
    pub verdict: String,
    pub lighthouse: Option<&'a PageReport>,
}

/// A row per page: its first-load bytes, the felt bench's content painted and how far it
/// is from its target, and Lighthouse's LCP, element and TBT.
pub fn table(rows: &[BothYardsticks<'_>]) -> Table {
    let mut table = Table::new(&[
        "page",
        "first load",
        "content painted (felt)",
        "felt target",
        "LCP (Lighthouse)",
        "LCP element",
        "TBT",
    ]);
    let whole_ms = |value: Option<f64>| value.map_or("—".to_owned(), |v| format!("{v:.0} ms"));
    for row in rows {
        let report = row.lighthouse;
        let element = match report {
            Some(PageReport {
                error: Some(error), ..
            }) => format!("not measured: {error}"),
            Some(report) => report.lcp_element.clone().unwrap_or_else(|| "—".to_owned()),
            None => "not measured".to_owned(),
        };
        table.row(vec![
            row.path.to_owned(),
            kb(row.bytes as usize),
            whole_ms(Some(row.painted_ms)),
            row.verdict.clone(),
            whole_ms(report.and_then(|r| r.lcp_ms)),
            // A cell of a Markdown table: no `|` inside.
            element.replace('|', "/"),
            whole_ms(report.and_then(|r| r.tbt_ms)),
        ]);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_the_flow_reads_as_a_page_report() {
        let line = r#"{"path":"/templates","lcp_ms":5009.388,"lcp_element":"p.lede \"Your templates\"","tbt_ms":2019.5,"fcp_ms":5009.388,"error":null}"#;
        let report = PageReport::parse(line).unwrap();
        assert_eq!(report.path, "/templates");
        assert_eq!(report.lcp_ms, Some(5009.388));
        assert_eq!(
            report.lcp_element.as_deref(),
            Some("p.lede \"Your templates\"")
        );
        assert_eq!(report.tbt_ms, Some(2019.5));
        assert_eq!(report.error, None);
    }

    #[test]
    fn pages_after_the_flow_ended_say_why_and_the_others_keep_their_figures() {
        let measured = PageReport::parse(r#"{"path":"/machines","lcp_ms":3000.0}"#).unwrap();
        let missing = unmeasured(
            &["/machines", "/templates", "/volumes"],
            std::slice::from_ref(&measured),
            "Lighthouse's flow ended (exit status: 1): Node.js v20",
        );
        let paths: Vec<&str> = missing.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["/templates", "/volumes"]);
        assert!(missing.iter().all(|r| r.lcp_ms.is_none()
            && r.error.as_deref()
                == Some("Lighthouse's flow ended (exit status: 1): Node.js v20")));
        assert_eq!(
            last_line("Error: boom\n  at x\n\nNode.js v20\n\n"),
            "Node.js v20"
        );
        assert_eq!(last_line(""), "(nothing on stderr)");
    }

    #[test]
    fn a_page_lighthouse_could_not_measure_says_why() {
        let failed = PageReport::parse(r#"{"path":"/volumes","error":"timed out"}"#).unwrap();
        let rows = [BothYardsticks {
            path: "/volumes",
            painted_ms: 2100.0,
            bytes: 300.0 * 1024.0,
            verdict: "≤ 2500 ms: met; 35.0 KB over the 265.0 KB budget".to_owned(),
            lighthouse: Some(&failed),
        }];
        let markdown = table(&rows).markdown();
        assert!(
            markdown.contains(
                "| /volumes | 300.0 KB | 2100 ms | ≤ 2500 ms: met; 35.0 KB over the 265.0 KB budget \
                 | — | not measured: timed out | — |"
            ),
            "{markdown}"
        );
    }
}
