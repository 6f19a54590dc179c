//! `felt`: speed as a person feels it. The build split by route, on a network
//! and a CPU slowed down to Lighthouse's presets through the DevTools protocol, with the
//! browser's cache disabled and a fresh browser session per run:
//! - navigation to /sign-in → the key field usable, and the bytes received by then;
//! - Enter, pressed 4 s after the form appeared → the first Machines row painted;
//! - every other page opened by its address in a tab that holds a key → its heading and
//!   content painted, the bytes received by then, and when its first API request left;
//!   each opened from `about:blank`, once the page before it has left the network.
//!
//! `GPUDECK_FELT_WATERFALL` and `GPUDECK_FELT_FRAMES` print what was on the network and
//! what kept the main thread busy until each paint.

use crate::browser::{self, wait_for_mark};
use crate::figures::{Figures, Target, Unit};
use crate::report::{kb, median, ms};
use anyhow::{ensure, Context, Result};
use gpudeck_e2e::{demo, Harness, Route, Throttle, Viewport, ROUTES};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;
use thirtyfour::Key;

/// A Lighthouse throttling preset, and the targets under it.
pub struct Preset {
    pub name: &'static str,
    conditions: Throttle,
    /// The screen the pages are shown on, if not the browser's window (1280 × 900).
    screen: Option<Viewport>,
    key_field_target_ms: f64,
    enter_target_ms: f64,
    page_target_ms: f64,
    /// A stricter target for pages whose first load is light, if the preset has one.
    light_page: Option<LightPage>,
}

/// A page whose first load is under `under_bytes` on the wire is to paint its content
/// within `target_ms`: the bytes set the floor of a page's time, so a light page has no
/// excuse.
pub struct LightPage {
    under_bytes: f64,
    target_ms: f64,
}

pub static PRESETS: [Preset; 2] = [
    Preset {
        name: "mobile",
        conditions: Throttle {
            download_kbits: 1638.4,
            upload_kbits: 675.0,
            round_trip_ms: 150.0,
            cpu_slowdown: 4.0,
        },
        // Lighthouse's mobile screen: a phone lays the tables out as cards.
        screen: Some(Viewport {
            name: "Lighthouse's phone",
            width: 412,
            height: 823,
        }),
        key_field_target_ms: 1000.0,
        enter_target_ms: 800.0,
        // Lighthouse's own "good" for the largest paint on mobile.
        page_target_ms: 2500.0,
        light_page: Some(LightPage {
            under_bytes: 265.0 * 1024.0,
            target_ms: 2000.0,
        }),
    },
    Preset {
        name: "desktop",
        conditions: Throttle {
            download_kbits: 10_240.0,
            upload_kbits: 10_240.0,
            round_trip_ms: 40.0,
            cpu_slowdown: 1.0,
        },
        screen: None,
        key_field_target_ms: 300.0,
        enter_target_ms: 250.0,
        page_target_ms: 500.0,
        light_page: None,
    },
];

impl Preset {
    pub fn describe(&self) -> String {
        let screen = self.screen.map_or("1280 × 900".to_owned(), |screen| {
            format!("{} × {}", screen.width, screen.height)
        });
        format!(
            "{}: {}, a {screen} screen",
            self.name,
            self.conditions.describe()
        )
    }

    /// The target for a page whose first load took `bytes` on the wire.
    fn page_target_ms(&self, bytes: f64) -> f64 {
        match &self.light_page {
            Some(light) if bytes < light.under_bytes => light.target_ms,
            _ => self.page_target_ms,
        }
    }

    /// A page's median against its target: met, or missed by how many ms; and, where the
    /// preset has a light page's budget, how many KB its first load is over it.
    pub fn verdict(&self, painted_ms: f64, bytes: f64) -> String {
        let target = self.page_target_ms(bytes);
        let time = if painted_ms <= target {
            format!("≤ {target:.0} ms: met")
        } else {
            format!("≤ {target:.0} ms: missed by {:.0} ms", painted_ms - target)
        };
        match &self.light_page {
            Some(light) if bytes >= light.under_bytes => format!(
                "{time}; {} over the {} budget",
                kb((bytes - light.under_bytes) as usize),
                kb(light.under_bytes as usize)
            ),
            _ => time,
        }
    }
}

/// A person reads the form and pastes the key: Enter comes this long after the form
/// appeared (time the preload after the first paint has to fetch other pages' code).
const ENTER_AFTER_MS: f64 = 4000.0;

const SIGN_IN: &str = "/sign-in";

/// How long a tab rests on `about:blank` before each page is opened cold. A page preloads
/// the other pages' code once it has painted, and a page opened straight from it shared
/// the link and the browser's six connections with that preload (on mobile its first API
/// request left up to 1.3 s late). A page opened cold by its address, as a person does in
/// a new tab, has the link to itself.
const SETTLE_ON_BLANK: Duration = Duration::from_secs(3);

/// Runs before any page script, after [`browser::watch_paints`]'s watcher (whose
/// `__watchPaint` it uses), with `PAGES` in front: each page's address → its heading and
/// content selector. Notes when Enter is first pressed, when the key field is usable and
/// when the page opened by its address shows its heading and content.
const FELT_WATCHER: &str = r#"
    // Room for every file of the split build and the API answers (the default is 250).
    performance.setResourceTimingBufferSize(5000);
    addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && window.__enterAt === undefined) {
            window.__enterAt = performance.now();
        }
    }, true);
    // The console renders in the browser: the field is in the page only once the wasm
    // has built it, its input handler attached. Usable: also enabled and laid out.
    window.__watchPaint(() => {
        const field = document.querySelector('#api-key');
        return field && !field.disabled && field.getClientRects().length > 0;
    }, '__keyFieldAt', '__keyFieldPaintedAt');
    const page = PAGES[location.pathname + location.search];
    if (page) {
        window.__watchPaint(() => {
            const heading = document.querySelector('main h1');
            return heading && heading.textContent.includes(page.heading)
                && document.querySelector(page.content);
        }, '__contentAt', '__contentPaintedAt');
    }
"#;

fn felt_watcher(pages: &[&Route]) -> String {
    let pages: serde_json::Map<String, serde_json::Value> = pages
        .iter()
        .map(|r| {
            let watched = json!({ "heading": r.heading, "content": r.content });
            (r.path.to_owned(), watched)
        })
        .collect();
    format!(
        "{{\nconst PAGES = {};\n{FELT_WATCHER}\n}}",
        serde_json::Value::Object(pages)
    )
}

/// The bytes received (`transferSize`: headers and the body as sent, brotli here) by the
/// page's document and every file and API answer whose response had ended by `arguments[0]`.
const BYTES_RECEIVED_BY: &str = "
    const by = arguments[0];
    return [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((entry) => entry.responseEnd <= by)
        .reduce((sum, entry) => sum + entry.transferSize, 0);
";

async fn bytes_received_by(app: &Harness, page_time_ms: f64) -> Result<f64> {
    let bytes = app
        .driver
        .execute(BYTES_RECEIVED_BY, vec![json!(page_time_ms)])
        .await?;
    Ok(bytes.json().as_f64().unwrap_or(f64::NAN))
}

/// When the page's first API request started, from its navigation: with the served page
/// sending the page's first reads (`first_reads.js`), beside its code rather than after.
const FIRST_API_REQUEST: &str = "
    const starts = performance.getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
        .map((entry) => entry.startTime);
    return starts.length ? Math.min(...starts) : null;
";

async fn first_api_request(app: &Harness) -> Result<f64> {
    let at = app.driver.execute(FIRST_API_REQUEST, vec![]).await?;
    Ok(at.json().as_f64().unwrap_or(f64::NAN))
}

/// Every response on the network at some time between `arguments[0]` and `arguments[1]`:
/// its address, when it started and ended relative to the first, and its bytes.
const ON_THE_NETWORK: &str = "
    const [from, to] = arguments;
    return performance.getEntriesByType('resource')
        .filter((entry) => entry.startTime < to && (entry.responseEnd === 0 || entry.responseEnd > from))
        .map((entry) => {
            const url = new URL(entry.name);
            return [url.pathname + url.search, entry.startTime - from, entry.responseEnd - from,
                entry.transferSize];
        });
";

/// What was on the network from `from` (Enter, or the page's navigation) to `to` (painted),
/// a line per response (`GPUDECK_FELT_WATERFALL`): to tell what a lever moved.
async fn on_the_network(app: &Harness, from: f64, to: f64) -> Result<String> {
    // Responses still arriving at the paint are listed once they end.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let entries = app
        .driver
        .execute(ON_THE_NETWORK, vec![json!(from), json!(to)])
        .await?;
    let entries: Vec<(String, f64, f64, f64)> = serde_json::from_value(entries.json().clone())?;
    let mut lines = format!("    on the network until painted ({}):", ms(to - from));
    for (address, start, end, bytes) in entries {
        // The maintenance list's address holds every machine id.
        let name: String = address.chars().take(90).collect();
        lines.push_str(&format!(
            "\n      {start:>7.0} → {end:>7.0} ms {:>9}  {name}",
            kb(bytes as usize)
        ));
    }
    Ok(lines)
}

/// The long animation frames (over 50 ms) that started before `arguments[0]`: for each,
/// when it started, how long it took, how much of it the page's scripts ran (those over
/// 5 ms, as the browser lists them), and how long its rendering waited before style and
/// layout, and style, layout and paint took.
const LONG_FRAMES: &str = "
    const [to] = arguments;
    return new Promise((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries()
            .filter((frame) => frame.startTime < to)
            .map((frame) => {
                const end = frame.startTime + frame.duration;
                const styled = frame.styleAndLayoutStart || end;
                const rendered = frame.renderStart || styled;
                const scripts = frame.scripts.reduce((sum, script) => sum + script.duration, 0);
                return [frame.startTime, frame.duration, scripts, styled - rendered, end - styled];
            })))
            .observe({ type: 'long-animation-frame', buffered: true });
    });
";

/// What kept the page's main thread busy until `to` (painted), a line per long animation
/// frame (`GPUDECK_FELT_FRAMES`): to tell the page's own work from the browser's.
async fn long_frames(app: &Harness, to: f64) -> Result<String> {
    let frames = app.driver.execute(LONG_FRAMES, vec![json!(to)]).await?;
    let frames: Vec<(f64, f64, f64, f64, f64)> = serde_json::from_value(frames.json().clone())?;
    let mut lines = format!("    long frames until painted ({}):", ms(to));
    for (start, duration, scripts, before_style, style_to_end) in frames {
        lines.push_str(&format!(
            "\n      {start:>7.0} ms, {duration:>4.0} ms long: scripts {scripts:>4.0}, \
             rendering before style {before_style:>4.0}, style to paint {style_to_end:>4.0}"
        ));
    }
    Ok(lines)
}

/// One figure over the runs of a preset.
#[derive(Default)]
struct Samples(Vec<f64>);

impl Samples {
    fn median(&self) -> f64 {
        median(&mut self.0.clone())
    }

    /// `median (min–max)`, for the report.
    fn spread(&self, write: fn(f64) -> String) -> String {
        let min = self.0.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.0.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        format!("{} ({}–{})", write(self.median()), write(min), write(max))
    }
}

struct PageSamples {
    route: &'static Route,
    painted_ms: Samples,
    bytes: Samples,
    first_api_request_ms: Samples,
}

/// A preset's measures over all its runs.
pub struct PresetFigures {
    preset: &'static Preset,
    runs: usize,
    key_field_ms: Samples,
    key_field_bytes: Samples,
    enter_to_machines_ms: Samples,
    pages: Vec<PageSamples>,
}

/// Whether `chosen`, `GPUDECK_FELT_PAGES` (addresses, comma-separated; empty for none),
/// names the page at `path`. Unset, every page is opened.
fn is_chosen(path: &str, chosen: Option<&str>) -> bool {
    chosen.is_none_or(|chosen| chosen.split(',').any(|p| p.trim() == path))
}

/// Every preset, `runs` fresh browser sessions each, against the console built in `dist`.
pub async fn measure(dist: PathBuf, runs: usize) -> Result<Vec<PresetFigures>> {
    ensure!(
        dist.join("index.html").exists(),
        "no console split by route in {}: `cargo xtask split` builds one",
        dist.display()
    );
    let chosen = std::env::var("GPUDECK_FELT_PAGES").ok();
    let pages: Vec<&'static Route> = ROUTES
        .iter()
        .filter(|r| r.path != SIGN_IN && is_chosen(r.path, chosen.as_deref()))
        .collect();
    let watcher = felt_watcher(&pages);
    let mut measured = Vec::new();
    for preset in &PRESETS {
        let mut figures = PresetFigures {
            preset,
            runs,
            key_field_ms: Samples::default(),
            key_field_bytes: Samples::default(),
            enter_to_machines_ms: Samples::default(),
            pages: pages
                .iter()
                .map(|&route| PageSamples {
                    route,
                    painted_ms: Samples::default(),
                    bytes: Samples::default(),
                    first_api_request_ms: Samples::default(),
                })
                .collect(),
        };
        for run in 1..=runs {
            let app =
                browser::watch_paints(Harness::start_serving("bench-felt", dist.clone()).await?)
                    .await?;
            let outcome = one_run(&app, preset, &watcher, &mut figures).await;
            browser::stop(app).await?;
            outcome.with_context(|| format!("{} run {run}", preset.name))?;
            eprintln!("  {} run {run}/{runs}: {}", preset.name, figures.last_run());
        }
        measured.push(figures);
    }
    Ok(measured)
}

/// One fresh session: sign in by Enter, then open every page cold; adds one sample to
/// each of `figures`' measures.
async fn one_run(
    app: &Harness,
    preset: &Preset,
    watcher: &str,
    figures: &mut PresetFigures,
) -> Result<()> {
    app.record_every_fetch().await?;
    app.run_before_page_scripts(watcher, "the felt watcher")
        .await?;
    preset.conditions.apply(&app.driver).await?;
    if let Some(screen) = preset.screen {
        app.set_viewport(screen).await?;
    }

    app.open(SIGN_IN).await?;
    let key_field = wait_for_mark(app, "__keyFieldPaintedAt")
        .await
        .context("the key field never became usable")?;
    figures.key_field_ms.0.push(key_field);
    figures
        .key_field_bytes
        .0
        .push(bytes_received_by(app, key_field).await?);

    // Typed as soon as it shows, kept until Enter: the field takes input and no later
    // render throws it away. That the wasm read it shows in the sign-in succeeding.
    app.fill("#api-key", demo::ALICE_KEY).await?;
    let now = app.eval("return performance.now()").await?.as_f64();
    let wait_ms = key_field + ENTER_AFTER_MS - now.unwrap_or(0.0);
    tokio::time::sleep(Duration::from_secs_f64(wait_ms.max(0.0) / 1000.0)).await;
    let typed = app.value_of("#api-key").await?;
    ensure!(
        typed == demo::ALICE_KEY,
        "the key field holds {typed:?} after typing the key"
    );
    app.find("#api-key").await?.send_keys(Key::Enter).await?;
    let enter = wait_for_mark(app, "__enterAt").await?;
    let machines = wait_for_mark(app, "__paintedAt")
        .await
        .context("no Machines row was painted after Enter")?;
    figures.enter_to_machines_ms.0.push(machines - enter);
    let waterfall = std::env::var_os("GPUDECK_FELT_WATERFALL").is_some();
    let frames = std::env::var_os("GPUDECK_FELT_FRAMES").is_some();
    if waterfall {
        eprintln!("{}", on_the_network(app, enter, machines).await?);
    }

    // The tab now holds the key; each page loads afresh by its address, its files
    // fetched again (the cache is off).
    for page in &mut figures.pages {
        let route = page.route;
        app.driver.goto("about:blank").await?;
        tokio::time::sleep(SETTLE_ON_BLANK).await;
        app.open(route.path).await?;
        let painted = wait_for_mark(app, "__contentPaintedAt")
            .await
            .with_context(|| {
                format!(
                    "{}: its heading {:?} and content {} were never painted",
                    route.path, route.heading, route.content
                )
            })?;
        page.painted_ms.0.push(painted);
        if waterfall {
            eprintln!(
                "  {}\n{}",
                route.path,
                on_the_network(app, 0.0, painted).await?
            );
        }
        if frames {
            eprintln!("  {}\n{}", route.path, long_frames(app, painted).await?);
        }
        page.bytes.0.push(bytes_received_by(app, painted).await?);
        page.first_api_request_ms
            .0
            .push(first_api_request(app).await?);
    }
    Ok(())
}

impl PresetFigures {
    pub fn preset(&self) -> &'static Preset {
        self.preset
    }

    /// Each page's address, its median content painted (ms) and bytes received by then.
    pub fn page_medians(&self) -> impl Iterator<Item = (&'static str, f64, f64)> + '_ {
        self.pages
            .iter()
            .map(|p| (p.route.path, p.painted_ms.median(), p.bytes.median()))
    }

    /// The last run's headline figures, for the progress printed while measuring.
    fn last_run(&self) -> String {
        let last = |samples: &Samples| samples.0.last().copied().unwrap_or(f64::NAN);
        let slowest_page = self
            .pages
            .iter()
            .map(|p| last(&p.painted_ms))
            .fold(f64::NAN, f64::max);
        format!(
            "key field {} ({}), Enter → Machines {}, slowest page {}",
            ms(last(&self.key_field_ms)),
            kb(last(&self.key_field_bytes) as usize),
            ms(last(&self.enter_to_machines_ms)),
            ms(slowest_page)
        )
    }

    /// The medians, under names that stay the same from run to run.
    pub fn figures(&self) -> Figures {
        let preset = self.preset;
        let name = |what: &str| format!("felt, {}: {what}", preset.name);
        let at_most = |limit| Some(Target::AtMost(limit));
        let mut figures = Figures::default();
        figures.add(
            name("/sign-in → key field usable"),
            self.key_field_ms.median(),
            Unit::Milliseconds,
            at_most(preset.key_field_target_ms),
        );
        figures.add(
            name("/sign-in, bytes by key field usable"),
            self.key_field_bytes.median(),
            Unit::Bytes,
            None,
        );
        figures.add(
            name("Enter → first Machines row painted"),
            self.enter_to_machines_ms.median(),
            Unit::Milliseconds,
            at_most(preset.enter_target_ms),
        );
        for page in &self.pages {
            let path = page.route.path;
            figures.add(
                name(&format!("{path} cold → content painted")),
                page.painted_ms.median(),
                Unit::Milliseconds,
                at_most(preset.page_target_ms(page.bytes.median())),
            );
            figures.add(
                name(&format!("{path} cold, bytes by then")),
                page.bytes.median(),
                Unit::Bytes,
                None,
            );
            figures.add(
                name(&format!("{path} cold, first API request started")),
                page.first_api_request_ms.median(),
                Unit::Milliseconds,
                None,
            );
        }
        figures.add(
            name("slowest page cold"),
            self.pages
                .iter()
                .map(|p| p.painted_ms.median())
                .fold(f64::NAN, f64::max),
            Unit::Milliseconds,
            at_most(preset.page_target_ms),
        );
        figures
    }

    /// The preset's part of the report: how it was measured, the spread of the runs, and
    /// `compared`, its figures beside the previous run's and the targets.
    pub fn section(&self, compared: &str) -> String {
        let kilobytes = |bytes: f64| kb(bytes as usize);
        format!(
            "### {} (medians of {} runs, median (min–max) below)\n\n\
             - /sign-in → key field usable: {}, having received {}\n\
             - Enter, pressed {:.0} s after the form appeared → first Machines row painted: {}\n\n{}",
            self.preset.describe(),
            self.runs,
            self.key_field_ms.spread(ms),
            self.key_field_bytes.spread(kilobytes),
            ENTER_AFTER_MS / 1000.0,
            self.enter_to_machines_ms.spread(ms),
            compared
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_watcher_knows_each_page_by_its_address() {
        let routes: Vec<_> = gpudeck_e2e::ROUTES
            .iter()
            .filter(|r| ["/machines", "/machines/schedule"].contains(&r.page.address))
            .collect();
        let script = super::felt_watcher(&routes);
        assert!(script.contains(r#""/machines":{"#));
        assert!(script.contains(r#""heading":"Schedule maintenance""#));
        assert!(script.contains("window.__watchPaint("));
    }

    #[test]
    fn a_light_page_on_a_phone_has_the_stricter_target() {
        let [mobile, desktop] = &super::PRESETS;
        assert_eq!(mobile.page_target_ms(264.0 * 1024.0), 2000.0);
        assert_eq!(mobile.page_target_ms(265.0 * 1024.0), 2500.0);
        assert_eq!(mobile.verdict(1900.0, 200.0 * 1024.0), "≤ 2000 ms: met");
        assert_eq!(
            mobile.verdict(2100.0, 200.0 * 1024.0),
            "≤ 2000 ms: missed by 100 ms"
        );
        assert_eq!(
            mobile.verdict(2953.0, 390.0 * 1024.0),
            "≤ 2500 ms: missed by 453 ms; 125.0 KB over the 265.0 KB budget"
        );
        assert_eq!(
            desktop.verdict(594.0, 390.0 * 1024.0),
            "≤ 500 ms: missed by 94 ms"
        );
        assert_eq!(desktop.page_target_ms(100.0 * 1024.0), 500.0);
    }

    #[test]
    fn pages_can_be_chosen_by_address() {
        use super::is_chosen;
        assert!(is_chosen("/volumes", None));
        assert!(is_chosen("/volumes", Some("/templates, /volumes")));
        assert!(!is_chosen("/volumes", Some("/templates")));
        assert!(!is_chosen("/volumes", Some("")));
    }
}
