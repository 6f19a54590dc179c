//! `cargo xtask bench`: measures the bundle, the console in Chromium (also slowed down to
//! a phone's and a desktop's network and CPU), the server under load and the maintenance
//! planner, prints the figures as tables and writes them to `target/bench/report.md`.
//! These are measurements to read, not tests: nothing here passes or fails on a number.

mod browser;
mod felt;
mod figures;
mod lighthouse;
mod load;
mod plan;
mod report;
mod size;

use anyhow::{Context, Result};
use figures::{Figures, Target, Unit};
use load::{DataSet, Request, Server};
use report::{ms, Table};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What `cargo xtask bench` can be asked to measure; all of it when asked for nothing.
const PARTS: [&str; 5] = ["size", "browser", "felt", "server", "plan"];
/// How many times each browser figure is measured (the median is reported);
/// `GPUDECK_BENCH_RUNS` lowers it for a quick look.
const BROWSER_RUNS: usize = 15;
/// Fresh browser sessions per `felt` preset (each one signs in and opens every page);
/// `GPUDECK_BENCH_RUNS` sets this too.
const FELT_RUNS: usize = 5;
/// Seconds per load run.
const LOAD_SECONDS: u32 = 5;
const CONNECTIONS: [u32; 3] = [1, 16, 64];

#[tokio::main]
async fn main() -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()?;
    let only: Vec<String> = std::env::args().skip(1).collect();
    if let Some(unknown) = only.iter().find(|o| !PARTS.contains(&o.as_str())) {
        anyhow::bail!(
            "no bench part {unknown}: the parts are {}",
            PARTS.join(", ")
        );
    }
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| o == part);
    let scratch = load::scratch_dir(&root)?;
    let mut out = String::new();
    let mut figures = Figures::default();
    let kept = scratch.join("figures.json");
    let previous = figures::previous(&kept, &root.join("crates/bench/baseline.json"))?;
    writeln!(out, "# gpudeck benchmarks\n\n{}\n", machine_description())?;

    if wanted("size") {
        let files = size::measure(&root.join("dist"))?;
        let table = size::table(&files);
        writeln!(
            out,
            "## First-load transfer (release build, `dist/`)\n\n{}",
            table.markdown()
        )?;
        let first_visit: usize = files.iter().map(|f| f.gzip).sum();
        figures.add(
            "first visit, unsplit (gzip)",
            first_visit as f64,
            Unit::Bytes,
            None,
        );
        let split = root.join("target/split");
        if split.join("chunks.txt").exists() {
            let loads = size::split_loads(&split.join("dist"), &split.join("chunks.txt"))?;
            writeln!(
                out,
                "\n## First-load transfer, split by route (`target/split/dist`)\n\n{}",
                size::split_table(&loads).markdown()
            )?;
            add_split_figures(&mut figures, &loads);
        }
        print_section(&out);
    }
    if wanted("browser") {
        let runs = runs_or(BROWSER_RUNS);
        eprintln!("measuring the console in Chromium ({runs} runs each)…");
        let browser = browser::measure(runs).await?;
        writeln!(out, "{}", browser_section(&browser))?;
        add_browser_figures(&mut figures, &browser);
        let split_dist = split_dist(&root);
        if split_dist.join("index.html").exists() {
            let split = browser::measure_split(split_dist, runs).await?;
            writeln!(
                out,
                "The build split by route (`target/split/dist`), the same pages: maintenance, \
                 100 machines **{}**; Machines, 120 machines **{}**.\n",
                ms(split.maintenance_100_ms),
                ms(split.machines_120_ms)
            )?;
            figures.add(
                "maintenance page, 100 machines, warm, split build",
                split.maintenance_100_ms,
                Unit::Milliseconds,
                None,
            );
            figures.add(
                "Machines page, 120 machines, split build",
                split.machines_120_ms,
                Unit::Milliseconds,
                None,
            );
        }
        print_section(&out);
    }
    if wanted("felt") {
        let runs = runs_or(FELT_RUNS);
        let dist = split_dist(&root);
        eprintln!(
            "measuring the split console in {} as a person feels it ({runs} runs per preset)…",
            dist.display()
        );
        writeln!(
            out,
            "## Speed as a person feels it (`felt`: the build split by route, throttled, cache off)\n\n\
             Chromium slowed down through the DevTools protocol to Lighthouse's presets, its cache \
             disabled, a fresh browser session per run, demo server on loopback. Bytes are \
             `transferSize` (brotli as sent, with headers) of every response ended by then. Pages \
             are opened by their address in a tab that holds a key; each is timed to its heading \
             and its content (first data row or main form) painted.\n"
        )?;
        for preset in felt::measure(dist.clone(), runs).await? {
            let preset_figures = preset.figures();
            writeln!(
                out,
                "{}",
                preset.section(&preset_figures.table(&previous).markdown())
            )?;
            figures.append(preset_figures);
            writeln!(
                out,
                "{}",
                lighthouse_section(&dist, &preset, &mut figures).await?
            )?;
        }
        print_section(&out);
    }
    if wanted("server") {
        let binary = std::env::var_os("GPUDECK_SERVER_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target/release/gpudeck-server"));
        writeln!(out, "{}", server_section(&binary, &scratch, &mut figures)?)?;
        print_section(&out);
    }
    if wanted("plan") {
        writeln!(out, "{}", plan_section(&mut figures))?;
        print_section(&out);
    }
    writeln!(
        out,
        "## Every figure beside the previous run's\n\n{}",
        figures.table(&previous).markdown()
    )?;
    print_section(&out);
    figures::keep(&figures.merged_into(previous), &kept)?;
    let report = scratch.join("report.md");
    std::fs::write(&report, &out).with_context(|| format!("writing {}", report.display()))?;
    eprintln!("\nwritten to {}", report.display());
    Ok(())
}

/// `GPUDECK_BENCH_RUNS` when set, else `default`.
fn runs_or(default: usize) -> usize {
    std::env::var("GPUDECK_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(default)
}

/// The console split by route: `GPUDECK_SPLIT_DIST`, else `target/split/dist`.
/// (`GPUDECK_DIST` names the unsplit build the browser part measures.)
fn split_dist(root: &Path) -> PathBuf {
    std::env::var_os("GPUDECK_SPLIT_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/split/dist"))
}

fn print_section(out: &str) {
    // Print only what is new since the last call.
    static PRINTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let from = PRINTED.swap(out.len(), std::sync::atomic::Ordering::Relaxed);
    print!("{}", &out[from..]);
}

/// The split build's loads, by the names the figures are kept under.
fn add_split_figures(figures: &mut Figures, loads: &[size::Load]) {
    for load in loads {
        let name = match load.page.as_deref() {
            Some("sign_in") => "first visit, split by route (gzip)".to_owned(),
            Some(page) => format!("first load of {page} (gzip)"),
            None => "all split files together (gzip)".to_owned(),
        };
        figures.add(
            name,
            load.gzip as f64,
            Unit::Bytes,
            Some(Target::AtMost(load.target as f64)),
        );
    }
}

fn add_browser_figures(figures: &mut Figures, f: &browser::BrowserFigures) {
    let at_most = |limit| Some(Target::AtMost(limit));
    figures.add(
        "maintenance page, 100 machines, warm",
        f.maintenance_100_ms,
        Unit::Milliseconds,
        at_most(150.0),
    );
    figures.add(
        "Machines page, 120 machines",
        f.machines_120_ms,
        Unit::Milliseconds,
        None,
    );
    figures.add(
        "Machines page, 5,000 machines",
        f.machines_5000_ms,
        Unit::Milliseconds,
        at_most(browser::MACHINES_5000_TARGET_MS),
    );
    figures.add(
        "10,000-row table, first render",
        f.windowed.first_render_ms,
        Unit::Milliseconds,
        None,
    );
    figures.add(
        "timeline of 1,000 machines, navigation → first bar painted",
        f.windowed.timeline_first_bar_ms,
        Unit::Milliseconds,
        at_most(browser::TIMELINE_1000_TARGET_MS),
    );
    figures.add(
        "filter keystroke on 10,000 rows, to the painted frame",
        f.windowed.keystroke_ms,
        Unit::Milliseconds,
        at_most(browser::KEYSTROKE_TARGET_MS),
    );
    figures.add(
        "filter keystroke on 10,000 rows, script part",
        f.windowed.keystroke_script_ms,
        Unit::Milliseconds,
        at_most(browser::KEYSTROKE_SCRIPT_TARGET_MS),
    );
    figures.add(
        "filter keystroke, windowing off ÷ on",
        f.all_rows.keystroke_ms / f.windowed.keystroke_ms,
        Unit::Number,
        Some(Target::AtLeast(10.0)),
    );
    figures.add(
        "JS heap after the 10,000-row table (MB)",
        f.windowed.js_heap_mb,
        Unit::Number,
        None,
    );
}

fn browser_section(f: &browser::BrowserFigures) -> String {
    let mut table = Table::new(&[
        "measure",
        "windowing on",
        "windowing off (rows=all)",
        "ratio",
    ]);
    let (on, off) = (&f.windowed, &f.all_rows);
    let met = |ok: bool| if ok { "met" } else { "not met" };
    table.row(vec![
        "first render of 10,000 rows (navigation → painted)".into(),
        ms(on.first_render_ms),
        ms(off.first_render_ms),
        format!("{:.1}×", off.first_render_ms / on.first_render_ms),
    ]);
    table.row(vec![
        "filter keystroke → next frame painted".into(),
        ms(on.keystroke_ms),
        ms(off.keystroke_ms),
        format!("{:.1}×", off.keystroke_ms / on.keystroke_ms),
    ]);
    table.row(vec![
        "of which script (input event → the app's work done)".into(),
        ms(on.keystroke_script_ms),
        ms(off.keystroke_script_ms),
        format!("{:.1}×", off.keystroke_script_ms / on.keystroke_script_ms),
    ]);
    table.row(vec![
        "navigation → first timeline bar painted".into(),
        ms(on.timeline_first_bar_ms),
        ms(off.timeline_first_bar_ms),
        String::new(),
    ]);
    table.row(vec![
        "table rows in the DOM".into(),
        on.rows_in_dom.to_string(),
        off.rows_in_dom.to_string(),
        String::new(),
    ]);
    table.row(vec![
        "JS heap after the table (MB)".into(),
        format!("{:.1}", on.js_heap_mb),
        format!("{:.1}", off.js_heap_mb),
        String::new(),
    ]);
    format!(
        "## The console in headless Chromium (release build, demo server on loopback, medians of {} runs)\n\n\
         - navigation start → maintenance table for 100 machines painted, warm cache: **{}**\n\
         - navigation start → Machines table painted (medians of {}): alice's 120 machines **{}**; \
         a generated host's 5,000 machines **{}** (target ≤ {}: {})\n\
         - 1,000 machines (10,000 windows), windowed: filter keystroke → painted **{}** (target ≤ {}: {}), \
         of which script **{}** (target ≤ {}: {}); navigation → first timeline bar painted **{}** \
         (target ≤ {}: {})\n\n{}",
        f.runs,
        ms(f.maintenance_100_ms),
        f.runs.min(browser::MACHINES_RUNS),
        ms(f.machines_120_ms),
        ms(f.machines_5000_ms),
        ms(browser::MACHINES_5000_TARGET_MS),
        if f.machines_5000_ms <= browser::MACHINES_5000_TARGET_MS { "met" } else { "not met" },
        ms(on.keystroke_ms),
        ms(browser::KEYSTROKE_TARGET_MS),
        met(on.keystroke_ms <= browser::KEYSTROKE_TARGET_MS),
        ms(on.keystroke_script_ms),
        ms(browser::KEYSTROKE_SCRIPT_TARGET_MS),
        met(on.keystroke_script_ms <= browser::KEYSTROKE_SCRIPT_TARGET_MS),
        ms(on.timeline_first_bar_ms),
        ms(browser::TIMELINE_1000_TARGET_MS),
        met(on.timeline_first_bar_ms <= browser::TIMELINE_1000_TARGET_MS),
        table.markdown()
    )
}

fn plan_section(figures: &mut Figures) -> String {
    eprintln!("planning {} machines…", plan::MACHINES);
    let f = plan::measure();
    figures.add(
        "maintenance plan of 5,000 machines",
        f.plan_ms,
        Unit::Milliseconds,
        Some(Target::AtMost(plan::TARGET_MS)),
    );
    figures.add(
        "re-check of a 5,000-machine plan",
        f.check_ms,
        Unit::Milliseconds,
        None,
    );
    format!(
        "## The maintenance planner (release build, natively, medians of {} runs)\n\n\
         {} generated machines with {} existing windows, {} of them with rentals that end \
         before a window may start, {}-hour windows, at most {} machines down, within {} \
         days: plan **{}** (target ≤ {}: {}); re-check of the plan **{}**. \
         {} planned in {} batches, finishing after {:.0} hours; {} not planned.\n",
        plan::RUNS,
        plan::MACHINES,
        f.existing_windows,
        f.with_release_time,
        plan::DURATION_HOURS,
        plan::CAP_MACHINES,
        plan::RANGE_DAYS,
        ms(f.plan_ms),
        ms(plan::TARGET_MS),
        if f.plan_ms <= plan::TARGET_MS {
            "met"
        } else {
            "not met"
        },
        ms(f.check_ms),
        f.placed,
        f.batches,
        f.finish_hours,
        f.unplaced,
    )
}

/// Lighthouse on every page `preset` timed, beside the felt figures: one Lighthouse run
/// per page (each takes tens of seconds), or a line saying why there is none.
async fn lighthouse_section(
    dist: &Path,
    preset: &felt::PresetFigures,
    figures: &mut Figures,
) -> Result<String> {
    let name = preset.preset().name;
    let heading = format!("#### Lighthouse 12.2.3, {name} preset, throttling applied (devtools)");
    let Some(installed) = lighthouse::installed() else {
        return Ok(format!(
            "{heading}\n\nnot measured: Lighthouse is not installed (`cargo xtask bench felt` installs it)\n"
        ));
    };
    let pages: Vec<(&str, f64, f64)> = preset.page_medians().collect();
    let paths: Vec<&str> = pages.iter().map(|(path, _, _)| *path).collect();
    eprintln!("  Lighthouse, {name} preset, on {} pages…", paths.len());
    let reports = lighthouse::measure(&installed, dist.to_path_buf(), name, &paths).await?;
    let rows: Vec<lighthouse::BothYardsticks> = pages
        .iter()
        .map(|&(path, painted_ms, bytes)| lighthouse::BothYardsticks {
            path,
            painted_ms,
            bytes,
            verdict: preset.preset().verdict(painted_ms, bytes),
            lighthouse: reports.iter().find(|r| r.path == path),
        })
        .collect();
    for report in &reports {
        let name = |what: &str| format!("lighthouse, {name}: {} {what}", report.path);
        if let Some(lcp) = report.lcp_ms {
            figures.add(name("LCP"), lcp, Unit::Milliseconds, None);
        }
        if let Some(tbt) = report.tbt_ms {
            figures.add(name("total blocking time"), tbt, Unit::Milliseconds, None);
        }
    }
    Ok(format!(
        "{heading}\n\nOne run per page, each opened cold (Lighthouse clears the cache) in a tab \
         that signed in first. Its throttling adds a request latency the felt bench does not \
         (562.5 ms on mobile, 150 ms on desktop), so its times are higher; the element is the largest paint, \
         which may be a heading or the lede while rows still arrive.\n\n{}",
        lighthouse::table(&rows).markdown()
    ))
}

fn server_section(binary: &Path, scratch: &Path, figures: &mut Figures) -> Result<String> {
    let big = scratch.join("big.sqlite");
    let small = scratch.join("small.sqlite");
    eprintln!("generating 100,000 machines with 1,000,000 windows…");
    let started = std::time::Instant::now();
    let big_set = DataSet {
        machines: 100_000,
        windows_per_machine: 10,
        busy_machines: 100,
    };
    load::generate(&big, &big_set)?;
    let generated = started.elapsed().as_secs_f64();
    let small_set = DataSet {
        machines: 1_000,
        windows_per_machine: 10,
        busy_machines: 0,
    };
    load::generate(&small, &small_set)?;
    let busy_ids = big_set.machines - big_set.busy_machines + 1..=big_set.machines;

    let mut out = format!(
        "## The server under load (release build, wrk on loopback, {LOAD_SECONDS} s per run)\n\n\
         Database: 100,000 machines, 1,000,000 maintenance windows (generated in {generated:.1} s). \
         Each machine has 10 windows: 9 in the past year (ended, 1 in 20 cancelled) and one \
         upcoming (cancelled on 1 machine in 20), so 100 machines have 95 active windows. \
         The last 100 machines are busy, all 10 windows upcoming: 1,000 active windows. \
         Request logging off (`RUST_LOG=warn`).\n\n"
    );
    let server = Server::start(binary, &big)?;
    let mut table = Table::new(&[
        "request",
        "connections",
        "requests/s",
        "p50",
        "p99",
        "non-2xx",
    ]);
    let maintenance = Request::Get(load::maintenance_path(1..=100));
    let busy = Request::Get(load::maintenance_path(busy_ids));
    let current = Request::Get("/api/v0/users/current".into());
    let defrag = load::defrag_request(10);
    let mut headline = Vec::new();
    for connections in CONNECTIONS {
        eprintln!("load at {connections} connections…");
        let m = load::run_wrk(&server, &maintenance, connections, LOAD_SECONDS, scratch)?;
        let u = load::run_wrk(&server, &current, connections, LOAD_SECONDS, scratch)?;
        let d = load::run_wrk(&server, &defrag, connections, LOAD_SECONDS, scratch)?;
        let b = load::run_wrk(&server, &busy, connections, LOAD_SECONDS, scratch)?;
        load::load_row(&mut table, "maintenance list, 100 ids", connections, &m);
        load::load_row(
            &mut table,
            "maintenance list, 100 busy machines (1,000 windows)",
            connections,
            &b,
        );
        load::load_row(&mut table, "users/current", connections, &u);
        load::load_row(&mut table, "defrag, 10 machines", connections, &d);
        headline.push((
            connections,
            m.requests_per_second / u.requests_per_second,
            m.p99_ms,
        ));
    }
    out.push_str(&table.markdown());
    out.push_str("\nHeadline, maintenance list ÷ users/current throughput:\n\n");
    for (connections, ratio, p99) in headline {
        let _ = writeln!(
            out,
            "- {connections} connections: **{ratio:.2}** (maintenance p99 {})",
            ms(p99)
        );
        figures.add(
            format!("maintenance ÷ users/current throughput, {connections} connections"),
            ratio,
            Unit::Number,
            Some(Target::AtLeast(0.5)),
        );
        figures.add(
            format!("maintenance list p99, {connections} connections"),
            p99,
            Unit::Milliseconds,
            (connections == 64).then_some(Target::AtMost(10.0)),
        );
    }

    let mut scaling = Table::new(&[
        "ids asked",
        "p50 on 1,000,000 windows",
        "p99",
        "p50 on 10,000 windows",
        "p99",
    ]);
    let small_server = Server::start(binary, &small)?;
    for ids in [1, 10, 100, 1000] {
        let request = Request::Get(load::maintenance_path(1..=ids));
        let big_load = load::run_wrk(&server, &request, 16, LOAD_SECONDS, scratch)?;
        let small_load = load::run_wrk(&small_server, &request, 16, LOAD_SECONDS, scratch)?;
        scaling.row(vec![
            ids.to_string(),
            ms(big_load.p50_ms),
            ms(big_load.p99_ms),
            ms(small_load.p50_ms),
            ms(small_load.p99_ms),
        ]);
    }
    let _ = write!(
        out,
        "\n### Maintenance latency by ids asked and by table size (16 connections)\n\n{}\n",
        scaling.markdown()
    );
    let _ = writeln!(
        out,
        "Peak resident memory of the server during the load on 1,000,000 windows: **{}**\n",
        server
            .peak_rss_mb()
            .map(|m| format!("{m:.0} MB"))
            .unwrap_or_else(|| "unknown".into())
    );
    Ok(out)
}

fn machine_description() -> String {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .unwrap_or("unknown CPU")
        .trim()
        .to_owned();
    let cores = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let memory_gb = read("/proc/meminfo")
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0 / 1024.0)
        .unwrap_or_default();
    let version = |program: &str, arg: &str| {
        std::process::Command::new(program)
            .arg(arg)
            .output()
            .ok()
            .map(|o| {
                let text = if o.stdout.is_empty() {
                    o.stderr
                } else {
                    o.stdout
                };
                String::from_utf8_lossy(&text)
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_owned()
            })
            .unwrap_or_else(|| format!("{program}: not found"))
    };
    // Others' work on a shared machine shows in every figure: say how busy it was.
    let load = read("/proc/loadavg")
        .split_whitespace()
        .next()
        .unwrap_or("unknown")
        .to_owned();
    format!(
        "Machine: {model}, {cores} cores, {memory_gb:.0} GiB, load average {load} at the start; \
         {}; {}; {}.",
        version("rustc", "--version"),
        version("/usr/bin/chromium", "--version"),
        version("wrk", "--version"),
    )
}
