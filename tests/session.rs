//! Session helpers: what counts as a base URL and where sign-in may send people.
#![cfg(target_arch = "wasm32")]

use gpudeck::session::{normalise_base_url, own_origin, safe_next};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

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

#[wasm_bindgen_test]
fn next_stays_inside_the_console() {
    assert_eq!(safe_next(Some("/templates?x=1".into())), "/templates?x=1");
    assert_eq!(
        safe_next(Some("//evil.test".into())),
        "/machines/maintenance"
    );
    assert_eq!(
        safe_next(Some("https://evil.test".into())),
        "/machines/maintenance"
    );
    assert_eq!(
        safe_next(Some("/\\evil.test".into())),
        "/machines/maintenance"
    );
    assert_eq!(safe_next(None), "/machines/maintenance");
}
