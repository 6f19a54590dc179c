//! Installs what the build and the tests need, skipping whatever is already present.
//! Only the package registries are reachable, so every tool comes from crates.io or
//! Debian's packages (see shared/TOOLCHAIN.md for why these exact versions).

use crate::shell::{cargo, exec, output_of, root, step};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// trunk 0.22 needs a newer rustc than this machine has.
const TRUNK_VERSION: &str = "0.21.14";
const BINARYEN_VERSION: &str = "132";
/// axe-core (npm), the accessibility checker the whole-app suite runs on every page.
const AXE_CORE_VERSION: &str = "4.14.1";
/// terser (npm), which minifies the split build's scripts.
const TERSER_VERSION: &str = "5.51.2";
/// Lighthouse (npm), which the `felt` bench runs beside its own timing. 13.x wants Node 22.
const LIGHTHOUSE_VERSION: &str = "12.2.3";
/// lightningcss (npm's command-line build, a prebuilt binary), which minifies the split
/// build's style sheets as trunk's own copy of it did.
const LIGHTNINGCSS_VERSION: &str = "1.33.0";
/// schemathesis (PyPI), for the fuzz suite; checked to install and run here.
pub const SCHEMATHESIS_VERSION: &str = "4.32.5";
/// The marketplace's official command-line client (PyPI), which the native suite runs
/// against the reference server (shared/spec/neighbours.md cites this version).
pub const VASTAI_VERSION: &str = "1.9.1";
/// leptosfmt (crates.io), which formats the markup inside `view!` for the format suite.
const LEPTOSFMT_VERSION: &str = "0.1.33";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Everything `run` needs; with `browser`, also what the browser tests need. Not trunk:
/// only development (`trunk serve`) and the check that its bundle builds need it
/// ([`ensure_trunk`]).
pub fn ensure_all(browser: bool) -> Result<()> {
    ensure_wasm_target()?;
    ensure_wasm_bindgen()?;
    ensure_wasm_opt()?;
    ensure_terser()?;
    ensure_lightningcss()?;
    if browser {
        ensure_browser()?;
        ensure_axe_core()?;
    }
    step("fetching crates (so that offline builds find them)");
    exec(cargo().args(["fetch", "--locked"]))
}

fn ensure_wasm_target() -> Result<()> {
    let installed = output_of("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed.lines().any(|t| t.trim() == WASM_TARGET) {
        return Ok(());
    }
    step(&format!("adding the Rust target {WASM_TARGET}"));
    exec(Command::new("rustup").args(["target", "add", WASM_TARGET]))
        .context("the wasm target is needed to build the console")
}

/// trunk, for `trunk serve` (development) and the test suite's check that its bundle
/// builds; `cargo xtask run` does not need it.
pub fn ensure_trunk() -> Result<()> {
    ensure_unoptimised(
        "trunk",
        TRUNK_VERSION,
        // Its default features are TLS, for serving and fetching over https, which its
        // offline builds and a plain `trunk serve` never do, and a check for updates on
        // crates.io: without them, its compile took 2 min 57 s instead of 3 min 28 s.
        &["--no-default-features"],
        "about 3 minutes",
        "trunk builds the development console (trunk serve)",
    )
}

/// The crate `name` at exactly `version`, installed with `cargo install` (and `options`)
/// unless its command says it is that version (`takes`: how long the install takes on 2
/// cores; `what_for`: said if it fails).
///
/// Unoptimised, for tools that only check and develop and ship nothing: that halves their
/// compile (trunk 3 min 56 s with the crates downloaded, against 7 min 23 s optimised on a
/// new machine; leptosfmt 34 s against 1 min 16 s), and their work stays quick: trunk hands
/// the console's build to cargo and wasm-bindgen, and the `dev` suite took 5 s with either
/// build; leptosfmt checks the markup in 0.8 s instead of 0.2 s. Not wasm-bindgen-cli: it
/// reads every bundle, and its install is the yardstick of the figures
/// (docs/performance.md).
fn ensure_unoptimised(
    name: &str,
    version: &str,
    options: &[&str],
    takes: &str,
    what_for: &str,
) -> Result<()> {
    if output_of(name, &["--version"]).as_deref() == Some(&format!("{name} {version}")) {
        return Ok(());
    }
    step(&format!(
        "installing {name} {version} from crates.io ({takes} on 2 cores, once)"
    ));
    exec(
        cargo()
            .args(["install", name, "--version", version, "--locked", "--debug"])
            .args(options)
            // Nobody steps through it in a debugger: no debug info to write and link.
            .env("CARGO_PROFILE_DEV_DEBUG", "false"),
    )
    .with_context(|| what_for.to_owned())
}

/// The wasm-bindgen CLI must match the `wasm-bindgen` crate in Cargo.lock exactly.
fn ensure_wasm_bindgen() -> Result<()> {
    let wanted = locked_version("wasm-bindgen")?;
    let have = |tool: &str| output_of(tool, &["--version"]).unwrap_or_default();
    let matches = |line: String| line.split_whitespace().nth(1) == Some(wanted.as_str());
    if matches(have("wasm-bindgen")) && matches(have("wasm-bindgen-test-runner")) {
        return Ok(());
    }
    step(&format!(
        "installing wasm-bindgen-cli {wanted} from crates.io (about 6 minutes on 2 cores, once)"
    ));
    let started = std::time::Instant::now();
    // Without --locked: its lock file names a crate version this registry lacks.
    exec(cargo().args([
        "install",
        "wasm-bindgen-cli",
        "--version",
        &wanted,
        "--force",
    ]))
    .context("wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock")?;
    let seconds = started.elapsed().as_secs();
    std::fs::create_dir_all(tools_dir())?;
    std::fs::write(yardstick_file(), format!("{seconds}\n"))?;
    Ok(())
}

/// Where the time this machine took to install wasm-bindgen-cli is kept: every fresh run
/// performs that install, so the figures in docs/performance.md are ratios to it.
fn yardstick_file() -> std::path::PathBuf {
    tools_dir().join("wasm-bindgen-cli-install.seconds")
}

/// How many seconds this machine took to install wasm-bindgen-cli, if it installed it.
pub fn yardstick_seconds() -> Option<u64> {
    std::fs::read_to_string(yardstick_file())
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|seconds| *seconds > 0)
}

/// wasm-opt from npm's binaryen 132. Debian's binaryen 108 runs, but its output breaks
/// the externref table wasm-bindgen emits for Rust 1.95 (`WebAssembly.Table.set(): Argument
/// 1 is invalid`), whatever feature flags it gets.
fn ensure_wasm_opt() -> Result<()> {
    let bin = wasm_opt_dir();
    let wasm_opt = bin.join("wasm-opt");
    let version = output_of(&wasm_opt.to_string_lossy(), &["--version"]).unwrap_or_default();
    if version.contains(&format!("version_{BINARYEN_VERSION}")) {
        return Ok(());
    }
    step(&format!(
        "installing wasm-opt (npm package binaryen@{BINARYEN_VERSION})"
    ));
    npm_install(
        &format!("binaryen-{BINARYEN_VERSION}"),
        &format!("binaryen@{BINARYEN_VERSION}"),
    )
    .context("wasm-opt shrinks the release bundle; npm (Node.js) is needed to install it")
}

/// `axe.min.js` of [`AXE_CORE_VERSION`], which the e2e harness injects into each page.
pub fn axe_core_script() -> std::path::PathBuf {
    tools_dir().join(format!(
        "axe-core-{AXE_CORE_VERSION}/node_modules/axe-core/axe.min.js"
    ))
}

fn ensure_axe_core() -> Result<()> {
    if axe_core_script().exists() {
        return Ok(());
    }
    step(&format!("installing axe-core {AXE_CORE_VERSION} (npm)"));
    npm_install(
        &format!("axe-core-{AXE_CORE_VERSION}"),
        &format!("axe-core@{AXE_CORE_VERSION}"),
    )
    .context("the whole-app suite checks every page with axe-core; npm (Node.js) installs it")
}

/// terser's command-line script (run with node) of [`TERSER_VERSION`].
pub fn terser_script() -> std::path::PathBuf {
    tools_dir().join(format!(
        "terser-{TERSER_VERSION}/node_modules/terser/bin/terser"
    ))
}

fn ensure_terser() -> Result<()> {
    if terser_script().exists() {
        return Ok(());
    }
    step(&format!("installing terser {TERSER_VERSION} (npm)"));
    npm_install(
        &format!("terser-{TERSER_VERSION}"),
        &format!("terser@{TERSER_VERSION}"),
    )
    .context("the split build minifies its scripts with terser; npm (Node.js) installs it")
}

/// The folder Lighthouse of [`LIGHTHOUSE_VERSION`] is installed in (with its
/// puppeteer-core, which the bench's user flow drives).
pub fn lighthouse_dir() -> std::path::PathBuf {
    tools_dir().join(format!("lighthouse-{LIGHTHOUSE_VERSION}"))
}

/// Lighthouse, for `cargo xtask bench felt` only: nothing else needs it.
pub fn ensure_lighthouse() -> Result<()> {
    if lighthouse_dir()
        .join("node_modules/lighthouse/package.json")
        .exists()
    {
        return Ok(());
    }
    step(&format!("installing Lighthouse {LIGHTHOUSE_VERSION} (npm)"));
    npm_install(
        &format!("lighthouse-{LIGHTHOUSE_VERSION}"),
        &format!("lighthouse@{LIGHTHOUSE_VERSION}"),
    )
    .context("the felt bench runs Lighthouse beside its own timing; npm (Node.js) installs it")
}

/// lightningcss's command-line tool of [`LIGHTNINGCSS_VERSION`] (npm ships it built).
pub fn lightningcss() -> std::path::PathBuf {
    tools_dir().join(format!(
        "lightningcss-{LIGHTNINGCSS_VERSION}/node_modules/lightningcss-cli/lightningcss"
    ))
}

fn ensure_lightningcss() -> Result<()> {
    if output_of(&lightningcss().to_string_lossy(), &["--version"]).is_some() {
        return Ok(());
    }
    step(&format!(
        "installing lightningcss {LIGHTNINGCSS_VERSION} (npm package lightningcss-cli)"
    ));
    npm_install(
        &format!("lightningcss-{LIGHTNINGCSS_VERSION}"),
        &format!("lightningcss-cli@{LIGHTNINGCSS_VERSION}"),
    )
    .context("the split build minifies its style sheets with lightningcss; npm installs it")
}

/// `npm install package` into its own folder under the tools directory.
fn npm_install(folder: &str, package: &str) -> Result<()> {
    let prefix = tools_dir().join(folder);
    std::fs::create_dir_all(&prefix)?;
    exec(Command::new("npm").args([
        "install",
        "--prefix",
        &prefix.to_string_lossy(),
        "--no-audit",
        "--no-fund",
        "--silent",
        package,
    ]))
}

/// The Python virtual environment the fuzz suite's schemathesis lives in.
fn venv_dir() -> std::path::PathBuf {
    tools_dir().join("venv")
}

/// `schemathesis` of [`SCHEMATHESIS_VERSION`], installed from PyPI into a virtual
/// environment under ~/.cache/gpudeck/venv when missing; returns its path.
pub fn ensure_schemathesis() -> Result<std::path::PathBuf> {
    ensure_in_venv("schemathesis", SCHEMATHESIS_VERSION, "about 15 s")
}

/// The official client `vastai` of [`VASTAI_VERSION`], in the same virtual environment;
/// `crates/server/tests/api/official_client.rs` runs it against the reference server.
pub fn ensure_vastai() -> Result<std::path::PathBuf> {
    ensure_in_venv("vastai", VASTAI_VERSION, "about 20 s")
}

/// What the test suites run besides cargo: leptosfmt, schemathesis and the official client.
pub fn ensure_test_tools() -> Result<()> {
    ensure_leptosfmt()?;
    ensure_schemathesis()?;
    ensure_vastai()?;
    Ok(())
}

/// leptosfmt, for the format suite.
pub fn ensure_leptosfmt() -> Result<()> {
    ensure_unoptimised(
        "leptosfmt",
        LEPTOSFMT_VERSION,
        &[],
        "under a minute",
        "leptosfmt checks the markup of view! for the format suite",
    )
}

/// Installs the suites' Python tools (schemathesis, the official client) on a thread of its
/// own, so that their downloads overlap the test builds' compiles rather than wait at the
/// start of the `native` and `fuzz` suites; a suite that asks for one first waits for this
/// (one install into the virtual environment at a time). Join it before exiting: a pip
/// stopped halfway would leave a package half installed. A failure is left to the suite
/// that needs the tool, which installs it again and says why.
pub fn install_python_tools_behind() -> std::thread::JoinHandle<()> {
    std::thread::spawn(|| {
        let _ = ensure_vastai();
        let _ = ensure_schemathesis();
    })
}

/// The command `package` (PyPI) installs, at exactly `version`, in the virtual
/// environment under ~/.cache/gpudeck/venv: installed from PyPI when missing or at
/// another version; returns its path.
fn ensure_in_venv(package: &str, version: &str, takes: &str) -> Result<std::path::PathBuf> {
    // One pip at a time in the environment (see `install_python_tools_behind`).
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _installing = INSTALLING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let venv = venv_dir();
    let command = venv.join("bin").join(package);
    let python = venv.join("bin/python");
    let installed = output_of(
        &python.to_string_lossy(),
        &[
            "-c",
            &format!("import importlib.metadata as m; print(m.version('{package}'))"),
        ],
    );
    if installed.as_deref() == Some(version) && command.exists() {
        return Ok(command);
    }
    step(&format!(
        "installing {package} {version} from PyPI into {} ({takes}, once)",
        venv.display()
    ));
    if !venv.join("bin/pip").exists() {
        exec(Command::new("python3").args(["-m", "venv", &venv.to_string_lossy()]))
            .context("the test suites need Python 3 with venv (Debian: python3-venv)")?;
    }
    exec(Command::new(venv.join("bin/pip")).args([
        "install",
        "--quiet",
        "--disable-pip-version-check",
        &format!("{package}=={version}"),
    ]))
    .with_context(|| format!("installing {package} from PyPI"))?;
    Ok(command)
}

/// Where the tools installed outside cargo live, shared by every clone of the project.
fn tools_dir() -> std::path::PathBuf {
    let home = std::env::var_os("HOME").unwrap_or_else(|| ".".into());
    Path::new(&home).join(".cache/gpudeck")
}

/// The directory holding the `wasm-opt` that release builds must use.
pub fn wasm_opt_dir() -> std::path::PathBuf {
    tools_dir().join(format!(
        "binaryen-{BINARYEN_VERSION}/node_modules/binaryen/bin"
    ))
}

/// binaryen's library (its `index.js`, which npm's `wasm-opt` command wraps), which the
/// split build's optimiser loads once for many modules.
pub fn binaryen_library() -> std::path::PathBuf {
    wasm_opt_dir().with_file_name("index.js")
}

/// `PATH` with our wasm-opt first, for running trunk.
pub fn path_with_tools() -> std::ffi::OsString {
    let mut dirs = vec![wasm_opt_dir()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).expect("PATH entries are valid")
}

fn ensure_browser() -> Result<()> {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return Ok(());
    }
    step("installing Chromium and ChromeDriver (Debian packages chromium, chromium-driver)");
    apt_install(&["chromium", "chromium-driver"])
        .context("the browser tests drive Debian's Chromium through ChromeDriver")
}

/// wrk, the load generator of `cargo xtask bench`.
pub fn ensure_wrk() -> Result<()> {
    if Path::new("/usr/bin/wrk").exists() {
        return Ok(());
    }
    step("installing wrk (Debian package wrk)");
    apt_install(&["wrk"]).context("the server benchmarks use wrk as the load generator")
}

/// `apt-get install`, refreshing the package lists once if the first try fails.
fn apt_install(packages: &[&str]) -> Result<()> {
    let prefix: Vec<&str> = if output_of("id", &["-u"]).as_deref() == Some("0") {
        vec![]
    } else if Command::new("sudo")
        .args(["-n", "true"])
        .status()
        .is_ok_and(|s| s.success())
    {
        vec!["sudo", "-n"]
    } else {
        bail!(
            "missing {}: install it with `sudo apt-get install -y {}` and run this again",
            packages.join(", "),
            packages.join(" ")
        );
    };
    let apt = |args: &[&str]| {
        let mut all: Vec<&str> = prefix.clone();
        all.push("apt-get");
        all.extend_from_slice(args);
        let mut cmd = Command::new(all[0]);
        cmd.args(&all[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend_from_slice(packages);
    if exec(&mut apt(&install)).is_ok() {
        return Ok(());
    }
    exec(&mut apt(&["update"]))?;
    exec(&mut apt(&install))
}

/// The version of `package` in Cargo.lock.
pub fn locked_version(package: &str) -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).context("reading Cargo.lock")?;
    let marker = format!("name = \"{package}\"\nversion = \"");
    let start = lock
        .find(&marker)
        .with_context(|| format!("{package} is not in Cargo.lock"))?
        + marker.len();
    let end = lock[start..].find('"').context("malformed Cargo.lock")? + start;
    Ok(lock[start..end].to_owned())
}
