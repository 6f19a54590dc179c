//! Test files run a few at a time, outside cargo (which runs one after another): each
//! file's output is printed whole when it ends, and every failed file is named after all
//! have run. The test builds (`test_builds.rs`) make them. A file passes only if it exits
//! well and says it ran a test: one whose tests were all compiled out, or whose modules were
//! left out of its `main.rs`, exits well too.

use crate::parallel::at_a_time;
use crate::shell::{elapsed, step};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
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
    /// The tests it runs, named exactly; every test of the executable when empty.
    pub tests: Vec<String>,
}

impl TestFile {
    /// What follows the executable so that it runs [`TestFile::tests`] only: libtest's
    /// `--exact` and their names (nothing, for the whole file).
    pub fn selection(&self) -> Vec<&str> {
        if self.tests.is_empty() {
            return Vec::new();
        }
        std::iter::once("--exact")
            .chain(self.tests.iter().map(String::as_str))
            .collect()
    }
}

/// Each test target of `files` made of a module per area (its tests named
/// `authorization::…`) as one run per module, named after it and naming its tests exactly;
/// the other files as they are. Such a target compiles and links its dependencies once,
/// where a file per area did it once each, and its modules still run side by side, each in
/// a process of its own as the files did, and fail by name.
pub fn by_module(files: Vec<TestFile>) -> Result<Vec<TestFile>> {
    let mut runs = Vec::new();
    for file in files {
        if file.kind != "test" {
            runs.push(file);
            continue;
        }
        let listed = Command::new(&file.executable)
            .args(["--list", "--format", "terse"])
            .current_dir(&file.folder)
            .output()
            .with_context(|| format!("could not list the tests of {}", file.name))?;
        if !listed.status.success() {
            bail!("{} could not list its tests ({})", file.name, listed.status);
        }
        runs.extend(modules_of(&file, &String::from_utf8_lossy(&listed.stdout)));
    }
    Ok(runs)
}

/// `file` split by the top modules of the tests `listed` names (libtest's
/// `--list --format terse`), when every test is in one and there are several; else `file`.
fn modules_of(file: &TestFile, listed: &str) -> Vec<TestFile> {
    let tests: Vec<&str> = listed
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .collect();
    let mut modules: Vec<(&str, Vec<String>)> = Vec::new();
    for test in &tests {
        let Some((module, _)) = test.split_once("::") else {
            return vec![file.clone()];
        };
        match modules.iter_mut().find(|(name, _)| *name == module) {
            Some((_, named)) => named.push((*test).to_owned()),
            None => modules.push((module, vec![(*test).to_owned()])),
        }
    }
    if modules.len() < 2 {
        return vec![file.clone()];
    }
    modules
        .into_iter()
        .map(|(module, tests)| TestFile {
            name: module.to_owned(),
            tests,
            ..file.clone()
        })
        .collect()
}

/// What one test file's run gave.
struct Ran {
    passed: bool,
    seconds: u64,
    output: String,
}

/// Runs `files`, `lanes` at a time, each through the command `command` makes for it; the
/// files named in `beside` each in a lane of their own besides those (they mostly wait, on
/// a pace, and would keep a lane from files that compute). Fails naming each failed file,
/// after all have run.
pub fn run(
    what: &str,
    files: &[TestFile],
    lanes: usize,
    beside: &[&str],
    command: impl Fn(&TestFile) -> Command + Sync,
) -> Result<()> {
    let (own_lanes, shared_lanes): (Vec<&TestFile>, Vec<&TestFile>) = files
        .iter()
        .partition(|file| beside.contains(&file.name.as_str()));
    let names: Vec<&str> = own_lanes.iter().map(|file| file.name.as_str()).collect();
    step(&format!(
        "running {} {what} test files, {lanes} at a time{}",
        shared_lanes.len(),
        if names.is_empty() {
            String::new()
        } else {
            format!(", and beside them {}", names.join(", "))
        }
    ));
    let started = Instant::now();
    let run_all = |files: &[&TestFile], lanes: usize| {
        at_a_time(lanes, files, |file| run_file(file, command(file)))
    };
    let (own_ran, shared_ran) = std::thread::scope(|scope| {
        let own = scope.spawn(|| run_all(&own_lanes, own_lanes.len()));
        let shared = run_all(&shared_lanes, lanes);
        (own.join().expect("a lane of its own panicked"), shared)
    });
    let mut ran: Vec<(&TestFile, Ran)> = own_lanes
        .into_iter()
        .zip(own_ran?)
        .chain(shared_lanes.into_iter().zip(shared_ran?))
        .collect();
    ran.sort_by_key(|(file, _)| files.iter().position(|f| f == *file));
    let mut failed = Vec::new();
    for (file, ran) in &ran {
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
    let mut printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let ran_tests = tests_run(&printed);
    let passed = output.status.success() && ran_tests > 0;
    if output.status.success() && ran_tests == 0 {
        printed.push_str("xtask: this file ran no test\n");
    }
    println!(
        "    {}: {} in {}",
        file.name,
        if passed { "passed" } else { "FAILED" },
        elapsed(seconds)
    );
    Ok(Ran {
        passed,
        seconds,
        output: printed,
    })
}

/// The console's browser test files, by folder: each page in the whole app, the shared
/// components, and the fetch layer with the helpers that need the browser.
pub const CONSOLE_WASM_TESTS: [&str; 3] = ["tests/pages", "tests/parts", "tests/client"];

/// Fails naming each module file in `folder` (a test file made of modules, like
/// `tests/pages`) that its `main.rs` does not declare: cargo would not compile it, and the
/// file would pass without its tests.
pub fn check_modules_declared(folder: &Path) -> Result<()> {
    let main = std::fs::read_to_string(folder.join("main.rs"))
        .with_context(|| format!("reading {}", folder.join("main.rs").display()))?;
    let declared: Vec<&str> = main
        .lines()
        .filter_map(|line| line.trim().strip_prefix("mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .collect();
    let mut undeclared: Vec<String> = std::fs::read_dir(folder)
        .with_context(|| format!("listing {}", folder.display()))?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let module = name.strip_suffix(".rs")?.to_owned();
            (module != "main" && !declared.contains(&module.as_str())).then_some(module)
        })
        .collect();
    undeclared.sort();
    if !undeclared.is_empty() {
        bail!(
            "{}/main.rs does not declare {}: their tests would never run",
            folder.display(),
            undeclared.join(", ")
        );
    }
    Ok(())
}

/// How many tests a test file's output says it ran (passed or failed, not ignored), from
/// the summary libtest and wasm-bindgen-test both print:
/// `test result: ok. 12 passed; 0 failed; 1 ignored; ...`. 0 without such a line
/// (wasm-bindgen-test-runner prints `no tests to run!` instead).
fn tests_run(output: &str) -> u64 {
    output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("test result: "))
        .flat_map(|summary| summary.split(';'))
        .filter_map(|part| {
            let mut words = part.split_whitespace().rev();
            let (what, count) = (words.next()?, words.next()?);
            ["passed", "failed"]
                .contains(&what)
                .then(|| count.parse::<u64>().ok())
                .flatten()
        })
        .sum()
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
            tests: Vec::new(),
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
    fn a_target_of_modules_runs_a_module_at_a_time_naming_its_tests() {
        let file = TestFile {
            name: "api".into(),
            kind: "test".into(),
            executable: "/t/api-1".into(),
            folder: "/w/crates/server".into(),
            tests: Vec::new(),
        };
        let listed = "team::a_role_is_renamed: test\n\
                      accounts::a_subaccount_is_listed: test\n\
                      team::a_member_is_removed: test\n\
                      team::slow: bench\n";
        let runs = modules_of(&file, listed);
        let named: Vec<(&str, Vec<&str>)> = runs
            .iter()
            .map(|run| (run.name.as_str(), run.selection()))
            .collect();
        assert_eq!(
            named,
            [
                (
                    "team",
                    vec![
                        "--exact",
                        "team::a_role_is_renamed",
                        "team::a_member_is_removed"
                    ]
                ),
                (
                    "accounts",
                    vec!["--exact", "accounts::a_subaccount_is_listed"]
                ),
            ]
        );
        assert!(runs.iter().all(|run| run.executable == file.executable));
        // A test outside any module, or a single module: the file runs whole.
        let whole = |listed: &str| modules_of(&file, listed) == [file.clone()];
        assert!(whole("team::a: test\nb: test\n"));
        assert!(whole("team::a: test\nteam::b: test\n"));
        assert!(file.selection().is_empty());
    }

    /// A new scratch folder named after `what`, and a maker of test files run by `sh` in it.
    fn shell_files(what: &str) -> (PathBuf, impl Fn(&str) -> TestFile) {
        let folder = std::env::temp_dir().join(format!("gpudeck-{what}-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let inside = folder.clone();
        let file = move |name: &str| TestFile {
            name: name.into(),
            kind: "test".into(),
            executable: "sh".into(),
            folder: inside.clone(),
            tests: Vec::new(),
        };
        (folder, file)
    }

    #[test]
    fn a_failed_file_is_named_after_every_file_ran() {
        let (ran, file) = shell_files("test-files");
        let files = [
            file("passes"),
            file("fails"),
            file("runs_none"),
            file("passes_too"),
        ];
        let error = run("tried", &files, 2, &["fails"], |file| {
            let (summary, code) = match file.name.as_str() {
                "fails" => ("test result: FAILED. 1 passed; 1 failed; 0 ignored", 1),
                "runs_none" => ("test result: ok. 0 passed; 0 failed; 2 ignored", 0),
                _ => ("test result: ok. 2 passed; 0 failed; 0 ignored", 0),
            };
            let mut command = Command::new("sh");
            command.args([
                "-c",
                &format!("touch {}; echo '{summary}'; exit {code}", file.name),
            ]);
            command.current_dir(&ran);
            command
        })
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "tried test files failed: fails, runs_none"
        );
        for file in &files {
            assert!(ran.join(&file.name).exists(), "{} did not run", file.name);
        }
        std::fs::remove_dir_all(&ran).unwrap();
    }

    #[test]
    fn a_file_beside_the_lanes_runs_while_they_are_taken() {
        let (ran, file) = shell_files("test-beside");
        // "waits" passes only once "signals" has run; "signals" only once "waits" has
        // started. With one lane, they pass only if "waits" runs beside it.
        let files = [file("waits"), file("signals")];
        let passed = "echo 'test result: ok. 1 passed; 0 failed; 0 ignored'";
        run("tried", &files, 1, &["waits"], |file| {
            let script = match file.name.as_str() {
                "waits" => format!(
                    "touch started; for i in $(seq 100); do [ -e signalled ] && {passed} && \
                     exit 0; sleep 0.1; done; exit 1"
                ),
                _ => format!(
                    "for i in $(seq 100); do [ -e started ] && touch signalled && {passed} && \
                     exit 0; sleep 0.1; done; exit 1"
                ),
            };
            let mut command = Command::new("sh");
            command.args(["-c", &script]).current_dir(&ran);
            command
        })
        .unwrap();
        std::fs::remove_dir_all(&ran).unwrap();
    }

    #[test]
    fn a_module_file_main_rs_leaves_out_is_named() {
        let folder =
            std::env::temp_dir().join(format!("gpudeck-test-modules-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("main.rs"),
            "#[path = \"../support/mod.rs\"]\nmod support;\n\nmod shell;\nmod team;\n",
        )
        .unwrap();
        for module in ["shell", "team"] {
            std::fs::write(folder.join(format!("{module}.rs")), "").unwrap();
        }
        check_modules_declared(&folder).unwrap();
        std::fs::write(folder.join("rolling.rs"), "").unwrap();
        std::fs::write(folder.join("accounts.rs"), "").unwrap();
        let error = check_modules_declared(&folder).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "main.rs does not declare accounts, rolling: their tests would never run"
            ),
            "{error}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn the_console_wasm_test_files_declare_every_module() {
        for folder in CONSOLE_WASM_TESTS {
            check_modules_declared(&crate::shell::root().join(folder)).unwrap();
        }
    }

    #[test]
    fn the_tests_run_are_read_from_the_summary() {
        let libtest = "running 3 tests\ntest a ... ok\n\n\
            test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 4 filtered out; \
            finished in 0.01s\n";
        assert_eq!(tests_run(libtest), 2);
        let failed = "test result: FAILED. 5 passed; 2 failed; 0 ignored; 0 measured";
        assert_eq!(tests_run(failed), 7);
        let browser = "Running headless tests in Chrome\nrunning 40 tests\n\
            test result: ok. 40 passed; 0 failed; 0 ignored; 0 filtered out; \
            finished in 31.20s\n";
        assert_eq!(tests_run(browser), 40);
        assert_eq!(
            tests_run("running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 1 ignored"),
            0
        );
        assert_eq!(tests_run("no tests to run!\n"), 0);
        assert_eq!(tests_run(""), 0);
    }
}
