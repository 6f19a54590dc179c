//! The console's parts in a real browser: the typed fetch layer against a scripted
//! `fetch`, and the components pages share, on their own. One test file (one module, one
//! runner and one Chromium) for all of them, as for the pages in `tests/pages`.
#![cfg(target_arch = "wasm32")]

#[path = "../support/mod.rs"]
mod support;

mod api_client;
mod building_blocks;
mod components;
mod decimal;
mod listing_api;
mod machines_components;
mod rate_limit;
mod session;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
