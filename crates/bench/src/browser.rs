//! The console in headless Chromium, release build, through the whole-app harness:
//! time to a painted maintenance table, and the 10,000-row table with windowing on and off.

use crate::report::median;
use anyhow::{bail, Context, Result};
use gpudeck_e2e::{demo, Harness};
use std::time::Duration;
use thirtyfour::extensions::cdp::ChromeDevTools;

/// Runs before any page script. Defines `window.__watchPaint(isThere, inDom, painted)`:
/// once `isThere()` holds, it notes when in `window[inDom]`, and when the frame showing it
/// has been painted in `window[painted]` (a task queued from requestAnimationFrame runs
/// after that frame's paint). Then watches for the first table row and the first bar of
/// a timeline. `felt` adds watches of its own with the same function.
const PAINT_WATCHER: &str = r#"
    window.__watchPaint = (isThere, inDom, painted) => new MutationObserver((_, observer) => {
        if (isThere()) {
            observer.disconnect();
            window[inDom] = performance.now();
            requestAnimationFrame(() => setTimeout(() => { window[painted] = performance.now(); }, 0));
        }
    // A field being enabled or shown and a heading's text changing are mutations too.
    }).observe(document, {
        subtree: true, childList: true, characterData: true,
        attributes: true, attributeFilter: ['disabled', 'hidden'],
    });
    const watch = (selector, inDom, painted) =>
        window.__watchPaint(() => document.querySelector(selector), inDom, painted);
    watch('tbody tr:not(.spacer)', '__rowsAt', '__paintedAt');
    watch('.timeline-chart rect.bar', '__barAt', '__barPaintedAt');
"#;

/// One filter keystroke, in milliseconds: `total` from the input event to the next painted
/// frame, and `script`, the part spent in the app's own work.
///
/// The script part ends when the app's reactive work has: the input handler runs inside
/// `dispatchEvent`, and Leptos runs the effects it triggers as microtasks (its executor is
/// wasm-bindgen-futures' queue), which all run as soon as this script returns, before any
/// other task and before the browser renders. So whichever comes first of a
/// MessageChannel task posted right after the dispatch and a requestAnimationFrame
/// callback (which starts the rendering of the next frame, before its style, layout and
/// paint) runs once all of that work is done, and before the frame's rendering.
const KEYSTROKE: &str = r#"
    const input = document.querySelector('.table-toolbar input[type=search]');
    const value = arguments[0];
    return new Promise((resolve) => {
        let script = null;
        const scriptDone = () => { if (script === null) script = performance.now() - started; };
        const channel = new MessageChannel();
        channel.port1.onmessage = scriptDone;
        const started = performance.now();
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        channel.port2.postMessage(null);
        requestAnimationFrame(() => {
            scriptDone();
            setTimeout(() => resolve({ total: performance.now() - started, script }), 0);
        });
    });
"#;

/// Targets: a windowed filter keystroke to its painted frame, its script part,
/// and navigation → the first timeline bar painted at 1,000 machines.
pub const KEYSTROKE_TARGET_MS: f64 = 16.0;
pub const KEYSTROKE_SCRIPT_TARGET_MS: f64 = 4.0;
pub const TIMELINE_1000_TARGET_MS: f64 = 300.0;

/// Runs of each Machines page figure (the median is reported).
pub const MACHINES_RUNS: usize = 10;
/// The target for the Machines page of a 5,000-machine host, navigation → painted table.
pub const MACHINES_5000_TARGET_MS: f64 = 200.0;
/// The generated host of 5,000 machines: its key, id and machine ids.
const BIG_HOST_KEY: &str = "bench-big-host-key-0000000000000000000000000000005";
const BIG_HOST_ID: i64 = 500;
const BIG_HOST_MACHINES: std::ops::RangeInclusive<i64> = 100_001..=105_000;

/// The maintenance page of alice's 100 demo machines.
const MAINTENANCE_100: &str = "/machines/maintenance?ids=1001-1100";

/// Machines the benchmark gives alice for the 10,000-row table, ten windows each.
const BIG_TABLE_MACHINES: std::ops::RangeInclusive<i64> = 5001..=6000;

pub struct TableFigures {
    pub first_render_ms: f64,
    /// Navigation → the first bar of the page's timeline painted.
    pub timeline_first_bar_ms: f64,
    pub keystroke_ms: f64,
    /// The script part of a keystroke (see [`KEYSTROKE`]).
    pub keystroke_script_ms: f64,
    pub rows_in_dom: u64,
    /// After a garbage collection.
    pub js_heap_mb: f64,
}

impl TableFigures {
    fn not_measured() -> Self {
        TableFigures {
            first_render_ms: f64::NAN,
            timeline_first_bar_ms: f64::NAN,
            keystroke_ms: f64::NAN,
            keystroke_script_ms: f64::NAN,
            rows_in_dom: 0,
            js_heap_mb: f64::NAN,
        }
    }
}

pub struct BrowserFigures {
    pub runs: usize,
    pub maintenance_100_ms: f64,
    /// Navigation → Machines table painted, for alice's 120 machines and for a generated
    /// host's 5,000, medians of [`MACHINES_RUNS`].
    pub machines_120_ms: f64,
    pub machines_5000_ms: f64,
    pub windowed: TableFigures,
    pub all_rows: TableFigures,
}

/// A browser and demo server for the bench, with [`PAINT_WATCHER`] in every page.
async fn start(name: &'static str) -> Result<Harness> {
    watch_paints(Harness::start(name).await?).await
}

pub async fn watch_paints(app: Harness) -> Result<Harness> {
    app.run_before_page_scripts(PAINT_WATCHER, "the paint watcher")
        .await?;
    Ok(app)
}

pub async fn measure(runs: usize) -> Result<BrowserFigures> {
    let app = start("bench").await?;
    add_big_host(&app).await?;
    let machine_runs = runs.min(MACHINES_RUNS);

    // The Machines page of a generated host with 5,000 machines.
    app.open("/sign-in").await?;
    app.sign_in(BIG_HOST_KEY).await?;
    app.find("[data-testid=identity]").await?;
    let machines_5000_ms = warm_page_load(&app, "/machines", machine_runs).await?;
    app.click("header button").await?;
    app.find("#api-key").await?;

    // alice's 120 machines, before the big table adds 1,000 more.
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;
    let machines_120_ms = warm_page_load(&app, "/machines", machine_runs).await?;
    add_big_table(&app).await?;

    let maintenance_100_ms = warm_page_load(&app, MAINTENANCE_100, runs).await?;

    let big = "/machines/maintenance?ids=5001-6000";
    let windowed = table_figures(&app, big, runs).await?;
    stop(app).await?;
    // Without windowing the page is slow by design; should Chromium give up on it, the
    // other figures still stand and these are printed as not measured.
    let all_rows = match all_rows_figures(&format!("{big}&rows=all"), runs).await {
        Ok(figures) => figures,
        Err(error) => {
            eprintln!("the table without windowing was not measured: {error:#}");
            TableFigures::not_measured()
        }
    };
    Ok(BrowserFigures {
        runs,
        maintenance_100_ms,
        machines_120_ms,
        machines_5000_ms,
        windowed,
        all_rows,
    })
}

/// Page loads of the build split by route in `dist`, for comparison with the figures of
/// [`measure`]: each page's first navigation fetches its chunks (a hundred files or so).
pub struct SplitFigures {
    pub maintenance_100_ms: f64,
    pub machines_120_ms: f64,
}

pub async fn measure_split(dist: std::path::PathBuf, runs: usize) -> Result<SplitFigures> {
    let app = watch_paints(Harness::start_serving("bench-split", dist).await?).await?;
    let figures = async {
        app.open("/sign-in").await?;
        app.sign_in(demo::ALICE_KEY).await?;
        app.find("[data-testid=identity]").await?;
        let machines_120_ms = warm_page_load(&app, "/machines", runs.min(MACHINES_RUNS)).await?;
        Ok(SplitFigures {
            maintenance_100_ms: warm_page_load(&app, MAINTENANCE_100, runs).await?,
            machines_120_ms,
        })
    }
    .await;
    stop(app).await?;
    figures
}

/// The 10,000-row table with every row in the DOM, in a browser of its own: a renderer
/// that stops answering there cannot take the other figures with it.
async fn all_rows_figures(path: &str, runs: usize) -> Result<TableFigures> {
    let app = start("bench-all-rows").await?;
    app.open("/sign-in").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find("[data-testid=identity]").await?;
    add_big_table(&app).await?;
    let figures = table_figures(&app, path, runs).await;
    // Close the browser either way: a renderer left spinning would skew the server's
    // figures that follow.
    let stopped = stop(app).await;
    let figures = figures?;
    stopped?;
    Ok(figures)
}

/// Closes the browser and the server. Not the harness's `finish`: that checks the last
/// page with axe, which is the whole-app suite's work, not a benchmark's.
pub async fn stop(app: Harness) -> Result<()> {
    app.driver.quit().await?;
    app.server.shutdown().await?;
    Ok(())
}

async fn table_figures(app: &Harness, path: &str, runs: usize) -> Result<TableFigures> {
    let mut renders = Vec::new();
    let mut timelines = Vec::new();
    for _ in 0..runs.min(5) {
        renders.push(
            painted_after_navigation(app, path)
                .await
                .with_context(|| format!("first render of {path}"))?,
        );
        timelines.push(
            wait_for_mark(app, "__barPaintedAt")
                .await
                .with_context(|| format!("first timeline bar of {path}"))?,
        );
    }
    let mut keystrokes = Vec::new();
    let mut scripts = Vec::new();
    for i in 0..runs {
        // Alternate two filters that each keep a few thousand rows, so every keystroke
        // changes what is shown.
        let value = if i % 2 == 0 { "gpu" } else { "disk" };
        let took = app
            .driver
            .execute(KEYSTROKE, vec![serde_json::json!(value)])
            .await
            .with_context(|| format!("keystroke {i} on {path}"))?;
        let took = took.json();
        keystrokes.push(took["total"].as_f64().unwrap_or(f64::NAN));
        scripts.push(took["script"].as_f64().unwrap_or(f64::NAN));
    }
    app.driver
        .execute(KEYSTROKE, vec![serde_json::json!("")])
        .await
        .context("clearing the filter")?;
    let rows_in_dom = app
        .eval("return document.querySelectorAll('tbody tr:not(.spacer)').length")
        .await?
        .as_u64()
        .unwrap_or(0);
    // What the table keeps, not garbage a collection would free.
    ChromeDevTools::new(app.driver.handle.clone())
        .execute_cdp("HeapProfiler.collectGarbage")
        .await
        .context("collecting garbage")?;
    let heap = app
        .eval("return performance.memory ? performance.memory.usedJSHeapSize : 0")
        .await?
        .as_f64()
        .unwrap_or(0.0);
    Ok(TableFigures {
        first_render_ms: median(&mut renders),
        timeline_first_bar_ms: median(&mut timelines),
        keystroke_ms: median(&mut keystrokes),
        keystroke_script_ms: median(&mut scripts),
        rows_in_dom,
        js_heap_mb: heap / (1024.0 * 1024.0),
    })
}

/// Navigates to `path` and returns the time from navigation start until the first
/// table row has been painted.
async fn painted_after_navigation(app: &Harness, path: &str) -> Result<f64> {
    app.open(path).await?;
    wait_for_mark(app, "__paintedAt")
        .await
        .with_context(|| format!("no table row was painted on {path}"))
}

/// Resolves with `window[arguments[0]]` once it is set, or with null after 10 s. Polled in
/// the page, not through WebDriver, so the wait costs the page's main thread (slowed down
/// by `felt`'s CPU throttling) next to nothing while it works.
const MARK_WHEN_SET: &str = "
    const mark = arguments[0];
    const until = performance.now() + 10000;
    return new Promise((resolve) => {
        const check = () => {
            if (window[mark] !== undefined) resolve(window[mark]);
            else if (performance.now() > until) resolve(null);
            else setTimeout(check, 20);
        };
        check();
    });
";

/// Waits until [`PAINT_WATCHER`] (or a watch added with its `__watchPaint`) has set
/// `window[mark]`, and returns it.
pub async fn wait_for_mark(app: &Harness, mark: &str) -> Result<f64> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let set = app
            .driver
            .execute(MARK_WHEN_SET, vec![serde_json::json!(mark)])
            .await?;
        if let Some(ms) = set.json().as_f64() {
            return Ok(ms);
        }
        if tokio::time::Instant::now() > deadline {
            bail!("{mark} was not set within two minutes");
        }
    }
}

/// Median time from navigation to the painted table of `path`, after one load to warm the
/// cache.
async fn warm_page_load(app: &Harness, path: &str, runs: usize) -> Result<f64> {
    painted_after_navigation(app, path).await?;
    let mut loads = Vec::new();
    for _ in 0..runs {
        loads.push(painted_after_navigation(app, path).await?);
    }
    Ok(median(&mut loads))
}

/// Runs `fill` in one transaction on the demo database, with the time now.
async fn fill_database(
    app: &Harness,
    what: &'static str,
    fill: impl FnOnce(&rusqlite::Transaction, f64) -> rusqlite::Result<()> + Send + 'static,
) -> Result<()> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs_f64();
    app.server
        .state()
        .db
        .run(move |conn| {
            let tx = conn.transaction()?;
            fill(&tx, now)?;
            tx.commit()?;
            Ok(())
        })
        .await
        .map_err(|e| anyhow::anyhow!("adding {what}: {e:?}"))
}

/// A host with 5,000 machines (8 GPUs, one rental each) and one upcoming window on every
/// tenth machine, signing in with [`BIG_HOST_KEY`].
async fn add_big_host(app: &Harness) -> Result<()> {
    fill_database(app, "the generated host", |tx, now| {
        tx.execute(
            "INSERT INTO users (id, email, username, created_at) VALUES (?1, 'big@bench.test', 'big-host', ?2)",
            (BIG_HOST_ID, now),
        )?;
        tx.execute(
            "INSERT INTO api_keys (key_hash, user_id, created_at) VALUES (?1, ?2, ?3)",
            (gpudeck_server::keys::hash_key(BIG_HOST_KEY), BIG_HOST_ID, now),
        )?;
        let mut machine = tx.prepare(
            "INSERT INTO machines (id, owner_id, hostname, num_gpus, gpu_name, reliability2)
             VALUES (?1, ?2, ?3, 8, 'RTX 4090', 0.97)",
        )?;
        // Listed: an open-ended offer.
        let mut offer = tx.prepare(
            "INSERT INTO offers (machine_id, price_gpu, price_min_bid) VALUES (?1, 0.42, 0.25)",
        )?;
        let mut contract = tx.prepare(
            "INSERT INTO contracts (machine_id, renter_id, slot_start, gpu_count) VALUES (?1, ?2, ?3, 2)",
        )?;
        let mut window = tx.prepare(
            "INSERT INTO maintenances (machine_id, start_time, duration_hours, category, created_at)
             VALUES (?1, ?2, 2, 'disk', ?3)",
        )?;
        for id in BIG_HOST_MACHINES {
            machine.execute((id, BIG_HOST_ID, format!("big-{id}")))?;
            offer.execute([id])?;
            contract.execute((id, demo::GUSTAV_ID, (id % 4) * 2))?;
            if id % 10 == 0 {
                window.execute((id, now + (id % 200) as f64 * 3600.0 + 600.0, now))?;
            }
        }
        Ok(())
    })
    .await
}

/// Gives alice 1,000 more machines with ten upcoming windows each.
async fn add_big_table(app: &Harness) -> Result<()> {
    fill_database(app, "the benchmark table", |tx, now| {
        let mut machine = tx.prepare(
            "INSERT INTO machines (id, owner_id, hostname, num_gpus) VALUES (?1, ?2, ?3, 8)",
        )?;
        let mut window = tx.prepare(
            "INSERT INTO maintenances (machine_id, start_time, duration_hours, category, reason, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let categories = ["power", "internet", "disk", "gpu", "software", "other"];
        for id in BIG_TABLE_MACHINES {
            machine.execute((id, demo::ALICE_ID, format!("bench-{id}")))?;
            for k in 0..10i64 {
                let start = now + ((id * 7 + k * 13) % 240) as f64 * 3600.0 + 600.0;
                let category = categories[((id + k) % 6) as usize];
                window.execute((id, start, 1 + (id + k) % 8, category, "bench window", now - 86_400.0))?;
            }
        }
        Ok(())
    })
    .await
}
