//! Running commands with visible progress and clear failures.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits inside the workspace")
        .to_path_buf()
}

pub fn step(title: &str) {
    println!("\n==> {title}");
}

/// Runs `cmd` with inherited output; fails naming the command when it fails.
pub fn exec(cmd: &mut Command) -> Result<()> {
    let shown = describe(cmd);
    let started = Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("could not start `{shown}`"))?;
    if !status.success() {
        bail!(
            "`{shown}` failed ({status}) after {}",
            elapsed(started.elapsed().as_secs())
        );
    }
    Ok(())
}

/// Runs `cmd` with its output captured; fails naming the command and showing its standard
/// error when it fails. For tools run once per file, whose output is noise on success.
pub fn exec_quiet(cmd: &mut Command) -> Result<()> {
    let shown = describe(cmd);
    let output = cmd
        .output()
        .with_context(|| format!("could not start `{shown}`"))?;
    if !output.status.success() {
        bail!(
            "`{shown}` failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// `folder`, emptied (or made).
pub fn empty_folder(folder: &Path) -> Result<PathBuf> {
    if folder.exists() {
        std::fs::remove_dir_all(folder)
            .with_context(|| format!("emptying {}", folder.display()))?;
    }
    std::fs::create_dir_all(folder)?;
    Ok(folder.to_path_buf())
}

/// Copies the folder `from` into `to` (made when missing), subfolders included.
/// `std::fs::copy` keeps permissions, so executables stay executable.
pub fn copy_folder(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let path = entry?.path();
        let target = to.join(path.file_name().expect("an entry has a name"));
        if path.is_dir() {
            copy_folder(&path, &target)?;
        } else {
            std::fs::copy(&path, &target)?;
        }
    }
    Ok(())
}

/// The trimmed standard output of `program args`, or `None` when it can not run.
pub fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Takes out of xtask's environment what `cargo run` put there about xtask itself
/// (`CARGO_PKG_NAME=xtask`, `CARGO_MANIFEST_DIR`, ...), so that the commands it starts see
/// the environment a cargo typed by hand sees. ring's build script asks cargo to build it
/// again when those change: with them, every `cargo xtask test` after a hand-run `cargo
/// build` compiled ring, rustls, reqwest and the server again, and the other way round.
/// Called first thing, before any thread starts.
pub fn forget_how_cargo_ran_xtask() {
    let about_xtask = |name: &str| {
        name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_MANIFEST_")
            || [
                "CARGO_CRATE_NAME",
                "CARGO_BIN_NAME",
                "CARGO_PRIMARY_PACKAGE",
            ]
            .contains(&name)
    };
    let names: Vec<String> = std::env::vars_os()
        .filter_map(|(name, _)| name.into_string().ok())
        .filter(|name| about_xtask(name))
        .collect();
    for name in names {
        std::env::remove_var(name);
    }
}

pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// `work`, then a line saying how long it took, so that a newcomer sees where the
/// minutes of a first build go.
pub fn timed<T>(what: &str, work: impl FnOnce() -> Result<T>) -> Result<T> {
    let started = Instant::now();
    let made = work()?;
    println!("    {what}: {}", elapsed(started.elapsed().as_secs()));
    Ok(made)
}

pub fn elapsed(seconds: u64) -> String {
    if seconds >= 60 {
        format!("{}m{:02}s", seconds / 60, seconds % 60)
    } else {
        format!("{seconds}s")
    }
}

fn describe(cmd: &Command) -> String {
    let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
    parts.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_failure_names_the_command_and_shows_its_errors() {
        exec_quiet(Command::new("sh").args(["-c", "echo fine"])).unwrap();
        let error = exec_quiet(Command::new("sh").args(["-c", "echo broken >&2; exit 3"]))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("`sh -c echo broken >&2; exit 3` failed"),
            "{error}"
        );
        assert!(error.contains("exit status: 3"), "{error}");
        assert!(error.ends_with(": broken"), "{error}");
        let missing = exec_quiet(&mut Command::new("no-such-tool-here")).unwrap_err();
        assert!(missing
            .to_string()
            .contains("could not start `no-such-tool-here`"));
    }
}
