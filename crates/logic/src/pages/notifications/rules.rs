//! What the Notifications page knows without the browser (spec fleet-health §3): how a
//! webhook form is checked, how a subscribed type is named, the order types are shown in,
//! and the whole preference map N27 is sent. Pure; unit-tested natively.

use crate::api::requests::WebhookChanges;
use crate::domain::form_problem::Problem;
use gpudeck_wire::notifications::{Channels, NotificationType, PreferenceMap, Webhook};

/// The limits N29 gives (spec fleet-health N29).
pub const MAX_NAME_CHARS: usize = 120;
pub const MAX_URL_CHARS: usize = 2048;
/// "4 per user" (docs): the console disables Create at this many.
pub const MAX_WEBHOOKS: usize = 4;

/// The public service's rule, said without blocking: a reference server in demo or test
/// mode also takes local `http://` URLs, so that tests can receive deliveries.
pub const HTTPS_ONLY_WARNING: &str = "The public service accepts only https:// URLs; \
    only a reference server in demo or test mode takes http://localhost or http://127.0.0.1.";

/// The fields of the webhook form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebhookField {
    Name,
    Url,
    Types,
}

/// A webhook as the form gives it, checked: `name` trimmed (empty: none), full keys in
/// the order of the types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookDraft {
    pub name: String,
    pub webhook_url: String,
    pub event_types: Vec<String>,
}

/// The form's values checked as N29 checks them, every problem at once.
pub fn check_webhook(
    name: &str,
    url: &str,
    event_types: Vec<String>,
) -> Result<WebhookDraft, Vec<Problem<WebhookField>>> {
    let mut problems = Vec::new();
    let name = name.trim();
    if name.chars().count() > MAX_NAME_CHARS {
        problems.push(Problem::new(
            WebhookField::Name,
            format!("The name may have at most {MAX_NAME_CHARS} characters."),
        ));
    }
    if name.chars().any(char::is_control) {
        problems.push(Problem::new(
            WebhookField::Name,
            "The name must not contain control characters.",
        ));
    }
    let url = url.trim();
    if let Err(problem) = check_url(url) {
        problems.push(Problem::new(WebhookField::Url, problem));
    }
    if event_types.is_empty() {
        problems.push(Problem::new(
            WebhookField::Types,
            "Choose at least one event type.",
        ));
    }
    if problems.is_empty() {
        Ok(WebhookDraft {
            name: name.to_owned(),
            webhook_url: url.to_owned(),
            event_types,
        })
    } else {
        Err(problems)
    }
}

/// An absolute `https://` (or, warned about, `http://`) URL with a hostname.
fn check_url(url: &str) -> Result<(), String> {
    if url.is_empty() {
        return Err("Enter the URL the deliveries go to.".into());
    }
    if url.chars().count() > MAX_URL_CHARS {
        return Err(format!(
            "The URL may have at most {MAX_URL_CHARS} characters."
        ));
    }
    let lower = url.to_ascii_lowercase();
    let rest = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme))
        .ok_or("The URL must start with https://.")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    // `[::1]:8443` keeps its colons inside the brackets.
    let (host, port) = match host.strip_prefix('[') {
        Some(bracketed) => match bracketed.split_once(']') {
            Some((ip, after)) => (ip, after.strip_prefix(':')),
            None => ("", None),
        },
        None => match host.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (host, None),
        },
    };
    if port.is_some_and(|port| {
        !port.bytes().all(|b| b.is_ascii_digit()) || !port.parse::<u16>().is_ok_and(|p| p != 0)
    }) {
        return Err("The URL's port must be a number from 1 to 65535.".into());
    }
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err("The URL must name a host, like https://example.com/hooks.".into());
    }
    Ok(())
}

/// The field a server's refusal of N29 or N30 is about, from its message (spec
/// fleet-health N29's table); `None` for one about the whole request (the limit of 4).
pub fn field_of_refusal(message: &str) -> Option<WebhookField> {
    if message.starts_with("name ") {
        Some(WebhookField::Name)
    } else if message.starts_with("webhook_url ") || message.contains("URL is already registered") {
        Some(WebhookField::Url)
    } else if [
        "event_types ",
        "Unknown event type",
        "Duplicate event type",
        "Ambiguous event type",
    ]
    .iter()
    .any(|start| message.starts_with(start))
    {
        Some(WebhookField::Types)
    } else {
        None
    }
}

/// The warning for a URL the public service would refuse though the form lets it through.
pub fn url_warning(url: &str) -> Option<&'static str> {
    url.trim()
        .to_ascii_lowercase()
        .starts_with("http://")
        .then_some(HTTPS_ONLY_WARNING)
}

/// The type a subscription names: by its full key, or by a bare slug that exactly one
/// type has (spec fleet-health §3.4: some answers give bare slugs).
pub fn type_of<'a>(
    types: &'a [NotificationType],
    subscribed: &str,
) -> Option<&'a NotificationType> {
    if let Some(kind) = types.iter().find(|t| t.key == subscribed) {
        return Some(kind);
    }
    let mut by_slug = types.iter().filter(|t| t.slug == subscribed);
    match (by_slug.next(), by_slug.next()) {
        (Some(kind), None) => Some(kind),
        _ => None,
    }
}

/// How a subscription reads: the type's name, or what was sent and that it matches none.
pub fn subscription_label(types: &[NotificationType], subscribed: &str) -> String {
    type_of(types, subscribed).map_or_else(
        || format!("{subscribed} (unmatched)"),
        |kind| kind.display_name.clone(),
    )
}

/// The full keys of a webhook's subscriptions that match a type, for the form.
pub fn subscribed_keys(types: &[NotificationType], webhook: &Webhook) -> Vec<String> {
    webhook
        .event_types
        .iter()
        .filter_map(|subscribed| type_of(types, subscribed).map(|t| t.key.clone()))
        .collect()
}

/// Host types first (the page is a host's), then the rest, each in the server's order.
pub fn host_first(types: &[NotificationType]) -> Vec<NotificationType> {
    let (host, other): (Vec<_>, Vec<_>) = types.iter().cloned().partition(|t| t.context == "host");
    host.into_iter().chain(other).collect()
}

/// A type's channels: the stored ones, or its defaults when the map has none (`true`).
pub fn channels_of(preferences: &PreferenceMap, kind: &NotificationType) -> (Channels, bool) {
    match preferences
        .get(&kind.context)
        .and_then(|slugs| slugs.get(&kind.slug))
    {
        Some(stored) => (stored.clone(), false),
        None => (kind.default_preferences.clone(), true),
    }
}

/// N27's map: every type with every channel received, and `changed` (type, channel,
/// value) applied, because whether the public service resets what is left out is
/// uncertain (spec fleet-health N27).
pub fn whole_map(
    types: &[NotificationType],
    preferences: &PreferenceMap,
    changed: &[(String, &'static str, bool)],
) -> PreferenceMap {
    let mut map = preferences.clone();
    for kind in types {
        let (channels, _) = channels_of(preferences, kind);
        let entry = map
            .entry(kind.context.clone())
            .or_default()
            .entry(kind.slug.clone())
            .or_default();
        for (channel, on) in channels {
            entry.entry(channel).or_insert(on);
        }
        for (key, channel, on) in changed {
            if *key == kind.key {
                entry.insert((*channel).to_owned(), *on);
            }
        }
    }
    map
}

/// What N30 sends for `draft` against `webhook`: only the fields that differ.
pub fn changes_of(
    webhook: &Webhook,
    types: &[NotificationType],
    draft: &WebhookDraft,
) -> WebhookChanges {
    let name = (!draft.name.is_empty()).then(|| draft.name.clone());
    let mut subscribed = subscribed_keys(types, webhook);
    subscribed.sort();
    let mut wanted = draft.event_types.clone();
    wanted.sort();
    WebhookChanges {
        name: (webhook.name.as_deref().filter(|n| !n.is_empty()) != name.as_deref())
            .then_some(name),
        webhook_url: (webhook.webhook_url != draft.webhook_url).then(|| draft.webhook_url.clone()),
        event_types: (subscribed != wanted).then(|| draft.event_types.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn types() -> Vec<NotificationType> {
        serde_json::from_value(json!([
            {"key": "client:low_credit", "slug": "low_credit", "context": "client",
             "display_name": "Low balance notifications", "default_preferences": {"email": true, "webhooks": false}},
            {"key": "host:machine_offline", "slug": "machine_offline", "context": "host",
             "display_name": "Machine offline", "default_preferences": {"email": true, "webhooks": false}},
            {"key": "client:twin", "slug": "twin", "context": "client", "display_name": "Twin (client)"},
            {"key": "host:twin", "slug": "twin", "context": "host", "display_name": "Twin (host)"}
        ]))
        .unwrap()
    }

    fn problems(name: &str, url: &str, keys: &[&str]) -> Vec<(WebhookField, String)> {
        let keys = keys.iter().map(|k| k.to_string()).collect();
        match check_webhook(name, url, keys) {
            Ok(_) => Vec::new(),
            Err(found) => found.into_iter().map(|p| (p.field, p.message)).collect(),
        }
    }

    #[test]
    fn urls_need_a_web_scheme_and_a_host_and_plain_http_is_only_warned_about() {
        let one = ["host:machine_offline"];
        assert!(problems("", "https://example.com/vast", &one).is_empty());
        assert!(problems("", "https://example.com:8443/h?x=1", &one).is_empty());
        assert!(problems("", "http://127.0.0.1:9000/hook", &one).is_empty());
        assert_eq!(
            url_warning("http://127.0.0.1:9000/hook"),
            Some(HTTPS_ONLY_WARNING)
        );
        assert_eq!(url_warning("https://example.com"), None);
        let url_problem = |url: &str| problems("", url, &one)[0].1.clone();
        assert_eq!(url_problem(""), "Enter the URL the deliveries go to.");
        assert_eq!(
            url_problem("ftp://example.com"),
            "The URL must start with https://."
        );
        assert_eq!(
            url_problem("example.com"),
            "The URL must start with https://."
        );
        assert_eq!(
            url_problem("https:///path"),
            "The URL must name a host, like https://example.com/hooks."
        );
        assert_eq!(
            url_problem("https://example.com:x/"),
            "The URL's port must be a number from 1 to 65535."
        );
        assert_eq!(
            url_problem("https://example.com:70000/"),
            "The URL's port must be a number from 1 to 65535."
        );
        assert!(problems("", "https://[::1]:8443/h", &one).is_empty());
        assert!(problems("", "https://[2001:db8::1]/h", &one).is_empty());
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert_eq!(
            url_problem(&long),
            "The URL may have at most 2048 characters."
        );
    }

    #[test]
    fn names_and_types_are_checked_with_every_problem_at_once() {
        let found = problems(&"n".repeat(121), "", &[]);
        let fields: Vec<_> = found.iter().map(|(field, _)| *field).collect();
        assert_eq!(
            fields,
            [WebhookField::Name, WebhookField::Url, WebhookField::Types]
        );
        assert_eq!(found[2].1, "Choose at least one event type.");
        assert!(problems(&"n".repeat(120), "https://x.example", &["host:a"]).is_empty());
        assert_eq!(
            problems("a\u{7}b", "https://x.example", &["host:a"])[0].1,
            "The name must not contain control characters."
        );
    }

    #[test]
    fn a_refusal_stands_beside_the_field_it_names() {
        let field = |message: &str| field_of_refusal(message);
        assert_eq!(field("webhook_url must use HTTPS"), Some(WebhookField::Url));
        assert_eq!(
            field("This webhook URL is already registered"),
            Some(WebhookField::Url)
        );
        assert_eq!(
            field("name exceeds maximum length of 120 characters"),
            Some(WebhookField::Name)
        );
        assert_eq!(
            field("Unknown event type: host:x"),
            Some(WebhookField::Types)
        );
        assert_eq!(
            field("event_types must contain at least one event type"),
            Some(WebhookField::Types)
        );
        assert_eq!(field("Maximum of 4 webhooks per user"), None);
    }

    #[test]
    fn a_bare_slug_names_its_one_type_and_a_shared_one_stays_unmatched() {
        let types = types();
        assert_eq!(
            subscription_label(&types, "host:machine_offline"),
            "Machine offline"
        );
        assert_eq!(
            subscription_label(&types, "machine_offline"),
            "Machine offline"
        );
        assert_eq!(subscription_label(&types, "twin"), "twin (unmatched)");
        assert_eq!(subscription_label(&types, "host:twin"), "Twin (host)");
        let keys: Vec<_> = host_first(&types).into_iter().map(|t| t.key).collect();
        assert_eq!(
            keys,
            [
                "host:machine_offline",
                "host:twin",
                "client:low_credit",
                "client:twin"
            ]
        );
    }

    #[test]
    fn the_map_sent_is_whole_with_defaults_made_explicit_and_other_channels_kept() {
        let types = types();
        let stored: PreferenceMap = serde_json::from_value(json!({
            "host": {"machine_offline": {"email": true, "webhooks": true, "sms": false}}
        }))
        .unwrap();
        assert!(!channels_of(&stored, &types[1]).1);
        assert!(channels_of(&stored, &types[0]).1);
        let map = whole_map(
            &types,
            &stored,
            &[("host:machine_offline".into(), "email", false)],
        );
        assert_eq!(
            serde_json::to_value(&map).unwrap(),
            json!({
                "client": {"low_credit": {"email": true, "webhooks": false}, "twin": {}},
                "host": {"machine_offline": {"email": false, "webhooks": true, "sms": false},
                         "twin": {}}
            })
        );
    }

    #[test]
    fn an_update_carries_only_what_differs() {
        let types = types();
        let webhook: Webhook = serde_json::from_value(json!({
            "id": 3, "name": "Ops", "webhook_url": "https://a.example/h",
            "event_types": ["machine_offline"]
        }))
        .unwrap();
        let draft = |name: &str, url: &str, keys: &[&str]| WebhookDraft {
            name: name.into(),
            webhook_url: url.into(),
            event_types: keys.iter().map(|k| k.to_string()).collect(),
        };
        let same = draft("Ops", "https://a.example/h", &["host:machine_offline"]);
        assert!(changes_of(&webhook, &types, &same).is_empty());
        let renamed = changes_of(
            &webhook,
            &types,
            &draft("", "https://b.example/h", &["host:machine_offline"]),
        );
        assert_eq!(renamed.name, Some(None));
        assert_eq!(renamed.webhook_url.as_deref(), Some("https://b.example/h"));
        assert_eq!(renamed.event_types, None);
        let resubscribed = changes_of(
            &webhook,
            &types,
            &draft("Ops", "https://a.example/h", &["host:twin"]),
        );
        assert_eq!(resubscribed.event_types, Some(vec!["host:twin".to_owned()]));
    }
}
