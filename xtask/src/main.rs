//! `cargo xtask <command>`: the project's set-up, run and test commands.
//!
//! Every command first installs what is missing (and skips what is present), so the
//! README needs exactly two commands: `cargo xtask run` and `cargo xtask test`.

mod compress;
mod disk;
mod e2e;
mod merge;
mod minify;
mod optimiser;
mod package;
mod packs;
mod parallel;
mod reuse;
mod reuse_check;
mod scratch;
mod served_page;
mod server_process;
mod setup;
mod shell;
mod split;
mod tasks;
mod test_builds;
mod test_files;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

  run         install what is missing, build the console (release), start the reference
              server with demo data serving it, print the URL and the demo keys;
              --port N picks the port, --upstream URL serves your own account instead
              (every API request forwarded to URL; no demo data)
  package     the console and the release server in one folder, target/package/gpudeck,
              to copy to another machine of this kind
  test        install what is missing (also Chromium), run every test suite, print a summary
  setup       only install what is missing (add --browser for Chromium and ChromeDriver,
              --dev for trunk), with schemathesis and the official client vastai for the
              tests
  bench       measure bundle size (also split by route), the console in Chromium (also
              throttled to Lighthouse's presets), the server under load and the
              maintenance planner; writes target/bench/report.md
              (parts: size, browser, felt, server, plan)
  split       only build the console split by route into target/split/dist
  serve-api   install trunk if missing and start only the reference server with demo
              data on 127.0.0.1:8787, for `trunk serve` live-reload development
";

fn main() -> ExitCode {
    shell::forget_how_cargo_ran_xtask();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => tasks::run(&args[1..]),
        Some("test") => tasks::test(&args[1..]),
        Some("setup") => {
            let flag = |name: &str| args.iter().any(|a| a == name);
            setup::ensure_all(flag("--browser"))
                .and_then(|()| setup::ensure_test_tools())
                .and_then(|()| flag("--dev").then(setup::ensure_trunk).unwrap_or(Ok(())))
        }
        Some("split") => setup::ensure_all(false).and_then(|()| split::build_split_console()),
        Some("serve-api") => tasks::serve_api(),
        Some("package") => package::build(),
        Some("bench") => tasks::bench(&args[1..]),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nxtask: {error:#}");
            ExitCode::FAILURE
        }
    }
}
