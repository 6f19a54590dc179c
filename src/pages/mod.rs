//! The pages, laid out like their addresses (`crate::routes`): `machines/maintenance.rs`
//! serves `/machines/maintenance`. A page imports components and domain modules, never
//! another page.

pub mod acting_account;
pub mod machines;
pub mod not_found;
pub mod notifications;
pub mod sign_in;
pub mod subaccounts;
pub mod team;
pub mod templates;
pub mod volumes;
