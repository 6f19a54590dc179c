//! The whole-app tests, a module per area, each test in its own browser and server. One
//! test target, not a file each: as seventeen files they took 64 s of CPU to compile and
//! link, the harness, the server and the WebDriver client seventeen times; as one, 13 s.
//! `cargo xtask test` runs each module in a process of its own, naming its tests exactly
//! (two at a time, the modules that wait on a pace beside them);
//! `cargo test -p gpudeck-e2e --test whole_app look::` runs one by hand.

mod accounts;
mod accounts_lists;
mod fleet;
mod fleet_health;
mod listing;
mod look;
mod lost_answer;
mod machines;
mod paced_cancel;
mod paced_offers;
mod rolling;
mod routes;
mod security;
mod sign_in;
mod team;
mod upstream;
mod webhooks;
