//! The whole-app suite, on the machine's two cores: its test files are built once, then
//! run two at a time, each test file's tests one after another in their own browsers and
//! servers (every one on free ports). Two files spend most of their time waiting for the
//! public service's pace (`rolling`: N22 (list machine) every 5 s; `paced_cancel`); they
//! start first, so that the other files fill the second core around them.

use crate::parallel::two_at_a_time;
use crate::scratch::BrowserScratch;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM};
use crate::shell::{cargo, elapsed, root, step};
use crate::split;
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// The test files started first, longest first; the rest follow by name.
const STARTED_FIRST: [&str; 4] = ["rolling", "paced_cancel", "look", "listing"];

/// One built test file of the suite.
#[derive(Debug, PartialEq)]
struct TestFile {
    name: String,
    executable: PathBuf,
}

/// What one test file's run gave.
struct Ran {
    passed: bool,
    seconds: u64,
    output: String,
}

/// Builds and runs the suite against the split build; fails naming each failed file,
/// after all have run.
pub fn run() -> Result<()> {
    split::build_split_console()?;
    let files = in_running_order(built_test_files()?);
    step(&format!(
        "running {} test files, two at a time",
        files.len()
    ));
    let scratch = BrowserScratch::new("e2e")?;
    let started = Instant::now();
    let ran = two_at_a_time(&files, |file| run_file(file, &scratch))?;
    let mut failed = Vec::new();
    for (file, ran) in files.iter().zip(&ran) {
        println!(
            "\n--- {} ({}): {}",
            file.name,
            elapsed(ran.seconds),
            if ran.passed { "ok" } else { "FAILED" }
        );
        print!("{}", ran.output);
        if !ran.passed {
            failed.push(file.name.as_str());
        }
    }
    println!(
        "\n{} test files in {}",
        files.len(),
        elapsed(started.elapsed().as_secs())
    );
    if !failed.is_empty() {
        bail!("whole-app test files failed: {}", failed.join(", "));
    }
    Ok(())
}

/// `cargo test --no-run` of the suite, and the test executables it built.
fn built_test_files() -> Result<Vec<TestFile>> {
    let output = cargo()
        .args([
            "test",
            "--no-run",
            "-p",
            "gpudeck-e2e",
            "--message-format=json",
        ])
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("could not start cargo to build the whole-app tests")?;
    if !output.status.success() {
        bail!("building the whole-app tests failed ({})", output.status);
    }
    test_files_in(&String::from_utf8_lossy(&output.stdout))
}

/// The test executables among cargo's JSON messages, named after their target.
fn test_files_in(messages: &str) -> Result<Vec<TestFile>> {
    let mut files = Vec::new();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let (Some(name), Some(executable)) = (
            message["target"]["name"].as_str(),
            message["executable"].as_str(),
        ) else {
            continue;
        };
        if message["profile"]["test"] == true {
            files.push(TestFile {
                name: name.replace('-', "_"),
                executable: executable.into(),
            });
        }
    }
    if files.is_empty() {
        bail!("cargo built no whole-app test file");
    }
    Ok(files)
}

/// [`STARTED_FIRST`] in its order, then the others by name.
fn in_running_order(mut files: Vec<TestFile>) -> Vec<TestFile> {
    files.sort_by_key(|file| {
        let rank = STARTED_FIRST
            .iter()
            .position(|first| *first == file.name)
            .unwrap_or(STARTED_FIRST.len());
        (rank, file.name.clone())
    });
    files
}

/// Runs one test file's tests one at a time, its output kept for the report.
fn run_file(file: &TestFile, scratch: &BrowserScratch) -> Result<Ran> {
    let started = Instant::now();
    let output = scratch
        .apply(&mut Command::new(&file.executable))
        .arg("--test-threads=1")
        .current_dir(root().join("crates/e2e"))
        .env("GPUDECK_DIST", split::dist_dir())
        .env("GPUDECK_AXE", setup::axe_core_script())
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .env("CHROMIUM", CHROMIUM)
        .output()
        .with_context(|| format!("could not start {}", file.executable.display()))?;
    let seconds = started.elapsed().as_secs();
    println!(
        "    {}: {} in {}",
        file.name,
        if output.status.success() {
            "passed"
        } else {
            "FAILED"
        },
        elapsed(seconds)
    );
    Ok(Ran {
        passed: output.status.success(),
        seconds,
        output: format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_are_read_from_cargo_messages() {
        let messages = r#"{"reason":"compiler-artifact","target":{"name":"gpudeck-e2e","kind":["lib"]},"profile":{"test":false},"executable":null}
{"reason":"compiler-artifact","target":{"name":"gpudeck-e2e","kind":["lib"]},"profile":{"test":true},"executable":"/t/gpudeck_e2e-1"}
{"reason":"compiler-artifact","target":{"name":"rolling","kind":["test"]},"profile":{"test":true},"executable":"/t/rolling-2"}
{"reason":"build-finished","success":true}"#;
        let files = test_files_in(messages).unwrap();
        assert_eq!(
            files,
            vec![
                TestFile {
                    name: "gpudeck_e2e".into(),
                    executable: "/t/gpudeck_e2e-1".into()
                },
                TestFile {
                    name: "rolling".into(),
                    executable: "/t/rolling-2".into()
                },
            ]
        );
        assert!(test_files_in("").is_err());
    }

    #[test]
    fn the_waiting_files_start_first() {
        let file = |name: &str| TestFile {
            name: name.into(),
            executable: PathBuf::new(),
        };
        let order: Vec<String> = in_running_order(vec![
            file("accounts"),
            file("look"),
            file("paced_cancel"),
            file("rolling"),
            file("upstream"),
        ])
        .into_iter()
        .map(|f| f.name)
        .collect();
        assert_eq!(
            order,
            ["rolling", "paced_cancel", "look", "accounts", "upstream"]
        );
    }
}
