//! The commands the README names.

use crate::parallel::at_a_time;
use crate::scratch::BrowserScratch;
use crate::server_process::Started;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM};
use crate::shell::{cargo, elapsed, exec, root, step, timed};
use crate::test_builds::{self, TestBuild};
use crate::test_files::{self, TestFile};
use crate::{compress, disk, e2e, package, reuse_check, split};
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DEFAULT_PORT: u16 = 8787;

/// What `cargo xtask run` was asked for.
#[derive(Debug, PartialEq)]
struct RunOptions {
    port: u16,
    /// Forward every API request to this base URL instead of serving the demo data.
    upstream: Option<String>,
}

const RUN_USAGE: &str = "usage: cargo xtask run [--port N] [--upstream URL]";

fn run_options(args: &[String]) -> Result<RunOptions> {
    let mut options = RunOptions {
        port: DEFAULT_PORT,
        upstream: None,
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            bail!("{flag} needs a value; {RUN_USAGE}");
        };
        match flag.as_str() {
            "--port" => options.port = value.parse().context("--port takes a number")?,
            "--upstream" => {
                // Said before the build, not ten minutes later by the server.
                if !(value.starts_with("https://") || value.starts_with("http://")) {
                    bail!("--upstream takes an http:// or https:// URL, such as https://console.vast.ai; not {value:?}");
                }
                options.upstream = Some(value.clone());
            }
            _ => bail!("{RUN_USAGE}"),
        }
    }
    Ok(options)
}

/// Set up, build the shipping console (release, split by route: the build the whole-app
/// suite tests, from the same cache) and serve it from the debug server: with the demo
/// data, or forwarding to the upstream named by `--upstream` (your own account; no demo
/// database, no demo keys).
pub fn run(args: &[String]) -> Result<()> {
    let started = Instant::now();
    let options = run_options(args)?;
    disk::ensure_room(disk::RUN_NEEDS_GIB, "run")?;
    timed("setting up", || setup::ensure_all(false))?;
    split::build_split_console()?;
    // The test build's debug server: a demo serves one person, and only `cargo xtask
    // package` needs the release build.
    step("building the reference server (debug, as the test suites run it)");
    let (binary, _) = timed("cargo build (server)", test_builds::server)?;
    println!(
        "\n{}",
        run_took(started.elapsed().as_secs(), setup::yardstick_seconds())
    );
    let address = format!("127.0.0.1:{}", options.port);
    let mut server = Command::new(binary);
    server
        .args(["--addr", &address, "--static-dir"])
        .arg(split::dist_dir());
    match &options.upstream {
        Some(upstream) => {
            step(&format!(
                "building and starting the reference server, forwarding to {upstream}"
            ));
            println!("    the console will be on http://{address}/; every API request goes to {upstream}");
            println!("    sign in with your own API key: it stays in that browser tab only");
            println!("    Ctrl-C stops the server");
            server.args(["--memory", "--upstream", upstream]);
        }
        None => {
            step("building and starting the reference server with demo data");
            let db = root().join("target/demo/gpudeck.sqlite");
            reset_demo_db(&db)?;
            println!("    the console and the API will be on http://{address}/");
            println!(
                "    sign in with one of the demo keys printed below; Ctrl-C stops the server"
            );
            server.arg("--db").arg(&db).arg("--demo");
        }
    }
    exec(&mut server)
}

/// How long `run` took to build, next to the machine's yardstick when it has one: the
/// wasm-bindgen-cli install every fresh run performs (docs/performance.md).
fn run_took(seconds: u64, yardstick: Option<u64>) -> String {
    let took = format!("the run built everything in {}", elapsed(seconds));
    match yardstick {
        Some(install) => format!(
            "{took}; this machine built wasm-bindgen-cli in {}, so the run took {:.1} times that",
            elapsed(install),
            seconds as f64 / install as f64
        ),
        None => took,
    }
}

/// Only the API, for `trunk serve` (whose proxy forwards /api/ to port 8787); installs
/// what `trunk serve` needs first.
pub fn serve_api() -> Result<()> {
    setup::ensure_all(false)?;
    setup::ensure_trunk()?;
    let db = root().join("target/demo/gpudeck-dev.sqlite");
    reset_demo_db(&db)?;
    let (binary, _) = test_builds::server()?;
    exec(Command::new(binary).args([
        "--addr",
        &format!("127.0.0.1:{DEFAULT_PORT}"),
        "--db",
        &db.to_string_lossy(),
        "--demo",
    ]))
}

fn reset_demo_db(db: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(db.parent().expect("db path has a parent"))?;
    for suffix in ["", "-wal", "-shm"] {
        let path = format!("{}{suffix}", db.display());
        if std::path::Path::new(&path).exists() {
            std::fs::remove_file(&path).with_context(|| format!("removing {path}"))?;
        }
    }
    Ok(())
}

/// The console unsplit, in one bundle (`dist/`): only the bench, which measures what
/// splitting gains, needs it.
fn build_unsplit_console() -> Result<()> {
    setup::ensure_trunk()?;
    step("building the console unsplit (release: trunk, wasm-opt -Oz)");
    exec(
        Command::new("trunk")
            .args(["build", "--release"])
            .env("PATH", setup::path_with_tools())
            .current_dir(root()),
    )?;
    compress::precompress_console(&root().join("dist"), None)
}

/// Figures, not tests: bundle size, the console in Chromium, the console as a person feels
/// it, the server under load, the maintenance planner. Extra arguments (`size`, `browser`,
/// `felt`, `server`, `plan`) pick parts; only what the picked parts measure is built.
pub fn bench(args: &[String]) -> Result<()> {
    let wanted = |part: &str| args.is_empty() || args.iter().any(|a| a == part);
    // The planner is measured natively: asked alone, it needs no browser.
    let planner_only = args.iter().all(|a| a == "plan") && !args.is_empty();
    if !planner_only {
        setup::ensure_all(true)?;
    }
    if wanted("server") {
        setup::ensure_wrk()?;
    }
    if wanted("felt") {
        setup::ensure_lighthouse()?;
    }
    // size and browser measure the unsplit build too.
    if wanted("size") || wanted("browser") {
        build_unsplit_console()?;
    }
    // size reads the split build's lists, browser times its pages too, felt times only it.
    if wanted("size") || wanted("browser") || wanted("felt") {
        split::build_split_console()?;
    }
    // The bench runs the server in-process for the browser parts; the server part loads
    // the release binary.
    let mut packages = vec!["-p", "gpudeck-bench"];
    if wanted("server") {
        packages.extend(["-p", "gpudeck-server"]);
    }
    step("building the benchmarks (release)");
    exec(cargo().args(["build", "--release"]).args(packages))?;
    step("measuring (about 13 minutes for every part; keep the machine otherwise idle)");
    let scratch = BrowserScratch::new("bench")?;
    exec(
        scratch
            .apply(&mut Command::new(
                root().join("target/release/gpudeck-bench"),
            ))
            .args(args)
            .current_dir(root())
            .env("GPUDECK_DIST", root().join("dist"))
            .env("GPUDECK_SPLIT_DIST", split::dist_dir())
            .env(
                "GPUDECK_SERVER_BIN",
                root().join("target/release/gpudeck-server"),
            )
            .env("GPUDECK_LIGHTHOUSE_DIR", setup::lighthouse_dir())
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("CHROMIUM", CHROMIUM),
    )
}

struct Suite {
    name: &'static str,
    what: &'static str,
    run: fn() -> Result<()>,
}

const SUITES: &[Suite] = &[
    Suite {
        name: "format",
        what: "cargo fmt --check, then leptosfmt --check on the view! markup",
        run: || {
            exec(cargo().args(["fmt", "--all", "--", "--check"]))?;
            setup::ensure_leptosfmt()?;
            // leptosfmt.toml sets its width; the console and its wasm tests hold the markup.
            exec(Command::new("leptosfmt")
                .args(["--quiet", "--check", "src", "tests"])
                .current_dir(root()))
        },
    },
    Suite {
        name: "lint",
        what: "clippy on the native and wasm test builds (also the split feature), warnings are errors; run's server is the tested one",
        run: lint,
    },
    Suite {
        name: "native",
        what: "unit and server tests (the console's logic, wire, server, with the official client; xtask)",
        run: native_tests,
    },
    Suite {
        name: "fuzz",
        what: "schemathesis against the demo server's OpenAPI document: no 5xx, no answer off the document",
        run: fuzz,
    },
    Suite {
        name: "wasm",
        what: "console tests in headless Chromium (wasm-bindgen-test), its three files side by side",
        run: wasm_tests,
    },
    Suite {
        name: "dev",
        what: "trunk build of the development bundle that trunk serve serves (unsplit, debug)",
        run: dev_bundle,
    },
    Suite {
        name: "split",
        what: "the shipping build (cargo xtask split), and that its kept steps rebuild it byte for byte",
        run: || {
            split::build_split_console()?;
            split::check_optimiser()?;
            reuse_check::check()
        },
    },
    Suite {
        name: "package",
        what: "the package's folder (with the test build's server), started outside the source tree, forwarding",
        run: package::check,
    },
    Suite {
        name: "e2e",
        what: "whole-app tests: release console split by route + demo server, driven by WebDriver",
        run: e2e::run,
    },
];

/// Clippy, warnings as errors, on both test builds, compiling them for the suites after it
/// (see test_builds.rs), and on the console with its `split` feature; then that the server
/// `run` starts is the one they test.
fn lint() -> Result<()> {
    let mut builds = TestBuild::native()?;
    let tested_server = builds.binary(test_builds::SERVER)?.to_owned();
    // The crates of the console's tree are in the wasm builds and the native one.
    builds.add_diagnostics(TestBuild::wasm()?.diagnostics);
    builds.add_diagnostics(test_builds::split_feature_diagnostics()?);
    let diagnostics = builds.diagnostics;
    for diagnostic in &diagnostics {
        eprint!("{diagnostic}");
    }
    if !diagnostics.is_empty() {
        bail!("clippy: {} warnings in the test builds", diagnostics.len());
    }
    test_builds::check_server_is_tested(&tested_server)
}

/// The native test build's files but the whole-app suite's, two at a time (the server's
/// test target a module at a time), then the doc tests. The console's logic is tested here
/// (`gpudeck-logic`); its own test files need a browser, and run in the wasm suite.
fn native_tests() -> Result<()> {
    // The server's tests run the official client too (tests/api/official_client.rs).
    let vastai = setup::ensure_vastai()?;
    let build = TestBuild::native()?;
    let whole_app = root().join("crates/e2e");
    let files: Vec<TestFile> = build
        .files
        .into_iter()
        .filter(|file| file.folder != whole_app)
        .collect();
    test_files::check_modules_declared(&root().join(SERVER_TESTS))?;
    let files = test_files::in_running_order(test_files::by_module(files)?, &NATIVE_STARTED_FIRST);
    test_files::run("native", &files, NATIVE_LANES, &[], |file| {
        let mut command = Command::new(&file.executable);
        command
            .args(file.selection())
            .current_dir(&file.folder)
            .env("GPUDECK_VASTAI", &vastai);
        command
    })?;
    test_builds::doc_tests()
}

/// How many native test files (or modules) run at once.
const NATIVE_LANES: usize = 2;

/// The reference server's test target, a module per area (see its `main.rs`).
const SERVER_TESTS: &str = "crates/server/tests/api";

/// The native test modules started first, longest first; the rest follow by name.
const NATIVE_STARTED_FIRST: [&str; 2] = ["authorization", "official_client"];

/// The console's three wasm test files ([`test_files::CONSOLE_WASM_TESTS`]), each in its
/// own wasm-bindgen-test runner and browser, all at once. Three, not one per area: each
/// file costs its link, and its runner preparing its module and starting Chromium, about
/// 6 s of one core; but their tests mostly wait on timers and frames (`tests/parts`, when
/// it held the fetch layer too, ran 31 s of tests on 6 s of the renderer's CPU), so a
/// third file beside the two shortens the suite.
fn wasm_tests() -> Result<()> {
    for folder in test_files::CONSOLE_WASM_TESTS {
        test_files::check_modules_declared(&root().join(folder))?;
    }
    let files = test_files::in_running_order(TestBuild::wasm()?.files, &[]);
    let scratch = BrowserScratch::new("wasm")?;
    let lanes = test_files::CONSOLE_WASM_TESTS.len();
    test_files::run("wasm", &files, lanes, &[], |file| {
        let mut command = Command::new("wasm-bindgen-test-runner");
        scratch
            .apply(&mut command)
            .arg(&file.executable)
            .current_dir(root())
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("WASM_BINDGEN_TEST_TIMEOUT", "120");
        command
    })
}

/// `trunk build` of the unsplit debug bundle, as `trunk serve` builds it, so that the
/// live-reload loop the README promises does not rot now that `run` needs no trunk. With
/// the wasm test build's compiler and features, so that cargo finds the crates that build
/// compiled instead of compiling them again (checked first).
fn dev_bundle() -> Result<()> {
    setup::ensure_trunk()?;
    test_builds::check_dev_build_is_tested()?;
    let dist = root().join("target/dev-dist");
    exec(
        test_builds::with_clippy(Command::new("trunk"))?
            .args(["build", "--features", "browser-tests", "--dist"])
            .arg(&dist)
            .env("PATH", setup::path_with_tools())
            .current_dir(root()),
    )?;
    let page =
        std::fs::read_to_string(dist.join("index.html")).context("trunk wrote no index.html")?;
    let bundle_named = |ext: &str| {
        std::fs::read_dir(&dist)
            .ok()
            .into_iter()
            .flatten()
            .flatten()
            .any(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                name.starts_with("gpudeck-") && name.ends_with(ext) && page.contains(&name)
            })
    };
    if !bundle_named(".js") || !bundle_named("_bg.wasm") {
        bail!(
            "trunk's index.html in {} names no gpudeck script and wasm it wrote",
            dist.display()
        );
    }
    println!("    the development bundle builds: {}", dist.display());
    Ok(())
}

/// The seed, so a failure can be replayed; `GPUDECK_FUZZ_SEED` picks another.
const FUZZ_SEED: u64 = 1;
/// The whole schemathesis run must end within this.
const FUZZ_TIME_LIMIT: Duration = Duration::from_secs(300);

/// Kills (SIGKILL) and reaps a child process when dropped.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One of the fuzz suite's schemathesis runs, each of every operation.
struct FuzzPart {
    name: &'static str,
    phases: &'static str,
    /// Examples per operation and phase.
    examples: &'static str,
    /// Added to the suite's seed, so that the runs' examples differ.
    seed_offset: u64,
}

/// The fuzz suite's two runs, side by side, each against a demo server of its own.
/// Schemathesis generates in one Python thread whatever its `--workers`, so one run of
/// every phase kept one core busy: 136 s with the two cores 60 % busy, 106 s of it
/// fuzzing. The fuzzing is split between two runs of every operation, 100 examples of each
/// between them; the examples and coverage phases, which draw the same cases whatever the
/// seed, run in the first only, and the second draws more fuzzing examples to end with it
/// (about 80 s). Each run ends with the stateful phase, which follows links between any
/// operations with the data its run's fuzzing learnt (split by operation instead, the
/// runs lost 30 of the 141 links; run without fuzzing before it, it covered fewer). One
/// worker thread each: with two, CPython 3.11's parser now and then failed in hypothesis
/// ([`PARSER_CRASH`]).
const FUZZ_PARTS: [FuzzPart; 2] = [
    FuzzPart {
        name: "first run",
        phases: "examples,coverage,fuzzing,stateful",
        examples: "40",
        seed_offset: 0,
    },
    FuzzPart {
        name: "second run",
        phases: "fuzzing,stateful",
        examples: "60",
        seed_offset: 1,
    },
];

/// Starts the test build's `gpudeck-server --memory --demo` (`server`) on a free loopback
/// port and runs schemathesis's `part` with every check against its OpenAPI document,
/// authenticated as the demo's alice. What schemathesis printed is kept, not printed: the
/// parts run at once.
fn fuzz_once(schemathesis: &Path, server: &Path, seed: u64, part: &FuzzPart) -> Result<FuzzRun> {
    let (mut server, key) = Started::demo_of(server)?;
    let url = server.url.clone();
    let report = root().join("target/fuzz").join(part.name.replace(' ', "-"));
    std::fs::create_dir_all(&report)?;
    let seed = (seed + part.seed_offset).to_string();
    let mut command = Command::new(schemathesis);
    command
        .arg("--config-file")
        .arg(root().join("crates/server/schemathesis.toml"))
        .args(["--no-color", "run"])
        .arg(format!("{url}/api/v0/openapi.json"))
        .args(["--header", &format!("Authorization: Bearer {key}")])
        .args(["--phases", part.phases, "--checks", "all"])
        .args(["--max-examples", part.examples, "--seed", &seed])
        .args(["--workers", "1", "--request-timeout", "10"])
        .args(["--report", "junit", "--report-dir"])
        .arg(&report);
    let mut run = KillOnDrop(
        command
            .stdout(Stdio::piped())
            .spawn()
            .context("starting schemathesis")?,
    );
    let output = run.0.stdout.take().context("schemathesis's stdout")?;
    let reader = std::thread::spawn(move || {
        BufReader::new(output)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<String>>()
    });
    let deadline = Instant::now() + FUZZ_TIME_LIMIT;
    let status = loop {
        if let Some(status) = run.0.try_wait()? {
            break status;
        }
        if Instant::now() > deadline {
            bail!(
                "schemathesis ({}) ran longer than {}",
                part.name,
                elapsed(FUZZ_TIME_LIMIT.as_secs())
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let lines = reader
        .join()
        .map_err(|_| anyhow::anyhow!("reading schemathesis's output failed"))?;
    // The line after "Test cases:" reads "N generated, N passed, ...".
    let summary = lines
        .iter()
        .skip_while(|l| l.trim() != "Test cases:")
        .nth(1)
        .map(|l| l.trim().to_owned())
        .unwrap_or_else(|| "(no summary)".to_owned());
    if server.has_stopped()? {
        bail!("gpudeck-server stopped during the fuzzing's {}", part.name);
    }
    Ok(FuzzRun {
        passed: status.success(),
        summary,
        lines,
    })
}

/// What one schemathesis run gave: whether it passed, its "Test cases" line, its output.
struct FuzzRun {
    passed: bool,
    summary: String,
    lines: Vec<String>,
}

/// CPython 3.11's own parser, which hypothesis calls to describe a strategy, now and then
/// stops with this (CPython issue 106905): a crash of the tool, reported under "ERRORS",
/// not a finding about the server, which schemathesis reports under "FAILURES".
const PARSER_CRASH: &str = "AST constructor recursion depth mismatch";

impl FuzzRun {
    /// Whether it failed only because the tool itself crashed in Python's parser.
    fn only_the_parser_crashed(&self) -> bool {
        !self.passed
            && self.lines.iter().any(|line| line.contains(PARSER_CRASH))
            && !self.lines.iter().any(|line| line.contains("FAILURES"))
    }
}

/// Fuzzes demo servers, the [`FUZZ_PARTS`] at once (see [`fuzz_once`]), then prints each
/// part's output; a part that ended only by schemathesis crashing in Python's parser runs
/// once more with the same seed.
fn fuzz() -> Result<()> {
    let seed = match std::env::var("GPUDECK_FUZZ_SEED") {
        Ok(seed) => seed
            .parse()
            .context("GPUDECK_FUZZ_SEED is not a whole number")?,
        Err(_) => FUZZ_SEED,
    };
    let schemathesis = setup::ensure_schemathesis()?;
    let server = TestBuild::native()?.binary(test_builds::SERVER)?.to_owned();
    println!(
        "    fuzzing demo servers (schemathesis {}, seeds from {seed}, 100 examples per \
         operation and phase between them): {}",
        setup::SCHEMATHESIS_VERSION,
        FUZZ_PARTS.map(|part| part.name).join(", ")
    );
    let fuzz_part = |part: &FuzzPart| -> Result<(FuzzRun, u64)> {
        let started = Instant::now();
        let mut run = fuzz_once(&schemathesis, &server, seed, part)?;
        if run.only_the_parser_crashed() {
            run.lines.push(format!(
                "    schemathesis crashed in Python's parser ({PARSER_CRASH}), not on an \
                 answer of the server: once more, same seed"
            ));
            let again = fuzz_once(&schemathesis, &server, seed, part)?;
            run = FuzzRun {
                lines: [run.lines, again.lines].concat(),
                ..again
            };
        }
        Ok((run, started.elapsed().as_secs()))
    };
    // Each part's own error is kept beside the other's output, not returned at once.
    let runs = at_a_time(FUZZ_PARTS.len(), &FUZZ_PARTS, |part| Ok(fuzz_part(part)))?;
    let mut failed = Vec::new();
    for (part, run) in FUZZ_PARTS.iter().zip(runs) {
        match run {
            Ok((run, seconds)) => {
                let verdict = if run.passed { "ok" } else { "FAILED" };
                println!(
                    "\n--- fuzz: {} ({}): {verdict}",
                    part.name,
                    elapsed(seconds)
                );
                for line in &run.lines {
                    println!("{line}");
                }
                println!("    {}: {}", part.name, run.summary);
                if !run.passed {
                    failed.push(format!("{} ({})", part.name, run.summary));
                }
            }
            Err(error) => {
                println!("\n--- fuzz: {}: FAILED\n{error:#}", part.name);
                failed.push(part.name.to_owned());
            }
        }
    }
    println!("    reports in target/fuzz");
    if !failed.is_empty() {
        bail!("schemathesis found problems: {}", failed.join("; "));
    }
    Ok(())
}

/// Runs every suite (or those named after `--only`), then prints a summary.
pub fn test(args: &[String]) -> Result<()> {
    let only: Vec<&str> = match args {
        [] => vec![],
        [flag, rest @ ..] if flag == "--only" && !rest.is_empty() => {
            rest.iter().map(String::as_str).collect()
        }
        _ => bail!("usage: cargo xtask test [--only SUITE...]"),
    };
    for name in &only {
        if !SUITES.iter().any(|s| s.name == *name) {
            bail!("no suite named {name}");
        }
    }
    let started = Instant::now();
    disk::ensure_room(disk::TEST_NEEDS_GIB, "test")?;
    setup::ensure_all(true)?;
    let selected: Vec<&Suite> = SUITES
        .iter()
        .filter(|s| only.is_empty() || only.contains(&s.name))
        .collect();
    let python_tools = selected
        .iter()
        .any(|s| s.name == "native" || s.name == "fuzz")
        .then(setup::install_python_tools_behind);
    let mut results = Vec::new();
    for suite in selected {
        step(&format!("{}: {}", suite.name, suite.what));
        let suite_started = Instant::now();
        let outcome = (suite.run)();
        if let Err(error) = &outcome {
            eprintln!("xtask: {error:#}");
        }
        results.push((suite, outcome.is_ok(), suite_started.elapsed().as_secs()));
    }

    println!("\n==> summary");
    for (suite, passed, seconds) in &results {
        let verdict = if *passed { "ok    " } else { "FAILED" };
        println!(
            "    {verdict} {:<7} {:>7}  {}",
            suite.name,
            elapsed(*seconds),
            suite.what
        );
    }
    let failed: Vec<&str> = results
        .iter()
        .filter(|(_, passed, _)| !passed)
        .map(|(suite, _, _)| suite.name)
        .collect();
    println!("    total {}", elapsed(started.elapsed().as_secs()));
    if let Some(installing) = python_tools {
        let _ = installing.join();
    }
    if failed.is_empty() {
        Ok(())
    } else {
        bail!("failed: {}", failed.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_is_told_against_the_yardstick() {
        assert_eq!(
            run_took(2219, Some(287)),
            "the run built everything in 36m59s; this machine built wasm-bindgen-cli in \
             4m47s, so the run took 7.7 times that"
        );
        assert_eq!(run_took(59, None), "the run built everything in 59s");
    }

    #[test]
    fn only_a_crash_of_the_parser_is_run_again() {
        let run = |passed: bool, lines: &[&str]| FuzzRun {
            passed,
            summary: String::new(),
            lines: lines.iter().map(|line| line.to_string()).collect(),
        };
        let crash = "AST constructor recursion depth mismatch (before=69, after=91)";
        assert!(run(false, &["ERRORS", crash]).only_the_parser_crashed());
        assert!(!run(false, &["ERRORS", crash, "FAILURES"]).only_the_parser_crashed());
        assert!(!run(false, &["FAILURES", "Server error"]).only_the_parser_crashed());
        assert!(!run(true, &[crash]).only_the_parser_crashed());
    }

    fn options(args: &[&str]) -> Result<RunOptions> {
        run_options(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn run_takes_a_port_and_an_http_upstream_in_any_order() {
        assert_eq!(
            options(&[]).unwrap(),
            RunOptions {
                port: DEFAULT_PORT,
                upstream: None
            }
        );
        let both = RunOptions {
            port: 9000,
            upstream: Some("https://console.vast.ai".into()),
        };
        assert_eq!(
            options(&["--upstream", "https://console.vast.ai", "--port", "9000"]).unwrap(),
            both
        );
        assert_eq!(
            options(&["--port", "9000", "--upstream", "https://console.vast.ai"]).unwrap(),
            both
        );
    }

    #[test]
    fn run_refuses_what_is_not_an_http_upstream_or_a_port() {
        let said = |args: &[&str]| options(args).unwrap_err().to_string();
        assert!(said(&["--upstream", "console.vast.ai"]).contains("http:// or https://"));
        assert!(said(&["--upstream", "ftp://example.com"]).contains("http:// or https://"));
        assert!(said(&["--upstream"]).contains("needs a value"));
        assert!(said(&["--port", "eighty"]).contains("--port takes a number"));
        assert!(said(&["--demo", "x"]).contains("usage"));
    }
}
