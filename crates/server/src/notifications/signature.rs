//! The delivery signature (spec fleet-health §3.3): HMAC-SHA256 keyed with the webhook's
//! secret over the timestamp header, a dot and the exact body bytes.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// `X-Vast-Signature-256`'s value: `sha256=` and the lower-case hex HMAC.
pub fn sign(secret: &str, timestamp: u64, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any size");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specs_test_vector() {
        let body = br#"{"event_id":"00000000000000000000000000000001","user_id":1,"notif_type":"webhook_test","subject":"Webhook test","message":"Test delivery for webhook 1.","timestamp":1798675200.0}"#;
        assert_eq!(body.len(), 178);
        assert_eq!(
            sign("test-secret", 1798675200, body),
            "sha256=d5c157938969727d3158fd6f83616e8329af3804c863962658fa5b5337aa00d5"
        );
    }
}
