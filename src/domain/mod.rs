//! The rule: here lives what more than one page uses; a page's own rules live beside the page.
//!
//! So: the fleet as loaded and sent, a machine's listing and its stage on the way to
//! maintenance, paced sending, the rules of scheduling a window, what a cancellation did,
//! a form's problems, and a team role being edited.
//! Pages import these; no page imports another. All of it but what sends requests
//! (`fleet`, and `cancellation`'s sending) is `gpudeck_logic::domain`'s, tested natively
//! and re-exported here.

pub use gpudeck_logic::domain::{
    bulk, earnings, form_problem, health, listing, offer_terms, reports, role, schedule,
};

pub mod cancellation;
pub mod fleet;
