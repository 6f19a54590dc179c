//! The rolling maintenance planner's pure core: when each machine of a fleet
//! goes down for maintenance so that no more than a cap of machines or GPUs is down at
//! once, every window stays clear of the machine's existing windows and inside the range
//! asked for, and the machines that matter most to renters go last.
//!
//! - [`plan`] proposes a start for every machine that fits and says why the others do not.
//! - [`check_plan`] re-checks the starts after a person edited them.
//! - [`batches`] turns the starts into N4 requests of at most 100 machines.
//!
//! Times are whole Unix seconds; every function is deterministic and does no I/O.

mod batches;
mod check;
#[cfg(test)]
mod fixtures;
mod hour_load;
mod order;
mod planner;
mod profile;
mod request;

pub use batches::{batches, Batch, SECONDS_BETWEEN_BATCHES};
pub use check::{check_plan, Review, Violation};
pub use order::policy_order;
pub use planner::{plan, Placement, Plan, Unfit, Unplaced};
pub use profile::Summary;
pub use request::{Cap, MachineToPlan, Pin, PlanRequest, Span, HOUR, MAX_HOURS, MAX_LEAD};
