//! Crash safety: the real binary on a database file is killed with SIGKILL in the middle
//! of a write load, then restarted on the same file, several times over. Every write that
//! was answered 200 must be there, nothing may be half-written, no ask overdrawn, and
//! `PRAGMA integrity_check` must say ok. The load accepts volume asks, deletes templates,
//! schedules maintenance windows (N3), cancels them (N6), creates subaccounts (N20), creates
//! team roles (N14), removes team members with their team keys (N18), moves a machine's
//! offer end date later, extending its contract (N22), renames a webhook (N30), sets
//! another machine's interruptible floor (N35) and files renter reports through the demo
//! trigger D2.
//!
//! SQLite in WAL mode with `synchronous = NORMAL` writes each committed transaction to the
//! WAL file before COMMIT returns; a killed process cannot lose it (only a power cut or an
//! operating-system crash can lose the last transactions, never consistency).

use crate::common;

use gpudeck_server::demo::{ALICE_KEY, ALICE_WEBHOOK, ALICE_WEBHOOK_TYPES, ALICE_WEBHOOK_URL};
use gpudeck_server::{AppState, Config, DbLocation};
use gpudeck_wire::paths;
use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ROUNDS: i64 = 6;
const WRITERS: usize = 16;
/// Each round's own volume ask, so its capacity can be checked exactly.
const FIRST_ASK: i64 = 100;
const ASK_CAPACITY: i64 = 150;
/// Each round's own templates for alice: 100 of them from here.
const FIRST_TEMPLATE: i64 = 10_000;
/// Each round's own upcoming windows on alice's machine 1005: 100 of them from here.
const FIRST_WINDOW: i64 = 100_000;
/// The machine the load schedules windows on.
const SCHEDULED_MACHINE: i64 = 1060;
/// The machine whose offer the load lists again and again (its contract 9006 locked the
/// offer's price, so every later end date extends it).
const LISTED_MACHINE: i64 = 1003;
const LISTED_CONTRACT: i64 = 9006;
/// The machine whose interruptible floor the load sets again and again (N35).
const FLOORED_MACHINE: i64 = 1005;
/// The machine the load files renter reports on (D2).
const LOAD_REPORTED_MACHINE: i64 = 1009;
/// Each round's own members of Alice Compute, each with a team key: 100 of them from here
/// (user id = membership id).
const FIRST_MEMBER: i64 = 50_000;

/// The team key of seeded member `id`.
fn member_key(id: i64) -> String {
    format!("crash-member-team-key-{id:08}-000000000000000")
}

/// The permissions of a role the load creates in `round`.
fn crash_permissions(round: i64) -> Value {
    json!({"api": {"misc": {}}, "api.crash": {"constraints": {"round": {"eq": round}}}})
}

fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// What a writer of the load does, by its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Write {
    Accept,
    Schedule,
    Cancel,
    DeleteTemplate,
    CreateSubaccount,
    CreateRole,
    RemoveMember,
    List,
    RenameWebhook,
    Floor,
    Report,
}

impl Write {
    fn of(writer: usize) -> Write {
        match writer % 11 {
            0 => Write::Accept,
            1 => Write::Schedule,
            2 => Write::Cancel,
            3 => Write::DeleteTemplate,
            4 => Write::CreateSubaccount,
            5 => Write::CreateRole,
            6 => Write::RemoveMember,
            7 => Write::List,
            8 => Write::RenameWebhook,
            9 => Write::Floor,
            _ => Write::Report,
        }
    }
}

fn spawn_server(db: &Path) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpudeck-server"))
        .args([
            "--db",
            db.to_str().unwrap(),
            "--demo",
            "--addr",
            "127.0.0.1:0",
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    // Keeps reading to the end, so the server never writes into a closed pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server prints its address");
    let url = line
        .strip_prefix("gpudeck-server listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (child, url)
}

/// What the load saw, to compare with the database afterwards.
#[derive(Default)]
struct Seen {
    /// (volume id, size) answered 200.
    volumes: Vec<(i64, i64)>,
    /// Template ids answered 200.
    deleted: Vec<i64>,
    /// Reasons of the windows answered 200 (each request's own).
    scheduled: Vec<String>,
    /// Window ids whose cancellation was answered 200.
    cancelled: Vec<i64>,
    /// E-mail addresses of the subaccounts answered 200.
    created: Vec<String>,
    /// Names of the team roles answered 200.
    roles: Vec<String>,
    /// User ids whose removal from the team was answered 200.
    removed: Vec<i64>,
    /// Offer end dates answered 200, and those in flight when the server died.
    listed: Vec<f64>,
    unanswered_listings: Vec<f64>,
    /// Names of alice's webhook answered 200, and those in flight when the server died.
    renamed: Vec<String>,
    unanswered_renames: Vec<String>,
    /// Floors answered 200, and those in flight when the server died.
    floors: Vec<f64>,
    unanswered_floors: Vec<f64>,
    /// Messages of the reports answered 200 (each request's own).
    reports: Vec<String>,
    unanswered_reports: usize,
    /// Requests that got no answer (in flight when the server died).
    unanswered_accepts: usize,
    unanswered_deletes: usize,
    unanswered_schedules: usize,
    unanswered_cancels: usize,
    unanswered_creations: usize,
    unanswered_roles: usize,
    unanswered_removals: usize,
    refused: usize,
}

/// What one request of the load sent, as [`Seen::record`] needs it.
struct Sent {
    reason: String,
    size: i64,
    id: i64,
    end_date: f64,
}

impl Seen {
    /// Notes the answer to one request (`None`: the server died while it was in flight).
    fn record(&mut self, write: Write, outcome: Option<(u16, Value)>, sent: Sent) {
        let Sent {
            reason,
            size,
            id,
            end_date,
        } = sent;
        match (write, outcome) {
            // The server is gone; this request was in flight.
            (Write::Accept, None) => self.unanswered_accepts += 1,
            (Write::Schedule, None) => self.unanswered_schedules += 1,
            (Write::Cancel, None) => self.unanswered_cancels += 1,
            (Write::DeleteTemplate, None) => self.unanswered_deletes += 1,
            (Write::CreateSubaccount, None) => self.unanswered_creations += 1,
            (Write::CreateRole, None) => self.unanswered_roles += 1,
            (Write::RemoveMember, None) => self.unanswered_removals += 1,
            (Write::List, None) => self.unanswered_listings.push(end_date),
            (Write::RenameWebhook, None) => self.unanswered_renames.push(reason),
            (Write::RenameWebhook, Some((200, body))) => {
                assert_eq!(body["webhook"]["name"], reason.as_str());
                self.renamed.push(reason);
            }
            (Write::List, Some((200, _))) => self.listed.push(end_date),
            (Write::Floor, None) => self.unanswered_floors.push(floor_price(id)),
            (Write::Floor, Some((200, _))) => self.floors.push(floor_price(id)),
            (Write::Report, None) => self.unanswered_reports += 1,
            (Write::Report, Some((200, body))) => {
                assert_eq!(body["report"]["message"], reason.as_str());
                self.reports.push(reason);
            }
            (Write::CreateRole, Some((200, _))) => self.roles.push(reason),
            (Write::RemoveMember, Some((200, _))) => self.removed.push(id),
            (Write::Accept, Some((200, body))) => {
                let name = body["volume_name"].as_str().unwrap();
                let id = name.strip_prefix("V.").unwrap().parse().unwrap();
                self.volumes.push((id, size));
            }
            (Write::Accept, Some((409, body))) => {
                assert_eq!(body["error"], "insufficient_capacity", "{body}");
                self.refused += 1;
            }
            (Write::Schedule, Some((200, _))) => self.scheduled.push(reason),
            (Write::Cancel, Some((200, _))) => self.cancelled.push(id),
            (Write::DeleteTemplate, Some((200, _))) => self.deleted.push(id),
            (Write::CreateSubaccount, Some((200, body))) => {
                assert_eq!(body["email"], format!("{reason}@crash.example"));
                self.created.push(format!("{reason}@crash.example"));
            }
            (_, Some((status, body))) => panic!("{write:?}: unexpected {status}: {body}"),
        }
    }

    fn in_flight(&self) -> usize {
        self.unanswered_accepts
            + self.unanswered_deletes
            + self.unanswered_schedules
            + self.unanswered_cancels
            + self.unanswered_creations
            + self.unanswered_roles
            + self.unanswered_removals
            + self.unanswered_listings.len()
            + self.unanswered_renames.len()
            + self.unanswered_floors.len()
            + self.unanswered_reports
    }

    fn answered(&self) -> usize {
        self.volumes.len()
            + self.deleted.len()
            + self.scheduled.len()
            + self.cancelled.len()
            + self.created.len()
            + self.roles.len()
            + self.removed.len()
            + self.listed.len()
            + self.renamed.len()
            + self.floors.len()
            + self.reports.len()
            + self.refused
    }
}

async fn write_load(url: String, round: i64, seen: Arc<Mutex<Seen>>, answered: Arc<AtomicUsize>) {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let next_template = Arc::new(AtomicI64::new(FIRST_TEMPLATE + round * 100));
    let next_window = Arc::new(AtomicI64::new(FIRST_WINDOW + round * 100));
    let next_member = Arc::new(AtomicI64::new(FIRST_MEMBER + round * 100));
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let (client, url, seen, answered, next_template, next_window, next_member) = (
            client.clone(),
            url.clone(),
            seen.clone(),
            answered.clone(),
            next_template.clone(),
            next_window.clone(),
            next_member.clone(),
        );
        writers.push(tokio::spawn(async move {
            let write = Write::of(writer);
            for i in 0usize.. {
                let json_body = |method: reqwest::Method, path: String, body: Value| {
                    client
                        .request(method, format!("{url}{path}"))
                        .header("content-type", "application/json")
                        .body(body.to_string())
                };
                let reason = format!("crash-{round}-{writer}-{i}");
                // Unique per request and later with each round.
                let end_date = unix_now().floor()
                    + 40.0 * 86_400.0
                    + (round * 100_000 + i as i64 * WRITERS as i64 + writer as i64) as f64;
                let (request, size, id) = match write {
                    Write::Floor => {
                        // Unique per request: the id is the price's own number.
                        let id = round * 100_000 + (i * WRITERS + writer) as i64;
                        let body = json!({"client_id": "me", "price": floor_price(id)});
                        let path = paths::machine_min_bid(FLOORED_MACHINE);
                        (json_body(reqwest::Method::PUT, path, body), 0, id)
                    }
                    Write::Report => {
                        let body = json!({"problem": "Other", "message": reason});
                        let path = paths::demo_machine_reports(LOAD_REPORTED_MACHINE);
                        (json_body(reqwest::Method::POST, path, body), 0, 0)
                    }
                    Write::List => {
                        let body = json!({"machine": LISTED_MACHINE, "end_date": end_date});
                        let path = paths::machine_create_asks();
                        (json_body(reqwest::Method::PUT, path, body), 0, 0)
                    }
                    Write::RenameWebhook => {
                        let body = json!({ "name": reason });
                        let path = paths::webhook(ALICE_WEBHOOK);
                        (json_body(reqwest::Method::PUT, path, body), 0, 0)
                    }
                    Write::Accept => {
                        let size = 1 + ((writer + i) % 5) as i64;
                        let body = json!({"id": FIRST_ASK + round, "size": size});
                        (
                            json_body(reqwest::Method::PUT, paths::VOLUMES.into(), body),
                            size,
                            0,
                        )
                    }
                    Write::Schedule => {
                        let body = json!({"sdate": unix_now() + 86_400.0, "duration": 2,
                                          "maintenance_category": "disk",
                                          "maintenance_reason": reason});
                        let path = paths::machine_dnotify(SCHEDULED_MACHINE);
                        (json_body(reqwest::Method::PUT, path, body), 0, 0)
                    }
                    Write::CreateSubaccount => {
                        let body = json!({"email": format!("{reason}@crash.example"),
                                          "username": reason, "password": "correct horse",
                                          "host_only": false, "parent_id": "me"});
                        let path = format!("{}/", paths::USERS);
                        (json_body(reqwest::Method::POST, path, body), 0, 0)
                    }
                    Write::CreateRole => {
                        let body = json!({"name": reason, "permissions": crash_permissions(round)});
                        let path = format!("{}/", paths::TEAM_ROLES);
                        (json_body(reqwest::Method::POST, path, body), 0, 0)
                    }
                    Write::RemoveMember => {
                        let id = next_member.fetch_add(1, Ordering::SeqCst);
                        if id >= FIRST_MEMBER + round * 100 + 100 {
                            return;
                        }
                        let path = paths::team_member(id);
                        (json_body(reqwest::Method::DELETE, path, json!({})), 0, id)
                    }
                    Write::Cancel | Write::DeleteTemplate => {
                        let (next, first) = if write == Write::Cancel {
                            (&next_window, FIRST_WINDOW)
                        } else {
                            (&next_template, FIRST_TEMPLATE)
                        };
                        let id = next.fetch_add(1, Ordering::SeqCst);
                        if id >= first + round * 100 + 100 {
                            return;
                        }
                        let request = if write == Write::Cancel {
                            let body = json!({ "maintenance_id": id });
                            json_body(reqwest::Method::DELETE, paths::MAINTENANCES.into(), body)
                        } else {
                            let body = json!({ "template_id": id });
                            let path = format!("{}/", paths::TEMPLATE_ALIAS);
                            json_body(reqwest::Method::DELETE, path, body)
                        };
                        (request, 0, id)
                    }
                };
                let outcome = match request.bearer_auth(ALICE_KEY).send().await {
                    Ok(response) => {
                        let status = response.status().as_u16();
                        response
                            .text()
                            .await
                            .ok()
                            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
                            .map(|body| (status, body))
                    }
                    Err(_) => None,
                };
                let gone = outcome.is_none();
                let sent = Sent {
                    reason,
                    size,
                    id,
                    end_date,
                };
                seen.lock().unwrap().record(write, outcome, sent);
                if gone {
                    return;
                }
                answered.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    for writer in writers {
        writer.await.unwrap();
    }
}

/// N22 is one transaction: the machine keeps one offer, whose end date is one that was
/// sent in `round`, and its contract was extended to the latest end date committed, at
/// least the latest answered.
fn check_listings_after_crash(conn: &Connection, round: i64, seen: &Seen) {
    let (offers, offer_end): (i64, Option<f64>) = conn
        .query_row(
            "SELECT COUNT(*), MAX(end_date) FROM offers WHERE machine_id = ?1",
            [LISTED_MACHINE],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(offers, 1, "round {round}: one offer per machine");
    let contract_end: f64 = conn
        .query_row(
            "SELECT end_date FROM contracts WHERE id = ?1",
            [LISTED_CONTRACT],
            |r| r.get(0),
        )
        .unwrap();
    let latest_answered = seen
        .listed
        .iter()
        .copied()
        .reduce(f64::max)
        .unwrap_or_else(|| panic!("round {round}: no listing was answered"));
    let sent = |end: f64| seen.listed.contains(&end) || seen.unanswered_listings.contains(&end);
    let offer_end = offer_end.expect("a listing was answered, so the offer has an end date");
    assert!(
        sent(offer_end),
        "round {round}: offer end date {offer_end} was never sent"
    );
    assert!(
        sent(contract_end) && contract_end >= latest_answered,
        "round {round}: contract ends {contract_end}, before the answered {latest_answered}"
    );
}

/// N30 is one transaction: alice's webhook keeps its URL and subscriptions whole, and its
/// name is one sent in `round`.
fn check_webhook_after_crash(conn: &Connection, round: i64, seen: &Seen) {
    let (name, url, event_types): (String, String, String) = conn
        .query_row(
            "SELECT name, webhook_url, event_types FROM webhooks WHERE id = ?1",
            [ALICE_WEBHOOK],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert!(
        seen.renamed.contains(&name) || seen.unanswered_renames.contains(&name),
        "round {round}: webhook name {name:?} was never sent in this round"
    );
    assert_eq!(url, ALICE_WEBHOOK_URL, "round {round}");
    assert_eq!(
        serde_json::from_str::<Vec<String>>(&event_types).unwrap(),
        ALICE_WEBHOOK_TYPES,
        "round {round}"
    );
}

/// The floor the load's request `id` sends ($/GPU-hour).
fn floor_price(id: i64) -> f64 {
    0.1 + id as f64 / 1_000_000.0
}

/// N35 is one transaction: the machine keeps one offer, whose floor is one sent in
/// `round` (the last committed; which one cannot be told from the answers alone).
fn check_floor_after_crash(conn: &Connection, round: i64, seen: &Seen) {
    let floors: Vec<f64> = conn
        .prepare("SELECT price_min_bid FROM offers WHERE machine_id = ?1")
        .unwrap()
        .query_map([FLOORED_MACHINE], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        !seen.floors.is_empty(),
        "round {round}: no floor was answered"
    );
    let sent = |floor: &f64| seen.floors.contains(floor) || seen.unanswered_floors.contains(floor);
    assert!(
        floors.len() == 1 && sent(&floors[0]),
        "round {round}: floors {floors:?} were not sent"
    );
}

/// D2 is one transaction: every report answered 200 is stored once, whole, and no more
/// reports of `round` are stored than were sent.
fn check_reports_after_crash(conn: &Connection, round: i64, seen: &Seen) {
    assert!(
        !seen.reports.is_empty(),
        "round {round}: no report was answered"
    );
    for message in &seen.reports {
        let stored: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM machine_reports
                 WHERE machine_id = ?1 AND message = ?2 AND problem = 'Other'",
                rusqlite::params![LOAD_REPORTED_MACHINE, message],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            stored, 1,
            "round {round}: report {message:?} was answered 200"
        );
    }
    let stored: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM machine_reports WHERE message LIKE ?1",
            [format!("crash-{round}-%")],
            |r| r.get(0),
        )
        .unwrap();
    assert!(stored as usize <= seen.reports.len() + seen.unanswered_reports);
}

/// Opens the file as a restarted server would and checks it against what was answered.
fn check_after_crash(db: &Path, round: i64, seen: &Seen) {
    let conn = Connection::open(db).unwrap();
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok", "round {round}");
    let dangling: Option<String> = conn
        .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
        .optional()
        .unwrap();
    assert_eq!(dangling, None, "round {round}: a row refers to nothing");
    for (id, size) in &seen.volumes {
        let row: Option<(i64, i64, i64)> = conn
            .query_row(
                "SELECT ask_id, owner_id, size FROM volumes WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .unwrap();
        assert_eq!(
            row,
            Some((FIRST_ASK + round, 1, *size)),
            "round {round}: volume V.{id} was answered 200 but is not (whole) in the database"
        );
    }
    let (rows, used): (i64, i64) = conn
        .query_row(
            "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM volumes WHERE ask_id = ?1",
            [FIRST_ASK + round],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let extra = rows as usize - seen.volumes.len();
    assert!(
        extra <= seen.unanswered_accepts,
        "round {round}: {extra} volumes nobody was told about, {} requests in flight",
        seen.unanswered_accepts
    );
    assert!(used <= ASK_CAPACITY, "round {round}: ask overdrawn: {used}");
    for template in &seen.deleted {
        let deleted_at: Option<f64> = conn
            .query_row(
                "SELECT deleted_at FROM templates WHERE id = ?1",
                [template],
                |r| r.get(0),
            )
            .unwrap();
        assert!(
            deleted_at.is_some(),
            "round {round}: template {template} was answered 200 but is not deleted"
        );
    }
    let deleted: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM templates WHERE id BETWEEN ?1 AND ?2 AND deleted_at IS NOT NULL",
            [
                FIRST_TEMPLATE + round * 100,
                FIRST_TEMPLATE + round * 100 + 99,
            ],
            |r| r.get(0),
        )
        .unwrap();
    assert!(deleted as usize <= seen.deleted.len() + seen.unanswered_deletes);
    for reason in &seen.scheduled {
        let row: Option<(i64, i64, String, Option<f64>)> = conn
            .query_row(
                "SELECT machine_id, duration_hours, category, cancelled_at FROM maintenances
                 WHERE reason = ?1",
                [reason],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .unwrap();
        assert_eq!(
            row,
            Some((SCHEDULED_MACHINE, 2, "disk".to_owned(), None)),
            "round {round}: window {reason:?} was answered 200 but is not (whole) in the database"
        );
    }
    let scheduled: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM maintenances WHERE reason LIKE ?1",
            [format!("crash-{round}-%")],
            |r| r.get(0),
        )
        .unwrap();
    assert!(scheduled as usize <= seen.scheduled.len() + seen.unanswered_schedules);
    for window in &seen.cancelled {
        let cancelled_at: Option<f64> = conn
            .query_row(
                "SELECT cancelled_at FROM maintenances WHERE id = ?1",
                [window],
                |r| r.get(0),
            )
            .unwrap();
        assert!(
            cancelled_at.is_some(),
            "round {round}: window {window} was answered 200 but is not cancelled"
        );
    }
    let cancelled: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM maintenances WHERE id BETWEEN ?1 AND ?2
               AND cancelled_at IS NOT NULL",
            [FIRST_WINDOW + round * 100, FIRST_WINDOW + round * 100 + 99],
            |r| r.get(0),
        )
        .unwrap();
    assert!(cancelled as usize <= seen.cancelled.len() + seen.unanswered_cancels);
    for email in &seen.created {
        let parent: Option<i64> = conn
            .query_row(
                "SELECT parent_id FROM users WHERE email = ?1",
                [email],
                |r| r.get(0),
            )
            .optional()
            .unwrap()
            .flatten();
        assert_eq!(
            parent,
            Some(1),
            "round {round}: subaccount {email} was answered 200 but is not in the database"
        );
    }
    // No subaccount without its key or its password hash: each was one transaction.
    let (users, keyed, hashed): (i64, i64, i64) = conn
        .query_row(
            "SELECT COUNT(*),
                    (SELECT COUNT(*) FROM api_keys k JOIN users u ON u.id = k.user_id
                     WHERE u.email LIKE ?1),
                    COUNT(password_hash)
             FROM users WHERE email LIKE ?1",
            [format!("crash-{round}-%")],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (keyed, hashed),
        (users, users),
        "round {round}: a half-written subaccount"
    );
    assert!(users as usize <= seen.created.len() + seen.unanswered_creations);
    for name in &seen.roles {
        let permissions: Option<String> = conn
            .query_row(
                "SELECT permissions FROM team_roles WHERE team_id = 1 AND name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()
            .unwrap();
        let permissions: Option<Value> = permissions.map(|p| serde_json::from_str(&p).unwrap());
        assert_eq!(
            permissions,
            Some(crash_permissions(round)),
            "round {round}: role {name:?} was answered 200 but is not (whole) in the database"
        );
    }
    let roles: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM team_roles WHERE name LIKE ?1",
            [format!("crash-{round}-%")],
            |r| r.get(0),
        )
        .unwrap();
    assert!(roles as usize <= seen.roles.len() + seen.unanswered_roles);
    // A removal ends the membership and deletes the team key in one transaction: never
    // one without the other.
    let first = FIRST_MEMBER + round * 100;
    let (removed, half_written): (i64, i64) = conn
        .query_row(
            "SELECT COUNT(removed_at),
                    SUM((removed_at IS NULL) = NOT EXISTS
                        (SELECT 1 FROM api_keys k WHERE k.user_id = m.user_id AND k.team_id = 1))
             FROM team_members m WHERE m.id BETWEEN ?1 AND ?2",
            [first, first + 99],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        half_written, 0,
        "round {round}: a half-written member removal"
    );
    for id in &seen.removed {
        let removed_at: Option<f64> = conn
            .query_row(
                "SELECT removed_at FROM team_members WHERE id = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert!(
            removed_at.is_some(),
            "round {round}: member {id} was answered removed but is not"
        );
    }
    assert!(removed as usize <= seen.removed.len() + seen.unanswered_removals);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_write_loses_no_answered_write() {
    common::init_logging();
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite");
    // The demo, plus an ask, a hundred templates of alice's and a hundred members of her
    // team (each with a team key) per round.
    let state = AppState::new(Config {
        db: DbLocation::File(db.clone()),
        demo: true,
        ..Config::default()
    })
    .unwrap();
    state
        .db
        .with_conn(|c| {
            for round in 0..ROUNDS {
                c.execute(
                    "INSERT INTO volume_asks (id, machine_id, disk_space) VALUES (?1, 1005, ?2)",
                    [FIRST_ASK + round, ASK_CAPACITY],
                )?;
                for t in 0..100 {
                    let member = FIRST_MEMBER + round * 100 + t;
                    c.execute(
                        "INSERT INTO users (id, email, username, created_at) VALUES (?1, ?2, ?2, 0)",
                        rusqlite::params![member, format!("member-{member}@crash.example")],
                    )?;
                    c.execute(
                        "INSERT INTO team_members (id, team_id, user_id) VALUES (?1, 1, ?1)",
                        [member],
                    )?;
                    c.execute(
                        "INSERT INTO team_member_roles (member_id, role_id) VALUES (?1, 3)",
                        [member],
                    )?;
                    c.execute(
                        "INSERT INTO api_keys (key_hash, user_id, team_id, created_at)
                         VALUES (?1, ?2, 1, 0)",
                        rusqlite::params![gpudeck_server::keys::hash_key(&member_key(member)), member],
                    )?;
                    let id = FIRST_TEMPLATE + round * 100 + t;
                    c.execute(
                        "INSERT INTO templates (id, owner_id, name) VALUES (?1, 1, ?2)",
                        rusqlite::params![id, format!("crash-{id}")],
                    )?;
                    c.execute(
                        "INSERT INTO maintenances (id, machine_id, start_time, duration_hours,
                             category, created_at)
                         VALUES (?1, 1005, ?2, 1, 'other', ?3)",
                        rusqlite::params![
                            FIRST_WINDOW + round * 100 + t,
                            unix_now() + 30.0 * 86_400.0,
                            unix_now()
                        ],
                    )?;
                }
            }
            Ok(())
        })
        .unwrap();
    drop(state);

    let (mut answered_total, mut in_flight_total) = (0, 0);
    let mut rounds = Vec::new();
    for round in 0..ROUNDS {
        let (mut child, url) = spawn_server(&db);
        let seen = Arc::new(Mutex::new(Seen::default()));
        let answered = Arc::new(AtomicUsize::new(0));
        let load = tokio::spawn(write_load(url, round, seen.clone(), answered.clone()));
        // Kill after a round-dependent number of answers, with requests in flight.
        let kill_after = 40 + 15 * round as usize;
        let deadline = Instant::now() + Duration::from_secs(20);
        // And after at least one subaccount (its password hash is slow on purpose), one
        // listing (N22) and one floor (N35), so that every round checks what they commit.
        while answered.load(Ordering::SeqCst) < kill_after || {
            let seen = seen.lock().unwrap();
            seen.created.is_empty()
                || seen.listed.is_empty()
                || seen.renamed.is_empty()
                || seen.floors.is_empty()
        } {
            assert!(Instant::now() < deadline, "round {round}: the load stalled");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        child.kill().unwrap(); // SIGKILL on unix
        child.wait().unwrap();
        tokio::time::timeout(Duration::from_secs(20), load)
            .await
            .expect("the load ends once the server is gone")
            .unwrap();
        let seen = std::mem::take(&mut *seen.lock().unwrap());
        check_after_crash(&db, round, &seen);
        // Only right after its round: later rounds list the machine again.
        check_listings_after_crash(&Connection::open(&db).unwrap(), round, &seen);
        check_webhook_after_crash(&Connection::open(&db).unwrap(), round, &seen);
        check_floor_after_crash(&Connection::open(&db).unwrap(), round, &seen);
        check_reports_after_crash(&Connection::open(&db).unwrap(), round, &seen);
        let in_flight = seen.in_flight();
        answered_total += seen.answered();
        in_flight_total += in_flight;
        println!(
            "round {round}: killed after {} volumes, {} deletes, {} schedules, {} cancels, {} \
             subaccounts, {} roles, {} member removals, {} listings, {} webhook renames, {} \
             floors, {} reports and {} refusals answered, {in_flight} in flight",
            seen.volumes.len(),
            seen.deleted.len(),
            seen.scheduled.len(),
            seen.cancelled.len(),
            seen.created.len(),
            seen.roles.len(),
            seen.removed.len(),
            seen.listed.len(),
            seen.renamed.len(),
            seen.floors.len(),
            seen.reports.len(),
            seen.refused
        );
        rounds.push(seen);
    }

    // A last restart: the server serves from the file, and sees every round's writes.
    let (mut child, url) = spawn_server(&db);
    let client = reqwest::Client::new();
    let response = client
        .delete(format!("{url}{}", paths::TEMPLATE_ALIAS))
        .bearer_auth(ALICE_KEY)
        .header("content-type", "application/json")
        .body(json!({ "template_id": FIRST_TEMPLATE }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404, "deleted before the first kill");
    let response = client
        .put(format!("{url}{}", paths::VOLUMES))
        .bearer_auth(ALICE_KEY)
        .header("content-type", "application/json")
        .body(json!({"id": 8, "size": 1}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let response = client
        .delete(format!("{url}{}", paths::MAINTENANCES))
        .bearer_auth(ALICE_KEY)
        .header("content-type", "application/json")
        .body(json!({ "maintenance_id": FIRST_WINDOW }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409, "cancelled before the first kill");
    // The first round's first member was removed before the first kill: the key is gone.
    let response = client
        .get(format!("{url}{}", paths::CURRENT_USER))
        .bearer_auth(member_key(FIRST_MEMBER))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401, "removed before the first kill");
    child.kill().unwrap();
    child.wait().unwrap();
    for (round, seen) in rounds.iter().enumerate() {
        check_after_crash(&db, round as i64, seen);
    }
    println!(
        "crash safety: {ROUNDS} SIGKILLs mid-load, {answered_total} writes answered, \
         {in_flight_total} in flight at the kills, none lost, integrity ok ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
}
