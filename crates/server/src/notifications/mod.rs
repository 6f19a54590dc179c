//! Notifications (spec fleet-health §3): the type catalog, webhook deliveries signed as
//! the docs describe, and the host events the reference server emits.

pub mod catalog;
pub mod delivery;
pub mod events;
pub mod host_events;
pub mod signature;
pub mod targets;

/// Webhooks a user may have: "4 per user" (docs).
pub const WEBHOOK_LIMIT: i64 = 4;
