//! What more than one page knows about the domain: the fleet as loaded, the rules of
//! scheduling a window, and the rolling maintenance plan. Pages import these; no page
//! imports another.

pub mod fleet;
pub mod rolling;
pub mod schedule;
