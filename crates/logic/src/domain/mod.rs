//! What more than one page knows: a machine's listing and its stage on the way to
//! maintenance, sorting an answer into done, refused or unknown, paced runs in words, the
//! rules of scheduling a window, what a cancellation did, offer terms, health findings,
//! renter reports, earnings, a form's problems, and a team role being edited. The console
//! adds what sends requests (its `domain::fleet`, `domain::cancellation`).

pub mod bulk;
pub mod cancellation;
pub mod earnings;
pub mod form_problem;
pub mod health;
pub mod listing;
pub mod offer_terms;
pub mod reports;
pub mod role;
pub mod schedule;
