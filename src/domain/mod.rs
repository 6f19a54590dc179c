//! What more than one page knows about the domain: the fleet as loaded, a machine's
//! listing and its stage on the way to maintenance, the rules of scheduling a window, what
//! a cancellation did, a form's problems, the rolling maintenance plan and its contract-safe mode, and a team
//! role being edited. Pages import these; no page imports another.

pub mod bulk;
pub mod cancellation;
pub mod contract_safe;
pub mod fleet;
pub mod form_problem;
pub mod listing;
pub mod role;
pub mod rolling;
pub mod schedule;
