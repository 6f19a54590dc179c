//! API keys: generation, the stored hash, and subaccount key derivation.
//!
//! Ordinary keys are 32 random bytes written as hex and stored only as their SHA-256.
//! A subaccount's key is `hex(HMAC-SHA256(server_secret, "subaccount:<id>"))`: derived,
//! so the subaccount list can show it again without the server keeping it in clear.

use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new random key: 64 hex characters.
pub fn generate_key() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// A new random server secret.
pub fn generate_secret() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    bytes
}

/// What `api_keys.key_hash` holds for `key`.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// The key of subaccount `id` under `secret`.
pub fn subaccount_key(secret: &[u8], id: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(format!("subaccount:{id}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// PBKDF2-HMAC-SHA256 rounds for a password. Lower than OWASP's 600 000 so that tests and
/// the demo stay quick in debug builds; the stored form names its rounds, so it can grow.
const PASSWORD_ROUNDS: u32 = 60_000;

/// A salted slow hash of `password`: `pbkdf2-sha256$<rounds>$<salt hex>$<hash hex>`.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let mut hash = [0u8; 32];
    pbkdf2::pbkdf2_hmac::<Sha256>(password.as_bytes(), &salt, PASSWORD_ROUNDS, &mut hash);
    format!(
        "pbkdf2-sha256${PASSWORD_ROUNDS}${}${}",
        hex::encode(salt),
        hex::encode(hash)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_random_hex() {
        let (a, b) = (generate_key(), generate_key());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(
            hash_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn subaccount_keys_depend_on_secret_and_id() {
        let secret = [7u8; 32];
        let key = subaccount_key(&secret, 11);
        assert_eq!(key, subaccount_key(&secret, 11));
        assert_ne!(key, subaccount_key(&secret, 12));
        assert_ne!(key, subaccount_key(&[8u8; 32], 11));
        assert_eq!(key.len(), 64);
    }

    #[test]
    fn password_hashes_are_salted_and_never_the_password() {
        let (a, b) = (
            hash_password("correct horse"),
            hash_password("correct horse"),
        );
        assert_ne!(a, b);
        assert!(a.starts_with("pbkdf2-sha256$60000$"));
        assert!(!a.contains("correct horse"));
    }
}
