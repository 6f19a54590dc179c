//! Notifications and webhooks (spec fleet-health §3): N25–N33 and the delivery a webhook
//! receives.
//!
//! Answers are read tolerantly (only the fields the spec marks R are required), because
//! the public service publishes them only in part. Request bodies are read leniently, so
//! that the reference server can refuse each field in the spec's own words.

use crate::lenient::{present, Lenient, Nullable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A type's channels and whether each is on: `{"email": true, "webhooks": false}`. Other
/// channels may appear; a reader keeps them unchanged.
pub type Channels = BTreeMap<String, bool>;

/// Preferences by context, then slug: `{"host": {"machine_offline": {"email": true, …}}}`.
pub type PreferenceMap = BTreeMap<String, BTreeMap<String, Channels>>;

/// The two channels the spec names.
pub const EMAIL: &str = "email";
pub const WEBHOOKS: &str = "webhooks";

/// A subscribable event type (N25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationType {
    /// The full key, `<context>:<slug>`: what subscriptions and preferences name.
    #[cfg_attr(feature = "openapi", schema(example = "host:machine_offline"))]
    pub key: String,
    /// The key without its context prefix.
    pub slug: String,
    /// `client` or `host`.
    pub context: String,
    #[serde(default)]
    pub topic: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    pub display_name: String,
    #[serde(default)]
    pub default_preferences: Channels,
    /// Whether e-mail cannot be turned off for this type.
    #[serde(default)]
    pub mandatory_email: bool,
}

/// N25's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationTypes {
    #[serde(default)]
    pub success: bool,
    pub notification_types: Vec<NotificationType>,
}

/// N26's and N27's answer: the whole map after the change, for N27.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationPreferences {
    #[serde(default)]
    pub success: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = Object, example = json!({"host": {"machine_offline": {"email": true, "webhooks": false}}})))]
    pub notification_preferences: PreferenceMap,
}

/// N27's body. The map stays raw JSON on the way in, so that the reference server can say
/// which key and channel is at fault; a sender builds it with
/// [`ChangePreferencesRequest::new`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChangePreferencesRequest {
    /// `{<context>: {<slug>: {"email": bool, "webhooks": bool}}}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object, example = json!({"host": {"machine_offline": {"email": true, "webhooks": true}}})))]
    pub notification_preferences: Option<serde_json::Value>,
}

impl ChangePreferencesRequest {
    pub fn new(preferences: &PreferenceMap) -> Self {
        Self {
            notification_preferences: Some(
                serde_json::to_value(preferences).expect("a map of booleans serialises"),
            ),
        }
    }
}

/// A webhook as N28 and N30 return it: never its secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Webhook {
    pub id: i64,
    #[serde(default)]
    pub user_id: i64,
    #[serde(default)]
    pub name: Option<String>,
    pub webhook_url: String,
    /// Full keys on the reference server; bare slugs on some public answers.
    #[serde(default)]
    pub event_types: Vec<String>,
    #[serde(default)]
    pub created_at: f64,
    #[serde(default)]
    pub updated_at: f64,
}

/// A webhook as N29 and N32 return it, with its signing secret: the only two answers that
/// carry one. A 2xx without it leaves `webhook_secret` `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookWithSecret {
    #[serde(flatten)]
    pub webhook: Webhook,
    #[serde(default)]
    pub webhook_secret: Option<String>,
}

/// N28's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookList {
    #[serde(default)]
    pub success: bool,
    pub webhooks: Vec<Webhook>,
}

/// N29's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookCreated {
    #[serde(default)]
    pub success: bool,
    pub webhook: WebhookWithSecret,
    /// The subscribed keys whose webhook channel this request turned on, in request order.
    #[serde(default)]
    pub enabled_notification_preferences: Vec<String>,
}

/// N30's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookUpdated {
    #[serde(default)]
    pub success: bool,
    pub webhook: Webhook,
    #[serde(default)]
    pub enabled_notification_preferences: Vec<String>,
}

/// N31's answer: `{"success": true}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDeleted {
    pub success: bool,
}

/// N32's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SecretRotated {
    #[serde(default)]
    pub success: bool,
    pub webhook: WebhookWithSecret,
}

/// N33's answer: the docs' `msg` and the generated reference's ids, both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookTested {
    #[serde(default)]
    pub success: bool,
    #[serde(default)]
    pub msg: String,
    #[serde(default)]
    pub webhook_id: Option<i64>,
    #[serde(default)]
    pub event_id: Option<String>,
}

/// N29's body, read leniently: an absent or `null` field is `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreateWebhookRequest {
    /// At most 120 characters, no control characters; `""` or absent: no name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 120, example = "Ops notifications"))]
    pub name: Option<Lenient<String>>,
    /// An absolute `https://` URL of at most 2048 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, max_length = 2048, example = "https://example.com/vast/webhooks"))]
    pub webhook_url: Option<Lenient<String>>,
    /// At least one full key (or a bare slug naming exactly one type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>, min_items = 1, example = json!(["host:machine_offline"])))]
    pub event_types: Option<Lenient<Vec<serde_json::Value>>>,
}

impl CreateWebhookRequest {
    /// The body a sender means: `name` left out when empty, every key given in full.
    pub fn new(name: &str, webhook_url: &str, event_types: &[String]) -> Self {
        Self {
            name: (!name.is_empty()).then(|| name.to_owned().into()),
            webhook_url: Some(webhook_url.to_owned().into()),
            event_types: Some(Lenient::Valid(
                event_types.iter().cloned().map(Into::into).collect(),
            )),
        }
    }
}

/// N30's body: only the fields to change. `name: null` clears the name; a `null`
/// `webhook_url` or `event_types` counts as absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdateWebhookRequest {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 120))]
    pub name: Option<Nullable<Lenient<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 2048))]
    pub webhook_url: Option<Lenient<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<String>>, min_items = 1))]
    pub event_types: Option<Lenient<Vec<serde_json::Value>>>,
}

/// What a webhook receives (spec fleet-health §3.3): these six fields, compact, in this
/// order. Its bytes are what the signature covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Delivery {
    /// 32 lower-case hex characters; the same for every webhook and retry of one event.
    pub event_id: String,
    pub user_id: i64,
    /// The type's slug, without its context prefix (`webhook_test` for N33).
    pub notif_type: String,
    pub subject: String,
    pub message: String,
    /// A float, always: `1798675200.0`.
    pub timestamp: f64,
}

/// Headers of a delivery (spec fleet-health §3.3).
pub mod headers {
    pub const EVENT_ID: &str = "x-vast-event-id";
    pub const DELIVERY_ATTEMPT: &str = "x-vast-delivery-attempt";
    pub const TIMESTAMP: &str = "x-vast-timestamp";
    pub const SIGNATURE: &str = "x-vast-signature-256";
}

/// The `notif_type` of N33's test delivery: a payload type, not one to subscribe to.
pub const WEBHOOK_TEST: &str = "webhook_test";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_delivery_serialises_compactly_in_the_specs_order() {
        // The spec's test vector body (fleet-health §3.3), 178 bytes.
        let delivery = Delivery {
            event_id: "00000000000000000000000000000001".into(),
            user_id: 1,
            notif_type: WEBHOOK_TEST.into(),
            subject: "Webhook test".into(),
            message: "Test delivery for webhook 1.".into(),
            timestamp: 1798675200.0,
        };
        let body = serde_json::to_string(&delivery).unwrap();
        assert_eq!(
            body,
            r#"{"event_id":"00000000000000000000000000000001","user_id":1,"notif_type":"webhook_test","subject":"Webhook test","message":"Test delivery for webhook 1.","timestamp":1798675200.0}"#
        );
        assert_eq!(body.len(), 178);
    }

    #[test]
    fn a_webhook_with_a_secret_is_flat_and_one_without_reads_as_not_said() {
        let created: WebhookCreated = serde_json::from_value(json!({
            "success": true,
            "webhook": {"id": 3, "user_id": 1, "name": null, "webhook_url": "https://x.example/h",
                        "event_types": ["host:machine_offline"], "created_at": 1.5,
                        "updated_at": 1.5, "webhook_secret": "ab"},
            "enabled_notification_preferences": ["host:machine_offline"]
        }))
        .unwrap();
        assert_eq!(created.webhook.webhook_secret.as_deref(), Some("ab"));
        assert_eq!(created.webhook.webhook.id, 3);
        let serialised = serde_json::to_value(&created.webhook).unwrap();
        assert_eq!(serialised["webhook_secret"], "ab");
        assert_eq!(serialised["id"], 3);
        let without: SecretRotated = serde_json::from_value(json!({
            "success": true, "webhook": {"id": 3, "webhook_url": "https://x.example/h"}
        }))
        .unwrap();
        assert_eq!(without.webhook.webhook_secret, None);
        // The list's webhook type has no secret field at all.
        let listed = serde_json::to_value(&created.webhook.webhook).unwrap();
        assert!(listed.get("webhook_secret").is_none());
    }

    #[test]
    fn requests_tell_absent_null_and_malformed_apart() {
        let update: UpdateWebhookRequest =
            serde_json::from_value(json!({"name": null, "webhook_url": null})).unwrap();
        assert_eq!(update.name, Some(Nullable::Null));
        assert_eq!(update.webhook_url, None);
        assert_eq!(update.event_types, None);
        let update: UpdateWebhookRequest =
            serde_json::from_value(json!({"name": 5, "event_types": "x"})).unwrap();
        assert_eq!(update.name, Some(Nullable::Value(Lenient::Invalid)));
        assert_eq!(update.event_types, Some(Lenient::Invalid));
        let sent = CreateWebhookRequest::new("", "https://x.example/h", &["host:a".into()]);
        assert_eq!(
            serde_json::to_value(&sent).unwrap(),
            json!({"webhook_url": "https://x.example/h", "event_types": ["host:a"]})
        );
    }

    #[test]
    fn preferences_are_sent_whole_and_read_with_unknown_channels_kept() {
        let answer: NotificationPreferences = serde_json::from_value(json!({
            "success": true,
            "notification_preferences": {"host": {"machine_offline":
                {"email": true, "webhooks": false, "sms": true}}}
        }))
        .unwrap();
        let map = answer.notification_preferences;
        assert!(map["host"]["machine_offline"]["sms"]);
        assert_eq!(
            serde_json::to_value(ChangePreferencesRequest::new(&map)).unwrap(),
            json!({"notification_preferences": {"host": {"machine_offline":
                {"email": true, "sms": true, "webhooks": false}}}})
        );
    }

    #[test]
    fn a_type_needs_only_its_required_fields() {
        let kind: NotificationType = serde_json::from_value(json!({
            "key": "client:low_credit", "slug": "low_credit", "context": "client",
            "display_name": "Low balance notifications"
        }))
        .unwrap();
        assert!(kind.default_preferences.is_empty());
        assert!(!kind.mandatory_email);
        assert_eq!(kind.topic, None);
    }
}
