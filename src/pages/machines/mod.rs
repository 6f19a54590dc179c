//! The machines area: the fleet list (the landing page), scheduling and its rules.

pub mod plan;
