//! `cargo xtask package`: the console and the release server in one folder, to copy to
//! another machine of the same kind and run there with nothing else installed; and the
//! check that such a folder works from outside the source tree. Only `package` itself
//! builds the release server: the check lays out the same folder with the server the test
//! build made, which is the code the other suites test, compiled without optimising.

use crate::server_process::Started;
use crate::shell::{cargo, copy_folder, empty_folder, exec, root, step};
use crate::test_builds::{TestBuild, SERVER};
use crate::{setup, split};
use anyhow::{bail, Context, Result};
use gpudeck_wire::paths;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

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
    lay_out(&root().join("target/release").join(SERVER), &folder)?;
    println!(
        "    the package: {} (README.txt says how to start it)",
        folder.display()
    );
    Ok(())
}

/// Empties `folder` and puts in it the `server` binary, the shipping console and the
/// README: the package's layout.
fn lay_out(server: &Path, folder: &Path) -> Result<()> {
    let folder = empty_folder(folder)?;
    std::fs::copy(server, folder.join(SERVER))
        .with_context(|| format!("copying {}", server.display()))?;
    copy_folder(&split::dist_dir(), &folder.join(CONSOLE))?;
    std::fs::write(folder.join("README.txt"), HOW_TO)?;
    Ok(())
}

/// Lays out the package, with the test build's server, in a folder outside the source
/// tree and starts it there, forwarding to a demo reference server: it must serve the
/// console, say that it forwards, and pass a signed-in request on.
pub fn check() -> Result<()> {
    split::build_split_console()?;
    let server = TestBuild::native()?.binary(SERVER)?.to_owned();
    step("starting the package from a folder outside the source tree");
    let outside = std::env::temp_dir().join(format!("gpudeck-package-{}", std::process::id()));
    lay_out(&server, &outside)?;
    let (upstream, alice) = Started::demo()?;
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
