//! Parity with the official client: for every operation the console sends, the request its
//! own code builds ([`crate::api::requests`]) beside the request client 1.9.1 prepares for
//! the same intent (`vastai … --curl` prints it and exits before sending), compared by
//! method, path, query and JSON body. Every difference is in [`DIFFERENCES`] with its
//! reason; where the client has no such command, the console's request is checked against
//! the spec's form instead. An operation of the table the console sends without a case
//! here fails the test, so the next operation cannot skip it.
//!
//! `cargo xtask test` installs the client and passes its path in `GPUDECK_VASTAI`; run
//! alone: `GPUDECK_VASTAI=~/.cache/gpudeck/venv/bin/vastai cargo test -p gpudeck-logic
//! parity`.

use crate::api::requests::{self, ApiRequest};
use crate::domain::listing::fixture::priced_machine;
use crate::domain::offer_terms::ending_request;
use gpudeck_wire::operations::{self as op, ClientCommand, Operation};
use gpudeck_wire::{reads, CreateSubaccountRequest, MaintenanceCategory, VolumeSearchRequest};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A request as both sides are compared: the path from `/api/` on, the query decoded.
#[derive(Debug, Clone, PartialEq)]
struct Wire {
    method: String,
    path: String,
    query: BTreeMap<String, Value>,
    body: Option<Value>,
}

/// What one part of a request may differ in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Method,
    Path,
    Query(String),
    Body(String),
}

/// The differences between the console's request and the official client's, each with its
/// reason: (operation, part, reason).
const DIFFERENCES: &[(&str, &str, &str)] = &[
    (
        "seed op 3",
        "path",
        "the console sends the spec's seed op 3 path (the caller's id from N21); the client \
         deletes through the /template/ alias, which the reference server answers alike",
    ),
    (
        "N3",
        "body client_id",
        "the client adds `client_id: \"me\"`, which the service ignores (spec §1.2 rule 4)",
    ),
    (
        "N5",
        "body client_id",
        "the client adds `client_id: \"me\"`, which the service ignores (spec §1.2 rule 4)",
    ),
    (
        "N10",
        "body order",
        "the console's volumes page orders by reliability where the client orders by score",
    ),
    (
        "N10",
        "body allocated_storage",
        "the console prices offers for its page's default size, 10 GB, the client for 1 GB",
    ),
    // N22 (spec §1.3 rule 8): the console sends every term N1 gives at its current value,
    // where the client sends `null` (the backend's default) or its own 1.
    (
        "N22",
        "body min_chunk",
        "the console sends the machine's own listed_min_gpu_count, the client 1",
    ),
    (
        "N22",
        "body price_gpu",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body price_disk",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body price_inetu",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body price_inetd",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body price_min_bid",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body credit_discount_max",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body vol_size",
        "N1 gives no volume size, so the console leaves the key out; the client sends null",
    ),
    (
        "N22",
        "body vol_price",
        "the console keeps N1's current value, the client sends null",
    ),
    (
        "N22",
        "body duration",
        "the console sends an end date and leaves the rolling duration out; the client sends null",
    ),
    (
        "N24",
        "body machine_id",
        "the client sends a JSON body on this GET; a browser cannot (fetch refuses a GET body), \
         and the path names the machine (fleet-health §2)",
    ),
    (
        "N34",
        "path",
        "the console adds the route table's trailing slash the client leaves out: a redirect \
         would break the browser's CORS preflight (fleet-health §4)",
    ),
    (
        "N34",
        "query sday",
        "the console sends whole UTC days as integers (20454), the client floats (20454.0); \
         the service floors both alike (fleet-health §4)",
    ),
    (
        "N34",
        "query eday",
        "the console sends whole UTC days as integers (20484), the client floats (20484.0); \
         the service floors both alike (fleet-health §4)",
    ),
];

/// The operations of the table the console never sends, and why.
const NOT_SENT: &[(&str, &str)] = &[
    (
        "seed op 3 (alias)",
        "the console deletes templates by seed op 3's own path",
    ),
    (
        "N8",
        "the console shows the caller's library (N9), not a search",
    ),
];

/// The other side of a case: the official client's command, or the spec's form.
enum Other {
    /// `vastai ARGS --curl`; `{dir}` in an argument is a folder of the test's own.
    Client(&'static [&'static str]),
    /// The request the client asks first on a fresh HOME (N21).
    ClientFirstCall,
    /// No client command: the spec's request.
    Spec(Wire),
}

struct Case {
    console: ApiRequest,
    other: Other,
}

fn wire(method: &str, path: &str, query: &[(&str, Value)], body: Option<Value>) -> Wire {
    Wire {
        method: method.into(),
        path: path.into(),
        query: query
            .iter()
            .map(|(name, value)| (name.to_string(), value.clone()))
            .collect(),
        body,
    }
}

/// End offers at 2027-01-01 00:00 UTC, as `vastai list machine ID -e 01/01/2027` reads it.
const END_2027: f64 = 1_798_761_600.0;

/// Every operation the console sends, beside the client's request or the spec's form.
fn cases() -> Vec<Case> {
    [
        account_cases(),
        machine_cases(),
        template_and_volume_cases(),
        team_cases(),
        fleet_health_cases(),
        notification_cases(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn case(console: ApiRequest, other: Other) -> Case {
    Case { console, other }
}

/// The caller, the server, subaccounts (N21, seed op 5, N20).
fn account_cases() -> Vec<Case> {
    use Other::{Client, ClientFirstCall, Spec};
    // N20 as the subaccounts page fills it.
    let subaccount = new_subaccount();
    vec![
        case(requests::current_user(), ClientFirstCall),
        case(
            requests::server_info(),
            Spec(wire("GET", "/api/v0/gpudeck/server", &[], None)),
        ),
        case(requests::subaccounts(), Client(&["show", "subaccounts"])),
        case(
            requests::create_subaccount(&subaccount),
            Client(&[
                "create",
                "subaccount",
                "--email",
                "s@x.y",
                "--username",
                "s",
                "--password",
                "pw123456",
            ]),
        ),
    ]
}

/// Machines, their windows and offers (seed ops 1–2, N1–N7, N22, N23).
fn machine_cases() -> Vec<Case> {
    use Other::{Client, Spec};
    vec![
        case(
            requests::windows(&[1001, 1002]),
            Client(&["show", "maints", "--ids", "1001,1002"]),
        ),
        case(
            requests::defrag_offers(&[1001, 1002]),
            Client(&["defrag", "machines", "1001", "1002"]),
        ),
        case(requests::machines(), Client(&["show", "machines"])),
        case(
            requests::machine(1001),
            Client(&["show", "machine", "1001"]),
        ),
        case(
            requests::schedule_window(1001, 1.9e9, 2, &MaintenanceCategory::Power, None),
            Client(&[
                "schedule",
                "maint",
                "1001",
                "--sdate",
                "1900000000",
                "--duration",
                "2",
                "--maintenance_category",
                "power",
            ]),
        ),
        case(
            requests::schedule_windows(&[1001, 1002], 1.9e9, 2, &MaintenanceCategory::Power),
            Spec(wire(
                "POST",
                "/api/v0/machines/maintenances/batch",
                &[],
                Some(json!({
                    "machine_ids": [1001, 1002], "sdate": 1.9e9, "duration": 2.0,
                    "maintenance_category": "power",
                })),
            )),
        ),
        case(
            requests::cancel_machine_windows(1001),
            Client(&["cancel", "maint", "1001"]),
        ),
        case(
            requests::cancel_window(5000),
            Spec(wire(
                "DELETE",
                "/api/v0/machines/maintenances",
                &[],
                Some(json!({"maintenance_id": 5000})),
            )),
        ),
        case(
            requests::cancel_windows(&[5000, 5001]),
            Spec(wire(
                "DELETE",
                "/api/v0/machines/maintenances/batch",
                &[],
                Some(json!({"maintenance_ids": [5000, 5001]})),
            )),
        ),
        // "End offers at…" on one machine, through the offer actions' own request code.
        case(
            requests::list_machine(&ending_request(&priced_machine(1001), END_2027)),
            Client(&["list", "machine", "1001", "-e", "01/01/2027"]),
        ),
        case(
            requests::unlist_machine(1001),
            Client(&["unlist", "machine", "1001"]),
        ),
    ]
}

/// Renter reports, earnings and the interruptible floor (fleet-health N24, N34, N35). The
/// console does not send them yet; these are the requests its fetch layer builds for the
/// pages to come.
fn fleet_health_cases() -> Vec<Case> {
    use Other::Client;
    vec![
        case(
            requests::machine_reports(1001),
            Client(&["reports", "1001"]),
        ),
        // Dates with their zone, so the client's local time cannot move its days.
        case(
            requests::machine_earnings(20_454, 20_484, Some(1001)),
            Client(&[
                "show",
                "earnings",
                "-s",
                "2026-01-01T00:00:00Z",
                "-e",
                "2026-01-31T00:00:00Z",
                "-m",
                "1001",
            ]),
        ),
        case(
            requests::set_min_bid(1001, 0.25),
            Client(&["set", "min-bid", "1001", "--price", "0.25"]),
        ),
    ]
}

/// Templates and volumes (seed ops 3–4, N9–N12).
fn template_and_volume_cases() -> Vec<Case> {
    use Other::{Client, Spec};
    let page_search: VolumeSearchRequest =
        serde_json::from_str(reads::VOLUME_OFFERS.body.unwrap()).unwrap();
    vec![
        case(
            requests::delete_template(42, 5),
            Client(&["delete", "template", "--template-id", "5"]),
        ),
        case(
            requests::accept_volume_ask(7, 20, Some("myvol")),
            Client(&["create", "volume", "7", "-s", "20", "-n", "myvol"]),
        ),
        case(
            requests::template_library(42),
            Spec(wire("GET", "/api/v0/users/42/templates/", &[], None)),
        ),
        case(
            requests::search_volume_offers(&page_search),
            Client(&["search", "volumes"]),
        ),
        case(requests::volumes(), Client(&["show", "volumes"])),
        case(
            requests::delete_volume(4),
            Client(&["delete", "volume", "4"]),
        ),
    ]
}

/// Team roles and members (seed ops 6–7, N13–N19).
fn team_cases() -> Vec<Case> {
    use Other::{Client, Spec};
    let permissions = json!({"api": {"misc": {}}});
    vec![
        case(
            requests::team_role("ops"),
            Client(&["show", "team-role", "ops"]),
        ),
        case(requests::team_members(), Client(&["show", "members"])),
        case(requests::team_roles(), Client(&["show", "team-roles"])),
        case(
            requests::create_role("ops", permissions.clone()),
            Client(&[
                "create",
                "team-role",
                "--name",
                "ops",
                "--permissions",
                "{dir}/permissions.json",
            ]),
        ),
        case(
            requests::update_role(12, Some("ops2".into()), Some(permissions)),
            Client(&[
                "update",
                "team-role",
                "12",
                "--name",
                "ops2",
                "--permissions",
                "{dir}/permissions.json",
            ]),
        ),
        case(
            requests::remove_role("ops"),
            Client(&["remove", "team-role", "ops"]),
        ),
        case(
            requests::invite_member("a@b.c", "ops"),
            Client(&["invite", "member", "--email", "a@b.c", "--role", "ops"]),
        ),
        case(
            requests::invitations(),
            Spec(wire("GET", "/api/v0/team/invites/", &[], None)),
        ),
        case(
            requests::remove_member(4),
            Client(&["remove", "member", "4"]),
        ),
        case(
            requests::give_member_role(4, "ops"),
            Spec(wire(
                "POST",
                "/api/v0/team/members/4/roles/",
                &[],
                Some(json!({"role": "ops"})),
            )),
        ),
        case(
            requests::replace_member_role(4, 12),
            Spec(wire(
                "PUT",
                "/api/v0/team/members/4/roles/",
                &[],
                Some(json!({"member_id": 4, "role_id": 12})),
            )),
        ),
        case(
            requests::take_member_role(4, "ops"),
            Spec(wire(
                "DELETE",
                "/api/v0/team/members/4/roles/",
                &[],
                Some(json!({"role": "ops"})),
            )),
        ),
    ]
}

/// Notification types, preferences and webhooks (N25–N33): the client has no command for
/// them (spec fleet-health §3.1), so each is set beside the spec's own request.
fn notification_cases() -> Vec<Case> {
    use Other::Spec;
    let preferences: gpudeck_wire::notifications::PreferenceMap = serde_json::from_value(
        json!({"host": {"machine_offline": {"email": true, "webhooks": true}}}),
    )
    .unwrap();
    let keys = [
        "host:machine_offline".to_owned(),
        "host:machine_error".to_owned(),
    ];
    vec![
        case(
            requests::notification_types(),
            Spec(wire("GET", "/api/v0/notification-types/", &[], None)),
        ),
        case(
            requests::notification_preferences(42),
            Spec(wire(
                "GET",
                "/api/v0/users/42/notification-prefs/",
                &[],
                None,
            )),
        ),
        case(
            requests::change_notification_preferences(42, &preferences),
            Spec(wire(
                "PUT",
                "/api/v0/users/42/notification-prefs/",
                &[],
                Some(json!({"notification_preferences":
                    {"host": {"machine_offline": {"email": true, "webhooks": true}}}})),
            )),
        ),
        case(
            requests::webhooks(),
            Spec(wire("GET", "/api/v0/webhooks/", &[], None)),
        ),
        case(
            requests::create_webhook(
                "Ops notifications",
                "https://example.com/vast/webhooks",
                &keys,
            ),
            Spec(wire(
                "POST",
                "/api/v0/webhooks/",
                &[],
                Some(json!({"name": "Ops notifications",
                    "webhook_url": "https://example.com/vast/webhooks",
                    "event_types": ["host:machine_offline", "host:machine_error"]})),
            )),
        ),
        // The docs' Slack example: only the URL changes.
        case(
            requests::update_webhook(
                3,
                &requests::WebhookChanges {
                    webhook_url: Some("https://hooks.example.com/vast".into()),
                    ..Default::default()
                },
            ),
            Spec(wire(
                "PUT",
                "/api/v0/webhooks/3/",
                &[],
                Some(json!({"webhook_url": "https://hooks.example.com/vast"})),
            )),
        ),
        case(
            requests::delete_webhook(3),
            Spec(wire("DELETE", "/api/v0/webhooks/3/", &[], None)),
        ),
        case(
            requests::rotate_webhook_secret(3),
            Spec(wire("POST", "/api/v0/webhooks/3/rotate-secret/", &[], None)),
        ),
        case(
            requests::test_webhook(3),
            Spec(wire("POST", "/api/v0/webhooks/3/test/", &[], None)),
        ),
    ]
}

fn client_path() -> String {
    std::env::var("GPUDECK_VASTAI").unwrap_or_else(|_| {
        panic!(
            "GPUDECK_VASTAI is not set: it names the official client `vastai` 1.9.1. \
             `cargo xtask test` installs it and sets it; to run this test alone, \
             `cargo xtask setup` and then GPUDECK_VASTAI=~/.cache/gpudeck/venv/bin/vastai"
        )
    })
}

/// A folder of the test's own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("gpudeck-parity-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A server that answers every request with a signed-in user (`GET /users/current`, which
/// the client asks once on first use to choose its views), on a port of its own.
fn current_user_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = Vec::new();
            let mut buffer = [0; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buffer[..n]),
                }
            }
            let body = r#"{"id":42,"username":"alice","email":"alice@example.org","balance":0,"credit":0,"can_pay":true,"is_host":true,"host_only":false}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{address}")
}

/// Runs the client with HOME at `home` and `y` on stdin (writes ask `Continue? [y/n]`);
/// what it printed, after checking it exited 0.
fn vastai(home: &Path, url: &str, args: &[String]) -> String {
    let mut child = Command::new(client_path())
        .args(["--url", url, "--api-key", "parity-key"])
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("PAGER", "cat")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {} failed: {e}", client_path()));
    child.stdin.take().unwrap().write_all(b"y\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "vastai {args:?} exited {}:\nstdout: {stdout}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The words of a shell command line as `curlify` writes it: single-quoted words (a quote
/// inside as `'"'"'`), double-quoted ones, and `\` line continuations.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    w.push(c);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        c => w.push(c),
                    }
                }
            }
            '\\' if chars.peek() == Some(&'\n') => {
                chars.next();
            }
            c if c.is_whitespace() => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// A query value as compared: JSON where it reads as JSON (the client writes seed op 1's
/// list as Python does, `[1001, 1002]`, the console as compact JSON), else the text.
fn query_value(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(value @ (Value::Array(_) | Value::Object(_))) => value,
        _ => Value::String(text.to_owned()),
    }
}

/// The request a `curl` command line prints.
fn wire_of_curl(printed: &str) -> Wire {
    let start = printed
        .find("curl")
        .unwrap_or_else(|| panic!("no curl command in:\n{printed}"));
    let words = shell_words(&printed[start..]);
    let mut method = "GET".to_owned();
    let mut body = None;
    let mut url = None;
    let mut words = words.into_iter().skip(1);
    while let Some(word) = words.next() {
        match word.as_str() {
            "-X" => method = words.next().unwrap(),
            "-H" => {
                words.next();
            }
            "-d" => body = Some(serde_json::from_str(&words.next().unwrap()).unwrap()),
            _ => url = Some(word),
        }
    }
    let url = url.unwrap_or_else(|| panic!("no URL in:\n{printed}"));
    let from_api = &url[url.find("/api/").unwrap()..];
    let (path, query) = from_api.split_once('?').unwrap_or((from_api, ""));
    Wire {
        method,
        path: path.into(),
        query: form_pairs(query),
        body,
    }
}

/// `a=1&b=%5B1%5D` decoded by form rules.
fn form_pairs(query: &str) -> BTreeMap<String, Value> {
    let decode = |text: &str| {
        let text = text.replace('+', " ");
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' && i + 2 < bytes.len() {
                if let Ok(byte) = u8::from_str_radix(&text[i + 1..i + 3], 16) {
                    out.push(byte);
                    i += 3;
                    continue;
                }
            }
            out.push(bytes[i]);
            i += 1;
        }
        String::from_utf8(out).unwrap()
    };
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), query_value(&decode(value)))
        })
        .collect()
}

fn wire_of_console(request: &ApiRequest) -> Wire {
    Wire {
        method: request.method().into(),
        path: request.path.clone(),
        query: request
            .query
            .iter()
            .map(|(name, value)| (name.to_string(), query_value(value)))
            .collect(),
        body: request
            .body
            .as_deref()
            .map(|body| serde_json::from_str(body).unwrap()),
    }
}

/// Where `console` and `other` differ.
fn differences(console: &Wire, other: &Wire) -> Vec<Part> {
    let mut parts = Vec::new();
    if console.method != other.method {
        parts.push(Part::Method);
    }
    if console.path != other.path {
        parts.push(Part::Path);
    }
    let names = console.query.keys().chain(other.query.keys());
    for name in names.collect::<std::collections::BTreeSet<_>>() {
        if console.query.get(name) != other.query.get(name) {
            parts.push(Part::Query(name.clone()));
        }
    }
    let empty = serde_json::Map::new();
    let fields = |body: &Option<Value>| match body {
        Some(Value::Object(fields)) => fields.clone(),
        Some(other) => panic!("a body that is not an object: {other}"),
        None => empty.clone(),
    };
    let (mine, theirs) = (fields(&console.body), fields(&other.body));
    let keys: std::collections::BTreeSet<_> = mine.keys().chain(theirs.keys()).collect();
    for key in keys {
        if mine.get(key) != theirs.get(key) {
            parts.push(Part::Body(key.clone()));
        }
    }
    parts
}

fn part_name(part: &Part) -> String {
    match part {
        Part::Method => "method".into(),
        Part::Path => "path".into(),
        Part::Query(name) => format!("query {name}"),
        Part::Body(key) => format!("body {key}"),
    }
}

fn explained(operation: &str, part: &Part) -> bool {
    DIFFERENCES
        .iter()
        .any(|&(name, listed, _)| name == operation && listed == part_name(part))
}

/// The operations of the table the console's requests cover.
fn covered(cases: &[Case]) -> Vec<&'static str> {
    cases
        .iter()
        .map(|case| case.console.operation.name)
        .collect()
}

#[test]
fn every_operation_of_the_table_the_console_sends_has_a_case() {
    let cases = cases();
    let covered = covered(&cases);
    for operation in op::ALL {
        let not_sent = NOT_SENT.iter().any(|&(name, _)| name == operation.name);
        assert!(
            covered.contains(&operation.name) != not_sent,
            "{}: each operation is either compared here or listed as not sent, not both",
            operation.name
        );
    }
    // Every case names its own operation once.
    let mut names = covered.clone();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), covered.len(), "a case twice: {covered:?}");
}

/// The request `case` is compared with: the client's, or the spec's where it has no
/// command for the intent.
fn other_side(case: &Case, first_call: &Wire, home: &Path, server: &str, dir: &str) -> Wire {
    let operation: &Operation = case.console.operation;
    let has_command = matches!(operation.client, ClientCommand::Command(_));
    match &case.other {
        Other::ClientFirstCall => first_call.clone(),
        Other::Spec(wire) => {
            assert!(
                !has_command,
                "{}: the client has a command for it; compare with that",
                operation.name
            );
            wire.clone()
        }
        Other::Client(args) => {
            assert!(
                has_command,
                "{}: the table names no command",
                operation.name
            );
            let mut args: Vec<String> = args.iter().map(|arg| arg.replace("{dir}", dir)).collect();
            args.push("--curl".into());
            wire_of_curl(&vastai(home, server, &args))
        }
    }
}

#[test]
fn the_consoles_requests_are_the_official_clients() {
    let server = current_user_server();
    let home = Scratch::new("home");
    // The first call on a fresh HOME is `GET /users/current` (N21's parity); after it the
    // client keeps what it learnt, and --curl prints the command's own request.
    let first_call = wire_of_curl(&vastai(
        &home.0,
        &server,
        &["show".into(), "machines".into(), "--curl".into()],
    ));
    vastai(
        &home.0,
        &server,
        &["show".into(), "user".into(), "--raw".into()],
    );
    let files = Scratch::new("files");
    std::fs::write(
        files.0.join("permissions.json"),
        json!({"api": {"misc": {}}}).to_string(),
    )
    .unwrap();
    let dir = files.0.to_str().unwrap();

    // The client's side of each case; a few clients at a time, as each starts Python.
    let cases = cases();
    let others: Vec<Wire> = cases
        .chunks(4)
        .flat_map(|chunk| {
            std::thread::scope(|scope| {
                let running: Vec<_> = chunk
                    .iter()
                    .map(|case| {
                        scope.spawn(|| other_side(case, &first_call, &home.0, &server, dir))
                    })
                    .collect();
                running
                    .into_iter()
                    .map(|side| side.join().unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut unexplained = Vec::new();
    for (case, other) in cases.iter().zip(&others) {
        let name = case.console.operation.name;
        let console = wire_of_console(&case.console);
        for part in differences(&console, other) {
            if !explained(name, &part) {
                unexplained.push(format!(
                    "{name} {}: console {console:?}\n    other   {other:?}",
                    part_name(&part)
                ));
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "differences from the official client (or the spec) not in DIFFERENCES:\n{}",
        unexplained.join("\n")
    );
}

/// N22 as spec §1.3 rule 8 wants it: every term at a value, never `null`, and the minimum
/// GPUs a number.
#[test]
fn the_consoles_n22_sends_no_null_and_a_numeric_min_chunk() {
    let request = requests::list_machine(&ending_request(&priced_machine(1001), END_2027));
    let body = wire_of_console(&request).body.unwrap();
    let nulls: Vec<&String> = body
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, value)| value.is_null())
        .map(|(key, _)| key)
        .collect();
    assert!(nulls.is_empty(), "N22 sends null for {nulls:?}: {body}");
    assert!(body["min_chunk"].is_u64(), "{body}");
}

/// N20 as the subaccounts page builds it.
fn new_subaccount() -> CreateSubaccountRequest {
    CreateSubaccountRequest::of_caller("s@x.y".into(), "s".into(), "pw123456".into(), false)
}

/// N20 as client 1.9.1 sends it: `parent_id: "me"` makes `POST /users/` a subaccount.
#[test]
fn the_consoles_n20_names_the_caller_as_parent() {
    let body = wire_of_console(&requests::create_subaccount(&new_subaccount()))
        .body
        .unwrap();
    assert_eq!(body["parent_id"], "me", "{body}");
}

#[test]
fn curl_lines_read_as_requests() {
    let printed = "\ncurl \\\n  -X DELETE \\\n  -H 'Authorization: Bearer k' \\\n  -H \
                   'Content-Type: application/json' \\\n  -d '{\"it'\"'\"'s\": [1, 2]}' \\\n  \
                   'http://127.0.0.1:1/api/v0/volumes/?id=4&machine_ids=%5B1%2C+2%5D'\n";
    assert_eq!(
        wire_of_curl(printed),
        wire(
            "DELETE",
            "/api/v0/volumes/",
            &[("id", json!("4")), ("machine_ids", json!([1, 2]))],
            Some(json!({"it's": [1, 2]})),
        )
    );
}
