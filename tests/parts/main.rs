//! The components pages share, on their own in a real browser. One test file (one module,
//! one runner and one Chromium) for all of them, as for the pages in `tests/pages` and the
//! fetch layer in `tests/client`.
#![cfg(target_arch = "wasm32")]

#[path = "../support/mod.rs"]
mod support;

mod building_blocks;
mod components;
mod machines_components;
mod routing;
mod table_model;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
