//! The console's pages in a real browser, each mounted in the whole app against a
//! scripted `fetch`. One test file (one module, one runner and one Chromium) for all of
//! them: each file costs its link and the runner's start, a few seconds each.
#![cfg(target_arch = "wasm32")]

#[path = "../support/mod.rs"]
mod support;

mod accounts;
mod first_reads;
mod fleet;
mod machine_detail;
mod machines_health;
mod machines_listing;
mod notifications;
mod rolling;
mod shell;
mod team;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
