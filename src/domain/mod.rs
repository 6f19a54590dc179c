//! The rule: here lives what more than one page uses; a page's own rules live beside the page.
//!
//! So: the fleet as loaded and sent, a machine's listing and its stage on the way to
//! maintenance, paced sending, the rules of scheduling a window, what a cancellation did,
//! a form's problems, and a team role being edited.
//! Pages import these; no page imports another.

pub mod bulk;
pub mod cancellation;
pub mod earnings;
pub mod fleet;
pub mod form_problem;
pub mod health;
pub mod listing;
pub mod offer_terms;
pub mod reports;
pub mod role;
pub mod schedule;
