//! The two test builds every suite shares: one cargo command for the native target, one for
//! wasm, each over all the targets of what it selects, with clippy compiling the
//! workspace's own crates in place of rustc.
//!
//! - The `lint` suite fails on any warning they printed; the `native`, `fuzz`, `package`
//!   and `e2e` suites run what the native build made, the `wasm` suite what the wasm build
//!   made. A suite that finds its build already made only waits for cargo to say so.
//! - One command per target keeps one feature resolution: two commands selecting different
//!   packages resolve features differently and compile the shared crates twice. The one
//!   exception is xtask, built alone as `cargo xtask` builds it, so that its dependencies
//!   are compiled once, with its own features ([`XTASK`]).
//! - Clippy compiling spares a second pass over every dependency: `cargo clippy` checks
//!   them, writing metadata a build cannot use.
//! - Warnings stay warnings while compiling, so that one unused name does not stop the
//!   other suites from running; the `lint` suite is where they are errors.

use crate::shell::{cargo, root};
use crate::test_files::TestFile;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The native build's packages: all but xtask ([`XTASK`]), the console among them though it
/// has no native test target (its pure logic is `gpudeck-logic`'s), so that features
/// resolve as when the console is in the build. The console is compiled only for wasm:
/// clippy reads it in the wasm test build, and its `split` feature (`src/split.rs`) in a
/// build of its own ([`split_feature_diagnostics`]).
const NATIVE: [&str; 3] = ["--workspace", "--exclude", "xtask"];

/// xtask's tests, built on their own: `cargo xtask` builds xtask alone, whose features
/// resolve apart from the workspace's (serde without `rc`, syn without `full`, ...), so in
/// the workspace's build its dependencies were compiled a second time (about 25 s of CPU on
/// a new machine). Alone, they are the ones `cargo xtask` compiled.
const XTASK: [&str; 2] = ["-p", "xtask"];

/// What one test build made and said.
#[derive(Debug, Default, PartialEq)]
pub struct TestBuild {
    /// Its test files (unit tests of libraries and binaries, and test targets).
    pub files: Vec<TestFile>,
    /// Its binaries outside the tests, by target name (the debug `gpudeck-server`).
    binaries: Vec<(String, PathBuf)>,
    /// The warnings and errors of the workspace's crates, rendered as cargo prints them,
    /// once each.
    pub diagnostics: Vec<String>,
}

impl TestBuild {
    /// Every test target of every workspace package, natively (xtask's in a build of its
    /// own, see [`XTASK`]): the unit tests of libraries and binaries, and the test files.
    /// A plain binary is built where a test file needs it (the server's). Nothing of the
    /// console: its tests need a browser (see its `Cargo.toml`), and what needs none is
    /// `gpudeck-logic`'s.
    pub fn native() -> Result<Self> {
        // Not `--all-targets`: `--benches` takes every binary (their `bench` flag is on by
        // default), the console's among them.
        let mut build = Self::build("native", &[NATIVE.as_slice(), &["--tests"]].concat())?;
        let xtask = Self::build("xtask", &[XTASK.as_slice(), &["--tests"]].concat())?;
        build.files.extend(xtask.files);
        build.binaries.extend(xtask.binaries);
        build.add_diagnostics(xtask.diagnostics);
        Ok(build)
    }

    /// The console's browser test files and what they need (its library and binary).
    pub fn wasm() -> Result<Self> {
        Self::build("wasm", &[WASM.as_slice(), &["--test", "*"]].concat())
    }

    /// The path of the binary target `name`.
    pub fn binary(&self, name: &str) -> Result<&Path> {
        self.binaries
            .iter()
            .find(|(binary, _)| binary == name)
            .map(|(_, path)| path.as_path())
            .with_context(|| format!("the test build made no binary {name}"))
    }

    /// The test files of the package in `folder` (relative to the workspace).
    pub fn files_in(&self, folder: &str) -> impl Iterator<Item = &TestFile> {
        let folder = root().join(folder);
        self.files.iter().filter(move |file| file.folder == folder)
    }

    fn build(what: &str, args: &[&str]) -> Result<Self> {
        let mut cargo = with_clippy(cargo())?;
        cargo.args(["test", "--no-run"]).args(args);
        let build = made_by(&format!("the {what} test files"), cargo)?;
        if build.files.is_empty() {
            bail!("the {what} test build made no test file");
        }
        Ok(build)
    }

    /// Takes `more` diagnostics, leaving out those it holds already (a crate in two builds
    /// says the same once).
    pub fn add_diagnostics(&mut self, more: Vec<String>) {
        for diagnostic in more {
            if !self.diagnostics.contains(&diagnostic) {
                self.diagnostics.push(diagnostic);
            }
        }
    }
}

/// The reference server's binary target.
pub const SERVER: &str = "gpudeck-server";

/// The debug server alone, as the native test build makes it: the same packages, features
/// and compiler, so that `run` starts the binary the suites test, and a `test` after `run`
/// finds the server's dependencies compiled. Gives its path and what cargo compiled for it
/// (nothing when the native test build made it already).
pub fn server() -> Result<(PathBuf, Vec<String>)> {
    // `--workspace`: the features every package turns on, as in the test build.
    let messages = build_as_tested(
        "the server",
        &[NATIVE.as_slice(), &["--bin", SERVER]].concat(),
    )?;
    let build = read_messages(&messages);
    let server = build.binary(SERVER)?.to_owned();
    Ok((server, compiled(&messages)))
}

/// The warnings of the console's library with its `split` feature (`src/split.rs`, the
/// lazy routes), which no test build turns on: a debug wasm build through clippy, after the
/// wasm test build, whose crates it finds compiled (only the console is compiled again).
/// Not the shipping build itself: clippy-driver turns MIR optimisations off, so its bytes
/// would not be rustc's.
pub fn split_feature_diagnostics() -> Result<Vec<String>> {
    let mut cargo = with_clippy(cargo())?;
    cargo.args(["build", "--locked", "--lib"]).args([
        "-p",
        CONSOLE,
        "--target",
        "wasm32-unknown-unknown",
        "--features",
        "browser-tests,split",
    ]);
    Ok(made_by("the console with its split feature", cargo)?.diagnostics)
}

/// What `cargo`, a build, made and said, read from its JSON messages; fails, showing its
/// diagnostics, if the build does.
fn made_by(what: &str, mut cargo: Command) -> Result<TestBuild> {
    let output = cargo
        .arg("--message-format=json")
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not start cargo to build {what}"))?;
    let build = read_messages(&String::from_utf8_lossy(&output.stdout));
    if !output.status.success() {
        for diagnostic in &build.diagnostics {
            eprint!("{diagnostic}");
        }
        bail!("the build of {what} failed ({})", output.status);
    }
    Ok(build)
}

/// `cargo build` of `args` with the test builds' compiler: its JSON messages, the
/// diagnostics rendered on standard error.
fn build_as_tested(what: &str, args: &[&str]) -> Result<String> {
    let output = with_clippy(cargo())?
        .args([
            "build",
            "--locked",
            "--message-format=json-render-diagnostics",
        ])
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not start cargo to build {what}"))?;
    if !output.status.success() {
        bail!("the build of {what} failed ({})", output.status);
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Builds the console as `trunk serve` and the `dev` suite build it (debug, unsplit, with
/// the wasm test build's features), after the wasm test build; fails if that compiled any
/// crate but the console: a feature that only a dev-dependency turns on makes cargo
/// compile every crate above it again (serde's `alloc` cost a new machine's first test
/// 1 min 17 s).
pub fn check_dev_build_is_tested() -> Result<()> {
    TestBuild::wasm()?;
    let messages = build_as_tested(
        "the development console",
        &[WASM.as_slice(), &["--bin", CONSOLE]].concat(),
    )?;
    let again: Vec<String> = compiled(&messages)
        .into_iter()
        .filter(|name| name != CONSOLE)
        .collect();
    if !again.is_empty() {
        bail!(
            "the development build compiles {} again after the wasm test build (a \
             dev-dependency of the console turns on features of theirs: turn them on in the \
             console's `browser-tests` feature, Cargo.toml)",
            again.join(", ")
        );
    }
    Ok(())
}

/// The console's package and binary target.
const CONSOLE: &str = "gpudeck";

/// The console for the browser with the wasm test build's features.
const WASM: [&str; 6] = [
    "-p",
    CONSOLE,
    "--target",
    "wasm32-unknown-unknown",
    "--features",
    "browser-tests",
];

/// Fails unless the server `run` starts is `tested`, the one the native test build made
/// (see [`server`]): a dependency whose features only a dev-dependency turns on would be
/// compiled twice, and `run` would serve a server the suites did not test.
pub fn check_server_is_tested(tested: &Path) -> Result<()> {
    let (server, compiled) = server()?;
    if !compiled.is_empty() {
        bail!(
            "the server `run` builds is not the test build's: cargo compiled {} again \
             (a dependency's features differ without the dev-dependencies: turn them on in \
             crates/server/Cargo.toml)",
            compiled.join(", ")
        );
    }
    if server != tested {
        bail!(
            "`run` would start {}, the test build made {}",
            server.display(),
            tested.display()
        );
    }
    Ok(())
}

/// The packages cargo compiled rather than found fresh, by name, once each.
fn compiled(messages: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact" && message["fresh"] == false {
            let name = message["target"]["name"].as_str().unwrap_or("?").to_owned();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The doc tests of the workspace's libraries, compiled against the native test build.
///
/// Not `cargo test --doc`: it ignores the console's `doctest = false` and would compile
/// its whole library natively for no test. A plain `cargo test` honours it; every test
/// file it starts again runs nothing, as only doc tests have names like
/// `crates/server/src/lib.rs - (line 7)`.
pub fn doc_tests() -> Result<()> {
    crate::shell::exec(
        with_clippy(cargo())?
            .arg("test")
            .args(NATIVE)
            .args(["--", DOC_TEST_NAMES]),
    )
}

/// What only doc tests' names contain.
const DOC_TEST_NAMES: &str = " - (line ";

/// `cargo` compiling the workspace's crates with clippy, as `cargo clippy` does, but
/// building instead of checking. Every command that shares the test builds must say this:
/// the compiler is part of what cargo keys its output on.
pub fn with_clippy(mut cargo: Command) -> Result<Command> {
    cargo.env("RUSTC_WORKSPACE_WRAPPER", clippy_driver()?);
    // No `-D warnings`: read from the messages instead (see the module's comment).
    cargo.env_remove("CLIPPY_ARGS");
    Ok(cargo)
}

/// clippy's compiler, beside rustc in its toolchain.
fn clippy_driver() -> Result<PathBuf> {
    let sysroot = crate::shell::output_of("rustc", &["--print", "sysroot"])
        .context("`rustc --print sysroot` failed")?;
    let driver = Path::new(&sysroot).join("bin/clippy-driver");
    if !driver.exists() {
        bail!(
            "clippy is not installed beside rustc ({} is missing): \
             rustup component add clippy",
            driver.display()
        );
    }
    Ok(driver)
}

/// The test files, binaries and warnings among cargo's JSON messages.
fn read_messages(messages: &str) -> TestBuild {
    let mut build = TestBuild::default();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        match message["reason"].as_str() {
            Some("compiler-artifact") => read_artifact(&message, &mut build),
            Some("compiler-message") => {
                let diagnostic = &message["message"];
                // Not rustc's closing "N warnings emitted", which has no place in the code.
                let kept = diagnostic["level"] == "error"
                    || diagnostic["spans"]
                        .as_array()
                        .is_some_and(|spans| !spans.is_empty());
                if let Some(rendered) = diagnostic["rendered"].as_str() {
                    let rendered = rendered.to_owned();
                    if kept && !build.diagnostics.contains(&rendered) {
                        build.diagnostics.push(rendered);
                    }
                }
            }
            _ => {}
        }
    }
    build
}

fn read_artifact(message: &serde_json::Value, build: &mut TestBuild) {
    let (Some(name), Some(executable), Some(manifest)) = (
        message["target"]["name"].as_str(),
        message["executable"].as_str(),
        message["manifest_path"].as_str(),
    ) else {
        return;
    };
    let kind = message["target"]["kind"][0].as_str().unwrap_or("test");
    if message["profile"]["test"] != true {
        if kind == "bin" {
            build.binaries.push((name.to_owned(), executable.into()));
        }
        return;
    }
    // Benchmarks and examples built as tests are compiled (and linted), not run, as
    // `cargo test` leaves them.
    if !["lib", "bin", "test"].contains(&kind) {
        return;
    }
    // A package's library and binary unit tests share its name.
    let name = name.replace('-', "_");
    build.files.push(TestFile {
        name: if kind == "test" {
            name
        } else {
            format!("{name} ({kind})")
        },
        kind: kind.to_owned(),
        executable: executable.into(),
        folder: Path::new(manifest)
            .parent()
            .unwrap_or(Path::new(""))
            .to_path_buf(),
        tests: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_binaries_and_warnings_are_read_from_cargo_messages() {
        let messages = r#"{"reason":"compiler-artifact","manifest_path":"/w/crates/e2e/Cargo.toml","target":{"name":"gpudeck-e2e","kind":["lib"]},"profile":{"test":false},"executable":null}
{"reason":"compiler-artifact","manifest_path":"/w/crates/e2e/Cargo.toml","target":{"name":"gpudeck-e2e","kind":["lib"]},"profile":{"test":true},"executable":"/t/gpudeck_e2e-1"}
{"reason":"compiler-artifact","manifest_path":"/w/crates/e2e/Cargo.toml","target":{"name":"gpudeck-e2e","kind":["bin"]},"profile":{"test":true},"executable":"/t/gpudeck_e2e-3"}
{"reason":"compiler-artifact","manifest_path":"/w/crates/server/Cargo.toml","target":{"name":"gpudeck-server","kind":["bin"]},"profile":{"test":false},"executable":"/t/gpudeck-server"}
{"reason":"compiler-artifact","manifest_path":"/w/crates/bench/Cargo.toml","target":{"name":"load","kind":["bench"]},"profile":{"test":true},"executable":"/t/load-4"}
{"reason":"compiler-message","message":{"rendered":"warning: unused variable: `x`\n","spans":[{"line_start":1}]}}
{"reason":"compiler-message","message":{"rendered":"warning: unused variable: `x`\n","spans":[{"line_start":1}]}}
{"reason":"compiler-message","message":{"rendered":"warning: 1 warning emitted\n","level":"warning","spans":[]}}
{"reason":"compiler-message","message":{"rendered":"error: linking failed\n","level":"error","spans":[]}}
{"reason":"compiler-artifact","manifest_path":"/w/crates/e2e/Cargo.toml","target":{"name":"rolling","kind":["test"]},"profile":{"test":true},"executable":"/t/rolling-2"}
{"reason":"build-finished","success":true}"#;
        let build = read_messages(messages);
        let file = |name: &str, kind: &str, executable: &str| TestFile {
            name: name.into(),
            kind: kind.into(),
            executable: executable.into(),
            folder: "/w/crates/e2e".into(),
            tests: Vec::new(),
        };
        assert_eq!(
            build.files,
            vec![
                file("gpudeck_e2e (lib)", "lib", "/t/gpudeck_e2e-1"),
                file("gpudeck_e2e (bin)", "bin", "/t/gpudeck_e2e-3"),
                file("rolling", "test", "/t/rolling-2"),
            ]
        );
        assert_eq!(
            build.binary("gpudeck-server").unwrap(),
            Path::new("/t/gpudeck-server")
        );
        assert!(build.binary("gpudeck-e2e").is_err());
        assert_eq!(
            build.diagnostics,
            ["warning: unused variable: `x`\n", "error: linking failed\n"]
        );
    }

    #[test]
    fn what_cargo_compiled_is_read_from_its_messages() {
        let messages = r#"{"reason":"compiler-artifact","target":{"name":"serde"},"fresh":true}
{"reason":"compiler-artifact","target":{"name":"tower_http"},"fresh":false}
{"reason":"compiler-artifact","target":{"name":"gpudeck-server"},"fresh":false}
{"reason":"compiler-artifact","target":{"name":"gpudeck-server"},"fresh":false}
{"reason":"build-finished","success":true}"#;
        assert_eq!(compiled(messages), ["tower_http", "gpudeck-server"]);
        assert!(compiled(
            r#"{"reason":"compiler-artifact","target":{"name":"serde"},"fresh":true}"#
        )
        .is_empty());
    }

    #[test]
    fn clippy_driver_is_in_the_toolchain() {
        let driver = clippy_driver().unwrap();
        let version = crate::shell::output_of(driver.to_str().unwrap(), &["--version"]);
        assert!(
            version.is_some_and(|v| v.starts_with("clippy ")),
            "{} does not answer as clippy",
            driver.display()
        );
    }
}
