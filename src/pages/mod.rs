//! One module per area of the console.

pub mod acting_account;
pub mod defrag;
pub mod machines;
pub mod maintenance;
pub mod not_found;
pub mod rolling;
pub mod sign_in;
pub mod subaccounts;
pub mod team;
pub mod templates;
pub mod volumes;
