//! The whole-app suite: the modules of its test target (from the native test build), each
//! in a process of its own, run two at a time, each module's tests one after another in
//! their own browsers and servers (every one on free ports). Three modules spend most of
//! their time waiting for the public service's pace (`rolling`: N4 every 2 s;
//! `paced_offers`: N22 (list machine) every 5 s, and N23; `paced_cancel`: N5 every 2.5 s);
//! each runs in a lane of its own beside the two.

use crate::scratch::BrowserScratch;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM};
use crate::shell::root;
use crate::split;
use crate::test_builds::TestBuild;
use crate::test_files;
use anyhow::Result;
use std::process::Command;

/// The whole-app test target, a module per area (see its `main.rs`).
const WHOLE_APP_TESTS: &str = "crates/e2e/tests/whole_app";

/// How many of the test modules that compute run at once. The suite keeps both cores busy
/// (a second `vmstat` column of 4 % idle): with the three pace-bound files beside them,
/// two lanes ran the 17 files in 6 min 29 s, three in 6 min 53 s and starved a renderer
/// into a WebDriver timeout; three lanes taking the pace-bound files in turn ran the same
/// tests, as 16 files with the paced offers inside `listing`, in 6 min 38 s.
const LANES: usize = 2;

/// The test modules that mostly wait on a pace, each in a lane of its own.
const PACE_BOUND: [&str; 3] = ["rolling", "paced_offers", "paced_cancel"];

/// The test modules started first in the two lanes, longest first; the rest follow by
/// name.
const STARTED_FIRST: [&str; 3] = ["look", "routes", "sign_in"];

/// Builds and runs the suite against the split build; fails naming each failed file,
/// after all have run.
pub fn run() -> Result<()> {
    split::build_split_console()?;
    let build = TestBuild::native()?;
    test_files::check_modules_declared(&root().join(WHOLE_APP_TESTS))?;
    let files = test_files::in_running_order(
        test_files::by_module(build.files_in("crates/e2e").cloned().collect())?,
        &STARTED_FIRST,
    );
    let scratch = BrowserScratch::new("e2e")?;
    test_files::run("whole-app", &files, LANES, &PACE_BOUND, |file| {
        let mut command = Command::new(&file.executable);
        scratch
            .apply(&mut command)
            .arg("--test-threads=1")
            .args(file.selection())
            .current_dir(root().join("crates/e2e"))
            .env("GPUDECK_DIST", split::dist_dir())
            .env("GPUDECK_AXE", setup::axe_core_script())
            .env("CHROMEDRIVER", CHROMEDRIVER)
            .env("CHROMIUM", CHROMIUM);
        command
    })
}
