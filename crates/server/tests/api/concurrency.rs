//! Many requests at once against one resource, on real sockets and a file database (the
//! in-memory database serialises requests on one connection, so it would prove less):
//! accepts that overdraw an ask, accepts and volume deletions on one ask, deletes of one
//! template, defrags of one machine, schedules of one window, cancels of one window,
//! creations of one subaccount, edits of one team role, invitations against the hourly
//! quota, and member removals racing role changes.

use crate::common;

use common::NOW;
use gpudeck_server::defrag::{self, Contract};
use gpudeck_server::demo::*;
use gpudeck_server::{start, Clock, Config, DbLocation, RunningServer};
use gpudeck_wire::paths;
use serde_json::{json, Value};

const ACCEPTS: usize = 50;
const DELETES: usize = 20;
const DEFRAGS: usize = 20;

async fn file_server(dir: &tempfile::TempDir) -> RunningServer {
    common::init_logging();
    start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: DbLocation::File(dir.path().join("concurrency.sqlite")),
        demo: true,
        clock: Clock::fixed(NOW),
        ..Config::default()
    })
    .await
    .unwrap()
}

/// Sends all `requests` (method, path, body) at once with alice's key; answers in order.
async fn all_at_once(
    server: &RunningServer,
    requests: Vec<(reqwest::Method, String, Value)>,
) -> Vec<(u16, Value)> {
    let client = reqwest::Client::new();
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(requests.len()));
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|(method, path, body)| {
            let request = client
                .request(method, format!("{}{path}", server.url()))
                .bearer_auth(ALICE_KEY)
                .header("content-type", "application/json")
                .body(body.to_string());
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                let response = request.send().await.unwrap();
                let status = response.status().as_u16();
                let text = response.text().await.unwrap();
                let body = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("not JSON ({e}): {status} {text:?}"));
                (status, body)
            })
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.unwrap());
    }
    answers
}

fn scalar(server: &RunningServer, sql: &str) -> i64 {
    let sql = sql.to_owned();
    server
        .state()
        .db
        .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, i64>(0))?))
        .unwrap()
}

fn text(server: &RunningServer, sql: &str) -> String {
    let sql = sql.to_owned();
    server
        .state()
        .db
        .with_conn(move |c| Ok(c.query_row(&sql, [], |r| r.get::<_, String>(0))?))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_accepts_never_overdraw_an_ask() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    // Ask 7: 100 GB, 70 used, 30 left. Fifty accepts of 3-7 GB: only some fit.
    let rows_before = scalar(&server, "SELECT COUNT(*) FROM volumes WHERE ask_id = 7");
    let sizes: Vec<i64> = (0..ACCEPTS as i64).map(|i| 3 + i % 5).collect();
    let requests = sizes
        .iter()
        .map(|size| {
            (
                reqwest::Method::PUT,
                format!("{}/", paths::VOLUMES),
                json!({"id": ASK_30_LEFT, "size": size}),
            )
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    let mut granted = 0i64;
    let mut names = std::collections::HashSet::new();
    let mut refused_sizes = Vec::new();
    for (size, (status, body)) in sizes.iter().zip(&answers) {
        match status {
            200 => {
                granted += size;
                assert_eq!(body["success"], true);
                assert!(names.insert(body["volume_name"].as_str().unwrap().to_owned()));
            }
            409 => {
                assert_eq!(body["error"], "insufficient_capacity", "{body}");
                assert!(body["msg"].as_str().unwrap().contains("GB left"), "{body}");
                refused_sizes.push(*size);
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    let used = scalar(&server, "SELECT SUM(size) FROM volumes WHERE ask_id = 7");
    let rows = scalar(&server, "SELECT COUNT(*) FROM volumes WHERE ask_id = 7");
    assert!(granted <= 30, "granted {granted} GB of 30");
    assert_eq!(used, 70 + granted, "the database agrees with the answers");
    assert_eq!(
        rows - rows_before,
        names.len() as i64,
        "one row per success"
    );
    // What is left is less than every refused size: no refusal was spurious.
    let left = 100 - used;
    assert!(
        refused_sizes.iter().all(|size| *size > left),
        "{left} GB left, yet one of {refused_sizes:?} was refused"
    );
    println!(
        "{ACCEPTS} parallel accepts: {} granted ({granted} GB of 30), {} refused with 409",
        names.len(),
        refused_sizes.len()
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_deletes_of_one_template_succeed_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let requests = (0..DELETES)
        .map(|i| {
            // Both paths, alternately.
            let path = if i % 2 == 0 {
                format!("{}/", paths::TEMPLATE_ALIAS)
            } else {
                paths::user_templates(ALICE_ID)
            };
            (
                reqwest::Method::DELETE,
                path,
                json!({ "template_id": TEMPLATE_FREE }),
            )
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    let successes = answers.iter().filter(|(s, _)| *s == 200).count();
    for (status, body) in &answers {
        match status {
            200 => assert_eq!(body["msg"], "Template 501 deleted"),
            404 => assert_eq!(
                (&body["error"], &body["msg"]),
                (&json!("not_found"), &json!("template 501 not found"))
            ),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(successes, 1, "{answers:?}");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM templates WHERE id = 501 AND deleted_at IS NOT NULL"
        ),
        1
    );
    println!(
        "{DELETES} parallel deletes of one template: 1 × 200, {} × 404",
        DELETES - 1
    );
    server.shutdown().await.unwrap();
}

fn layout(server: &RunningServer, machine: i64) -> (u32, Vec<Contract>) {
    server
        .state()
        .db
        .with_conn(move |c| {
            let gpus: u32 = c.query_row(
                "SELECT num_gpus FROM machines WHERE id = ?1",
                [machine],
                |r| r.get(0),
            )?;
            let contracts = c
                .prepare(
                    "SELECT id, slot_start, gpu_count FROM contracts WHERE machine_id = ?1 ORDER BY id",
                )?
                .query_map([machine], |r| {
                    Ok(Contract {
                        id: r.get(0)?,
                        slot_start: r.get(1)?,
                        gpu_count: r.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok((gpus, contracts))
        })
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_defrags_of_one_machine_agree() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let machines = [FRAGMENTED_MACHINE, FRAGMENTED_MACHINE_2];
    let before: Vec<_> = machines.iter().map(|m| layout(&server, *m)).collect();
    let requests = (0..DEFRAGS)
        .map(|_| {
            (
                reqwest::Method::PUT,
                paths::DEFRAG_OFFERS.to_owned(),
                json!({ "machine_ids": machines }),
            )
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    let mut changed = 0;
    for (status, body) in &answers {
        assert_eq!(*status, 200, "{body}");
        assert_eq!(body["success"], true);
        match body["defragmented"].as_array().unwrap().as_slice() {
            [] => assert_eq!(body["n0"], 0, "{body}"),
            [a, b] if *a == json!(machines[0]) && *b == json!(machines[1]) => {
                assert_eq!(
                    (&body["n0"], &body["n1"], &body["n2"]),
                    (&json!(5), &json!(7), &json!(4))
                );
                changed += 1;
            }
            other => panic!("unexpected defragmented {other:?}"),
        }
    }
    assert_eq!(changed, 1, "exactly one request moved the contracts");
    for ((gpus, old), machine) in before.iter().zip(machines) {
        let (_, new) = layout(&server, machine);
        assert!(defrag::is_valid(*gpus, &new), "{machine}: {new:?}");
        let mut canonical = defrag::canonical(old);
        canonical.sort_by_key(|c| c.id);
        assert_eq!(new, canonical, "{machine} is in the canonical layout");
        let free =
            |cs: &[Contract]| -> u32 { defrag::offers(*gpus, cs).iter().map(|b| b.size).sum() };
        assert_eq!(free(&new), free(old), "free slots are conserved");
        let largest = |cs: &[Contract]| defrag::offers(*gpus, cs).iter().map(|b| b.size).max();
        assert!(largest(&new) >= largest(old));
        assert!(
            !defrag::defragment(*gpus, &new).changed,
            "a further run changes nothing"
        );
    }
    println!("{DEFRAGS} parallel defrags of machines 1001 and 1002: 1 moved them, {} found nothing to do", DEFRAGS - 1);
    server.shutdown().await.unwrap();
}

const SCHEDULES: usize = 20;
const CANCELS: usize = 20;

/// The same window asked for 20 times at once, half one machine at a time (N3), half as
/// batches (N4): windows may overlap, so exactly 20 are created, all alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_schedules_create_exactly_what_was_asked() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let start = NOW + 2.0 * 86_400.0;
    let before = scalar(
        &server,
        "SELECT COUNT(*) FROM maintenances WHERE machine_id = 1050",
    );
    let requests = (0..SCHEDULES)
        .map(|i| {
            if i % 2 == 0 {
                (
                    reqwest::Method::PUT,
                    paths::machine_dnotify(1050),
                    json!({"sdate": start, "duration": 3, "maintenance_category": "disk"}),
                )
            } else {
                (
                    reqwest::Method::POST,
                    paths::MAINTENANCES_BATCH.to_owned(),
                    json!({"machine_ids": [1050], "sdate": start, "duration": 3,
                           "maintenance_category": "disk"}),
                )
            }
        })
        .collect();
    for (status, body) in all_at_once(&server, requests).await {
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["success"], true, "{body}");
    }
    let after = scalar(
        &server,
        "SELECT COUNT(*) FROM maintenances WHERE machine_id = 1050",
    );
    assert_eq!(after - before, SCHEDULES as i64);
    let alike = server
        .state()
        .db
        .with_conn(move |c| {
            Ok(c.query_row(
                "SELECT COUNT(*) FROM maintenances WHERE machine_id = 1050 AND start_time = ?1
                   AND duration_hours = 3 AND category = 'disk' AND created_at = ?2
                   AND cancelled_at IS NULL AND scheduled_by_marketplace = 0",
                rusqlite::params![start, NOW],
                |r| r.get::<_, i64>(0),
            )?)
        })
        .unwrap();
    assert_eq!(alike, SCHEDULES as i64);
    server.shutdown().await.unwrap();
}

/// One window cancelled 20 times at once, one by one (N6) and in batches (N7): exactly
/// one request cancels it; the others are told it is already cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_cancels_of_one_window_give_exactly_one_success() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let window = MARKETPLACE_MACHINE_OWN_WINDOW;
    let requests = (0..CANCELS)
        .map(|i| {
            if i % 4 == 3 {
                (
                    reqwest::Method::DELETE,
                    paths::MAINTENANCES_BATCH.to_owned(),
                    json!({ "maintenance_ids": [window] }),
                )
            } else {
                (
                    reqwest::Method::DELETE,
                    paths::MAINTENANCES.to_owned(),
                    json!({ "maintenance_id": window }),
                )
            }
        })
        .collect();
    let mut successes = 0;
    for (status, body) in all_at_once(&server, requests).await {
        match status {
            200 => successes += 1,
            409 => {
                assert_eq!(body["error"], "not_cancellable", "{body}");
                assert_eq!(body["msg"], "Maintenance not found or already cancelled");
            }
            400 => {
                assert_eq!(body["error"], "nothing_cancelled", "{body}");
                assert_eq!(
                    body["results"][0]["msg"],
                    "Maintenance not found or already cancelled"
                );
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(successes, 1);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM maintenances WHERE id = 5001 AND cancelled_at = 1800000000"
        ),
        1
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_accepts_and_deletes_on_one_ask_never_exceed_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    // Ask 10: 200 GB; alice's volumes hold 30 + 10. Twenty accepts of 9 GB (180 GB) race
    // ten deletions of the 10 GB volume, whose space returns to the ask.
    let mut requests: Vec<_> = (0..20)
        .map(|_| {
            (
                reqwest::Method::PUT,
                paths::VOLUMES.to_owned(),
                json!({"id": ASK_ALICE_VOLUMES, "size": 9}),
            )
        })
        .collect();
    for i in 0..10 {
        requests.insert(
            i * 3,
            (
                reqwest::Method::DELETE,
                format!("{}/?id={ALICE_VOLUME_FREE}", paths::VOLUMES),
                json!({}),
            ),
        );
    }
    let answers = all_at_once(&server, requests).await;
    let (mut granted, mut deleted, mut refused) = (0i64, 0, 0);
    for (status, body) in &answers {
        match (status, body.get("volume_name")) {
            (200, Some(_)) => granted += 9,
            (200, None) => deleted += 1,
            (409, _) => {
                assert_eq!(body["error"], "insufficient_capacity", "{body}");
                refused += 1;
            }
            (404, _) => assert_eq!(body["error"], "no_such_volume", "{body}"),
            (other, _) => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(deleted, 1, "{answers:?}");
    let used = scalar(
        &server,
        "SELECT SUM(size) FROM volumes WHERE ask_id = 10 AND deleted_at IS NULL",
    );
    assert!(used <= 200, "{used} GB used of 200");
    assert_eq!(used, 30 + granted, "the database agrees with the answers");
    // Refusals happen only once fewer than 9 GB are left.
    if refused > 0 {
        assert!(
            200 - used < 9,
            "{} GB left, yet {refused} refused",
            200 - used
        );
    }
    println!(
        "20 accepts racing 10 deletes on one ask: {} granted, {refused} refused, 1 deletion",
        granted / 9
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_creations_of_one_subaccount_give_exactly_one() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let requests = (0..12)
        .map(|i| {
            (
                reqwest::Method::POST,
                format!("{}/", paths::USERS),
                // The same address in different cases, under different usernames.
                json!({"email": if i % 2 == 0 { "twin@example.org" } else { "TWIN@example.org" },
                       "username": format!("twin-{i}"), "password": "correct horse",
                       "host_only": false, "parent_id": "me"}),
            )
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    let created: Vec<_> = answers.iter().filter(|(s, _)| *s == 200).collect();
    for (status, body) in &answers {
        match status {
            200 => assert_eq!(body["balance"], 0.0),
            409 => assert_eq!(body["error"], "user_exists", "{body}"),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(created.len(), 1, "{answers:?}");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM users WHERE lower(email) = 'twin@example.org'"
        ),
        1
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM api_keys k JOIN users u ON u.id = k.user_id
             WHERE lower(u.email) = 'twin@example.org'"
        ),
        1
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_edits_of_one_role_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let uri = paths::team_role_by_id(UNICODE_ROLE_ID);
    // A rename and a change of permissions at once: each reads the row the other wrote.
    for round in 0..8 {
        let name = format!("night-{round}");
        let permissions = if round % 2 == 0 {
            json!({"api": {"misc": {}}})
        } else {
            json!({"api": {"machine_read": {}}})
        };
        let answers = all_at_once(
            &server,
            vec![
                (reqwest::Method::PUT, uri.clone(), json!({"name": name})),
                (
                    reqwest::Method::PUT,
                    uri.clone(),
                    json!({"permissions": permissions}),
                ),
            ],
        )
        .await;
        for (status, body) in &answers {
            assert_eq!(*status, 200, "{body}");
        }
        let stored = text(
            &server,
            &format!(
                "SELECT name || ' ' || permissions FROM team_roles WHERE id = {UNICODE_ROLE_ID}"
            ),
        );
        assert_eq!(stored, format!("{name} {permissions}"), "round {round}");
    }
    // Ten renames of four roles to one new name at once: one role gets it (a repeat for
    // that role then changes nothing), the others are refused.
    let targets: Vec<i64> = [
        MANAGER_ROLE_ID,
        MEMBER_ROLE_ID,
        UNICODE_ROLE_ID,
        MARKUP_ROLE_ID,
    ]
    .into_iter()
    .cycle()
    .take(10)
    .collect();
    let requests = targets
        .iter()
        .map(|id| {
            (
                reqwest::Method::PUT,
                paths::team_role_by_id(*id),
                json!({"name": "the one"}),
            )
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    let mut winners = std::collections::HashSet::new();
    for (id, (status, body)) in targets.iter().zip(&answers) {
        match status {
            200 => {
                winners.insert(*id);
            }
            409 => assert_eq!(body["error"], "duplicate_name", "{body}"),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(winners.len(), 1, "{answers:?}");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM team_roles WHERE name = 'the one'"
        ),
        1
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_invitations_stop_at_the_hourly_quota() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let before = scalar(&server, "SELECT COUNT(*) FROM team_invitations");
    let requests = (0..25)
        .map(|i| {
            (
                reqwest::Method::POST,
                format!(
                    "{}/?email=guest{i}%40example.org&role=member",
                    paths::TEAM_INVITE
                ),
                json!({}),
            )
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    let mut sent = 0;
    for (status, body) in &answers {
        match status {
            200 => sent += 1,
            429 => assert_eq!(
                body["msg"], "at most 20 invitations per hour; retry after 3600 s",
                "{body}"
            ),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(sent, 20, "{answers:?}");
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM team_invitations") - before,
        20
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn member_removals_racing_role_changes_stay_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    // carol and dave each hold one role. Each is removed while their role is replaced;
    // dave's new role (held by nobody yet) is deleted at the same time.
    let answers = all_at_once(
        &server,
        vec![
            (
                reqwest::Method::DELETE,
                paths::team_member(CAROL_ID),
                json!({}),
            ),
            (
                reqwest::Method::PUT,
                paths::team_member_roles(CAROL_ID),
                json!({"role_id": MARKUP_ROLE_ID}),
            ),
            (
                reqwest::Method::DELETE,
                paths::team_member(DAVE_ID),
                json!({}),
            ),
            (
                reqwest::Method::PUT,
                paths::team_member_roles(DAVE_ID),
                json!({"role_id": UNICODE_ROLE_ID}),
            ),
            (
                reqwest::Method::DELETE,
                paths::team_role_removal(UNICODE_ROLE),
                json!({}),
            ),
        ],
    )
    .await;
    let status = |i: usize| answers[i].0;
    // Removals always succeed; a role change succeeds only if it came first.
    assert_eq!((status(0), status(2)), (200, 200), "{answers:?}");
    let role_of = |user: i64| {
        scalar(
            &server,
            &format!(
                "SELECT mr.role_id FROM team_member_roles mr JOIN team_members m ON m.id = mr.member_id
                 WHERE m.user_id = {user}"
            ),
        )
    };
    match status(1) {
        200 => assert_eq!(role_of(CAROL_ID), MARKUP_ROLE_ID),
        404 => {
            assert_eq!(answers[1].1["msg"], "User is not a member of this team");
            assert_eq!(role_of(CAROL_ID), MEMBER_ROLE_ID);
        }
        other => panic!("unexpected {other}: {answers:?}"),
    }
    // dave's change and the role's deletion: whichever came first decides the other.
    let unicode_left = scalar(
        &server,
        &format!("SELECT COUNT(*) FROM team_roles WHERE id = {UNICODE_ROLE_ID}"),
    );
    match (status(3), status(4)) {
        // The change came first and dave was still a member: the role was held when the
        // deletion ran, unless dave's removal came between them.
        (200, 200) | (404, 200) => assert_eq!(unicode_left, 0),
        (200, 409) => {
            assert_eq!(unicode_left, 1);
            assert_eq!(answers[4].1["error"], "in_use");
        }
        other => panic!("unexpected {other:?}: {answers:?}"),
    }
    if status(3) == 200 && status(4) == 200 {
        // dave held it only as a removed member: the assignment went with the role.
        assert_eq!(
            scalar(
                &server,
                &format!(
                    "SELECT COUNT(*) FROM team_member_roles WHERE role_id = {UNICODE_ROLE_ID}"
                )
            ),
            0
        );
    }
    if status(3) == 404 {
        let msg = answers[3].1["msg"].as_str().unwrap();
        assert!(
            msg == "User is not a member of this team" || msg == "Role not found",
            "{msg}"
        );
    }
    // Removed members hold no keys for the team; everything else is intact.
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM api_keys WHERE user_id IN ({CAROL_ID}, {DAVE_ID}) AND team_id IS NOT NULL")
        ),
        0
    );
    assert_eq!(text(&server, "PRAGMA integrity_check"), "ok");
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM pragma_foreign_key_check"),
        0
    );
    server.shutdown().await.unwrap();
}

/// An N22 request with `body`, for [`all_at_once`].
fn listing(body: Value) -> (reqwest::Method, String, Value) {
    (reqwest::Method::PUT, paths::machine_create_asks(), body)
}

/// 40 N22 at once on one machine, all moving its offer end date to the same later date:
/// each contract is extended exactly once, and the machine keeps exactly one offer.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_listings_extend_each_contract_once_and_leave_one_offer() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let later = NOW + 40.0 * 86_400.0;
    let requests = vec![listing(json!({"machine": TIDY_MACHINE, "end_date": later})); 40];
    let answers = all_at_once(&server, requests).await;
    assert!(
        answers.iter().all(|(status, _)| *status == 200),
        "{answers:?}"
    );
    let extended: i64 = answers
        .iter()
        .map(|(_, body)| body["extended"].as_i64().unwrap())
        .sum();
    // 9006 locked the offer's price; 9007 a lower one, so it is not extended.
    assert_eq!(extended, 1);
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM offers WHERE machine_id = 1003"
        ),
        1
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM contracts WHERE id = 9006 AND end_date = {later}")
        ),
        1
    );
    // A first listing raced 40 times: one creates the offer, the others update it.
    let requests = vec![listing(json!({"machine": 1009, "price_gpu": 0.3})); 40];
    let answers = all_at_once(&server, requests).await;
    let created = answers
        .iter()
        .filter(|(status, body)| *status == 200 && body["msg"] == "offer created")
        .count();
    assert_eq!(created, 1, "{answers:?}");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM offers WHERE machine_id = 1009"
        ),
        1
    );
    server.shutdown().await.unwrap();
}

/// N22 and N23 racing on one machine leave it consistent: one offer, either listed with
/// the new end date or withdrawn with none, and the contract extended at most once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn listing_and_unlisting_racing_leave_a_consistent_machine() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let later = NOW + 45.0 * 86_400.0;
    let requests = (0..40)
        .map(|k| {
            if k % 2 == 0 {
                listing(json!({"machine": TIDY_MACHINE, "end_date": later}))
            } else {
                (
                    reqwest::Method::DELETE,
                    paths::machine_asks(TIDY_MACHINE),
                    json!({}),
                )
            }
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    assert!(
        answers.iter().all(|(status, _)| *status == 200),
        "{answers:?}"
    );
    let extended: i64 = answers
        .iter()
        .filter_map(|(_, body)| body["extended"].as_i64())
        .sum();
    assert_eq!(extended, 1, "9006 is extended by exactly one listing");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM offers WHERE machine_id = 1003"
        ),
        1
    );
    let offer = text(
        &server,
        "SELECT ifnull(withdrawn_at, '-') || ' ' || ifnull(end_date, '-') || ' '
                || ifnull(duration, '-')
         FROM offers WHERE machine_id = 1003",
    );
    let listed = format!("- {later:.1} -");
    let withdrawn = format!("{NOW:.1} - -");
    assert!(offer == listed || offer == withdrawn, "{offer}");
    assert_eq!(
        text(
            &server,
            "SELECT group_concat(id || ':' || end_date) FROM contracts WHERE machine_id = 1003"
        ),
        format!("9006:{later:.1},9007:{:.1}", NOW + 10.0 * 86_400.0)
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_webhook_creations_stop_at_four_and_take_a_url_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    // alice has two webhooks: of twelve new URLs, two fit under the limit of 4.
    let create = |url: String| {
        (
            reqwest::Method::POST,
            format!("{}/", paths::WEBHOOKS),
            json!({"webhook_url": url, "event_types": ["host:machine_offline"]}),
        )
    };
    let requests = (0..12)
        .map(|i| create(format!("https://hooks.example.com/race/{i}")))
        .collect();
    let answers = all_at_once(&server, requests).await;
    let mut created = 0;
    for (status, body) in &answers {
        match status {
            200 => created += 1,
            409 => assert_eq!(body["error"], "limit_reached", "{body}"),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(created, 2, "{answers:?}");
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM webhooks WHERE user_id = 1"),
        4
    );
    // One URL sent twelve times at once, after one webhook is deleted: one is created.
    let first_new = scalar(&server, "SELECT MAX(id) FROM webhooks WHERE user_id = 1");
    let deleted = all_at_once(
        &server,
        vec![(
            reqwest::Method::DELETE,
            paths::webhook(first_new),
            json!({}),
        )],
    )
    .await;
    assert_eq!(deleted[0].0, 200);
    let requests = (0..12)
        .map(|_| create("https://hooks.example.com/twin".to_owned()))
        .collect();
    let answers = all_at_once(&server, requests).await;
    let statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{answers:?}"
    );
    for (status, body) in &answers {
        if *status != 200 {
            assert_eq!(*status, 409, "{body}");
            assert!(
                ["duplicate_url", "limit_reached"].contains(&body["error"].as_str().unwrap()),
                "{body}"
            );
        }
    }
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM webhooks WHERE webhook_url = 'https://hooks.example.com/twin'"
        ),
        1
    );
    server.shutdown().await.unwrap();
}

/// 20 N35 with distinct floors racing 20 N22 on one machine (fleet-health N35): all
/// answered 200, one offer whose floor is one of those sent and whose end date is N22's,
/// the contract extended once, and no contract's locked price touched.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn floors_racing_listings_leave_one_offer_with_a_floor_sent() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let later = NOW + 50.0 * 86_400.0;
    let locked = text(
        &server,
        "SELECT group_concat(id || ':' || price_gpu) FROM contracts WHERE machine_id = 1003",
    );
    let floors: Vec<f64> = (0..20).map(|k| 0.1 + k as f64 / 1000.0).collect();
    let requests = (0..40)
        .map(|k| {
            if k % 2 == 0 {
                (
                    reqwest::Method::PUT,
                    paths::machine_min_bid(TIDY_MACHINE),
                    json!({"client_id": "me", "price": floors[k / 2]}),
                )
            } else {
                listing(json!({"machine": TIDY_MACHINE, "end_date": later}))
            }
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    assert!(
        answers.iter().all(|(status, _)| *status == 200),
        "{answers:?}"
    );
    let extended: i64 = answers
        .iter()
        .filter_map(|(_, body)| body["extended"].as_i64())
        .sum();
    assert_eq!(extended, 1, "9006 is extended by exactly one listing");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM offers WHERE machine_id = 1003"
        ),
        1
    );
    let floor = server
        .state()
        .db
        .with_conn(|c| {
            Ok(c.query_row(
                "SELECT price_min_bid FROM offers WHERE machine_id = 1003",
                [],
                |r| r.get::<_, f64>(0),
            )?)
        })
        .unwrap();
    assert!(floors.contains(&floor), "{floor}");
    assert_eq!(
        text(
            &server,
            "SELECT CAST(end_date AS TEXT) FROM offers WHERE machine_id = 1003"
        ),
        format!("{later:.1}")
    );
    assert_eq!(
        text(
            &server,
            "SELECT group_concat(id || ':' || price_gpu) FROM contracts WHERE machine_id = 1003"
        ),
        locked
    );
    server.shutdown().await.unwrap();
}

/// 20 D1 setting an error racing 20 D2 reports on one verified machine (the demo
/// triggers): all answered 200; the error's transition is seen once (one `machine_error`
/// and one `host:machine_verification_failed` among all answers), the machine ends
/// deverified by that error with one of the texts sent, and every report is stored and
/// counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn demo_errors_racing_reports_transition_once_and_lose_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let server = file_server(&dir).await;
    let machine = 1001;
    let errors: Vec<String> = (0..20).map(|k| format!("Xid {k}")).collect();
    let requests = (0..40)
        .map(|k| {
            if k % 2 == 0 {
                (
                    reqwest::Method::PUT,
                    paths::demo_machine_health(machine),
                    json!({ "error_description": errors[k / 2] }),
                )
            } else {
                (
                    reqwest::Method::POST,
                    paths::demo_machine_reports(machine),
                    json!({"problem": "Other", "message": format!("report {k}")}),
                )
            }
        })
        .collect();
    let answers = all_at_once(&server, requests).await;
    assert!(
        answers.iter().all(|(status, _)| *status == 200),
        "{answers:?}"
    );
    let count = |key: &str| {
        answers
            .iter()
            .flat_map(|(_, body)| body["events"].as_array().unwrap().iter())
            .filter(|event| event["key"] == key)
            .count()
    };
    assert_eq!(count("host:machine_error"), 1);
    assert_eq!(count("host:machine_verification_failed"), 1);
    assert_eq!(count("host:machine_reported"), 20);
    let stored = text(
        &server,
        "SELECT error_description || '|' || verification || '|' || deverified_by_error
         FROM machines WHERE id = 1001",
    );
    let (error, rest) = stored.split_once('|').unwrap();
    assert!(errors.iter().any(|sent| sent == error), "{stored}");
    assert_eq!(rest, "deverified|1");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM machine_reports WHERE machine_id = 1001"
        ),
        20
    );
    server.shutdown().await.unwrap();
}
