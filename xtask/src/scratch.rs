//! A private temporary directory for the browsers a suite or the bench starts.
//!
//! Chromium puts its profile in the temporary directory, and leaves it there when its
//! driver ends it without a clean quit (wasm-bindgen-test's runner once per test binary, a
//! failing whole-app test once each), so they pile up in /tmp. With `TMPDIR` pointing here
//! they go when the run ends.

use crate::shell::root;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::Command;

pub struct BrowserScratch(PathBuf);

impl BrowserScratch {
    /// An empty `target/tmp/browsers/<name>` (what an earlier, interrupted run left there
    /// is removed first).
    pub fn new(name: &str) -> Result<Self> {
        Self::at(root().join("target/tmp/browsers").join(name))
    }

    fn at(dir: PathBuf) -> Result<Self> {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("emptying {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Self(dir))
    }

    /// `cmd`, with every browser it starts keeping its temporary files here.
    pub fn apply<'c>(&self, cmd: &'c mut Command) -> &'c mut Command {
        cmd.env("TMPDIR", &self.0)
    }
}

impl Drop for BrowserScratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_starts_empty_is_handed_to_commands_and_goes_when_dropped() {
        let dir = std::env::temp_dir().join(format!("gpudeck-scratch-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("left-by-an-earlier-run"), "x").unwrap();

        let scratch = BrowserScratch::at(dir.clone()).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let output = scratch
            .apply(
                Command::new("sh").args(["-c", "printf %s \"$TMPDIR\"; touch \"$TMPDIR/profile\""]),
            )
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            dir.to_string_lossy()
        );
        assert!(dir.join("profile").exists());

        drop(scratch);
        assert!(!dir.exists());
    }
}
