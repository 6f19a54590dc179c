//! `cargo xtask package`: the console and the release server in one folder, to copy to
//! another machine of the same kind and run there with nothing else installed; and the
//! check that such a copy works from outside the source tree.

use crate::shell::{cargo, exec, root, step};
use crate::{setup, split};
use anyhow::{bail, Context, Result};
use gpudeck_wire::paths;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SERVER: &str = "gpudeck-server";
const CONSOLE: &str = "console";

/// What the folder says about itself.
const HOW_TO: &str = "\
gpudeck: the admin console and its server, in one folder.

Start it on this machine, forwarding to the marketplace with your own account:

    ./gpudeck-server --static-dir console --upstream https://console.vast.ai

then open http://127.0.0.1:8787/ and sign in with your API key. The key stays in that
browser tab only; the server keeps no key and no account data (it forwards every
/api/v0/ request as it is).

Options: --addr 127.0.0.1:9000 picks another address; --help lists the rest.
The demo data instead: ./gpudeck-server --static-dir console --memory --demo
";

/// Where the package is built.
pub fn package_dir() -> PathBuf {
    root().join("target/package/gpudeck")
}

/// Builds the shipping console and the release server, and puts them in [`package_dir`].
pub fn build() -> Result<()> {
    setup::ensure_all(false)?;
    split::build_split_console()?;
    step("building the release server");
    exec(cargo().args(["build", "--release", "--locked", "-p", SERVER]))?;
    let folder = package_dir();
    if folder.exists() {
        std::fs::remove_dir_all(&folder)?;
    }
    std::fs::create_dir_all(folder.join(CONSOLE))?;
    std::fs::copy(
        root().join("target/release").join(SERVER),
        folder.join(SERVER),
    )?;
    for entry in std::fs::read_dir(split::dist_dir())? {
        let file = entry?.path();
        std::fs::copy(
            &file,
            folder.join(CONSOLE).join(file.file_name().expect("a name")),
        )?;
    }
    std::fs::write(folder.join("README.txt"), HOW_TO)?;
    println!(
        "    the package: {} (README.txt says how to start it)",
        folder.display()
    );
    Ok(())
}

/// Builds the package, copies it to a folder outside the source tree and starts it there,
/// forwarding to a demo reference server: it must serve the console, say that it forwards,
/// and pass a signed-in request on.
pub fn check() -> Result<()> {
    build()?;
    step("starting the package from a folder outside the source tree");
    let outside = std::env::temp_dir().join(format!("gpudeck-package-{}", std::process::id()));
    if outside.exists() {
        std::fs::remove_dir_all(&outside)?;
    }
    copy_folder(&package_dir(), &outside)?;
    exec(cargo().args(["build", "--quiet", "-p", SERVER]))?;
    let upstream = Started::new(
        Command::new(root().join("target/debug").join(SERVER)).args([
            "--memory",
            "--demo",
            "--addr",
            "127.0.0.1:0",
        ]),
    )?;
    // "  alice (host, …): <key>"
    let alice = upstream.line_after("  alice ")?;
    let alice = alice.rsplit(' ').next().unwrap_or_default().to_owned();
    let packaged = Started::new(
        Command::new(outside.join(SERVER))
            .args(["--static-dir", CONSOLE, "--addr", "127.0.0.1:0"])
            .args(["--upstream", &upstream.url])
            .current_dir(&outside)
            .env_clear(),
    )?;
    let page = get(&packaged.url, "/machines", None)?;
    expect(&page, "200 OK", "the console's page")?;
    expect(&page, "data-served-sign-in", "the console's page")?;
    let about = get(&packaged.url, paths::SERVER, None)?;
    expect(&about, "\"data\":\"forwarded\"", "which server answers")?;
    let me = get(&packaged.url, paths::CURRENT_USER, Some(&alice))?;
    expect(&me, "\"username\":\"alice\"", "a signed-in request")?;
    let upstream_url = upstream.url.clone();
    drop((packaged, upstream));
    std::fs::remove_dir_all(&outside)?;
    println!(
        "    the copy in {} served the console and forwarded to {upstream_url}",
        outside.display()
    );
    Ok(())
}

/// A server started for the check: its address, and what else it printed; killed when
/// dropped.
struct Started {
    child: Child,
    url: String,
    lines: mpsc::Receiver<String>,
}

impl Started {
    /// Starts `command` and waits for the line that says where it listens.
    fn new(command: &mut Command) -> Result<Self> {
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
    fn line_after(&self, prefix: &str) -> Result<String> {
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

/// `GET path` on `base` (http://host:port) over a plain socket, with `key` as the bearer;
/// the whole answer, status line and headers included.
fn get(base: &str, path: &str, key: Option<&str>) -> Result<String> {
    let host = base.strip_prefix("http://").context("an http:// address")?;
    let mut stream = TcpStream::connect(host)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let auth = key.map_or(String::new(), |key| {
        format!("Authorization: Bearer {key}\r\n")
    });
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\n{auth}Connection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    Ok(String::from_utf8_lossy(&answer).into_owned())
}

fn expect(answer: &str, text: &str, what: &str) -> Result<()> {
    if !answer.contains(text) {
        let head: String = answer.chars().take(600).collect();
        bail!("{what}: the packaged server's answer lacks {text:?}:\n{head}");
    }
    Ok(())
}

fn copy_folder(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let path = entry?.path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_folder(&path, &target)?;
        } else {
            // std::fs::copy keeps the permissions: the server stays executable.
            std::fs::copy(&path, &target)?;
        }
    }
    Ok(())
}
