//! The server under load: a generated database (100,000 machines, 1,000,000 maintenance
//! windows), the release binary on loopback, and wrk as the load generator.

use crate::report::{ms, Table};
use anyhow::{bail, Context, Result};
use gpudeck_server::{Db, DbLocation};
use rusqlite::Connection;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The key of the benchmark's host; stored hashed like any other.
pub const BENCH_KEY: &str = "bench-host-key-000000000000000000000000000000001";
const HOST_ID: i64 = 1;
const RENTER_ID: i64 = 2;
/// Machines whose contracts start out fragmented, for the defrag load.
const FRAGMENTED: i64 = 10;

/// The shape of a generated database.
pub struct DataSet {
    pub machines: i64,
    /// Maintenance windows per machine.
    pub windows_per_machine: i64,
    /// Machines, at the top of the id range, all of whose windows are active.
    pub busy_machines: i64,
}

/// Builds a fresh database at `path`. Windows accumulate as history, the way a host's do:
/// per machine, all but the latest ended in the past year (one in 20 was cancelled), and
/// the latest is upcoming within 30 days (cancelled on one machine in 20). Busy machines
/// have every window upcoming: the heavy answers.
pub fn generate(path: &Path, set: &DataSet) -> Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let db = Db::open(&DbLocation::File(path.to_path_buf()))?;
    let filled = db
        .with_conn(|conn| Ok(fill(conn, set, unix_now())))
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    filled.with_context(|| format!("generating {}", path.display()))
}

fn fill(conn: &mut Connection, set: &DataSet, now: f64) -> rusqlite::Result<()> {
    let DataSet {
        machines,
        windows_per_machine,
        busy_machines,
    } = *set;
    let tx = conn.transaction()?;
    {
        tx.execute(
            "INSERT INTO users (id, email, username, created_at)
             VALUES (?1, 'host@bench.test', 'bench-host', ?3), (?2, 'renter@bench.test', 'bench-renter', ?3)",
            (HOST_ID, RENTER_ID, now),
        )?;
        tx.execute(
            "INSERT INTO api_keys (key_hash, user_id, created_at) VALUES (?1, ?2, ?3)",
            (gpudeck_server::keys::hash_key(BENCH_KEY), HOST_ID, now),
        )?;
        let mut machine = tx.prepare(
            "INSERT INTO machines (id, owner_id, hostname, num_gpus) VALUES (?1, ?2, ?3, 8)",
        )?;
        let mut contract = tx.prepare(
            "INSERT INTO contracts (machine_id, renter_id, slot_start, gpu_count)
             VALUES (?1, ?2, ?3, 1)",
        )?;
        let mut window = tx.prepare(
            "INSERT INTO maintenances
                 (machine_id, start_time, duration_hours, category, reason, created_at, cancelled_at)
             VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6)",
        )?;
        let categories = ["power", "internet", "disk", "gpu", "software", "other"];
        for id in 1..=machines {
            let busy = id > machines - busy_machines;
            machine.execute((id, HOST_ID, format!("bench-{id:06}")))?;
            if id <= FRAGMENTED {
                for slot in [1, 3, 6] {
                    contract.execute((id, RENTER_ID, slot))?;
                }
            }
            for k in 0..windows_per_machine {
                let latest = k == windows_per_machine - 1;
                let (start, cancelled) = if busy || latest {
                    let hours_ahead = (id * 7 + k * 13) % 720;
                    let cancelled = !busy && id % 20 == 0;
                    (now + hours_ahead as f64 * 3600.0, cancelled)
                } else {
                    // History: about five weeks apart, the newest over a month ago.
                    let days_ago = (windows_per_machine - 1 - k) * 36 + id % 5;
                    (now - days_ago as f64 * 86_400.0, (id + k) % 20 == 0)
                };
                window.execute((
                    id,
                    start,
                    1 + (id + k) % 24,
                    categories[((id + k) % 6) as usize],
                    start - 7.0 * 86_400.0,
                    cancelled.then_some(start - 3600.0),
                ))?;
            }
        }
    }
    tx.commit()
}

/// The release server on a free loopback port, with request logging off.
pub struct Server {
    child: Child,
    pub url: String,
}

impl Server {
    pub fn start(binary: &Path, db: &Path) -> Result<Self> {
        let mut child = Command::new(binary)
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let stdout = child.stdout.take().context("server stdout")?;
        let (found, address) = mpsc::channel();
        // Keep draining stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("gpudeck-server listening on ") {
                    let _ = found.send(url.trim().to_owned());
                }
            }
        });
        let url = address
            .recv_timeout(Duration::from_secs(60))
            .context("the server did not say where it listens")?;
        Ok(Self { child, url })
    }

    /// Peak resident memory so far (VmHWM), in MB.
    pub fn peak_rss_mb(&self) -> Option<f64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024.0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One wrk run's outcome.
pub struct Load {
    pub requests_per_second: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub non_2xx: u64,
}

/// A request for wrk to repeat.
pub enum Request {
    Get(String),
    Put { path: String, body: String },
}

pub fn run_wrk(
    server: &Server,
    request: &Request,
    connections: u32,
    seconds: u32,
    scratch: &Path,
) -> Result<Load> {
    let script = scratch.join("request.lua");
    let (path, lua) = match request {
        Request::Get(path) => (path.clone(), String::new()),
        Request::Put { path, body } => (
            path.clone(),
            format!(
                "wrk.method = \"PUT\"\nwrk.body = '{body}'\nwrk.headers[\"Content-Type\"] = \"application/json\"\n"
            ),
        ),
    };
    // Counts answers that are not 2xx, so a refused request can not pass as fast.
    let lua = format!(
        "{lua}non2xx = 0\nresponse = function(status) if status >= 300 then non2xx = non2xx + 1 end end\n\
         done = function() io.write(string.format('NON2XX %d\\n', non2xx)) end\n"
    );
    std::fs::File::create(&script)?.write_all(lua.as_bytes())?;
    let threads = connections.clamp(1, 2);
    let output = Command::new("wrk")
        .args([
            "-t",
            &threads.to_string(),
            "-c",
            &connections.to_string(),
            "-d",
            &format!("{seconds}s"),
            "--latency",
        ])
        .args(["-H", &format!("Authorization: Bearer {BENCH_KEY}"), "-s"])
        .arg(&script)
        .arg(format!("{}{path}", server.url))
        .output()
        .context("running wrk (Debian package wrk)")?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        bail!("wrk failed: {text}");
    }
    parse_wrk(&text)
}

fn parse_wrk(text: &str) -> Result<Load> {
    let field = |prefix: &str| -> Option<&str> {
        text.lines()
            .map(str::trim)
            .find(|l| l.starts_with(prefix))
            .and_then(|l| l.split_whitespace().nth(1))
    };
    let duration_ms = |value: &str| -> Option<f64> {
        let split = value.find(|c: char| c.is_ascii_alphabetic())?;
        let (number, unit) = value.split_at(split);
        let number: f64 = number.parse().ok()?;
        Some(match unit {
            "us" => number / 1000.0,
            "ms" => number,
            "s" => number * 1000.0,
            "m" => number * 60_000.0,
            _ => return None,
        })
    };
    Ok(Load {
        requests_per_second: field("Requests/sec:")
            .and_then(|v| v.parse().ok())
            .context("wrk printed no Requests/sec")?,
        p50_ms: field("50%")
            .and_then(duration_ms)
            .context("wrk printed no p50")?,
        p99_ms: field("99%")
            .and_then(duration_ms)
            .context("wrk printed no p99")?,
        non_2xx: field("NON2XX").and_then(|v| v.parse().ok()).unwrap_or(0),
    })
}

/// `/api/v0/machines/maintenances` for the machines `ids`, the way the official client asks.
pub fn maintenance_path(ids: std::ops::RangeInclusive<i64>) -> String {
    let ids: Vec<String> = ids.map(|i| i.to_string()).collect();
    format!(
        "/api/v0/machines/maintenances?owner=me&machine_ids=%5B{}%5D",
        ids.join("%2C+")
    )
}

pub fn defrag_request(n: i64) -> Request {
    let ids: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    Request::Put {
        path: "/api/v0/machines/defrag_offers".into(),
        body: format!("{{\"machine_ids\": [{}]}}", ids.join(", ")),
    }
}

pub fn load_row(table: &mut Table, what: &str, connections: u32, load: &Load) {
    table.row(vec![
        what.to_owned(),
        connections.to_string(),
        format!("{:.0}", load.requests_per_second),
        ms(load.p50_ms),
        ms(load.p99_ms),
        load.non_2xx.to_string(),
    ]);
}

pub fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default()
}

pub fn scratch_dir(root: &Path) -> Result<PathBuf> {
    let dir = root.join("target/bench");
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wrk_output() {
        let text = "Running 5s test @ http://127.0.0.1:1/\n  Latency Distribution\n     50%  312.00us\n     75%  1.20ms\n     90%    2.00ms\n     99%   12.34ms\n  100 requests in 5.00s, 1.00MB read\nRequests/sec:  20000.50\nTransfer/sec:      2.00MB\nNON2XX 3\n";
        let load = parse_wrk(text).unwrap();
        assert_eq!(load.requests_per_second, 20000.5);
        assert!((load.p50_ms - 0.312).abs() < 1e-9);
        assert_eq!(load.p99_ms, 12.34);
        assert_eq!(load.non_2xx, 3);
    }

    #[test]
    fn maintenance_path_is_the_official_clients_form() {
        assert_eq!(
            maintenance_path(1..=2),
            "/api/v0/machines/maintenances?owner=me&machine_ids=%5B1%2C+2%5D"
        );
    }
}
