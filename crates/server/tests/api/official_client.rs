//! The official command-line client, `vastai` 1.9.1 (PyPI), against the reference server:
//! `show machines`, `show machine ID`, `show maints`, `schedule maint`, `cancel maint` and
//! `defrag machines` as a host would type them, and `search templates`, `delete template`,
//! `search volumes`, `show volumes`, `create volume`, `delete volume` and `create
//! subaccount` as an account owner would, and the team commands `show team-roles`, `show
//! team-role`, `show members`, `create team-role`, `update team-role`, `remove team-role`,
//! `invite member` and `remove member`, and the host's `list machine`, `list machines` and
//! `unlist machine`, and the host's `reports`, `show earnings` and `set min-bid`, each
//! checked for success and for its effect in the database (or, for reads, against it).
//!
//! `cargo xtask test` installs the client (`xtask/src/setup.rs`) and passes its path in
//! `GPUDECK_VASTAI`; run alone: `GPUDECK_VASTAI=~/.cache/gpudeck/venv/bin/vastai cargo test
//! -p gpudeck-server --test api official_client::`.

use crate::common;

use common::NOW;
use gpudeck_server::demo::*;
use gpudeck_server::{start, Clock, Config, RunningServer};
use serde_json::Value;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DAY: f64 = 86_400.0;
/// Longest one client command may take (it retries a few times on 429 and 5xx only).
const COMMAND_TIME_LIMIT: Duration = Duration::from_secs(60);

fn client_path() -> String {
    std::env::var("GPUDECK_VASTAI").unwrap_or_else(|_| {
        panic!(
            "GPUDECK_VASTAI is not set: it names the official client `vastai` 1.9.1. \
             `cargo xtask test` installs it and sets it; to run this test alone, \
             `cargo xtask setup` and then GPUDECK_VASTAI=~/.cache/gpudeck/venv/bin/vastai"
        )
    })
}

/// What one client command printed.
struct Run {
    stdout: String,
    stderr: String,
}

/// How the client prints: `--raw` JSON, or the lines a person reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    Raw,
    Printed,
    /// Printed, by a command that runs one request per id (`list machines`): client 1.9.1
    /// then ends with `sys.exit([None, …])`, which writes the list to stderr and exits 1.
    PrintedPerId,
}

/// Runs `vastai --url URL --api-key KEY [--raw] ARGS…` with `y` on stdin (the client asks
/// `Continue? [y/n]` before writes), a fresh HOME (so it keeps no cache between runs) and
/// `PAGER=cat`. Panics, with what it printed, unless it exits 0.
fn vastai_as(url: &str, key: &str, output: Output, args: &[&str]) -> Run {
    let home = tempfile::tempdir().unwrap();
    let raw: &[&str] = if output == Output::Raw {
        &["--raw"]
    } else {
        &[]
    };
    let mut child = Command::new(client_path())
        .args(["--url", url, "--api-key", key])
        .args(raw)
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .env("PAGER", "cat")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {} failed: {e}", client_path()));
    child.stdin.take().unwrap().write_all(b"y\n").unwrap();
    // Read while it runs: `show machines` prints more than a pipe holds.
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.unwrap().read_to_string(&mut text).unwrap();
            text
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > COMMAND_TIME_LIMIT {
            child.kill().unwrap();
            panic!("vastai {args:?} ran longer than {COMMAND_TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = Run {
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    let as_expected = match output {
        Output::PrintedPerId => status.code() == Some(1) && run.stderr.starts_with("[None"),
        Output::Raw | Output::Printed => status.success(),
    };
    assert!(
        as_expected,
        "vastai {args:?} exited {status}:\nstdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    run
}

impl Run {
    /// The JSON `--raw` printed.
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr: {}", self.stdout, self.stderr))
    }
}

async fn demo_server() -> RunningServer {
    common::init_logging();
    start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        demo: true,
        clock: Clock::fixed(NOW),
        ..Config::default()
    })
    .await
    .unwrap()
}

/// Runs a client command off the async runtime, which serves the requests meanwhile.
async fn run(server: &RunningServer, key: &'static str, args: &[&str]) -> Run {
    run_as(server, key, Output::Raw, args).await
}

/// [`run`], printing as for a person (no `--raw`).
async fn run_printed(server: &RunningServer, key: &'static str, args: &[&str]) -> Run {
    run_as(server, key, Output::Printed, args).await
}

async fn run_as(server: &RunningServer, key: &'static str, output: Output, args: &[&str]) -> Run {
    let url = server.url();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        vastai_as(&url, key, output, &args)
    })
    .await
    .unwrap()
}

fn window(server: &RunningServer, sql: &'static str) -> Option<(i64, f64, i64, String, f64)> {
    server
        .state()
        .db
        .with_conn(move |c| {
            use rusqlite::OptionalExtension;
            Ok(c.query_row(sql, [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()?)
        })
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_shows_schedules_and_cancels() {
    let server = demo_server().await;

    // show machines: alice's 120, as the database has them.
    let machines = run(&server, ALICE_KEY, &["show", "machines"]).await.json();
    let machines = machines["machines"].as_array().expect("{machines: [...]}");
    let ids: Vec<i64> = machines.iter().map(|m| m["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, ALICE_MACHINES.collect::<Vec<_>>());
    assert_eq!(machines[0]["gpu_occupancy"], "x D x I x x R x");
    let in_db = server
        .state()
        .db
        .with_conn(|c| {
            Ok(c.query_row(
                "SELECT COUNT(*) FROM machines WHERE owner_id = ?1",
                [ALICE_ID],
                |r| r.get::<_, i64>(0),
            )?)
        })
        .unwrap();
    assert_eq!(machines.len() as i64, in_db);
    // The health signals (fleet-health §1.1) reach the client as the database has them.
    let stored = |column: &'static str, id: i64| {
        server
            .state()
            .db
            .with_conn(move |c| {
                Ok(c.query_row(
                    &format!("SELECT {column} FROM machines WHERE id = ?1"),
                    [id],
                    |r| r.get::<_, rusqlite::types::Value>(0),
                )?)
            })
            .unwrap()
    };
    let by_id = |id: i64| machines.iter().find(|m| m["id"] == id).unwrap();
    assert_eq!(
        stored("error_description", ERROR_MACHINE),
        rusqlite::types::Value::Text(
            by_id(ERROR_MACHINE)["error_description"]
                .as_str()
                .unwrap()
                .into()
        )
    );
    assert_eq!(
        stored("avail_disk_space", LOW_DISK_MACHINE),
        rusqlite::types::Value::Real(
            by_id(LOW_DISK_MACHINE)["avail_disk_space"]
                .as_f64()
                .unwrap()
        )
    );

    // show machine ID: a one-element array.
    let one = run(&server, ALICE_KEY, &["show", "machine", "1101"])
        .await
        .json();
    assert_eq!(one.as_array().unwrap().len(), 1);
    assert_eq!(one[0]["machine_id"], 1101);
    assert_eq!(one[0]["hostname"], "alice-gpu-101");

    // schedule maint: a window with the client's fractional duration and category.
    let start = NOW + DAY;
    let sdate = format!("{start}");
    let scheduled = run(
        &server,
        ALICE_KEY,
        &[
            "schedule",
            "maint",
            "1050",
            "--sdate",
            &sdate,
            "--duration",
            "2.5",
            "--maintenance_category",
            "power",
        ],
    )
    .await;
    assert!(scheduled.stdout.contains("success"), "{}", scheduled.stdout);
    assert_eq!(
        window(
            &server,
            "SELECT machine_id, start_time, duration_hours, category, created_at
             FROM maintenances WHERE machine_id = 1050 AND cancelled_at IS NULL
             ORDER BY id DESC LIMIT 1"
        ),
        Some((1050, start, 2, "power".to_owned(), NOW))
    );
    // Without --duration and --maintenance_category the client sends null and
    // "not provided": one hour, category other.
    let later = format!("{}", start + 3600.0);
    run(
        &server,
        ALICE_KEY,
        &["schedule", "maint", "1050", "--sdate", &later],
    )
    .await;
    assert_eq!(
        window(
            &server,
            "SELECT machine_id, start_time, duration_hours, category, created_at
             FROM maintenances WHERE machine_id = 1050 ORDER BY id DESC LIMIT 1"
        ),
        Some((1050, start + 3600.0, 1, "other".to_owned(), NOW))
    );

    // cancel maint: alice's window on 1101 is cancelled, the marketplace's is kept.
    let cancelled = run(&server, ALICE_KEY, &["cancel", "maint", "1101"]).await;
    assert!(cancelled.stdout.contains("success"), "{}", cancelled.stdout);
    let cancelled_at = |id: i64| {
        server
            .state()
            .db
            .with_conn(move |c| {
                Ok(c.query_row(
                    "SELECT cancelled_at FROM maintenances WHERE id = ?1",
                    [id],
                    |r| r.get::<_, Option<f64>>(0),
                )?)
            })
            .unwrap()
    };
    assert_eq!(cancelled_at(MARKETPLACE_MACHINE_OWN_WINDOW), Some(NOW));
    assert_eq!(cancelled_at(MARKETPLACE_WINDOW), None);

    server.shutdown().await.unwrap();
}

fn scalar(server: &RunningServer, sql: String) -> i64 {
    server
        .state()
        .db
        .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, i64>(0))?))
        .unwrap()
}

/// The specification's operations the client has a command for that the other tests here
/// do not run: seed ops 1, 2 and 3 (`show maints`, `defrag machines`, `delete template`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_shows_maintenance_defragments_and_deletes_a_template() {
    let server = demo_server().await;

    // show maints --ids: the active windows of those machines, as the database has them.
    let windows = run(
        &server,
        ALICE_KEY,
        &["show", "maints", "--ids", "1001,1002"],
    )
    .await
    .json();
    let mut shown: Vec<i64> = windows
        .as_array()
        .expect("a bare array")
        .iter()
        .map(|w| w["id"].as_i64().unwrap())
        .collect();
    shown.sort_unstable();
    let active = text(
        &server,
        format!(
            "SELECT group_concat(id) FROM (SELECT id FROM maintenances
             WHERE machine_id IN (1001, 1002) AND cancelled_at IS NULL
               AND start_time + duration_hours * 3600 > {NOW} ORDER BY id)"
        ),
    );
    let shown_text = shown
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    assert!(!shown.is_empty());
    assert_eq!(Some(shown_text), active);

    // defrag machines: both packed, the slots moved; a second run finds nothing to do.
    let slots = |server: &RunningServer| {
        text(
            server,
            "SELECT group_concat(slot_start) FROM (SELECT slot_start FROM contracts
             WHERE machine_id IN (1001, 1002) ORDER BY id)"
                .to_owned(),
        )
    };
    let before = slots(&server);
    let first = run(&server, ALICE_KEY, &["defrag", "machines", "1001", "1002"]).await;
    assert!(
        first.stdout.contains("'defragmented': [1001, 1002]"),
        "{}",
        first.stdout
    );
    assert_ne!(slots(&server), before);
    let again = run(&server, ALICE_KEY, &["defrag", "machines", "1001", "1002"]).await;
    assert!(
        again.stdout.contains("'defragmented': []"),
        "{}",
        again.stdout
    );

    // delete template --template-id: its sentence, and the template soft-deleted.
    let deleted = run(
        &server,
        ALICE_KEY,
        &["delete", "template", "--template-id", "501"],
    )
    .await;
    assert_eq!(deleted.stdout.trim(), "Template 501 deleted");
    assert_eq!(
        scalar(
            &server,
            format!("SELECT COUNT(*) FROM templates WHERE id = 501 AND deleted_at = {NOW}")
        ),
        1
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_searches_and_manages_volumes_and_subaccounts() {
    let server = demo_server().await;

    // search templates: all visible, then the client's query language (a number it sends as
    // a string, a boolean literal).
    let all = run(&server, ALICE_KEY, &["search", "templates"])
        .await
        .json();
    let ids = |list: &Value| -> Vec<i64> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(
        ids(&all),
        vec![501, 502, 503, 504, TEMPLATE_PRIVATE, BOB_TEMPLATE]
    );
    let popular = run(
        &server,
        ALICE_KEY,
        &["search", "templates", "count_created > 100"],
    )
    .await
    .json();
    assert_eq!(ids(&popular), vec![TEMPLATE_IN_USE, BOB_TEMPLATE]);
    let private = run(
        &server,
        ALICE_KEY,
        &["search", "templates", "private == True"],
    )
    .await
    .json();
    assert_eq!(ids(&private), vec![TEMPLATE_MARKUP, TEMPLATE_PRIVATE]);

    // search volumes: the client's defaults (verified, not external, room left), by score.
    let offers = run(&server, GUSTAV_KEY, &["search", "volumes"])
        .await
        .json();
    let offers = offers.as_array().expect("a list of offers");
    let offer_ids: Vec<i64> = offers.iter().map(|o| o["id"].as_i64().unwrap()).collect();
    assert!(offer_ids.contains(&ASK_500_FREE), "{offer_ids:?}");
    assert!(!offer_ids.contains(&ASK_FULL) && !offer_ids.contains(&ASK_EXPIRED));
    let big = run(
        &server,
        GUSTAV_KEY,
        &["search", "volumes", "disk_space>400 storage_cost>0.1"],
    )
    .await
    .json();
    let big_ids: Vec<i64> = big
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    assert_eq!(big_ids, vec![ASK_500_FREE]);

    // create volume: 20 GB on ask 8 named `scratch`, a row in the database with its label.
    let before = scalar(
        &server,
        format!("SELECT COUNT(*) FROM volumes WHERE owner_id = {GUSTAV_ID}"),
    );
    run(
        &server,
        GUSTAV_KEY,
        &[
            "create",
            "volume",
            &ASK_500_FREE.to_string(),
            "-s",
            "20",
            "-n",
            "scratch",
        ],
    )
    .await;
    assert_eq!(
        scalar(
            &server,
            format!("SELECT COUNT(*) FROM volumes WHERE owner_id = {GUSTAV_ID}")
        ),
        before + 1
    );
    let created = scalar(&server, format!(
        "SELECT MAX(id) FROM volumes WHERE owner_id = {GUSTAV_ID} AND ask_id = {ASK_500_FREE} AND size = 20 AND label = 'scratch'"
    ));

    // show volumes: the new one is there (the client computes its age from start_date).
    let volumes = run(&server, GUSTAV_KEY, &["show", "volumes"]).await.json();
    let volumes = volumes.as_array().expect("a list of volumes");
    let shown = volumes
        .iter()
        .find(|v| v["id"] == created)
        .expect("the new volume");
    assert_eq!(shown["disk_space"], 20.0);
    assert_eq!(shown["machine_id"], 1004);
    assert!(shown["duration"].is_number());

    // delete volume: gone from the list, its space back on the ask.
    run(
        &server,
        GUSTAV_KEY,
        &["delete", "volume", &created.to_string()],
    )
    .await;
    assert_eq!(
        scalar(
            &server,
            format!("SELECT COUNT(*) FROM volumes WHERE id = {created} AND deleted_at IS NOT NULL")
        ),
        1
    );
    let after = run(&server, GUSTAV_KEY, &["show", "volumes"]).await.json();
    assert!(after.as_array().unwrap().iter().all(|v| v["id"] != created));

    // create subaccount: a user with alice as parent, listed with its key at once.
    let printed = run(
        &server,
        ALICE_KEY,
        &[
            "create",
            "subaccount",
            "--email",
            "cli-sub@example.org",
            "--username",
            "cli-sub",
            "--password",
            "correct horse",
            "--type",
            "host",
        ],
    )
    .await;
    assert!(
        printed.stdout.contains("cli-sub@example.org"),
        "{}",
        printed.stdout
    );
    assert_eq!(
        scalar(&server, format!(
            "SELECT COUNT(*) FROM users WHERE email = 'cli-sub@example.org' AND parent_id = {ALICE_ID} AND host_only = 1"
        )),
        1
    );
    let subaccounts = run(&server, ALICE_KEY, &["show", "subaccounts"])
        .await
        .stdout;
    assert!(subaccounts.contains("cli-sub@example.org"), "{subaccounts}");
    server.shutdown().await.unwrap();
}

fn text(server: &RunningServer, sql: String) -> Option<String> {
    server
        .state()
        .db
        .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, Option<String>>(0))?))
        .unwrap()
}

/// The client's team commands. Quirks seen in its source (`vastai/api/teams.py`,
/// `vastai/cli/commands/teams.py`): `update team-role` without `--permissions` fails in the
/// client itself (it opens the file `None`); `remove team-role NAME` puts the name in the
/// path unencoded (requests then percent-encodes spaces and non-ASCII, but a `/`, `?` or
/// `#` in a name would break the path); `create team-role`, `remove team-role` and `remove
/// member` print a Python dict, not JSON, even with `--raw`; `invite member` prints its own
/// sentence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_manages_team_roles_and_members() {
    let server = demo_server().await;
    let files = tempfile::tempdir().unwrap();
    let write = |name: &str, json: &str| {
        let path = files.path().join(name);
        std::fs::write(&path, json).unwrap();
        path.to_str().unwrap().to_owned()
    };

    // show team-roles: every role but the owner role, by id, as the database has them.
    let roles = run(&server, ALICE_KEY, &["show", "team-roles"])
        .await
        .json();
    let ids: Vec<i64> = roles
        .as_array()
        .expect("a bare array")
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![
            MANAGER_ROLE_ID,
            MEMBER_ROLE_ID,
            UNICODE_ROLE_ID,
            MARKUP_ROLE_ID
        ]
    );
    assert_eq!(roles[0]["identifier"], "team_manager");
    let in_db = scalar(
        &server,
        format!("SELECT COUNT(*) FROM team_roles WHERE team_id = {ALICE_TEAM_ID} AND is_owner = 0"),
    );
    assert_eq!(ids.len() as i64, in_db);

    // show team-role NAME (seed op 6): the role of that name, with its permissions.
    let manager = run(&server, ALICE_KEY, &["show", "team-role", "manager"])
        .await
        .json();
    assert_eq!(manager["id"], MANAGER_ROLE_ID);
    assert_eq!(manager["name"], "manager");
    assert!(manager["permissions"]["api"].is_object(), "{manager}");

    // show members (seed op 7): the team's active members by user id, with their roles.
    let members = run(&server, ALICE_KEY, &["show", "members"]).await.json();
    let member_ids: Vec<i64> = members
        .as_array()
        .expect("a bare array")
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    let active = scalar(
        &server,
        format!(
            "SELECT COUNT(*) FROM team_members WHERE team_id = {ALICE_TEAM_ID} AND removed_at IS NULL"
        ),
    );
    assert_eq!(member_ids.len() as i64, active);
    assert!(member_ids.windows(2).all(|w| w[0] < w[1]), "{member_ids:?}");
    let dave = &members[member_ids.iter().position(|&id| id == DAVE_ID).unwrap()];
    assert_eq!(dave["roles"], serde_json::json!(["manager"]));

    // create team-role: name and permissions file stored verbatim.
    let readers = write(
        "readers.json",
        r#"{"api": {"machine_read": {}, "team_read": {}}}"#,
    );
    let created = run(
        &server,
        ALICE_KEY,
        &[
            "create",
            "team-role",
            "--name",
            "Night shift",
            "--permissions",
            &readers,
        ],
    )
    .await;
    assert!(created.stdout.contains("success"), "{}", created.stdout);
    let role_id = scalar(
        &server,
        "SELECT id FROM team_roles WHERE team_id = 1 AND name = 'Night shift'".to_owned(),
    );
    let stored = text(
        &server,
        format!("SELECT permissions FROM team_roles WHERE id = {role_id}"),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&stored.unwrap()).unwrap(),
        serde_json::json!({"api": {"machine_read": {}, "team_read": {}}})
    );

    // update team-role ID: renamed, permissions replaced.
    let misc = write("misc.json", r#"{"api": {"misc": {}}}"#);
    let updated = run(
        &server,
        ALICE_KEY,
        &[
            "update",
            "team-role",
            &role_id.to_string(),
            "--name",
            "Night crew",
            "--permissions",
            &misc,
        ],
    )
    .await
    .json();
    assert_eq!(
        updated["msg"],
        "Successfully Updated Team Role For Night crew"
    );
    assert_eq!(
        text(
            &server,
            format!("SELECT name || ' ' || permissions FROM team_roles WHERE id = {role_id}")
        ),
        Some(r#"Night crew {"api":{"misc":{}}}"#.to_owned())
    );

    // remove team-role NAME: by a name with a space, and by a unicode one.
    for name in ["Night crew", UNICODE_ROLE] {
        let removed = run(&server, ALICE_KEY, &["remove", "team-role", name]).await;
        assert!(
            removed.stdout.contains("removed from team"),
            "{}",
            removed.stdout
        );
    }
    assert_eq!(
        scalar(
            &server,
            format!("SELECT COUNT(*) FROM team_roles WHERE id IN ({role_id}, {UNICODE_ROLE_ID})")
        ),
        0
    );

    // invite member: recorded with the role, the address as typed (the client sends
    // `+` and `@` percent-encoded in the query).
    let invited = run(
        &server,
        ALICE_KEY,
        &[
            "invite",
            "member",
            "--email",
            "a+b@x.com",
            "--role",
            MARKUP_ROLE,
        ],
    )
    .await;
    assert!(
        invited.stdout.contains("successfully invited a+b@x.com"),
        "{}",
        invited.stdout
    );
    assert_eq!(
        text(
            &server,
            "SELECT r.name || ' ' || i.invited_by || ' ' || (i.expires_at - i.created_at)
             FROM team_invitations i JOIN team_roles r ON r.id = i.role_id
             WHERE i.email = 'a+b@x.com'"
                .to_owned()
        ),
        Some(format!("{MARKUP_ROLE} {ALICE_ID} 14400.0"))
    );

    // remove member ID: carol's membership ends now and her team key is gone.
    let removed = run(
        &server,
        ALICE_KEY,
        &["remove", "member", &CAROL_ID.to_string()],
    )
    .await;
    assert!(
        removed.stdout.contains("User removed from the team."),
        "{}",
        removed.stdout
    );
    assert_eq!(
        scalar(
            &server,
            format!(
                "SELECT COUNT(*) FROM team_members WHERE user_id = {CAROL_ID} AND removed_at = {NOW}"
            )
        ),
        1
    );
    assert_eq!(
        scalar(
            &server,
            format!("SELECT COUNT(*) FROM api_keys WHERE user_id = {CAROL_ID}")
        ),
        0
    );
    server.shutdown().await.unwrap();
}

/// Unix seconds of a UTC date, as the client turns `MM/DD/YYYY` into them.
fn utc_midnight(year_month_day: &str) -> f64 {
    gpudeck_wire::maintenance::parse_rfc3339(&format!("{year_month_day}T00:00:00Z")).unwrap()
}

fn offer_row(server: &RunningServer, machine: i64) -> Option<String> {
    server
        .state()
        .db
        .with_conn(move |c| {
            use rusqlite::OptionalExtension;
            Ok(c.query_row(
                "SELECT price_gpu || ' ' || price_min_bid || ' ' || ifnull(end_date, '-') || ' '
                        || ifnull(withdrawn_at, '-')
                 FROM offers WHERE machine_id = ?1",
                [machine],
                |r| r.get(0),
            )
            .optional()?)
        })
        .unwrap()
}

/// `list machine`, `list machines`, `unlist machine` and the listing fields of `show
/// machines`, as a host types them (the demo's clock is 2027-01-15 08:00 UTC).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_lists_extends_and_unlists_machines() {
    let server = demo_server().await;

    // A first listing, at a price above the running contract's: nothing extended.
    let feb = utc_midnight("2027-02-01");
    let listed = run_printed(
        &server,
        ALICE_KEY,
        &["list", "machine", "1009", "-g", "0.45", "-e", "02/01/2027"],
    )
    .await;
    assert!(
        listed
            .stdout
            .contains("offers created/updated for machine 1009,  @ $0.45/gpu/hr"),
        "{}",
        listed.stdout
    );
    assert!(!listed.stdout.contains("extended"), "{}", listed.stdout);
    assert_eq!(
        offer_row(&server, 1009),
        Some(format!("0.45 0.45 {feb:.1} -"))
    );

    // Only the end date, later than contract 9006's: the prices stay, 9006 is extended.
    let march = utc_midnight("2027-03-01");
    let price_before = offer_row(&server, TIDY_MACHINE).unwrap();
    let extended = run_printed(
        &server,
        ALICE_KEY,
        &["list", "machine", "1003", "-e", "03/01/2027"],
    )
    .await;
    assert!(
        extended
            .stdout
            .contains("offers created/updated for machine 1003,  @ $def/gpu/hr"),
        "{}",
        extended.stdout
    );
    assert!(
        extended
            .stdout
            .contains("extended 1 client contracts to 03/01/2027"),
        "{}",
        extended.stdout
    );
    let price = price_before
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        offer_row(&server, TIDY_MACHINE),
        Some(format!("{price} {march:.1} -"))
    );
    let contract_end = |id: i64| {
        scalar(
            &server,
            format!("SELECT CAST(end_date AS INTEGER) FROM contracts WHERE id = {id}"),
        )
    };
    assert_eq!(contract_end(9006), march as i64);
    assert_eq!(contract_end(CHEAPER_CONTRACT), (NOW + 10.0 * DAY) as i64);

    // The minimum GPUs: without `-m` the client sends `min_chunk: 1` (the demo had 2);
    // `-m 4` sets 4 and keeps the rest.
    let min_chunk = || {
        scalar(
            &server,
            format!("SELECT min_chunk FROM offers WHERE machine_id = {TIDY_MACHINE}"),
        )
    };
    assert_eq!(min_chunk(), 1);
    let four = run_printed(&server, ALICE_KEY, &["list", "machine", "1003", "-m", "4"]).await;
    assert!(
        four.stdout
            .contains("offers created/updated for machine 1003,"),
        "{}",
        four.stdout
    );
    assert_eq!(min_chunk(), 4);
    assert_eq!(
        offer_row(&server, TIDY_MACHINE),
        Some(format!("{price} {march:.1} -"))
    );

    // Several machines, one request each.
    let april = utc_midnight("2027-04-01");
    let [dated, open_ended] = IDLE_LISTED_MACHINES;
    let (dated_id, open_id) = (dated.to_string(), open_ended.to_string());
    let many = run_as(
        &server,
        ALICE_KEY,
        Output::PrintedPerId,
        &["list", "machines", &dated_id, &open_id, "-e", "04/01/2027"],
    )
    .await;
    for id in IDLE_LISTED_MACHINES {
        assert!(
            many.stdout
                .contains(&format!("offers created/updated for machine {id},")),
            "{}",
            many.stdout
        );
        let row = offer_row(&server, id).unwrap();
        assert!(row.ends_with(&format!(" {april:.1} -")), "{id}: {row}");
    }

    // Unlisting: no new rentals, the running contracts go on.
    let unlisted = run_printed(&server, ALICE_KEY, &["unlist", "machine", "1003"]).await;
    assert!(
        unlisted
            .stdout
            .contains("all offers for machine 1003 removed, machine delisted."),
        "{}",
        unlisted.stdout
    );
    assert_eq!(
        offer_row(&server, TIDY_MACHINE),
        Some(format!("{price} - {NOW:.1}"))
    );

    // show machines --raw: the listing fields as the database has them.
    let machines = run(&server, ALICE_KEY, &["show", "machines"]).await.json();
    let by_id = |id: i64| {
        machines["machines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == id)
            .cloned()
            .unwrap()
    };
    let tidy = by_id(TIDY_MACHINE);
    assert_eq!(tidy["listed"], false);
    assert!(tidy["end_date"].is_null());
    assert_eq!(tidy["client_end_date"], march);
    assert_eq!(tidy["current_rentals_running"], 2);
    assert_eq!(tidy["listed_min_gpu_count"], 4);
    let first = by_id(1009);
    assert_eq!(
        (first["listed"].clone(), first["end_date"].clone()),
        (true.into(), feb.into())
    );
    assert_eq!(first["listed_gpu_cost"], 0.45);
    assert_eq!(first["listed_min_gpu_count"], 1);
    assert_eq!(by_id(RENTALS_WITHOUT_END)["client_end_date"], Value::Null);
    assert_eq!(by_id(open_ended)["end_date"], april);

    server.shutdown().await.unwrap();
}

/// `reports ID` (N24) and `show earnings` (N34): the client's GET body, its floats of days
/// and its `machid=null` read as the spec says, its answers as the database holds them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_reads_reports_and_earnings() {
    let server = demo_server().await;

    // reports: printed as `reports: ` and the JSON, newest first.
    let printed = run_printed(&server, ALICE_KEY, &["reports", "1058"]).await;
    let json = printed
        .stdout
        .strip_prefix("reports: ")
        .unwrap_or_else(|| panic!("{}", printed.stdout));
    let reports: Value = serde_json::from_str(json).unwrap();
    let problems: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["problem"].as_str().unwrap())
        .collect();
    assert_eq!(
        problems,
        [
            "Other",
            "Machine Has Port Issues",
            "Unable To Start Instance"
        ]
    );
    assert_eq!(reports[0]["message"], MARKUP);
    assert_eq!(reports[0]["created_at"], NOW - 2.0 * 3_600.0);

    // show earnings for one machine over five whole UTC days (2027-01-10 is day 20828).
    let earnings = run(
        &server,
        ALICE_KEY,
        &[
            "show",
            "earnings",
            "-s",
            "2027-01-10T00:00:00Z",
            "-e",
            "2027-01-14T00:00:00Z",
            "-m",
            "1001",
        ],
    )
    .await
    .json();
    assert_eq!(
        (earnings["sday"].as_i64(), earnings["eday"].as_i64()),
        (Some(20_828), Some(20_832))
    );
    let days: Vec<i64> = earnings["per_day"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["day"].as_i64().unwrap())
        .collect();
    assert_eq!(days, (20_828..=20_832).collect::<Vec<_>>());
    let stored = server
        .state()
        .db
        .with_conn(|c| {
            Ok(c.query_row(
                "SELECT SUM(gpu_earn) FROM machine_earnings
                 WHERE machine_id = 1001 AND day BETWEEN 20828 AND 20832",
                [],
                |r| r.get::<_, f64>(0),
            )?)
        })
        .unwrap();
    assert_eq!(earnings["per_machine"].as_array().unwrap().len(), 1);
    let answered = earnings["per_machine"][0]["gpu_earn"].as_f64().unwrap();
    assert!((answered - stored).abs() < 0.0001, "{answered} {stored}");

    // Without options: the client's own yesterday (its clock, not the server's), every
    // machine of alice's, printed as indented JSON.
    let printed = run_printed(&server, ALICE_KEY, &["show", "earnings"]).await;
    let all: Value = serde_json::from_str(&printed.stdout).unwrap();
    assert_eq!(all["sday"], all["eday"]);
    assert_eq!(all["per_day"].as_array().unwrap().len(), 1);
    assert_eq!(
        all["per_machine"].as_array().unwrap().len(),
        ALICE_MACHINES.count()
    );
}

/// `set min-bid ID --price P` (N35): the client's `{"client_id": "me", "price": P}` sets the
/// floor alone, and `show machine` reads it back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_client_sets_the_interruptible_floor() {
    let server = demo_server().await;
    let printed = run_printed(
        &server,
        ALICE_KEY,
        &["set", "min-bid", "1001", "--price", "0.25"],
    )
    .await;
    assert!(
        printed.stdout.contains("Per gpu min bid price changed"),
        "{}",
        printed.stdout
    );
    let floor = server
        .state()
        .db
        .with_conn(|c| {
            Ok(c.query_row(
                "SELECT price_min_bid FROM offers WHERE machine_id = 1001",
                [],
                |r| r.get::<_, f64>(0),
            )?)
        })
        .unwrap();
    assert_eq!(floor, 0.25);
    let shown = run(&server, ALICE_KEY, &["show", "machine", "1001"])
        .await
        .json();
    assert_eq!(shown[0]["min_bid_price"], 0.25);
}
