//! The whole-app suite: its test files (from the native test build) run three at a time,
//! each test file's tests one after another in their own browsers and servers (every one
//! on free ports). Two files spend most of their time waiting for the public service's
//! pace (`rolling`: N22 (list machine) every 5 s; `paced_cancel`); they start first, so
//! that the other files fill the other lanes around them.

use crate::scratch::BrowserScratch;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM};
use crate::shell::root;
use crate::split;
use crate::test_builds::TestBuild;
use crate::test_files;
use anyhow::Result;
use std::process::Command;

/// How many test files run at once. Each file's tests wait on a browser and a server more
/// than they compute, so the machine's two cores carry three; a fourth lane only slowed
/// every file (docs/performance.md).
const LANES: usize = 3;

/// The test files started first, longest first; the rest follow by name.
const STARTED_FIRST: [&str; 4] = ["rolling", "paced_cancel", "look", "listing"];

/// Builds and runs the suite against the split build; fails naming each failed file,
/// after all have run.
pub fn run() -> Result<()> {
    split::build_split_console()?;
    let build = TestBuild::native()?;
    let files = test_files::in_running_order(
        build.files_in("crates/e2e").cloned().collect(),
        &STARTED_FIRST,
    );
    let scratch = BrowserScratch::new("e2e")?;
    test_files::run("whole-app", &files, LANES, |file| {
        let mut command = Command::new(&file.executable);
        scratch
            .apply(&mut command)
            .arg("--test-threads=1")
            .current_dir(root().join("crates/e2e"))
            .env("GPUDECK_DIST", split::dist_dir())
            .env("GPUDECK_AXE", setup::axe_core_script())
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("CHROMIUM", CHROMIUM);
        command
    })
}
