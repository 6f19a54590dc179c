//! An answer lost on the way back: a forwarding proxy between the browser and the demo
//! server passes a schedule of three machines on, waits for the server's answer, then
//! closes the browser's connection without sending the answer on. The console says the
//! outcome is unknown (never "could not reach the server"), re-reads the machines' windows
//! and shows the three windows there, and a second press warns about them.

use gpudeck_e2e::{demo, Harness};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The request whose answer the proxy drops.
const DROPPED: &[u8] = b"POST /api/v0/machines/maintenances/batch";

/// Forwards every connection to `server`, byte for byte, except that once a connection
/// carries [`DROPPED`], the server's answer to it is dropped and the connection closed: the
/// write is applied, and the browser gets no answer. Every request asks the server to close
/// its connection after answering, so that no connection is reused: Chromium sends a
/// request again by itself when a reused connection closes without an answer, which would
/// apply the write twice. Counts the answers it dropped.
async fn answer_dropping_proxy(
    server: SocketAddr,
) -> anyhow::Result<(SocketAddr, Arc<AtomicUsize>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let dropped = Arc::new(AtomicUsize::new(0));
    let counter = dropped.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let counter = counter.clone();
            tokio::spawn(async move {
                if let Ok(upstream) = TcpStream::connect(server).await {
                    let _ = forward(client, upstream, counter).await;
                }
            });
        }
    });
    Ok((addr, dropped))
}

async fn forward(
    client: TcpStream,
    upstream: TcpStream,
    dropped: Arc<AtomicUsize>,
) -> std::io::Result<()> {
    let (mut client_in, mut client_out) = client.into_split();
    let (mut upstream_in, mut upstream_out) = upstream.into_split();
    let cut = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let marked = cut.clone();
    let requests = tokio::spawn(async move {
        let mut buffer = [0u8; 16 * 1024];
        loop {
            let n = client_in.read(&mut buffer).await?;
            if n == 0 {
                return upstream_out.shutdown().await;
            }
            let chunk = &buffer[..n];
            if chunk.windows(DROPPED.len()).any(|w| w == DROPPED) {
                marked.store(true, Ordering::SeqCst);
            }
            upstream_out
                .write_all(&one_request_per_connection(chunk))
                .await?;
        }
    });
    let mut buffer = [0u8; 16 * 1024];
    loop {
        let n = upstream_in.read(&mut buffer).await?;
        if n == 0 {
            break;
        }
        if cut.load(Ordering::SeqCst) {
            // The server answered: hang up instead of passing it on.
            client_out.shutdown().await?;
            dropped.fetch_add(1, Ordering::SeqCst);
            break;
        }
        client_out.write_all(&buffer[..n]).await?;
    }
    requests.abort();
    Ok(())
}

/// `chunk` of a request stream with `Connection: keep-alive` turned into `close`.
fn one_request_per_connection(chunk: &[u8]) -> Vec<u8> {
    const KEEP: &[u8] = b"Connection: keep-alive\r\n";
    match chunk
        .windows(KEEP.len())
        .position(|w| w.eq_ignore_ascii_case(KEEP))
    {
        Some(at) => [
            &chunk[..at],
            b"Connection: close\r\n",
            &chunk[at + KEEP.len()..],
        ]
        .concat(),
        None => chunk.to_vec(),
    }
}

/// Windows not cancelled on machines 1013 to 1015: (id, machine).
async fn windows(app: &Harness) -> anyhow::Result<Vec<(i64, i64)>> {
    app.db_rows(
        "SELECT id, machine_id FROM maintenances
         WHERE machine_id BETWEEN 1013 AND 1015 AND cancelled_at IS NULL ORDER BY id",
        (),
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_schedule_whose_answer_is_lost_is_said_unknown_then_reread() -> anyhow::Result<()> {
    let app = Harness::start("lost_answer").await?;
    let (proxy, dropped) = answer_dropping_proxy(app.server.addr).await?;
    let before = windows(&app).await?;
    app.driver.goto(format!("http://{proxy}/")).await?;
    app.sign_in(demo::ALICE_KEY).await?;
    app.find(".row-count").await?;
    app.driver
        .goto(format!("http://{proxy}/machines/schedule?ids=1013-1015"))
        .await?;
    app.fill_schedule_form("3").await?;
    app.click(".schedule-form button[type=submit]").await?;
    app.find("dialog.confirm[open]").await?;
    app.click("dialog.confirm[open] .confirm-actions button:last-child")
        .await?;

    let result = app
        .wait_for_text("[data-testid=schedule-result]", "Scheduled on 3 of 3")
        .await?;
    for machine in 1013..=1015 {
        assert!(
            result.contains(&format!(
                "Machine {machine}: no answer came, but the re-read shows the window scheduled"
            )),
            "{result}"
        );
    }
    assert!(!result.contains("could not reach"), "{result}");
    assert_eq!(dropped.load(Ordering::SeqCst), 1, "one answer was cut");
    let new: Vec<(i64, i64)> = windows(&app)
        .await?
        .into_iter()
        .filter(|w| !before.contains(w))
        .collect();
    assert_eq!(
        new.iter().map(|w| w.1).collect::<Vec<_>>(),
        [1013, 1014, 1015],
        "one window each, applied once"
    );

    // A second press of the same window warns about the three that now exist (besides any
    // the demo data had).
    app.fill_schedule_form("3").await?;
    let warning = app
        .wait_for_text("[data-testid=overlap-warning]", "existing windows overlap")
        .await?;
    for (id, machine) in &new {
        assert!(
            warning.contains(&format!("Machine {machine}: Disk window #{id} from")),
            "{warning}"
        );
    }
    assert_eq!(
        windows(&app).await?.len(),
        before.len() + 3,
        "nothing sent twice"
    );
    app.finish().await
}
