pub mod filters;
pub mod mine;
pub mod rules;
