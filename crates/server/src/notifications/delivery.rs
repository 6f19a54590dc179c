//! One delivery attempt (spec fleet-health §3.3): a signed `POST` of the event's exact
//! bytes to the webhook's URL, and what the receiver's answer makes of it.
//!
//! The log names the webhook, the event, the attempt and its outcome, never the secret,
//! the signature or the body.

use super::signature::sign;
use super::targets;
use crate::config::Clock;
use gpudeck_wire::notifications::{headers, Delivery};
use rand::RngCore;
use reqwest::header::CONTENT_TYPE;
use reqwest::Url;
use std::time::Duration;

/// Each attempt's limit (docs).
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

/// A new event id: 32 lower-case hex characters from 16 random bytes (project rule).
pub fn event_id() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// An event's body, serialised once: every webhook and every retry gets these bytes.
#[derive(Debug, Clone)]
pub struct Event {
    pub event_id: String,
    pub body: Vec<u8>,
}

impl Event {
    pub fn new(delivery: &Delivery) -> Self {
        Self {
            event_id: delivery.event_id.clone(),
            body: serde_json::to_vec(delivery).expect("a delivery serialises"),
        }
    }
}

/// Where one attempt goes and what it signs with (read afresh before each attempt, so a
/// rotated secret or a changed URL is used by the retries still pending).
#[derive(Debug, Clone)]
pub struct Target {
    pub webhook_id: i64,
    pub url: String,
    pub secret: String,
}

/// What an attempt came to (docs' table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A 2xx.
    Delivered,
    /// A 3xx (redirects are not followed), a 4xx other than 408 and 429, or a target
    /// refused before connecting.
    Permanent,
    /// 408, 429, 5xx, a timeout or a connection error.
    Retryable,
}

/// The outcome of a receiver's status.
pub fn outcome_of(status: u16) -> Outcome {
    match status {
        200..=299 => Outcome::Delivered,
        408 | 429 | 500..=599 => Outcome::Retryable,
        _ => Outcome::Permanent,
    }
}

/// Sends `event` to `target` once, as attempt number `attempt`.
pub async fn attempt(
    target: &Target,
    event: &Event,
    attempt: u32,
    local_allowed: bool,
    clock: &Clock,
) -> Outcome {
    let outcome = send(target, event, attempt, local_allowed, clock).await;
    tracing::info!(
        webhook_id = target.webhook_id,
        event_id = %event.event_id,
        attempt,
        outcome = ?outcome.0,
        detail = %outcome.1,
        "webhook delivery"
    );
    outcome.0
}

async fn send(
    target: &Target,
    event: &Event,
    attempt: u32,
    local_allowed: bool,
    clock: &Clock,
) -> (Outcome, String) {
    let Ok(url) = Url::parse(&target.url) else {
        return (Outcome::Permanent, "the URL does not parse".into());
    };
    let addresses = match targets::resolve(&url, local_allowed).await {
        Ok(addresses) => addresses,
        Err(refused) => return (Outcome::Permanent, refused.to_string()),
    };
    let mut client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(ATTEMPT_TIMEOUT);
    if let Some(host) = url.host_str().filter(|_| url.domain().is_some()) {
        // Connect to the addresses just checked, not to a second DNS answer.
        client = client.resolve_to_addrs(host, &addresses);
    }
    let client = match client.build() {
        Ok(client) => client,
        Err(error) => return (Outcome::Retryable, error.without_url().to_string()),
    };
    let timestamp = clock.now().floor().max(0.0) as u64;
    let answer = client
        .post(url)
        .header(CONTENT_TYPE, "application/json")
        .header(headers::EVENT_ID, &event.event_id)
        .header(headers::DELIVERY_ATTEMPT, attempt.to_string())
        .header(headers::TIMESTAMP, timestamp.to_string())
        .header(
            headers::SIGNATURE,
            sign(&target.secret, timestamp, &event.body),
        )
        .body(event.body.clone())
        .send()
        .await;
    match answer {
        Ok(answer) => {
            let status = answer.status().as_u16();
            (outcome_of(status), format!("answered {status}"))
        }
        Err(error) => (Outcome::Retryable, error.without_url().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_outcome_table() {
        for (status, outcome) in [
            (200, Outcome::Delivered),
            (204, Outcome::Delivered),
            (301, Outcome::Permanent),
            (308, Outcome::Permanent),
            (400, Outcome::Permanent),
            (404, Outcome::Permanent),
            (408, Outcome::Retryable),
            (429, Outcome::Retryable),
            (500, Outcome::Retryable),
            (503, Outcome::Retryable),
        ] {
            assert_eq!(outcome_of(status), outcome, "{status}");
        }
    }

    #[test]
    fn event_ids_are_32_lower_case_hex_characters() {
        let id = event_id();
        assert_eq!(id.len(), 32);
        assert!(id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        assert_ne!(id, event_id());
    }
}
