//! The reference server's fixed catalog of notification types (spec fleet-health §3.2):
//! client types first, each group in the docs' table order.

use gpudeck_wire::notifications::{Channels, NotificationType, EMAIL, WEBHOOKS};

/// One type of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// `<context>:<slug>`.
    pub key: &'static str,
    pub display_name: &'static str,
    /// `billing` or `instance` for client types (both the category and the topic); host
    /// types are `host` / `machines`.
    pub topic: &'static str,
    pub mandatory_email: bool,
}

pub const HOST: &str = "host";
pub const CLIENT: &str = "client";

const fn client(key: &'static str, display_name: &'static str, topic: &'static str) -> Kind {
    Kind {
        key,
        display_name,
        topic,
        mandatory_email: false,
    }
}

const fn host(key: &'static str, display_name: &'static str) -> Kind {
    Kind {
        key,
        display_name,
        topic: "machines",
        mandatory_email: false,
    }
}

pub const MACHINE_OFFLINE: &str = "host:machine_offline";
pub const MACHINE_VERIFICATION_FAILED: &str = "host:machine_verification_failed";
pub const MACHINE_ERROR: &str = "host:machine_error";
pub const MACHINE_REPORTED: &str = "host:machine_reported";
pub const LOW_DISK_SPACE: &str = "host:low_disk_space";
pub const NEAR_END_DATE: &str = "host:near_end_date";
pub const MAINTENANCE_SCHEDULED: &str = "host:maintenance_scheduled";

/// Every type, in the order N25 lists them.
pub const CATALOG: [Kind; 17] = [
    client("client:low_credit", "Low balance notifications", "billing"),
    client("client:payment_receipt", "Payment receipt", "billing"),
    Kind {
        mandatory_email: true,
        ..client("client:billing_failed", "Payment failed", "billing")
    },
    client("client:instance_created", "Instance created", "instance"),
    client("client:instance_started", "Instance started", "instance"),
    client("client:instance_stopped", "Instance stopped", "instance"),
    client("client:outbid", "Instance outbid", "instance"),
    client(
        "client:upcoming_downtime",
        "Upcoming instance downtime",
        "instance",
    ),
    client("client:instance_offline", "Instance offline", "instance"),
    client("client:instance_online", "Instance back online", "instance"),
    host(MACHINE_OFFLINE, "Machine offline"),
    host(MACHINE_VERIFICATION_FAILED, "Machine verification failed"),
    host(MACHINE_ERROR, "Machine issue detected"),
    host(MACHINE_REPORTED, "Machine reported by renter"),
    host(LOW_DISK_SPACE, "Machine disk space low"),
    host(NEAR_END_DATE, "Machine listing ending soon"),
    host(MAINTENANCE_SCHEDULED, "Maintenance window confirmed"),
];

impl Kind {
    pub fn context(&self) -> &'static str {
        self.key.split_once(':').map_or("", |(context, _)| context)
    }

    pub fn slug(&self) -> &'static str {
        self.key.split_once(':').map_or(self.key, |(_, slug)| slug)
    }

    pub fn is_host(&self) -> bool {
        self.context() == HOST
    }

    /// Every type's defaults: e-mail on, webhooks off (spec fleet-health §3.2).
    pub fn default_channel(&self, channel: &str) -> Option<bool> {
        match channel {
            EMAIL => Some(true),
            WEBHOOKS => Some(false),
            _ => None,
        }
    }

    pub fn wire(&self) -> NotificationType {
        let category = if self.is_host() { HOST } else { self.topic };
        NotificationType {
            key: self.key.to_owned(),
            slug: self.slug().to_owned(),
            context: self.context().to_owned(),
            topic: Some(self.topic.to_owned()),
            category: Some(category.to_owned()),
            display_name: self.display_name.to_owned(),
            default_preferences: Channels::from([(EMAIL.into(), true), (WEBHOOKS.into(), false)]),
            mandatory_email: self.mandatory_email,
        }
    }
}

/// The catalog's type of `key`, one of the constants above.
pub fn kind(key: &str) -> &'static Kind {
    CATALOG
        .iter()
        .find(|kind| kind.key == key)
        .unwrap_or_else(|| panic!("{key} is in the catalog"))
}

/// The channels every type has.
pub const CHANNELS: [&str; 2] = [EMAIL, WEBHOOKS];

/// The types offered to a user: host types only to one who owns a machine (project rule).
pub fn offered(hosts: bool) -> impl Iterator<Item = &'static Kind> {
    CATALOG.iter().filter(move |kind| hosts || !kind.is_host())
}
