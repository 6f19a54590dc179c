//! Each page's own rules, under the page's name: what its forms check, what its results
//! say, what its plans do. The console's page of the same name shows them.

pub mod machines;
pub mod notifications;
pub mod subaccounts;
pub mod team;
pub mod volumes;
