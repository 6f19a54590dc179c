pub mod contract_safe;
pub mod offer_steps;
pub mod rules;
