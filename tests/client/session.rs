//! Session helpers that need the browser: what counts as a base URL (the browser parses
//! it). Where sign-in may send people is a unit test in `src/session.rs`.

use gpudeck::session::{normalise_base_url, own_origin};
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn base_urls_are_checked_and_normalised() {
    assert_eq!(normalise_base_url("").unwrap(), own_origin());
    assert_eq!(normalise_base_url("  ").unwrap(), own_origin());
    assert_eq!(
        normalise_base_url("http://127.0.0.1:8787/").unwrap(),
        "http://127.0.0.1:8787"
    );
    assert_eq!(
        normalise_base_url("https://x.test/proxy").unwrap(),
        "https://x.test/proxy"
    );
    assert!(normalise_base_url("x.test").is_err());
    assert!(normalise_base_url("javascript:alert(1)").is_err());
    assert!(normalise_base_url("https://user:pw@x.test").is_err());
    assert!(normalise_base_url("https://x.test/#frag").is_err());
}
