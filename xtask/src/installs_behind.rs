//! Tools that only the last suites of `cargo xtask test` need (leptosfmt for `format`,
//! trunk for `dev`), compiled from crates.io while the suites before them run, at the
//! lowest CPU priority: on a fresh machine their compiles fill the time the suites leave a
//! core idle (browsers, the public service's paces, one crate's link) instead of adding
//! to it, and a suite's own work is never slowed for them.
//!
//! Only a head start: the suite that needs a tool waits for these installs to end, then
//! installs it itself if it is still missing (`CargoTool::ensure`), so a failed install
//! here is said there, in the foreground.

use crate::setup::CargoTool;
use crate::shell::{cargo, elapsed, root};
use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Instant;

/// The installs under way, with their names.
static UNDER_WAY: Mutex<Option<(String, JoinHandle<Vec<String>>)>> = Mutex::new(None);

/// Where their cargo output goes.
fn log_file() -> PathBuf {
    root().join("target/xtask/installs-behind.log")
}

/// Starts installing, one after another, those of `tools` that are missing.
pub fn start(tools: &[&'static CargoTool]) {
    let missing: Vec<&'static CargoTool> = tools
        .iter()
        .copied()
        .filter(|tool| !tool.is_installed())
        .collect();
    if missing.is_empty() {
        return;
    }
    let names = missing
        .iter()
        .map(|tool| tool.name)
        .collect::<Vec<_>>()
        .join(" and ");
    let log = log_file();
    let opened =
        std::fs::create_dir_all(root().join("target/xtask")).and_then(|()| File::create(&log));
    let Ok(log_handle) = opened else {
        return; // The suites install them in the foreground.
    };
    println!(
        "    compiling {names} behind the suites, at the lowest priority (log: {})",
        log.display()
    );
    let installs = std::thread::spawn(move || {
        missing
            .into_iter()
            .map(|tool| install_niced(tool, &log_handle))
            .collect()
    });
    *UNDER_WAY.lock().expect("the installs' lock") = Some((names, installs));
}

/// `cargo install` of `tool` under `nice -n 19`, its output appended to `log`; what it
/// came to, in a line.
fn install_niced(tool: &CargoTool, log: &File) -> String {
    let started = Instant::now();
    let cargo_program = cargo().get_program().to_owned();
    let outcome = log.try_clone().and_then(|out| {
        let err = out.try_clone()?;
        Command::new("nice")
            .args(["-n", "19"])
            .arg(cargo_program)
            .args(tool.install_args())
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .status()
    });
    let took = elapsed(started.elapsed().as_secs());
    match outcome {
        Ok(status) if status.success() => {
            format!("{} installed behind the suites in {took}", tool.name)
        }
        Ok(status) => format!(
            "{}'s install behind the suites ended {status} after {took}",
            tool.name
        ),
        Err(error) => format!(
            "{}'s install behind the suites did not start: {error}",
            tool.name
        ),
    }
}

/// Waits for the installs under way, if any, and says what they came to.
pub fn wait() {
    let Some((names, installs)) = UNDER_WAY.lock().expect("the installs' lock").take() else {
        return;
    };
    if !installs.is_finished() {
        println!("    waiting for {names}, compiling behind the suites");
    }
    let started = Instant::now();
    let lines = installs
        .join()
        .unwrap_or_else(|_| vec![format!("installing {names} panicked")]);
    for line in lines {
        println!("    {line}");
    }
    if started.elapsed().as_secs() > 0 {
        println!("    (waited {})", elapsed(started.elapsed().as_secs()));
    }
}
