//! Your own fleet: the console served by a reference server forwarding to another one (the
//! upstream, standing in for the public service), as `cargo xtask run --upstream URL`
//! serves it. Everything the person sees and changes is the upstream's, the header says so,
//! and neither server's log holds the key.

use gpudeck_e2e::{demo, Config, Harness};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Every line both servers log (they run in this process), at their most talkative.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Write for Logs {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    fn capture() -> Self {
        let logs = Logs::default();
        let writer = logs.clone();
        tracing_subscriber::fmt()
            .with_env_filter("warn,gpudeck_server=trace,tower_http=trace,axum=trace")
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .init();
        logs
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Windows of machines 1013–1015 not cancelled, in `db`.
fn windows(db: &gpudeck_server::Db) -> anyhow::Result<i64> {
    db.with_conn(|conn| {
        Ok(conn.query_row(
            "SELECT count(*) FROM maintenances
             WHERE machine_id BETWEEN 1013 AND 1015 AND cancelled_at IS NULL",
            [],
            |row| row.get(0),
        )?)
    })
    .map_err(|e| anyhow::anyhow!("{e:?}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forwarding_console_shows_and_changes_the_upstreams_fleet() -> anyhow::Result<()> {
    let logs = Logs::capture();
    let upstream = gpudeck_server::start(Config {
        addr: "127.0.0.1:0".parse()?,
        demo: true,
        ..Config::default()
    })
    .await?;
    let upstream_host = upstream.url().trim_start_matches("http://").to_owned();
    let app = Harness::start_with_options("upstream_forwarding", |config| Config {
        demo: false,
        upstream: Some(upstream.url()),
        ..config
    })
    .await?;

    app.open("/").await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.wait_for_address("/machines").await?;
    let connection = app
        .wait_for_text("[data-testid=connection]", &upstream_host)
        .await?;
    assert!(!connection.contains("demo"), "{connection}");
    let badge = app.find("[data-testid=connection]").await?;
    assert!(!badge
        .class_name()
        .await?
        .unwrap_or_default()
        .contains("demo"));
    // The upstream's machines: the forwarding server's own database has none.
    app.find("td.select input[aria-label='Select 1013']")
        .await?;

    let before = windows(&upstream.state().db)?;
    app.open("/machines/schedule?ids=1013-1015").await?;
    app.fill_schedule_form("3").await?;
    app.click(".schedule-form button[type=submit]").await?;
    let dialog = app.confirm().await?;
    assert!(dialog.contains("1013, 1014, 1015"), "{dialog}");
    app.wait_for_text(
        "[data-testid=schedule-result]",
        "Scheduled on 3 of 3 machines",
    )
    .await?;
    assert_eq!(
        windows(&upstream.state().db)?,
        before + 3,
        "in the upstream"
    );
    let here: Vec<i64> = app
        .db_rows("SELECT count(*) FROM maintenances", (), |row| row.get(0))
        .await?;
    assert_eq!(here, [0], "nothing in the forwarding server's own database");

    let said = logs.text();
    assert!(
        said.contains("/api/v0/machines/maintenances/batch"),
        "both servers' requests are logged: {said}"
    );
    assert!(!said.contains(demo::ALICE_KEY), "a log holds the key");
    app.finish().await?;
    upstream.shutdown().await?;
    Ok(())
}
