//! Told when the console is closed: a webhook made on the Notifications page receives the
//! server's signed deliveries on a local port, and the secret the page showed once is the
//! one they are signed with (spec fleet-health §3.3). The signature is checked here with
//! its own HMAC, not the server's code.

use gpudeck_e2e::{demo, Harness};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::HashMap;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// One POST the receiver took: its headers (names in lower case) and its body.
#[derive(Debug)]
struct Delivery {
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

impl Delivery {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    /// Whether `X-Vast-Signature-256` is the HMAC-SHA256, keyed by `secret`, of
    /// `X-Vast-Timestamp`, `.` and the raw body.
    fn is_signed_with(&self, secret: &str) -> bool {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
        mac.update(self.header("x-vast-timestamp").as_bytes());
        mac.update(b".");
        mac.update(&self.body);
        let expected = format!("sha256={}", hex::encode(mac.finalize().into_bytes()));
        self.header("x-vast-signature-256") == expected
    }
}

/// A receiver on a free local port that answers 200 to every request and hands each one
/// over; its address.
async fn receiver() -> anyhow::Result<(String, mpsc::UnboundedReceiver<Delivery>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!(
        "http://127.0.0.1:{}/vast/webhooks",
        listener.local_addr()?.port()
    );
    let (sender, deliveries) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let sender = sender.clone();
            tokio::spawn(async move {
                let mut stream = BufReader::new(stream);
                let mut headers = HashMap::new();
                let mut line = String::new();
                stream.read_line(&mut line).await.ok()?;
                loop {
                    line.clear();
                    stream.read_line(&mut line).await.ok()?;
                    let Some((name, value)) = line.trim_end().split_once(':') else {
                        break;
                    };
                    headers.insert(name.to_ascii_lowercase(), value.trim().to_owned());
                }
                let length = headers.get("content-length")?.parse().ok()?;
                let mut body = vec![0; length];
                stream.read_exact(&mut body).await.ok()?;
                let answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
                stream.get_mut().write_all(answer.as_bytes()).await.ok()?;
                sender.send(Delivery { headers, body }).ok()
            });
        }
    });
    Ok((url, deliveries))
}

/// The next delivery, within a delivery's patience (attempts time out after 10 s).
async fn next(deliveries: &mut mpsc::UnboundedReceiver<Delivery>) -> anyhow::Result<Delivery> {
    tokio::time::timeout(Duration::from_secs(20), deliveries.recv())
        .await
        .map_err(|_| anyhow::anyhow!("no delivery reached the receiver"))?
        .ok_or_else(|| anyhow::anyhow!("the receiver stopped"))
}

/// The secret the open secret dialog shows; closes the dialog, and checks that the
/// secret is then nowhere the page keeps or shows anything.
async fn shown_secret(app: &Harness) -> anyhow::Result<String> {
    let secret = app
        .find("[data-testid=webhook-secret]")
        .await?
        .text()
        .await?;
    app.confirm().await?;
    let surfaces = app
        .eval(
            "return JSON.stringify({
                url: location.href,
                local: Object.assign({}, localStorage),
                session: Object.assign({}, sessionStorage),
                resources: performance.getEntriesByType('resource').map(e => e.name),
                page: document.documentElement.outerHTML,
            })",
        )
        .await?;
    let surfaces = surfaces.as_str().unwrap_or_default();
    anyhow::ensure!(
        !secret.is_empty() && !surfaces.contains(&secret),
        "the secret outlived its dialog: {surfaces:.2000}"
    );
    Ok(secret)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_webhook_made_on_the_page_receives_signed_deliveries() -> anyhow::Result<()> {
    let (url, mut deliveries) = receiver().await?;
    let app =
        Harness::start_signed_in("webhooks_signed", "/notifications", demo::ALICE_KEY).await?;

    // Create it, subscribed to windows being scheduled.
    app.find(".webhooks tbody tr:not(.spacer)").await?;
    app.fill("#webhook-name", "Pager").await?;
    app.fill("#webhook-url", &url).await?;
    app.click(r#"label[data-event-type="host:maintenance_scheduled"] input"#)
        .await?;
    app.click(".webhook-form button[type=submit]").await?;
    let asked = app.confirm().await?;
    assert!(asked.contains(&url), "{asked}");
    let secret = shown_secret(&app).await?;
    assert!(
        secret.len() >= 32,
        "a secret of {} characters",
        secret.len()
    );
    let table = app.wait_for_text(".webhooks tbody", "Pager").await?;
    assert!(table.contains(&url), "{table}");
    let id: i64 = app
        .db_rows(
            "SELECT id FROM webhooks WHERE user_id = ?1 AND name = 'Pager'",
            [demo::ALICE_ID],
            |row| row.get(0),
        )
        .await?
        .into_iter()
        .next()
        .expect("the webhook is stored");

    // A test delivery, signed with the secret the page showed.
    app.click(&format!("button[aria-label='Send test to webhook {id}']"))
        .await?;
    let said = app
        .wait_for_text(
            "[data-testid=webhook-test-result]",
            &format!("Webhook {id}:"),
        )
        .await?;
    let test = next(&mut deliveries).await?;
    assert!(test.is_signed_with(&secret), "{test:?}");
    assert_eq!(test.header("x-vast-delivery-attempt"), "1");
    let body = test.json();
    assert_eq!(body["notif_type"], "webhook_test");
    assert_eq!(body["user_id"], demo::ALICE_ID);
    let event_id = body["event_id"].as_str().unwrap_or_default();
    assert_eq!(test.header("x-vast-event-id"), event_id);
    assert!(said.contains(event_id), "the page names the event: {said}");

    // A real event: a window scheduled on the Schedule page.
    app.open("/machines/schedule?ids=1013").await?;
    app.fill_schedule_form("3").await?;
    app.click(".schedule-form button[type=submit]").await?;
    app.confirm().await?;
    app.wait_for_text("[data-testid=schedule-result]", "1013")
        .await?;
    let scheduled = next(&mut deliveries).await?;
    assert!(scheduled.is_signed_with(&secret), "{scheduled:?}");
    let body = scheduled.json();
    assert_eq!(body["notif_type"], "maintenance_scheduled");
    assert_eq!(body["subject"], "Maintenance scheduled on machine 1013");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("disk window from "), "{message}");
    assert!(message.ends_with(" for 3 hour(s)."), "{message}");

    // A rotated secret signs the next delivery; the old one no longer does.
    app.open("/notifications").await?;
    app.click(&format!(
        "button[aria-label='Rotate secret of webhook {id}']"
    ))
    .await?;
    app.confirm().await?;
    let rotated = shown_secret(&app).await?;
    assert_ne!(rotated, secret);
    app.click(&format!("button[aria-label='Send test to webhook {id}']"))
        .await?;
    let after = next(&mut deliveries).await?;
    assert!(after.is_signed_with(&rotated), "{after:?}");
    assert!(
        !after.is_signed_with(&secret),
        "still signed with the old secret"
    );

    // Nothing else arrived: one delivery per event.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(deliveries.try_recv().is_err(), "an unexpected delivery");
    app.finish().await
}
