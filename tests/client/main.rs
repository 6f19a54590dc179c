//! The console's client side in a real browser: the typed fetch layer against a scripted
//! `fetch` (its requests, answers, refusals and pacing), and the helpers that lean on the
//! browser's own parsing (base URLs, decimal numbers). One test file (one module, one
//! runner and one Chromium), beside `tests/parts` and `tests/pages`.
#![cfg(target_arch = "wasm32")]

#[path = "../support/mod.rs"]
mod support;

mod api_client;
mod decimal;
mod listing_api;
mod rate_limit;
mod session;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
