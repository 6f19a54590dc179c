//! Minifies the split build's scripts (the wasm-bindgen glue and the split loader) with
//! terser. minify-js, which trunk uses, cannot parse their `import.meta`.

use crate::setup;
use crate::shell::exec_quiet;
use anyhow::Result;
use std::path::Path;
use std::process::Command;

/// Minifies the ES module at `script` in place: local names and white space shrink;
/// exports and string literals (the chunk and script names) stay as they are.
pub fn module_in_place(script: &Path) -> Result<()> {
    exec_quiet(
        Command::new("node")
            .arg(setup::terser_script())
            .arg(script)
            .args(["--module", "--compress", "--mangle", "--output"])
            .arg(script),
    )
}
