//! gpudeck: an admin console for the GPU-marketplace REST interface.
//!
//! The modules are public so that the browser test suites in `tests/` can mount any
//! component on its own. What needs no browser (rules, words, request forms, pacing) is
//! `gpudeck_logic`'s, re-exported here under the same paths.

pub use gpudeck_logic::decimal;

pub mod api;
pub mod app;
pub mod components;
pub mod domain;
pub mod pages;
pub mod route_address;
pub mod routes;
pub mod served_sign_in;
pub mod session;
pub mod split;
pub mod storage;
