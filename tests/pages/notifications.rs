//! The Notifications page (spec fleet-health §3, N25–N33) mounted in the whole app
//! against a scripted `fetch`: webhooks listed, created with their secret shown once,
//! tested, rotated and deleted; the host types' preferences changed and sent whole.

use crate::support::*;
use gpudeck::app::App;
use wasm_bindgen_test::*;

const KEY: &str = "owner-key-for-notifications-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;
const SECRET: &str = "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2";
const ROTATED: &str = "0707070707070707070707070707070707070707070707070707070707070707";

const TYPES: &str = r#"{"success": true, "notification_types": [
    {"key": "client:billing_failed", "slug": "billing_failed", "context": "client", "category": "billing",
     "display_name": "Payment failed", "default_preferences": {"email": true, "webhooks": false}, "mandatory_email": true},
    {"key": "host:machine_offline", "slug": "machine_offline", "context": "host", "category": "host",
     "display_name": "Machine offline", "default_preferences": {"email": true, "webhooks": false}, "mandatory_email": false},
    {"key": "host:machine_error", "slug": "machine_error", "context": "host", "category": "host",
     "display_name": "Machine issue detected", "default_preferences": {"email": true, "webhooks": false}, "mandatory_email": false}
]}"#;
/// `host:machine_error` is missing: it takes its defaults.
const PREFERENCES: &str = r#"{"success": true, "notification_preferences": {
    "client": {"billing_failed": {"email": true, "webhooks": false}},
    "host": {"machine_offline": {"email": true, "webhooks": true, "sms": false}}
}}"#;
const CHANGED_PREFERENCES: &str = r#"{"success": true, "notification_preferences": {
    "client": {"billing_failed": {"email": true, "webhooks": false}},
    "host": {"machine_offline": {"email": false, "webhooks": true, "sms": false}}
}}"#;
const ONE_WEBHOOK: &str = r#"{"success": true, "webhooks": [
    {"id": 3, "user_id": 1, "name": "Ops", "webhook_url": "https://hooks.example.com/vast",
     "event_types": ["host:machine_offline", "machine_error"], "created_at": 1772490000.5, "updated_at": 1772490000.5}
]}"#;
const TWO_WEBHOOKS: &str = r#"{"success": true, "webhooks": [
    {"id": 3, "user_id": 1, "name": "Ops", "webhook_url": "https://hooks.example.com/vast",
     "event_types": ["host:machine_offline", "machine_error"], "created_at": 1772490000.5, "updated_at": 1772490000.5},
    {"id": 4, "user_id": 1, "name": null, "webhook_url": "https://new.example.com/h",
     "event_types": ["host:machine_error"], "created_at": 1772490100, "updated_at": 1772490100}
]}"#;
const CREATED: &str = r#"{"success": true, "webhook": {"id": 4, "user_id": 1, "name": null,
    "webhook_url": "https://new.example.com/h", "event_types": ["host:machine_error"],
    "created_at": 1772490100, "updated_at": 1772490100,
    "webhook_secret": "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2"},
    "enabled_notification_preferences": ["host:machine_error"]}"#;
const ROTATED_ANSWER: &str = r#"{"success": true, "webhook": {"id": 3, "user_id": 1, "name": "Ops",
    "webhook_url": "https://hooks.example.com/vast", "event_types": ["host:machine_offline"],
    "created_at": 1772490000.5, "updated_at": 1772490200,
    "webhook_secret": "0707070707070707070707070707070707070707070707070707070707070707"}}"#;

const WEBHOOK_ROWS: &str = ".webhooks tbody tr:not(.spacer)";

fn shell_and_page_reads() -> Vec<(&'static str, Reply)> {
    vec![
        ("users/current", json(200, USER)),
        ("notification-types/", json(200, TYPES)),
        ("users/1/notification-prefs/", json(200, PREFERENCES)),
    ]
}

/// Neither storage, nor the address, nor the toasts hold `secret`.
fn secret_kept_nowhere(page: &Mounted, secret: &str) {
    for storage in [session_storage(), local_storage()] {
        for i in 0..storage.length().unwrap() {
            let key = storage.key(i).unwrap().unwrap();
            let value = storage.get_item(&key).unwrap().unwrap_or_default();
            assert!(!value.contains(secret), "{key} holds the secret");
        }
    }
    assert!(!current_path().contains(secret));
    assert!(!page.text(".toasts").contains(secret));
}

#[wasm_bindgen_test]
async fn a_webhook_is_created_with_its_secret_shown_once_then_tested_rotated_and_deleted() {
    signed_in_as(KEY, USER, "/notifications");
    let mut replies = vec![
        // The specific addresses first: a reply goes to the first pattern in its URL.
        (
            "webhooks/3/test/",
            json(
                502,
                r#"{"success": false, "error": "delivery_failed", "msg": "Webhook delivery failed"}"#,
            ),
        ),
        (
            "webhooks/4/test/",
            json(
                200,
                r#"{"success": true, "msg": "Test webhook delivered", "webhook_id": 4, "event_id": "00000000000000000000000000000007"}"#,
            ),
        ),
        ("webhooks/3/rotate-secret/", json(200, ROTATED_ANSWER)),
        ("webhooks/4/", json(200, r#"{"success": true}"#)),
        ("webhooks/", json(200, ONE_WEBHOOK)),
        ("webhooks/", json(200, CREATED)),
    ];
    replies.extend(shell_and_page_reads());
    replies.extend([
        ("webhooks/", json(200, TWO_WEBHOOKS)),
        ("webhooks/", json(200, TWO_WEBHOOKS)),
        ("webhooks/", json(200, ONE_WEBHOOK)),
    ]);
    let fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for_count(WEBHOOK_ROWS, 1).await;
    assert_eq!(
        web_sys::window().unwrap().document().unwrap().title(),
        "Notifications · gpudeck"
    );
    assert!(page
        .text(WEBHOOK_ROWS)
        .contains("https://hooks.example.com/vast"));
    // A bare slug matches its one type.
    assert!(page
        .text(WEBHOOK_ROWS)
        .contains("Machine offline, Machine issue detected"));
    assert!(page
        .find("nav a[href='/notifications'][aria-current=page]")
        .is_some());

    // Checked before sending: a URL, at least one type; plain http is only warned about.
    page.click("form.webhook-form button[type=submit]");
    page.wait_for_text("#webhook-url-error", "Enter the URL the deliveries go to.")
        .await;
    assert_eq!(
        page.text("#webhook-types-error"),
        "Choose at least one event type."
    );
    page.type_into("#webhook-url", "http://new.example.com/h");
    page.wait_for_text_containing(
        "#webhook-url-status",
        "The public service accepts only https:// URLs",
    )
    .await;
    page.type_into("#webhook-url", "https://new.example.com/h");
    page.click("[data-event-type='host:machine_error'] input");
    page.click("form.webhook-form button[type=submit]");
    page.wait_for("dialog[open]").await;
    page.click("dialog[open] button.primary");

    // The secret once, with a copy button and the warning; nowhere else.
    page.wait_for_text("[data-testid=webhook-secret]", SECRET)
        .await;
    assert!(page
        .text("dialog[open]")
        .contains("you will not see it again"));
    assert!(page
        .find("dialog[open] button[aria-label='Copy the secret of webhook 4']")
        .is_some());
    secret_kept_nowhere(&page, SECRET);
    let created = &fetch.calls_to("/api/v0/webhooks/")[1];
    assert_eq!(created.method, "POST");
    assert_eq!(
        created.body,
        r#"{"webhook_url":"https://new.example.com/h","event_types":["host:machine_error"]}"#
    );
    page.click("dialog[open] button.primary");
    page.wait_for_gone("[data-testid=webhook-secret]").await;
    assert!(!page.root.inner_html().contains(SECRET));
    page.wait_for_count(WEBHOOK_ROWS, 2).await;

    // A test: the delivery's outcome in words, success or the receiver's failure.
    page.click("button[aria-label='Send test to webhook 4']");
    page.wait_for_text_containing(
        "[data-testid=webhook-test-result]",
        "Test webhook delivered",
    )
    .await;
    page.click("button[aria-label='Send test to webhook 3']");
    page.wait_for_text_containing(
        "[data-testid=webhook-test-result]",
        "Webhook delivery failed",
    )
    .await;
    assert!(page
        .text("[data-testid=webhook-test-result]")
        .contains("webhook 3"));
    assert_eq!(
        fetch.calls_to("/test/").len(),
        2,
        "a failed test is not sent again"
    );
    assert_eq!(fetch.calls_to("/test/")[0].body, "");

    // Rotating asks first, then shows the new secret once.
    page.click("button[aria-label='Rotate secret of webhook 3']");
    page.wait_for("dialog[open]").await;
    page.click("dialog[open] button.danger");
    page.wait_for_text("[data-testid=webhook-secret]", ROTATED)
        .await;
    secret_kept_nowhere(&page, ROTATED);
    page.click("dialog[open] button.primary");
    page.wait_for_gone("[data-testid=webhook-secret]").await;

    // Deleting asks first, naming the webhook.
    page.click("button[aria-label='Delete webhook 4']");
    page.wait_for("dialog[open]").await;
    assert!(page
        .text("dialog[open]")
        .contains("https://new.example.com/h"));
    page.click("dialog[open] button.danger");
    page.wait_for_count(WEBHOOK_ROWS, 1).await;
    let deleted: Vec<Call> = fetch
        .calls()
        .into_iter()
        .filter(|call| call.method == "DELETE")
        .collect();
    assert_eq!(deleted.len(), 1);
    assert!(deleted[0].url.ends_with("/api/v0/webhooks/4/"));
    assert_eq!(deleted[0].body, "");
    secret_kept_nowhere(&page, SECRET);
}

#[wasm_bindgen_test]
async fn preferences_show_defaults_keep_mandatory_email_and_are_sent_whole() {
    signed_in_as(KEY, USER, "/notifications");
    let mut replies = shell_and_page_reads();
    replies.extend([
        ("webhooks/", json(200, ONE_WEBHOOK)),
        (
            "users/1/notification-prefs/",
            json(200, CHANGED_PREFERENCES),
        ),
    ]);
    let fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for("[data-preference='host:machine_offline/email'] input")
        .await;
    // Host types come first.
    page.wait_for_count(".preferences tbody tr:not(.spacer)", 3)
        .await;
    let rows = page.all(".preferences tbody tr:not(.spacer)");
    assert!(rows[0].text_content().unwrap().contains("Machine offline"));
    assert!(rows[2].text_content().unwrap().contains("Payment failed"));
    // A type missing from the map shows its defaults, said so.
    assert!(rows[1].text_content().unwrap().contains("default"));
    let checked = |selector: &str| -> bool {
        use wasm_bindgen::JsCast;
        page.get(selector)
            .unchecked_into::<web_sys::HtmlInputElement>()
            .checked()
    };
    assert!(checked(
        "[data-preference='host:machine_offline/webhooks'] input"
    ));
    assert!(!checked(
        "[data-preference='host:machine_error/webhooks'] input"
    ));
    // Mandatory e-mail cannot be turned off.
    assert!(page
        .get("[data-preference='client:billing_failed/email'] input")
        .has_attribute("disabled"));

    page.click("[data-preference='host:machine_offline/email'] input");
    page.click(".preferences button[type=submit]");
    page.wait_for_text_containing("[data-testid=preferences-result]", "Preferences saved")
        .await;
    let sent = fetch.calls_to("/api/v0/users/1/notification-prefs/");
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].method, "PUT");
    // Every type, every channel received (sms kept), the defaults made explicit.
    assert_eq!(
        sent[1].body,
        r#"{"notification_preferences":{"client":{"billing_failed":{"email":true,"webhooks":false}},"host":{"machine_error":{"email":true,"webhooks":false},"machine_offline":{"email":false,"sms":false,"webhooks":true}}}}"#
    );
    assert!(!checked(
        "[data-preference='host:machine_offline/email'] input"
    ));
}

#[wasm_bindgen_test]
async fn a_webhook_is_changed_by_sending_only_what_changed() {
    use wasm_bindgen::JsCast;
    signed_in_as(KEY, USER, "/notifications");
    let mut replies = vec![(
        "webhooks/3/",
        json(
            200,
            r#"{"success": true, "webhook": {"id": 3, "user_id": 1, "name": "Ops",
                "webhook_url": "https://hooks.example.com/v2", "event_types": ["host:machine_offline"],
                "created_at": 1772490000.5, "updated_at": 1772490300}, "enabled_notification_preferences": []}"#,
        ),
    )];
    replies.extend(shell_and_page_reads());
    replies.extend([
        ("webhooks/", json(200, ONE_WEBHOOK)),
        ("webhooks/", json(200, ONE_WEBHOOK)),
    ]);
    let fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for_count(WEBHOOK_ROWS, 1).await;
    page.wait_for("[data-event-type='host:machine_error'] input")
        .await;
    page.click("button[aria-label='Edit webhook 3']");
    page.wait_for_text("#webhook-form-heading", "Change webhook 3")
        .await;
    assert!(
        wait_until(10_000, || value_of(&page, "#webhook-url")
            == "https://hooks.example.com/vast")
        .await
    );
    let ticked = |key: &str| -> bool {
        page.get(&format!("[data-event-type='{key}'] input"))
            .unchecked_into::<web_sys::HtmlInputElement>()
            .checked()
    };
    // The bare slug `machine_error` is its one type.
    assert!(ticked("host:machine_offline") && ticked("host:machine_error"));
    assert!(!ticked("client:billing_failed"));

    page.click("form.webhook-form button[type=submit]");
    page.wait_for_text("#webhook-url-error", "Nothing has changed.")
        .await;
    page.type_into("#webhook-url", "https://hooks.example.com/v2");
    page.click("form.webhook-form button[type=submit]");
    page.wait_for("dialog[open]").await;
    page.click("dialog[open] button.primary");
    page.wait_for_text("#webhook-form-heading", "Create a webhook")
        .await;
    let changed: Vec<Call> = fetch
        .calls()
        .into_iter()
        .filter(|call| call.method == "PUT")
        .collect();
    assert_eq!(changed.len(), 1);
    assert!(changed[0].url.ends_with("/api/v0/webhooks/3/"));
    assert_eq!(
        changed[0].body,
        r#"{"webhook_url":"https://hooks.example.com/v2"}"#
    );
    assert!(page
        .text("[data-testid=webhook-result]")
        .contains("its secret is unchanged"));
}

#[wasm_bindgen_test]
async fn a_refused_url_is_said_beside_the_url_field() {
    signed_in_as(KEY, USER, "/notifications");
    let mut replies = vec![
        ("webhooks/", json(200, ONE_WEBHOOK)),
        (
            "webhooks/",
            json(
                400,
                r#"{"success": false, "error": "invalid_args", "msg": "webhook_url must use HTTPS"}"#,
            ),
        ),
    ];
    replies.extend(shell_and_page_reads());
    let _fetch = FakeFetch::install_by_url(replies);
    let page = mount(App);
    page.wait_for("[data-event-type='host:machine_offline'] input")
        .await;
    page.type_into("#webhook-url", "http://hooks.example.com/plain");
    page.click("[data-event-type='host:machine_offline'] input");
    page.click("form.webhook-form button[type=submit]");
    page.wait_for("dialog[open]").await;
    page.click("dialog[open] button.primary");
    page.wait_for_text("#webhook-url-error", "webhook_url must use HTTPS")
        .await;
    assert_eq!(
        page.get("#webhook-url")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
}
