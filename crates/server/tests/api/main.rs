//! The reference server's tests, a module per area. One test target, not a file each:
//! as seventeen files they took 70 s of CPU to compile and link, the same dependencies
//! seventeen times; as one, 17 s. `cargo xtask test` still runs each module in a process
//! of its own, naming its tests exactly, two at a time;
//! `cargo test -p gpudeck-server --test api authorization::` runs one by hand.

mod accounts;
mod authorization;
mod common;
mod concurrency;
mod crash;
mod demo_triggers;
mod headers;
mod http;
mod limits;
mod listing;
mod live;
mod machines;
mod min_bid;
mod notifications;
mod official_client;
mod operations;
mod reports_and_earnings;
mod team;
