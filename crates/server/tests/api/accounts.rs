//! N8–N12 and N20 against the demo data, through the router: template search and library,
//! volume offers, the caller's volumes, volume deletion and subaccount creation. Every
//! write is checked in the database, and every refusal for changing nothing.

use crate::common;

use common::{TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_server::keys;
use gpudeck_wire::paths;
use serde_json::{json, Value};

const DAY: f64 = 86_400.0;

/// N8 with `select_filters` (URL-encoded here).
async fn search_templates(app: &TestApp, key: &str, filters: Value) -> Value {
    let filters: String = form_urlencoded::byte_serialize(filters.to_string().as_bytes()).collect();
    app.get(&format!(
        "{}/?select_cols=%5B%22%2A%22%5D&select_filters={filters}",
        paths::TEMPLATE_ALIAS
    ))
    .key(key)
    .send()
    .await
    .ok()
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn template_search_follows_the_clients_query_language() {
    let app = TestApp::demo();
    let all = search_templates(&app, ALICE_KEY, json!({})).await;
    assert_eq!(all["success"], true);
    // Public templates plus alice's private ones, never a deleted one or bob's private one.
    assert_eq!(
        ids(&all["templates"]),
        vec![
            501,
            502,
            503,
            TEMPLATE_MARKUP,
            TEMPLATE_PRIVATE,
            BOB_TEMPLATE
        ]
    );
    assert_eq!(all["templates_found"], 6);
    let first = &all["templates"][0];
    assert_eq!(first["image"], "pytorch/pytorch");
    assert_eq!(first["creator_id"], ALICE_ID);
    assert_eq!(first["count_created"], 42);
    assert_eq!(first["created_at"], NOW - 120.0 * DAY);
    assert_eq!(first["hash_id"].as_str().unwrap().len(), 32);
    assert_eq!(all["templates"][2]["tag"], "2023-10-20");
    // The client's forms: numbers as strings, booleans in any case, CLI operators.
    let cases = [
        (
            json!({"count_created": {"gt": "100"}}),
            vec![502, BOB_TEMPLATE],
        ),
        (json!({"creator_id": {"eq": "2"}}), vec![BOB_TEMPLATE]),
        (
            json!({"private": {"eq": "True"}}),
            vec![TEMPLATE_MARKUP, TEMPLATE_PRIVATE],
        ),
        (
            json!({"private": {"eq": 1}}),
            vec![TEMPLATE_MARKUP, TEMPLATE_PRIVATE],
        ),
        (
            json!({"id": {">=": 503, "<": "506"}}),
            vec![503, TEMPLATE_MARKUP],
        ),
        (
            json!({"name": {"in": ["comfyui", "bob-llama"]}}),
            vec![502, BOB_TEMPLATE],
        ),
        (
            json!({"tag": {"notin": ["latest"]}, "creator_id": {"eq": 1}}),
            vec![501, 503, 504, 506],
        ),
        (
            json!({"image": {"eq": "ollama/ollama"}}),
            vec![BOB_TEMPLATE],
        ),
        (
            json!({"name": {"lt": "c"}}),
            vec![TEMPLATE_MARKUP, TEMPLATE_PRIVATE, BOB_TEMPLATE],
        ),
        (
            json!({"created_at": {"gte": NOW - 10.0 * DAY}}),
            vec![TEMPLATE_MARKUP, TEMPLATE_PRIVATE],
        ),
        (json!({"name": {"eq": "nothing"}}), vec![]),
    ];
    for (filters, expected) in cases {
        let found = search_templates(&app, ALICE_KEY, filters.clone()).await;
        assert_eq!(ids(&found["templates"]), expected, "{filters}");
        assert_eq!(found["templates_found"], expected.len(), "{filters}");
    }
    // bob sees his own private one and none of alice's.
    let bob = search_templates(&app, BOB_KEY, json!({"private": {"eq": true}})).await;
    assert_eq!(ids(&bob["templates"]), vec![BOB_PRIVATE_TEMPLATE]);
    // Absent parameters mean no filter; the path answers without its slash too.
    let bare = app
        .get(paths::TEMPLATE_ALIAS)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(bare["templates_found"], 6);
}

#[tokio::test]
async fn template_search_refuses_what_it_cannot_read() {
    let app = TestApp::demo();
    let refused = |query: &'static str| {
        let app = &app;
        async move {
            app.get(&format!("{}/?{query}", paths::TEMPLATE_ALIAS))
                .key(ALICE_KEY)
                .send()
                .await
                .error(400, "invalid_args")
        }
    };
    assert_eq!(
        refused("select_filters=%5B1%5D").await,
        "select_filters must be a JSON object of conditions"
    );
    assert_eq!(
        refused("select_filters=%7B%22id%22%3A1%7D").await,
        "select_filters must be a JSON object of conditions"
    );
    assert_eq!(
        refused("select_filters=not-json").await,
        "select_filters must be a JSON object of conditions"
    );
    assert_eq!(
        refused("select_cols=%22*%22").await,
        "select_cols must be a JSON array of strings"
    );
    assert_eq!(
        refused("select_filters=%7B%22owner_id%22%3A%7B%22eq%22%3A1%7D%7D").await,
        "cannot filter on field owner_id"
    );
    assert_eq!(
        refused("select_filters=%7B%22id%22%3A%7B%22like%22%3A1%7D%7D").await,
        "unknown operator like on id"
    );
    assert_eq!(
        refused("select_filters=%7B%22id%22%3A%7B%22eq%22%3A%22x%22%7D%7D").await,
        "value for id must be a number"
    );
    assert_eq!(
        refused("select_filters=%7B%22private%22%3A%7B%22eq%22%3A%22maybe%22%7D%7D").await,
        "value for private must be true or false"
    );
}

#[tokio::test]
async fn the_library_holds_the_callers_templates_by_last_update() {
    let app = TestApp::demo();
    let library = app
        .get(&format!("{}/", paths::user_templates(ALICE_ID)))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(library["success"], true);
    // updated_at = created + half the age: the newest first.
    assert_eq!(ids(&library["templates"]), vec![506, 504, 502, 501, 503]);
    for template in library["templates"].as_array().unwrap() {
        assert_eq!(template["user_template_id"], template["id"]);
        assert_eq!(template["creator_id"], ALICE_ID);
    }
    let msg = app
        .get(&paths::user_templates(BOB_ID))
        .key(ALICE_KEY)
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(msg, "you may only read your own templates");
    let msg = app
        .get("/api/v0/users/me/templates")
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(msg, "user_id must be an integer");
    // A deleted template leaves the library and the search.
    app.delete(paths::TEMPLATE_ALIAS)
        .key(ALICE_KEY)
        .json(json!({"template_id": TEMPLATE_FREE}))
        .send()
        .await
        .ok();
    let library = app
        .get(&paths::user_templates(ALICE_ID))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert!(!ids(&library["templates"]).contains(&TEMPLATE_FREE));
    let found = search_templates(&app, ALICE_KEY, json!({})).await;
    assert!(!ids(&found["templates"]).contains(&TEMPLATE_FREE));
}

/// N10 with the client's default body plus `extra`.
async fn offers(app: &TestApp, extra: Value) -> Value {
    let mut body = json!({"verified": {"eq": true}, "external": {"eq": false},
        "disk_space": {"gte": 1}, "order": [["score", "desc"]], "allocated_storage": 1.0});
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    app.post(&format!("{}/", paths::VOLUMES_SEARCH))
        .key(GUSTAV_KEY)
        .json(body)
        .send()
        .await
        .ok()
}

#[tokio::test]
async fn volume_offers_are_asks_with_room_filtered_and_ordered() {
    let app = TestApp::demo();
    let found = offers(&app, json!({})).await;
    let list = found["offers"].as_array().unwrap();
    // The full ask and the expired one are not there; by reliability, descending.
    let found_ids = ids(&found["offers"]);
    assert!(!found_ids.contains(&ASK_FULL) && !found_ids.contains(&ASK_EXPIRED));
    let reliabilities: Vec<f64> = list
        .iter()
        .map(|o| o["reliability"].as_f64().unwrap())
        .collect();
    assert!(
        reliabilities.windows(2).all(|w| w[0] >= w[1]),
        "{reliabilities:?}"
    );
    let ask = list.iter().find(|o| o["id"] == ASK_30_LEFT).unwrap();
    assert_eq!(ask["disk_space"], 30.0);
    assert_eq!(ask["machine_id"], 2001);
    assert_eq!(ask["host_id"], BOB_ID);
    assert_eq!(ask["storage_cost"], 0.15);
    assert_eq!(ask["duration"], 30.0 * DAY);
    assert_eq!(ask["end_date"], NOW + 30.0 * DAY);
    assert!((ask["storage_total_cost"].as_f64().unwrap() - 0.15 / 720.0).abs() < 1e-12);
    assert_eq!(ask["verification"], "verified");
    assert_eq!(ask["ask_contract_id"], ASK_30_LEFT);
    // Without the defaults the full ask is there, with 0 GB free.
    let all = app
        .post(paths::VOLUMES_SEARCH)
        .key(GUSTAV_KEY)
        .json(json!({"order": [["id", "asc"]]}))
        .send()
        .await
        .ok();
    assert_eq!(ids(&all["offers"]), vec![7, 8, 9, 10, 11]);
    assert_eq!(all["offers"][2]["disk_space"], 0.0);
    let cases = [
        (
            json!({"disk_space": {"gte": 1, "gt": "100"}, "order": [["disk_space", "asc"]]}),
            vec![ASK_ALICE_VOLUMES, ASK_500_FREE, ASK_CHEAP],
        ),
        (
            json!({"storage_cost": {"lte": 0.15}, "order": [["storage_cost", "asc"]]}),
            vec![ASK_CHEAP, ASK_30_LEFT],
        ),
        // Locations follow the machine ids: 2001 is in Germany, the others elsewhere.
        (
            json!({"geolocation": {"in": ["SE", "DE"]}}),
            vec![ASK_30_LEFT],
        ),
        (
            json!({"geolocation": {"eq": "Germany, DE"}}),
            vec![ASK_30_LEFT],
        ),
        (
            json!({"limit": 2, "order": [["id", "desc"]]}),
            vec![ASK_CHEAP, ASK_ALICE_VOLUMES],
        ),
        // 1013 has driver 550 (CUDA 12.4), 1004 535 (12.2).
        (
            json!({"host_id": {"eq": "1"}, "order": [["cuda_vers", "desc"]]}),
            vec![ASK_CHEAP, ASK_500_FREE],
        ),
    ];
    for (extra, expected) in cases {
        let found = offers(&app, extra.clone()).await;
        assert_eq!(ids(&found["offers"]), expected, "{extra}");
    }
    let priced = offers(&app, json!({"allocated_storage": 100})).await;
    let ask = priced["offers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == ASK_500_FREE)
        .unwrap()
        .clone();
    assert!((ask["storage_total_cost"].as_f64().unwrap() - 0.40 * 100.0 / 720.0).abs() < 1e-12);
}

#[tokio::test]
async fn volume_search_refuses_bad_queries() {
    let app = TestApp::demo();
    let cases = [
        (
            json!({"disk_space": 5}),
            "Invalid query: must be dict of conditions",
        ),
        (
            json!({"disk_space": {"about": 5}}),
            "Invalid query: must be dict of conditions",
        ),
        (
            json!({"gpu_name": {"eq": "x"}}),
            "cannot filter on field gpu_name",
        ),
        (
            json!({"order": [["gpu_name", "asc"]]}),
            "cannot order by gpu_name",
        ),
        (
            json!({"limit": 0}),
            "limit must be an integer from 1 to 1000",
        ),
        (
            json!({"limit": 1001}),
            "limit must be an integer from 1 to 1000",
        ),
        (
            json!({"limit": "5"}),
            "limit must be an integer from 1 to 1000",
        ),
        (
            json!({"allocated_storage": 0}),
            "allocated_storage must be a positive number",
        ),
        (
            json!({"disk_space": {"gt": "lots"}}),
            "value for disk_space must be a number",
        ),
    ];
    for (body, msg) in cases {
        let got = app
            .post(paths::VOLUMES_SEARCH)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(400, "invalid_args");
        assert_eq!(got, msg, "{body}");
    }
    app.post(paths::VOLUMES_SEARCH)
        .key(ALICE_KEY)
        .raw("application/json", "{")
        .send()
        .await
        .error(400, "invalid_json");
}

#[tokio::test]
async fn own_volumes_carry_their_machine_and_instances() {
    let app = TestApp::demo();
    let list = app
        .get(&format!("{}?owner=me&type=all_volume", paths::VOLUMES))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        ids(&list["volumes"]),
        vec![ALICE_VOLUME_IN_USE, ALICE_VOLUME_FREE]
    );
    let used = &list["volumes"][0];
    assert_eq!(used["label"], "datasets");
    assert_eq!(used["status"], "active");
    assert_eq!(used["start_date"], NOW - 20.0 * DAY);
    assert_eq!(used["disk_space"], 30.0);
    assert_eq!(used["machine_id"], 2003);
    assert_eq!(used["host_id"], BOB_ID);
    assert_eq!(used["instances"], json!([ALICE_INSTANCE]));
    assert!((used["storage_total_cost"].as_f64().unwrap() - 0.25 * 30.0 / 720.0).abs() < 1e-12);
    assert_eq!(list["volumes"][1]["label"], Value::Null);
    assert_eq!(list["volumes"][1]["instances"], json!([]));
    for kind in ["", "local_volume", "all_volume"] {
        let same = app
            .get(&format!("{}?type={kind}", paths::VOLUMES))
            .key(ALICE_KEY)
            .send()
            .await
            .ok();
        assert_eq!(same, list, "{kind}");
    }
    let network = app
        .get(&format!("{}/?type=network_volume", paths::VOLUMES))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(network, json!({"volumes": []}));
    let msg = app
        .get(&format!("{}?type=all", paths::VOLUMES))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(
        msg,
        "type must be unspecified or one of: ['local_volume', 'network_volume', 'all_volume']"
    );
}

fn free_space(app: &TestApp, ask: i64) -> i64 {
    app.scalar(&format!(
        "SELECT a.disk_space - COALESCE(SUM(v.size), 0) FROM volume_asks a
         LEFT JOIN volumes v ON v.ask_id = a.id AND v.deleted_at IS NULL WHERE a.id = {ask}"
    ))
}

#[tokio::test]
async fn deleting_a_volume_returns_its_space() {
    let app = TestApp::demo();
    assert_eq!(free_space(&app, ASK_ALICE_VOLUMES), 160);
    let answer = app
        .delete(&format!("{}/?id={ALICE_VOLUME_FREE}", paths::VOLUMES))
        .key(ALICE_KEY)
        .json(json!({}))
        .send()
        .await
        .ok();
    assert_eq!(answer, json!({"success": true}));
    assert_eq!(
        app.scalar_f64(&format!(
            "SELECT deleted_at FROM volumes WHERE id = {ALICE_VOLUME_FREE}"
        )),
        Some(NOW)
    );
    assert_eq!(free_space(&app, ASK_ALICE_VOLUMES), 170);
    let list = app.get(paths::VOLUMES).key(ALICE_KEY).send().await.ok();
    assert_eq!(ids(&list["volumes"]), vec![ALICE_VOLUME_IN_USE]);
    // Gone now: 404, also by the body's id and without a body at all.
    let msg = app
        .delete(&format!("{}?id={ALICE_VOLUME_FREE}", paths::VOLUMES))
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "no_such_volume");
    assert_eq!(msg, "Volume with that ID does not exist.");
    // The freed space can be accepted again (seed op 4).
    app.put(paths::VOLUMES)
        .key(GUSTAV_KEY)
        .json(json!({"id": ASK_ALICE_VOLUMES, "size": 170}))
        .send()
        .await
        .ok();
    assert_eq!(free_space(&app, ASK_ALICE_VOLUMES), 0);
}

/// Seed op 4's optional `name` becomes the label N11 shows; any name outside the rule is
/// refused before anything is written.
#[tokio::test]
async fn an_accepted_volume_carries_its_name_as_label() {
    let app = TestApp::demo();
    let accept = |body: Value| app.put(paths::VOLUMES).key(GUSTAV_KEY).json(body).send();
    let volumes = || app.scalar("SELECT COUNT(*) FROM volumes");
    let before = volumes();
    for name in [
        json!("a b"),
        json!("ü"),
        json!("x".repeat(65)),
        json!(7),
        json!(["x"]),
    ] {
        let msg = accept(json!({"id": ASK_500_FREE, "size": 1, "name": name}))
            .await
            .error(400, "invalid_args");
        assert_eq!(
            msg,
            "name may contain only letters, digits and underscores, at most 64 characters"
        );
    }
    assert_eq!(volumes(), before);

    let named = accept(json!({"id": ASK_500_FREE, "size": 1, "name": "datasets_2"}))
        .await
        .ok();
    let unnamed = accept(json!({"id": ASK_500_FREE, "size": 1, "name": ""}))
        .await
        .ok();
    let label = |answer: &Value| {
        let id = answer["volume_name"]
            .as_str()
            .unwrap()
            .trim_start_matches("V.");
        app.text(&format!("SELECT label FROM volumes WHERE id = {id}"))
    };
    assert_eq!(label(&named), Some("datasets_2".to_owned()));
    assert_eq!(label(&unnamed), None);
    let listed = app.get(paths::VOLUMES).key(GUSTAV_KEY).send().await.ok();
    assert!(listed["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|volume| volume["label"] == "datasets_2"));
}

#[tokio::test]
async fn volume_deletion_refusals_change_nothing() {
    let app = TestApp::demo();
    let fingerprint =
        |app: &TestApp| app.scalar("SELECT COUNT(*) FROM volumes WHERE deleted_at IS NULL");
    let before = fingerprint(&app);
    let refused = |uri: String, body: Option<Value>, status: u16, error: &'static str| {
        let app = &app;
        async move {
            let mut call = app.delete(&uri).key(ALICE_KEY);
            if let Some(body) = body {
                call = call.json(body);
            }
            call.send().await.error(status, error)
        }
    };
    let v = paths::VOLUMES;
    assert_eq!(
        refused(format!("{v}?id={ALICE_VOLUME_IN_USE}"), None, 409, "in_use").await,
        "existing instances use that volume!"
    );
    assert_eq!(
        refused(format!("{v}?id={BOB_VOLUME}"), None, 403, "forbidden").await,
        "You are not authorized to delete this volume"
    );
    assert_eq!(
        refused(
            v.to_owned(),
            Some(json!({"id": BOB_VOLUME})),
            403,
            "forbidden"
        )
        .await,
        "You are not authorized to delete this volume"
    );
    for bad in ["x", "1.5", "-3", "%F0%9F%8C%80", "99999999999999999999"] {
        assert_eq!(
            refused(format!("{v}?id={bad}"), None, 400, "invalid_args").await,
            "Please provide a valid volume ID.",
            "{bad}"
        );
    }
    for body in [
        json!({}),
        json!({"id": "20118471"}),
        json!({"id": 1.5}),
        json!({"id": null}),
    ] {
        assert_eq!(
            refused(v.to_owned(), Some(body.clone()), 400, "invalid_args").await,
            "Please provide a valid volume ID.",
            "{body}"
        );
    }
    assert_eq!(
        refused(format!("{v}?id=12345"), None, 404, "no_such_volume").await,
        "Volume with that ID does not exist."
    );
    // The query wins over the body.
    assert_eq!(
        refused(
            format!("{v}?id={BOB_VOLUME}"),
            Some(json!({"id": ALICE_VOLUME_FREE})),
            403,
            "forbidden"
        )
        .await,
        "You are not authorized to delete this volume"
    );
    app.delete(v)
        .key(ALICE_KEY)
        .raw("application/json", "[1]")
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(fingerprint(&app), before);
    // Once the instance is destroyed, the volume can go.
    app.state
        .db
        .with_conn(|c| {
            c.execute(
                "UPDATE instances SET destroyed_at = 1 WHERE id = ?1",
                [ALICE_INSTANCE],
            )?;
            Ok(())
        })
        .unwrap();
    app.delete(&format!("{v}?id={ALICE_VOLUME_IN_USE}"))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(fingerprint(&app), before - 1);
}

fn new_sub(email: &str, username: &str) -> Value {
    json!({"email": email, "username": username, "password": "correct horse",
           "host_only": false, "parent_id": "me"})
}

#[tokio::test]
async fn a_new_subaccount_authenticates_and_is_listed_at_once() {
    let app = TestApp::demo();
    let created = app
        .post(&format!("{}/", paths::USERS))
        .key(ALICE_KEY)
        .json(
            json!({"email": "New.Sub@example.org", "username": "new-sub",
            "password": "correct horse", "host_only": true, "ssh_key": "ssh-ed25519 AAAA",
            "parent_id": "me", "captcha": "x"}),
        )
        .send()
        .await
        .ok();
    let id = created["id"].as_i64().unwrap();
    let key = created["api_key"].as_str().unwrap().to_owned();
    assert_eq!(key, keys::subaccount_key(&app.state.secret, id));
    assert_eq!(created["email"], "New.Sub@example.org");
    assert_eq!(created["username"], "new-sub");
    assert_eq!(created["balance"], 0.0);
    assert_eq!(created["host_only"], true);
    assert_eq!(created["ssh_key"], "ssh-ed25519 AAAA");
    assert_eq!(created["email_verified"], false);
    assert!(created.get("password").is_none());
    assert_eq!(
        app.scalar(&format!(
            "SELECT rowid FROM api_keys WHERE key_hash = '{}'",
            keys::hash_key(&key)
        )),
        created["key_id"].as_i64().unwrap()
    );
    assert_eq!(
        app.scalar(&format!("SELECT parent_id FROM users WHERE id = {id}")),
        ALICE_ID
    );
    assert_eq!(
        app.scalar_f64(&format!("SELECT created_at FROM users WHERE id = {id}")),
        Some(NOW)
    );
    let hash: String = app
        .state
        .db
        .with_conn(move |c| {
            Ok(
                c.query_row("SELECT password_hash FROM users WHERE id = ?1", [id], |r| {
                    r.get(0)
                })?,
            )
        })
        .unwrap();
    assert!(hash.starts_with("pbkdf2-sha256$") && !hash.contains("correct horse"));
    // Seed op 5 lists it with its key, and the key works.
    let list = app.get(paths::SUBACCOUNTS).key(ALICE_KEY).send().await.ok();
    let listed = list["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(listed["api_key"], key.as_str());
    let me = app.get(paths::CURRENT_USER).key(&key).send().await.ok();
    assert_eq!(me["id"], id);
    // The same address or username in another case is taken; a subaccount cannot create.
    for body in [
        new_sub("new.sub@EXAMPLE.org", "other"),
        new_sub("other@example.org", "NEW-SUB"),
    ] {
        let msg = app
            .post(paths::USERS)
            .key(BOB_KEY)
            .json(body)
            .send()
            .await
            .error(409, "user_exists");
        assert_eq!(msg, "user already exists.");
    }
    let msg = app
        .post(paths::USERS)
        .key(&key)
        .json(new_sub("grandchild@example.org", "grandchild"))
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(msg, "subaccounts cannot create subaccounts");
}

#[tokio::test]
async fn subaccount_refusals_name_the_field_and_change_nothing() {
    let app = TestApp::demo();
    let before = app.scalar("SELECT COUNT(*) FROM users");
    let long = "a".repeat(65);
    let cases = [
        (
            json!({"username": "u", "password": "12345678"}),
            400,
            "missing_auth_value",
            "email, username and password are required",
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": null}),
            400,
            "missing_auth_value",
            "email, username and password are required",
        ),
        (
            json!({"email": "a@b.cd", "username": "", "password": "12345678"}),
            400,
            "missing_auth_value",
            "email, username and password are required",
        ),
        (
            json!({"email": "not-an-address", "username": "u", "password": "12345678"}),
            400,
            "invalid_email",
            "Email address not allowed",
        ),
        (
            json!({"email": "staff@Vast.ai", "username": "u", "password": "12345678"}),
            400,
            "invalid_email",
            "Email address not allowed",
        ),
        (
            json!({"email": "<b>x</b>@b.cd", "username": "u", "password": "12345678"}),
            400,
            "invalid_email",
            "Email address not allowed",
        ),
        (
            json!({"email": format!("{long}@b.cd"), "username": "u", "password": "12345678"}),
            400,
            "invalid_request",
            "email is too long",
        ),
        (
            json!({"email": 5, "username": "u", "password": "12345678"}),
            400,
            "invalid_request",
            "email must be a string",
        ),
        (
            json!({"email": "a@b.cd", "username": long, "password": "12345678"}),
            400,
            "invalid_request",
            "username is too long",
        ),
        (
            json!({"email": "a@b.cd", "username": "a\u{7}b", "password": "12345678"}),
            400,
            "invalid_request",
            "username must not contain control characters",
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": "1234567"}),
            400,
            "invalid_request",
            "password must be at least 8 characters",
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": "x".repeat(257)}),
            400,
            "invalid_request",
            "password is too long",
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": 12345678}),
            400,
            "invalid_request",
            "password must be a string",
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": "12345678", "host_only": "yes"}),
            400,
            "invalid_request",
            "host_only must be true or false",
        ),
        (
            json!({"email": "a@b.cd", "username": "u", "password": "12345678", "ssh_key": "k".repeat(4097)}),
            400,
            "invalid_request",
            "ssh_key is too long",
        ),
        (
            json!({"email": "alice@EXAMPLE.com", "username": "u", "password": "12345678"}),
            409,
            "user_exists",
            "user already exists.",
        ),
        (
            json!({"email": "a@b.cd", "username": "Bob", "password": "12345678"}),
            409,
            "user_exists",
            "user already exists.",
        ),
    ];
    for (mut body, status, error, msg) in cases {
        body["parent_id"] = json!("me");
        let got = app
            .post(paths::USERS)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(status, error);
        assert_eq!(got, msg, "{body}");
    }
    app.post(paths::USERS)
        .key(ALICE_KEY)
        .raw("application/json", "{\"email\":")
        .send()
        .await
        .error(400, "invalid_json");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM users"), before);
    // Unicode in a username is fine.
    let created = app
        .post(paths::USERS)
        .key(ALICE_KEY)
        .json(new_sub("zoe@example.org", "Zoë 🌀"))
        .send()
        .await
        .ok();
    assert_eq!(created["username"], "Zoë 🌀");
    assert_eq!(app.scalar("SELECT COUNT(*) FROM users"), before + 1);
}

const PARENT_ID: &str = r#"parent_id must be "me": this creates subaccounts only"#;

/// N20 creates subaccounts only: without `parent_id: "me"` the public service takes
/// `POST /users/` for a sign-up, so the reference server refuses it. It is a body value:
/// judged after the fields before it in the client's order, before the account's state.
#[tokio::test]
async fn a_subaccount_needs_parent_id_me_and_nothing_else_changes() {
    let app = TestApp::demo();
    let before = app.scalar("SELECT COUNT(*) FROM users");
    let without_parent = |email: &str, username: &str| {
        let mut body = new_sub(email, username);
        body.as_object_mut().unwrap().remove("parent_id");
        body
    };
    let mut cases = vec![(
        without_parent("p@example.org", "p"),
        400,
        "invalid_request",
        PARENT_ID,
    )];
    for other in [
        json!(null),
        json!("you"),
        json!("ME"),
        json!(ALICE_ID),
        json!({}),
    ] {
        let mut body = new_sub("p@example.org", "p");
        body["parent_id"] = other;
        cases.push((body, 400, "invalid_request", PARENT_ID));
    }
    let mut no_email = without_parent("", "p");
    no_email.as_object_mut().unwrap().remove("email");
    let mut bad_flag = without_parent("p@example.org", "p");
    bad_flag["host_only"] = json!("yes");
    cases.extend([
        // The fields before it answer first.
        (
            no_email,
            400,
            "missing_auth_value",
            "email, username and password are required",
        ),
        (
            without_parent("p@vast.ai", "p"),
            400,
            "invalid_email",
            "Email address not allowed",
        ),
        (
            bad_flag,
            400,
            "invalid_request",
            "host_only must be true or false",
        ),
        // The account's state answers after it.
        (
            without_parent("ALICE@example.com", "p"),
            400,
            "invalid_request",
            PARENT_ID,
        ),
    ]);
    for (body, status, error, msg) in cases {
        let got = app
            .post(paths::USERS)
            .key(ALICE_KEY)
            .json(body.clone())
            .send()
            .await
            .error(status, error);
        assert_eq!(got, msg, "{body}");
    }
    assert_eq!(app.scalar("SELECT COUNT(*) FROM users"), before);
    // A subaccount's own key: the body is judged before the account it belongs to.
    let created = app
        .post(paths::USERS)
        .key(ALICE_KEY)
        .json(new_sub("p@example.org", "p"))
        .send()
        .await
        .ok();
    let sub_key = created["api_key"].as_str().unwrap().to_owned();
    let msg = app
        .post(paths::USERS)
        .key(&sub_key)
        .json(without_parent("q@example.org", "q"))
        .send()
        .await
        .error(400, "invalid_request");
    assert_eq!(msg, PARENT_ID);
    assert_eq!(app.scalar("SELECT COUNT(*) FROM users"), before + 1);
}

/// The published schema requires `parent_id`, `"me"` only, as N20 does.
#[tokio::test]
async fn the_published_schema_requires_parent_id_me() {
    let app = TestApp::demo();
    let doc = app.get(paths::OPENAPI).send().await.ok();
    let request = &doc["components"]["schemas"]["CreateSubaccountRequest"];
    let required = request["required"].as_array().unwrap();
    assert!(required.contains(&json!("parent_id")), "{request}");
    let parent = &request["properties"]["parent_id"];
    let parent = match parent["$ref"].as_str() {
        Some(reference) => &doc["components"]["schemas"][reference.rsplit('/').next().unwrap()],
        None => parent,
    };
    assert_eq!(parent["enum"], json!(["me"]), "{parent}");
}
