//! Test files run a few at a time, outside cargo (which runs one after another): each
//! file's output is printed whole when it ends, and every failed file is named after all
//! have run. The test builds (`test_builds.rs`) make them.

use crate::parallel::at_a_time;
use crate::shell::{elapsed, step};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// One built test file.
#[derive(Clone, Debug, PartialEq)]
pub struct TestFile {
    /// Its target's name (`rolling`, `first_reads`), with the kind of a unit test file
    /// (`gpudeck (lib)`).
    pub name: String,
    /// `lib`, `bin` or `test`.
    pub kind: String,
    pub executable: PathBuf,
    /// Its package's folder, where cargo would run it.
    pub folder: PathBuf,
}

/// What one test file's run gave.
struct Ran {
    passed: bool,
    seconds: u64,
    output: String,
}

/// Runs `files`, `lanes` at a time, each through the command `command` makes for it; fails
/// naming each failed file, after all have run.
pub fn run(
    what: &str,
    files: &[TestFile],
    lanes: usize,
    command: impl Fn(&TestFile) -> Command + Sync,
) -> Result<()> {
    step(&format!(
        "running {} {what} test files, {lanes} at a time",
        files.len()
    ));
    let started = Instant::now();
    let ran = at_a_time(lanes, files, |file| run_file(file, command(file)))?;
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
        "\n{} {what} test files in {}",
        files.len(),
        elapsed(started.elapsed().as_secs())
    );
    if !failed.is_empty() {
        bail!("{what} test files failed: {}", failed.join(", "));
    }
    Ok(())
}

/// `first` in its order, then the others by name.
pub fn in_running_order(mut files: Vec<TestFile>, first: &[&str]) -> Vec<TestFile> {
    files.sort_by_key(|file| {
        let rank = first
            .iter()
            .position(|name| *name == file.name)
            .unwrap_or(first.len());
        (rank, file.name.clone())
    });
    files
}

/// Runs one test file, its output kept for the report.
fn run_file(file: &TestFile, mut command: Command) -> Result<Ran> {
    let started = Instant::now();
    let output = command
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
    fn the_files_named_first_start_first() {
        let file = |name: &str| TestFile {
            name: name.into(),
            kind: "test".into(),
            executable: PathBuf::new(),
            folder: PathBuf::new(),
        };
        let order: Vec<String> = in_running_order(
            vec![
                file("accounts"),
                file("look"),
                file("paced_cancel"),
                file("rolling"),
                file("upstream"),
            ],
            &["rolling", "paced_cancel", "look"],
        )
        .into_iter()
        .map(|f| f.name)
        .collect();
        assert_eq!(
            order,
            ["rolling", "paced_cancel", "look", "accounts", "upstream"]
        );
    }

    #[test]
    fn a_failed_file_is_named_after_every_file_ran() {
        let ran = std::env::temp_dir().join(format!("gpudeck-test-files-{}", std::process::id()));
        std::fs::create_dir_all(&ran).unwrap();
        let file = |name: &str| TestFile {
            name: name.into(),
            kind: "test".into(),
            executable: "sh".into(),
            folder: ran.clone(),
        };
        let files = [file("passes"), file("fails"), file("passes_too")];
        let error = run("tried", &files, 2, |file| {
            let code = if file.name == "fails" { 1 } else { 0 };
            let mut command = Command::new("sh");
            command.args(["-c", &format!("touch {}; exit {code}", file.name)]);
            command.current_dir(&ran);
            command
        })
        .unwrap_err();
        assert_eq!(error.to_string(), "tried test files failed: fails");
        for file in &files {
            assert!(ran.join(&file.name).exists(), "{} did not run", file.name);
        }
        std::fs::remove_dir_all(&ran).unwrap();
    }
}
