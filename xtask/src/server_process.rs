//! Reference servers started by the checks (fuzz, package): their address read from what
//! they print, and killed when the check is done.

use crate::test_builds::{TestBuild, SERVER};
use anyhow::{Context, Result};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A server started for a check: its address, and what else it printed; killed when
/// dropped.
pub struct Started {
    child: Child,
    pub url: String,
    lines: mpsc::Receiver<String>,
}

impl Started {
    /// Starts `command` and waits for the line that says where it listens.
    pub fn new(command: &mut Command) -> Result<Self> {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {command:?}"))?;
        let stdout = child.stdout.take().context("the server's output")?;
        let (tx, lines) = mpsc::channel();
        // Reads to the end, so the server never writes into a closed pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut started = Started {
            child,
            url: String::new(),
            lines,
        };
        started.url = started.line_after("gpudeck-server listening on ")?;
        Ok(started)
    }

    /// The rest of the next line that starts with `prefix`.
    pub fn line_after(&self, prefix: &str) -> Result<String> {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .with_context(|| format!("the server printed no line starting {prefix:?}"))?;
            if let Some(rest) = line.strip_prefix(prefix) {
                return Ok(rest.trim().to_owned());
            }
        }
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Started {
    /// The debug `gpudeck-server` of the native test build on a free loopback port with the
    /// demo data, in memory, and the demo key of alice (a host and team owner).
    pub fn demo() -> Result<(Self, String)> {
        Self::demo_of(TestBuild::native()?.binary(SERVER)?)
    }

    /// [`Started::demo`] with the server binary at `server`.
    pub fn demo_of(server: &Path) -> Result<(Self, String)> {
        let server = Started::new(
            Command::new(server)
                .args(["--memory", "--demo", "--addr", "127.0.0.1:0"])
                .env("RUST_LOG", "warn"),
        )?;
        // "  alice (host, …): <key>"
        let line = server.line_after("  alice ")?;
        let alice = line.rsplit(' ').next().unwrap_or_default().to_owned();
        Ok((server, alice))
    }

    /// Whether the server has stopped by itself.
    pub fn has_stopped(&mut self) -> Result<bool> {
        Ok(self.child.try_wait()?.is_some())
    }
}
