//! gpudeck: an admin console for the GPU-marketplace REST interface.
//!
//! The modules are public so that the browser test suites in `tests/` can mount any
//! component on its own.

pub mod api;
pub mod app;
pub mod components;
pub mod decimal;
pub mod domain;
pub mod pages;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod parity;
pub mod route_address;
pub mod routes;
pub mod served_sign_in;
pub mod session;
pub mod split;
pub mod storage;
