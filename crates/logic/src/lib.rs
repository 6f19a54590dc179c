//! The console's logic without the browser: what its pages check, say and send, kept apart
//! from Leptos so that it is unit-tested natively with a plain `cargo test`, and so that a
//! native test build compiles no view, no web-sys and no Leptos.
//!
//! The modules mirror the console's (`src/`), which re-exports them under the same paths:
//! `domain` (what more than one page knows), `api` (the pure half of the fetch layer:
//! request forms, outcome classes, pacing), `components` (the words, numbers and models of
//! the shared views, the data table's among them), `pages` (each page's own rules),
//! `routes` (addresses), `session` (the keys kept), `served_sign_in` (the served page's
//! form) and `decimal`. A console module with a pure half names it at its top.

pub mod api;
pub mod components;
pub mod decimal;
pub mod domain;
pub mod pages;
pub mod routes;
pub mod served_sign_in;
pub mod session;

#[cfg(test)]
mod parity;
