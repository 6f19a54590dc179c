//! Team management N13–N19 and N17a on the demo data: each answer (status and body), the
//! rows it writes, and every refusal with the proof that it changed nothing.

use crate::common;

use common::{Answer, TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_server::keys;
use gpudeck_wire::paths;
use serde_json::{json, Value};

/// A state of Alice Compute's roles, assignments, memberships, keys and invitations, to
/// show a refusal changed nothing.
fn team_state(app: &TestApp) -> Vec<Option<String>> {
    [
        "SELECT group_concat(id || ':' || name || ':' || permissions || ':' || is_owner, '|')
         FROM (SELECT * FROM team_roles ORDER BY id)",
        "SELECT group_concat(member_id || '-' || role_id, ',')
         FROM (SELECT * FROM team_member_roles ORDER BY member_id, role_id)",
        "SELECT group_concat(id || ':' || COALESCE(removed_at, 'active'), ',')
         FROM (SELECT * FROM team_members ORDER BY id)",
        "SELECT group_concat(key_hash, ',') FROM (SELECT * FROM api_keys ORDER BY key_hash)",
        "SELECT group_concat(email || ':' || created_at || ':' || expires_at, ',')
         FROM (SELECT * FROM team_invitations ORDER BY id)",
    ]
    .iter()
    .map(|sql| app.text(sql))
    .collect()
}

/// Adds to Alice Compute a user `id` (e-mail `u<id>@example.net`) whose only role has
/// `permissions` (none when `None`), with a team key; returns the key.
fn add_member(app: &TestApp, id: i64, permissions: Option<Value>) -> String {
    let key = format!("team-test-key-of-member-{id}-0000000000000000000");
    let hash = keys::hash_key(&key);
    app.state
        .db
        .with_conn(move |c| {
            c.execute(
                "INSERT INTO users (id, email, username, created_at) VALUES (?1, ?2, ?3, 0)",
                rusqlite::params![id, format!("u{id}@example.net"), format!("u{id}")],
            )?;
            c.execute(
                "INSERT INTO team_members (id, team_id, user_id) VALUES (?1, ?2, ?1)",
                rusqlite::params![id, ALICE_TEAM_ID],
            )?;
            if let Some(permissions) = permissions {
                c.execute(
                    "INSERT INTO team_roles (id, team_id, name, permissions) VALUES (?1, ?2, ?3, ?4)",
                    rusqlite::params![id, ALICE_TEAM_ID, format!("role of {id}"), permissions.to_string()],
                )?;
                c.execute(
                    "INSERT INTO team_member_roles (member_id, role_id) VALUES (?1, ?1)",
                    [id],
                )?;
            }
            c.execute(
                "INSERT INTO api_keys (key_hash, user_id, team_id, created_at) VALUES (?1, ?2, ?3, 0)",
                rusqlite::params![hash, id, ALICE_TEAM_ID],
            )?;
            Ok(())
        })
        .unwrap();
    key
}

/// A member who may manage the team but holds nothing else.
fn team_manager_only() -> Option<Value> {
    Some(json!({"api": {"team_read": {}, "team_write": {}}}))
}

async fn post_json(app: &TestApp, key: &str, uri: &str, body: Value) -> Answer {
    app.post(uri).key(key).json(body).send().await
}

async fn put_json(app: &TestApp, key: &str, uri: &str, body: Value) -> Answer {
    app.put(uri).key(key).json(body).send().await
}

async fn delete_json(app: &TestApp, key: &str, uri: &str, body: Value) -> Answer {
    app.delete(uri).key(key).json(body).send().await
}

fn roles_of(app: &TestApp, user_id: i64) -> String {
    app.text(&format!(
        "SELECT group_concat(role_id, ',') FROM (SELECT mr.role_id FROM team_member_roles mr
         JOIN team_members m ON m.id = mr.member_id
         WHERE m.user_id = {user_id} AND m.removed_at IS NULL ORDER BY mr.role_id)"
    ))
    .unwrap_or_default()
}

// ---- N13 ------------------------------------------------------------------------------

#[tokio::test]
async fn roles_full_lists_the_assignable_roles_by_id_without_the_owner_role() {
    let app = TestApp::demo();
    for uri in [
        format!("{}/", paths::TEAM_ROLES_FULL),
        paths::TEAM_ROLES_FULL.to_owned(),
    ] {
        let roles = app.get(&uri).key(ALICE_KEY).send().await.ok();
        let summary: Vec<(i64, &str, Value)> = roles
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["id"].as_i64().unwrap(),
                    r["name"].as_str().unwrap(),
                    r["identifier"].clone(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (MANAGER_ROLE_ID, "manager", json!("team_manager")),
                (MEMBER_ROLE_ID, "member", json!("team_member")),
                (UNICODE_ROLE_ID, UNICODE_ROLE, Value::Null),
                (MARKUP_ROLE_ID, MARKUP_ROLE, Value::Null),
            ]
        );
        assert_eq!(
            roles[1]["permissions"]["api.instance.request_logs"]["constraints"]["id"]["eq"],
            1227
        );
    }
    // The owner role is a flag, not a name: renamed, it is still left out.
    app.state
        .db
        .with_conn(|c| {
            c.execute("UPDATE team_roles SET name = 'boss' WHERE id = 1", [])?;
            Ok(())
        })
        .unwrap();
    let roles = app
        .get(paths::TEAM_ROLES_FULL)
        .key(DAVE_TEAM_KEY)
        .send()
        .await
        .ok();
    assert_eq!(roles.as_array().unwrap().len(), 4);
    assert!(!roles.to_string().contains("boss"));

    app.get(paths::TEAM_ROLES_FULL)
        .key(GUSTAV_KEY)
        .send()
        .await
        .error(404, "no_team");
    let msg = app
        .get(paths::TEAM_ROLES_FULL)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(403, "forbidden");
    assert_eq!(msg, "this key's team role lacks the permission team_read");
}

#[tokio::test]
async fn a_personal_key_acts_through_the_members_roles_outside_its_own_team() {
    let app = TestApp::demo();
    // carol's personal key: her only role in Alice Compute is `member` (no team groups).
    let carol_personal = "team-test-carol-personal-key-000000000000000000";
    let hash = keys::hash_key(carol_personal);
    app.state
        .db
        .with_conn(move |c| {
            c.execute(
                "INSERT INTO api_keys (key_hash, user_id, created_at) VALUES (?1, ?2, 0)",
                rusqlite::params![hash, CAROL_ID],
            )?;
            Ok(())
        })
        .unwrap();
    let before = team_state(&app);
    app.get(paths::TEAM_INVITES)
        .key(carol_personal)
        .send()
        .await
        .error(403, "forbidden");
    post_json(
        &app,
        carol_personal,
        paths::TEAM_ROLES,
        json!({"name": "mine", "permissions": {}}),
    )
    .await
    .error(403, "forbidden");
    assert_eq!(team_state(&app), before);
    // Seed ops 6 and 7 read the team: her `member` role lacks team_read for them too.
    for path in [paths::TEAM_MEMBERS, "/api/v0/team/roles/member"] {
        let msg = app
            .get(path)
            .key(carol_personal)
            .send()
            .await
            .error(403, "forbidden");
        assert_eq!(msg, "this key's team role lacks the permission team_read");
    }
    // Her own account's operations are unaffected.
    app.get(paths::CURRENT_USER)
        .key(carol_personal)
        .send()
        .await
        .ok();
    // dave's personal key acts as his `manager` role: it cannot grant `api.team.delete`.
    let msg = post_json(
        &app,
        DAVE_KEY,
        paths::TEAM_ROLES,
        json!({"name": "deleter", "permissions": {"api.team.delete": {}}}),
    )
    .await
    .error(403, "forbidden");
    assert_eq!(
        msg,
        "you cannot grant or remove permissions you do not hold"
    );
}

// ---- N14 ------------------------------------------------------------------------------

#[tokio::test]
async fn creating_a_role_stores_its_name_and_permissions_verbatim() {
    let app = TestApp::demo();
    let permissions = json!({"api": {"team_read": {}, "instance_read": {}},
                             "api.instance.request_logs": {"constraints": {"id": {"lte": 5}}}});
    for (name, perms) in [
        ("auditor", permissions.clone()),
        ("Nacht – 🌙 <i>x</i>", json!({})),
        (&*"é".repeat(50), json!({"api": {}})),
        ("ab", json!({"api": {"misc": {}}})),
    ] {
        let answer = post_json(
            &app,
            ALICE_KEY,
            &format!("{}/", paths::TEAM_ROLES),
            json!({"name": name, "permissions": perms, "client_id": "ignored"}),
        )
        .await;
        assert_eq!(answer.ok(), json!({"msg": "success"}));
        let stored = app
            .text(&format!(
                "SELECT permissions FROM team_roles
                 WHERE team_id = 1 AND name = '{}' AND is_owner = 0 AND identifier IS NULL",
                name.replace('\'', "''")
            ))
            .expect("the role is stored");
        assert_eq!(serde_json::from_str::<Value>(&stored).unwrap(), perms);
    }
    // Names compare exactly: another case is another name.
    post_json(
        &app,
        DAVE_TEAM_KEY,
        paths::TEAM_ROLES,
        json!({"name": "Manager", "permissions": {"api": {"team_read": {}}}}),
    )
    .await
    .ok();
    let role = app
        .get(&paths::team_role("Nacht – 🌙 <i>x</i>"))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(role["name"], "Nacht – 🌙 <i>x</i>");
    let listed = app
        .get(paths::TEAM_ROLES_FULL)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(listed.as_array().unwrap().len(), 9);
}

#[tokio::test]
async fn role_creation_refusals_name_the_problem_and_change_nothing() {
    let app = TestApp::demo();
    let before = team_state(&app);
    let fifty_one = "x".repeat(51);
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (
            json!({"permissions": {}}),
            400,
            "invalid_args",
            "Missing name or permissions parameter",
        ),
        (
            json!({"name": null, "permissions": {}}),
            400,
            "invalid_args",
            "Missing name or permissions parameter",
        ),
        (
            json!({"name": "abc"}),
            400,
            "invalid_args",
            "Missing name or permissions parameter",
        ),
        (
            json!({"name": "a", "permissions": {}}),
            400,
            "invalid_args",
            "role name must be 2 to 50 characters",
        ),
        (
            json!({"name": fifty_one, "permissions": {}}),
            400,
            "invalid_args",
            "role name must be 2 to 50 characters",
        ),
        (
            json!({"name": 42, "permissions": {}}),
            400,
            "invalid_args",
            "role name must be 2 to 50 characters",
        ),
        (
            json!({"name": " lead", "permissions": {}}),
            400,
            "invalid_args",
            "role name must not contain control characters or leading or trailing spaces",
        ),
        (
            json!({"name": "tab\there", "permissions": {}}),
            400,
            "invalid_args",
            "role name must not contain control characters or leading or trailing spaces",
        ),
        (
            json!({"name": "ok name", "permissions": ["instance_read"]}),
            400,
            "invalid_args",
            "permissions must be an object",
        ),
        (
            json!({"name": "ok name", "permissions": {"api": {"misc": true}}}),
            400,
            "invalid_args",
            "permissions must be an object",
        ),
        (
            json!({"name": "ok name", "permissions": {"api.x": 1}}),
            400,
            "invalid_args",
            "permissions must be an object",
        ),
        (
            json!({"name": "ok name", "permissions": {"api": {"root": {}}}}),
            400,
            "invalid_args",
            "unknown permission group root",
        ),
        (
            json!({"name": "manager", "permissions": {}}),
            409,
            "duplicate_name",
            "a role named manager already exists in this team",
        ),
        (
            json!({"name": "owner", "permissions": {}}),
            409,
            "duplicate_name",
            "a role named owner already exists in this team",
        ),
        (
            json!({"name": MARKUP_ROLE, "permissions": {}}),
            409,
            "duplicate_name",
            "a role named <b>auditor</b> already exists in this team",
        ),
    ];
    for (body, status, error, msg) in cases {
        let answer = post_json(&app, ALICE_KEY, paths::TEAM_ROLES, body.clone()).await;
        assert_eq!(answer.error(status, error), msg, "{body}");
    }
    for (content_type, body, error) in [
        ("application/json", "[1]", "invalid_args"),
        ("application/json", "{", "invalid_json"),
        ("application/json", "", "invalid_json"),
        ("text/plain", "{}", "invalid_json"),
    ] {
        app.post(paths::TEAM_ROLES)
            .key(ALICE_KEY)
            .raw(content_type, body)
            .send()
            .await
            .error(400, error);
    }
    // A role granting what the caller lacks: frank holds every group but not
    // `api.team.delete`; a team-managing member holds no instance groups.
    let narrow = add_member(&app, 950, team_manager_only());
    let after_setup = team_state(&app);
    for (key, permissions) in [
        (FRANK_TEAM_KEY, json!({"api.team.delete": {}})),
        (&*narrow, json!({"api": {"instance_read": {}}})),
        (&*narrow, json!({"api.instance.request_logs": {}})),
    ] {
        let msg = post_json(
            &app,
            key,
            paths::TEAM_ROLES,
            json!({"name": "too much", "permissions": permissions}),
        )
        .await
        .error(403, "forbidden");
        assert_eq!(
            msg,
            "you cannot grant or remove permissions you do not hold"
        );
    }
    assert_eq!(team_state(&app), after_setup);
    assert_ne!(before, after_setup);
    // What it holds it may grant.
    post_json(
        &app,
        &narrow,
        paths::TEAM_ROLES,
        json!({"name": "readers", "permissions": {"api": {"team_read": {}}}}),
    )
    .await
    .ok();
}

// ---- N15 ------------------------------------------------------------------------------

#[tokio::test]
async fn updating_a_role_by_id_renames_it_or_replaces_its_permissions() {
    let app = TestApp::demo();
    let uri = paths::team_role_by_id(UNICODE_ROLE_ID);
    let renamed = put_json(&app, ALICE_KEY, &uri, json!({"name": "Nachtschicht"})).await;
    assert_eq!(
        renamed.ok(),
        json!({"success": true, "msg": "Successfully Updated Team Role For Nachtschicht"})
    );
    assert_eq!(
        app.text("SELECT name FROM team_roles WHERE id = 4")
            .as_deref(),
        Some("Nachtschicht")
    );
    // Permissions alone (the official client omits the name); `null` name is unchanged.
    let answer = put_json(
        &app,
        DAVE_TEAM_KEY,
        uri.trim_end_matches('/'),
        json!({"name": null, "permissions": {"api": {"misc": {}}}}),
    )
    .await;
    assert_eq!(
        answer.ok()["msg"],
        "Successfully Updated Team Role For Nachtschicht"
    );
    assert_eq!(
        app.text("SELECT permissions FROM team_roles WHERE id = 4")
            .as_deref(),
        Some(r#"{"api":{"misc":{}}}"#)
    );
    let same = put_json(
        &app,
        ALICE_KEY,
        &uri,
        json!({"name": "Nachtschicht", "permissions": {"api": {"misc": {}}}}),
    )
    .await;
    assert_eq!(
        same.ok(),
        json!({"success": true, "msg": "No changes made to team role Nachtschicht"})
    );
    // Seed op 6 reads by name on the same path.
    let role = app
        .get(&paths::team_role("Nachtschicht"))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(role["id"], UNICODE_ROLE_ID);
    // A member's key sees a changed role on its next request: carol's `member` role
    // gains team_read (alice owns the team; the role is not hers).
    app.get(paths::TEAM_MEMBERS)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(403, "forbidden");
    put_json(
        &app,
        ALICE_KEY,
        &paths::team_role_by_id(MEMBER_ROLE_ID),
        json!({"permissions": {"api": {"instance_read": {}, "team_read": {}}}}),
    )
    .await
    .ok();
    app.get(paths::TEAM_MEMBERS)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .ok();
}

#[tokio::test]
async fn role_update_refusals_follow_the_check_order_and_change_nothing() {
    let app = TestApp::demo();
    let narrow = add_member(&app, 951, team_manager_only());
    let before = team_state(&app);
    let id = |role: i64| paths::team_role_by_id(role);
    let cases: Vec<(&str, String, Value, u16, &str, &str)> = vec![
        (
            ALICE_KEY,
            format!("{}/abc/", paths::TEAM_ROLES),
            json!({"name": "xx"}),
            400,
            "invalid_args",
            "Role id must be an integer",
        ),
        (
            ALICE_KEY,
            format!("{}/1.5/", paths::TEAM_ROLES),
            json!({"name": "xx"}),
            400,
            "invalid_args",
            "Role id must be an integer",
        ),
        (
            ALICE_KEY,
            id(4),
            json!({}),
            400,
            "invalid_args",
            "name or permissions is required",
        ),
        (
            ALICE_KEY,
            id(4),
            json!({"name": null, "permissions": null}),
            400,
            "invalid_args",
            "name or permissions is required",
        ),
        (
            ALICE_KEY,
            id(4),
            json!({"name": "x"}),
            400,
            "invalid_args",
            "role name must be 2 to 50 characters",
        ),
        (
            ALICE_KEY,
            id(4),
            json!({"permissions": {"api": {"nope": {}}}}),
            400,
            "invalid_args",
            "unknown permission group nope",
        ),
        (
            ALICE_KEY,
            id(99),
            json!({"name": "xx"}),
            404,
            "not_found",
            "Role with id 99 not found.",
        ),
        // bob's team's role: not found for alice.
        (
            ALICE_KEY,
            id(7),
            json!({"name": "xx"}),
            404,
            "not_found",
            "Role with id 7 not found.",
        ),
        (
            ALICE_KEY,
            id(OWNER_ROLE_ID),
            json!({"name": "boss"}),
            403,
            "forbidden",
            "You cannot update the owner role",
        ),
        // dave acts through `manager`: its permissions are his key's.
        (
            DAVE_TEAM_KEY,
            id(MANAGER_ROLE_ID),
            json!({"permissions": {}}),
            403,
            "forbidden",
            "You cannot modify the permissions of the key in use",
        ),
        (
            FRANK_TEAM_KEY,
            id(MEMBER_ROLE_ID),
            json!({"permissions": {"api": {}}}),
            403,
            "forbidden",
            "You cannot modify the permissions of the key in use",
        ),
        // Granting or removing what the caller does not hold.
        (
            &narrow,
            id(UNICODE_ROLE_ID),
            json!({"permissions": {"api": {"team_read": {}}}}),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold",
        ),
        (
            &narrow,
            id(951),
            json!({"permissions": {"api": {"team_read": {}, "misc": {}}}}),
            403,
            "forbidden",
            "You cannot modify the permissions of the key in use",
        ),
        (
            DAVE_TEAM_KEY,
            id(4),
            json!({"permissions": {"api.team.delete": {}}}),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold",
        ),
        (
            ALICE_KEY,
            id(4),
            json!({"name": "manager"}),
            409,
            "duplicate_name",
            "a role named manager already exists in this team",
        ),
        (
            ALICE_KEY,
            id(4),
            json!({"name": "owner"}),
            409,
            "duplicate_name",
            "a role named owner already exists in this team",
        ),
    ];
    for (key, uri, body, status, error, msg) in cases {
        let answer = put_json(&app, key, &uri, body.clone()).await;
        assert_eq!(answer.error(status, error), msg, "{uri} {body}");
    }
    assert_eq!(team_state(&app), before);
    // Renaming a role one holds changes no permission: allowed.
    put_json(
        &app,
        DAVE_TEAM_KEY,
        &id(MANAGER_ROLE_ID),
        json!({"name": "lead"}),
    )
    .await
    .ok();
    assert_eq!(
        app.text("SELECT name FROM team_roles WHERE id = 2")
            .as_deref(),
        Some("lead")
    );
}

// ---- N16 ------------------------------------------------------------------------------

#[tokio::test]
async fn removing_a_role_by_its_encoded_name_deletes_it_with_stale_assignments() {
    let app = TestApp::demo();
    // erin (removed) still had the unicode role, and a pending invitation names it.
    app.state
        .db
        .with_conn(|c| {
            c.execute(
                "INSERT INTO team_member_roles (member_id, role_id) VALUES (5, ?1)",
                [UNICODE_ROLE_ID],
            )?;
            Ok(())
        })
        .unwrap();
    post_json(
        &app,
        ALICE_KEY,
        &format!(
            "{}?email=night%40example.org&role={}",
            paths::TEAM_INVITE,
            "Wartung+%E2%80%93+Nacht+%F0%9F%8C%99"
        ),
        json!({}),
    )
    .await
    .ok();
    let answer = app
        .delete(&paths::team_role_removal(UNICODE_ROLE))
        .key(ALICE_KEY)
        .json(json!({}))
        .send()
        .await;
    assert_eq!(
        answer.ok(),
        json!({"status": "success", "message": format!("Role {UNICODE_ROLE} removed from team")})
    );
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM team_roles WHERE id = 4"),
        0
    );
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM team_member_roles WHERE role_id = 4"),
        0
    );
    // The invitation ended (and stays counted for the hourly quota).
    assert_eq!(
        app.scalar_f64("SELECT expires_at FROM team_invitations WHERE email = 'night@example.org'"),
        Some(NOW)
    );
    let pending = app
        .get(paths::TEAM_INVITES)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert!(!pending.to_string().contains("night@example.org"));
    // No body at all (older clients), and the markup name.
    let answer = app
        .delete(&paths::team_role(MARKUP_ROLE))
        .key(ALICE_KEY)
        .send()
        .await;
    assert_eq!(
        answer.ok()["message"],
        "Role <b>auditor</b> removed from team"
    );
    // role_id in the body wins over the name in the path.
    post_json(
        &app,
        ALICE_KEY,
        paths::TEAM_ROLES,
        json!({"name": "temp", "permissions": {}}),
    )
    .await
    .ok();
    let temp = app.scalar("SELECT id FROM team_roles WHERE name = 'temp'");
    let answer = delete_json(
        &app,
        ALICE_KEY,
        &paths::team_role_removal("manager"),
        json!({"role_id": temp as f64}),
    )
    .await;
    assert_eq!(answer.ok()["message"], "Role temp removed from team");
    // With no name in the path (`roles//`), only role_id can name the role.
    post_json(
        &app,
        ALICE_KEY,
        paths::TEAM_ROLES,
        json!({"name": "temp2", "permissions": {}}),
    )
    .await
    .ok();
    let temp2 = app.scalar("SELECT id FROM team_roles WHERE name = 'temp2'");
    let answer = delete_json(
        &app,
        ALICE_KEY,
        &format!("{}//", paths::TEAM_ROLES),
        json!({"role_id": temp2}),
    )
    .await;
    assert_eq!(answer.ok()["message"], "Role temp2 removed from team");
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM team_roles WHERE team_id = 1"),
        3
    );
}

#[tokio::test]
async fn role_removal_refusals_change_nothing() {
    let app = TestApp::demo();
    let before = team_state(&app);
    let long = "r".repeat(201);
    let cases: Vec<(String, Option<Value>, u16, &str, &str)> = vec![
        (
            paths::team_role_removal(&long),
            None,
            400,
            "invalid_args",
            "role name is too long",
        ),
        (
            paths::team_role_removal("member"),
            Some(json!({"role_id": "3"})),
            400,
            "invalid_args",
            "Missing 'id' (role name) or 'role_id' parameter",
        ),
        (
            paths::team_role_removal("member"),
            Some(json!({"role_id": 2.5})),
            400,
            "invalid_args",
            "Missing 'id' (role name) or 'role_id' parameter",
        ),
        (
            paths::team_role_removal("nobody"),
            None,
            404,
            "not_found",
            "Role not found",
        ),
        (
            paths::team_role_removal("x"),
            Some(json!({"role_id": 7})),
            404,
            "not_found",
            "Role not found",
        ),
        (
            paths::team_role_removal("owner"),
            None,
            403,
            "forbidden",
            "Cannot delete the owner role",
        ),
        (
            format!("{}//", paths::TEAM_ROLES),
            None,
            400,
            "invalid_args",
            "Missing 'id' (role name) or 'role_id' parameter",
        ),
        (
            format!("{}/", paths::TEAM_ROLES),
            Some(json!({"role_id": null})),
            400,
            "invalid_args",
            "Missing 'id' (role name) or 'role_id' parameter",
        ),
        (
            paths::team_role_removal("x"),
            Some(json!({"role_id": 1})),
            403,
            "forbidden",
            "Cannot delete the owner role",
        ),
        // dave and frank hold `manager`; carol and frank `member` (erin's removed membership
        // does not count).
        (
            paths::team_role_removal("manager"),
            Some(json!({})),
            409,
            "in_use",
            "Cannot delete role if there are team members with the role (2 members hold it)",
        ),
        (
            paths::team_role_removal("member"),
            None,
            409,
            "in_use",
            "Cannot delete role if there are team members with the role (2 members hold it)",
        ),
    ];
    for (uri, body, status, error, msg) in cases {
        let mut call = app.delete(&uri).key(ALICE_KEY);
        if let Some(body) = body.clone() {
            call = call.json(body);
        }
        assert_eq!(
            call.send().await.error(status, error),
            msg,
            "{uri} {body:?}"
        );
    }
    app.delete(&paths::team_role_removal("manager"))
        .key(ALICE_KEY)
        .raw("application/json", "[1]")
        .send()
        .await
        .error(400, "invalid_args");
    assert_eq!(team_state(&app), before);
    // One holder is named as one.
    delete_json(
        &app,
        ALICE_KEY,
        &paths::team_member_roles(FRANK_ID),
        json!({"role": "manager"}),
    )
    .await
    .ok();
    let msg = app
        .delete(&paths::team_role_removal("manager"))
        .key(ALICE_KEY)
        .send()
        .await
        .error(409, "in_use");
    assert_eq!(
        msg,
        "Cannot delete role if there are team members with the role (1 member holds it)"
    );
}

// ---- N17, N17a -----------------------------------------------------------------------

#[tokio::test]
async fn an_invitation_is_recorded_with_a_token_hash_and_listed_while_pending() {
    let app = TestApp::demo();
    let listed = app
        .get(&format!("{}/", paths::TEAM_INVITES))
        .key(DAVE_TEAM_KEY)
        .send()
        .await
        .ok();
    assert_eq!(
        listed,
        json!([{"email": PENDING_INVITE_EMAIL, "role": "member", "invited_by": ALICE_ID,
                "created_at": NOW - 3900.0, "expires_at": NOW - 3900.0 + 14_400.0}])
    );
    let answer = post_json(
        &app,
        FRANK_TEAM_KEY,
        &format!("{}/?email=a%2Bb%40x.com&role=member", paths::TEAM_INVITE),
        json!({}),
    )
    .await;
    assert_eq!(
        answer.ok(),
        json!({"success": true, "msg": "New invitation sent to a+b@x.com"})
    );
    let row = app
        .text(
            "SELECT email || '|' || role_id || '|' || invited_by || '|' || created_at || '|' ||
                    expires_at || '|' || length(token_hash) || '|' || (token_hash GLOB '*[^0-9a-f]*')
             FROM team_invitations WHERE email = 'a+b@x.com'",
        )
        .unwrap();
    assert_eq!(
        row,
        format!("a+b@x.com|3|{FRANK_ID}|{NOW:.1}|{:.1}|64|0", NOW + 14_400.0)
    );
    // The docs' body form; for each field the query wins.
    post_json(
        &app,
        ALICE_KEY,
        paths::TEAM_INVITE,
        json!({"email": "body@example.org", "role": MARKUP_ROLE}),
    )
    .await
    .ok();
    post_json(
        &app,
        ALICE_KEY,
        &format!("{}?role=manager", paths::TEAM_INVITE),
        json!({"email": "mixed@example.org", "role": "member"}),
    )
    .await
    .ok();
    app.post(&format!(
        "{}?email=nobody%40example.org&role=member&email=x",
        paths::TEAM_INVITE
    ))
    .key(ALICE_KEY)
    .send()
    .await
    .ok();
    let listed = app
        .get(paths::TEAM_INVITES)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let summary: Vec<String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            format!(
                "{} {}",
                i["email"].as_str().unwrap(),
                i["role"].as_str().unwrap()
            )
        })
        .collect();
    // Newest first; equal times by insertion, newest first.
    assert_eq!(
        summary,
        [
            "nobody@example.org member",
            "mixed@example.org manager",
            "body@example.org <b>auditor</b>",
            "a+b@x.com member",
            "dana@example.org member",
        ]
    );
    assert!(!listed.to_string().contains("token"));
    // Invitations are not memberships: seed op 7 is unchanged.
    let members = app
        .get(paths::TEAM_MEMBERS)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(members.as_array().unwrap().len(), 4);
    // Four hours later they have expired.
    app.state.clock.set(NOW + 14_400.0);
    let listed = app
        .get(paths::TEAM_INVITES)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert_eq!(listed, json!([]));
}

#[tokio::test]
async fn a_new_invitation_to_an_address_ends_the_pending_one_after_the_minute() {
    let app = TestApp::demo();
    let invite = |email: &'static str, role: &'static str| {
        let app = &app;
        async move {
            post_json(
                app,
                ALICE_KEY,
                &format!("{}?email={email}&role={role}", paths::TEAM_INVITE),
                json!({}),
            )
            .await
        }
    };
    invite("pat%40example.org", "member").await.ok();
    app.state.clock.set(NOW + 59.5);
    let before = team_state(&app);
    let refused = invite("PAT%40Example.org", "manager").await;
    assert_eq!(
        refused.error(429, "rate_limited"),
        "Error: invitation already sent to PAT@Example.org only 59 seconds ago."
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(team_state(&app), before);
    app.state.clock.set(NOW + 60.0);
    invite("PAT%40Example.org", "manager").await.ok();
    assert_eq!(
        app.scalar_f64("SELECT expires_at FROM team_invitations WHERE email = 'pat@example.org'"),
        Some(NOW + 60.0)
    );
    let listed = app
        .get(paths::TEAM_INVITES)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    let emails: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["PAT@Example.org", PENDING_INVITE_EMAIL]);
}

#[tokio::test]
async fn a_team_sends_at_most_twenty_invitations_an_hour() {
    let app = TestApp::demo();
    for n in 0..20 {
        app.state.clock.set(NOW + n as f64 * 10.0);
        post_json(
            &app,
            FRANK_TEAM_KEY,
            &format!(
                "{}?email=q{n}%40example.org&role=member",
                paths::TEAM_INVITE
            ),
            json!({}),
        )
        .await
        .ok();
    }
    app.state.clock.set(NOW + 600.0);
    let before = team_state(&app);
    let refused = post_json(
        &app,
        ALICE_KEY,
        &format!(
            "{}?email=late%40example.org&role=member",
            paths::TEAM_INVITE
        ),
        json!({}),
    )
    .await;
    // The first of the hour (sent at NOW) leaves the window at NOW + 3600.
    assert_eq!(
        refused.error(429, "rate_limited"),
        "at most 20 invitations per hour; retry after 3000 s"
    );
    assert_eq!(refused.header("retry-after"), Some("3000"));
    assert_eq!(team_state(&app), before);
    // bob's team has its own quota.
    post_json(
        &app,
        BOB_KEY,
        &format!(
            "{}?email=late%40example.org&role=member",
            paths::TEAM_INVITE
        ),
        json!({}),
    )
    .await
    .ok();
    app.state.clock.set(NOW + 3600.0);
    post_json(
        &app,
        ALICE_KEY,
        &format!(
            "{}?email=late%40example.org&role=member",
            paths::TEAM_INVITE
        ),
        json!({}),
    )
    .await
    .ok();
}

#[tokio::test]
async fn invitation_refusals_change_nothing() {
    let app = TestApp::demo();
    let narrow = add_member(&app, 952, team_manager_only());
    let before = team_state(&app);
    let long = format!("{}@example.org", "a".repeat(243));
    let cases: Vec<(&str, String, u16, &str, String)> = vec![
        (
            ALICE_KEY,
            "?role=member".into(),
            400,
            "invalid_args",
            "email and role are required".into(),
        ),
        (
            ALICE_KEY,
            "?email=a%40b.org".into(),
            400,
            "invalid_args",
            "email and role are required".into(),
        ),
        (
            ALICE_KEY,
            "?email=&role=member".into(),
            400,
            "invalid_args",
            "email and role are required".into(),
        ),
        (
            ALICE_KEY,
            "?email=not-an-address&role=member".into(),
            400,
            "invalid_args",
            "invalid email address".into(),
        ),
        (
            ALICE_KEY,
            "?email=a%40b.c&role=member".into(),
            400,
            "invalid_args",
            "invalid email address".into(),
        ),
        (
            ALICE_KEY,
            "?email=%3Cb%3E%40x.org&role=member".into(),
            400,
            "invalid_args",
            "invalid email address".into(),
        ),
        (
            ALICE_KEY,
            format!("?email={long}&role=member"),
            400,
            "invalid_args",
            "invalid email address".into(),
        ),
        (
            ALICE_KEY,
            "?email=ALICE%40example.com&role=member".into(),
            400,
            "invalid_args",
            "User cannot be invited to their own team.".into(),
        ),
        (
            ALICE_KEY,
            "?email=z%40example.org&role=owner".into(),
            400,
            "invalid_args",
            "The owner role cannot be given to an invitee".into(),
        ),
        (
            ALICE_KEY,
            "?email=z%40example.org&role=Owner".into(),
            404,
            "not_found",
            "Invalid role choice for invitee".into(),
        ),
        (
            ALICE_KEY,
            "?email=z%40example.org&role=lead".into(),
            404,
            "not_found",
            "Invalid role choice for invitee".into(),
        ),
        (
            &narrow,
            "?email=z%40example.org&role=member".into(),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold".into(),
        ),
        // `manager` holds every group but not `member`'s route entry
        // `api.instance.request_logs`: dave may not give `member`.
        (
            DAVE_TEAM_KEY,
            "?email=z%40example.org&role=member".into(),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold".into(),
        ),
        (
            ALICE_KEY,
            "?email=Carol%40Example.com&role=member".into(),
            409,
            "already_member",
            "User is already a member of this team.".into(),
        ),
        (
            GUSTAV_KEY,
            "?email=z%40example.org&role=member".into(),
            404,
            "no_team",
            "you are not a member of any team".into(),
        ),
        (
            CAROL_TEAM_KEY,
            "?email=z%40example.org&role=member".into(),
            403,
            "forbidden",
            "this key's team role lacks the permission team_write".into(),
        ),
    ];
    for (key, query, status, error, msg) in cases {
        let uri = format!("{}{query}", paths::TEAM_INVITE);
        let answer = post_json(&app, key, &uri, json!({})).await;
        assert_eq!(answer.error(status, error), msg, "{query}");
    }
    // A body field of the wrong type is refused, even where the query gives the value
    // (what the fuzzer sent: the query's role and a body role that is an object).
    let uri = format!(
        "{}?email=training%40alice.example&role=manager",
        paths::TEAM_INVITE
    );
    for (body, field) in [
        (json!({"role": {}}), "role"),
        (json!({"email": 7, "role": "member"}), "email"),
        (json!({"": {"w": 5.9e-8}, "role": [1]}), "role"),
    ] {
        let answer = post_json(&app, ALICE_KEY, &uri, body.clone()).await;
        assert_eq!(
            answer.error(400, "invalid_args"),
            format!("{field} must be a string"),
            "{body}"
        );
    }
    // erin was removed: her address may be invited again.
    assert_eq!(team_state(&app), before);
    post_json(
        &app,
        ALICE_KEY,
        &format!(
            "{}?email=erin%40example.com&role=member",
            paths::TEAM_INVITE
        ),
        json!({}),
    )
    .await
    .ok();
}

// ---- N18 ------------------------------------------------------------------------------

#[tokio::test]
async fn removing_a_member_ends_the_membership_and_deletes_their_team_keys_at_once() {
    let app = TestApp::demo();
    // dave has a personal key and a team key.
    app.get(paths::TEAM_MEMBERS)
        .key(DAVE_TEAM_KEY)
        .send()
        .await
        .ok();
    app.state.clock.set(NOW + 5.0);
    let answer = app
        .delete(&paths::team_member(DAVE_ID))
        .key(ALICE_KEY)
        .json(json!({}))
        .send()
        .await;
    assert_eq!(
        answer.ok(),
        json!({"status": "success", "message": "User removed from the team."})
    );
    assert_eq!(
        app.scalar_f64("SELECT removed_at FROM team_members WHERE user_id = 4"),
        Some(NOW + 5.0)
    );
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM api_keys WHERE user_id = 4 AND team_id IS NOT NULL"),
        0
    );
    assert_eq!(
        app.scalar("SELECT COUNT(*) FROM api_keys WHERE user_id = 4 AND team_id IS NULL"),
        1
    );
    let msg = app
        .get(paths::TEAM_MEMBERS)
        .key(DAVE_TEAM_KEY)
        .send()
        .await
        .error(401, "auth_error");
    assert_eq!(msg, "Invalid user key");
    // His personal key still works; he is in no team now.
    app.get(paths::CURRENT_USER).key(DAVE_KEY).send().await.ok();
    app.get(paths::TEAM_ROLES_FULL)
        .key(DAVE_KEY)
        .send()
        .await
        .error(404, "no_team");
    // He leaves seed op 7 and no longer counts for N16.
    let members = app
        .get(paths::TEAM_MEMBERS)
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    assert!(!members.to_string().contains("dave@example.com"));
    let msg = app
        .delete(&paths::team_role_removal("manager"))
        .key(ALICE_KEY)
        .send()
        .await
        .error(409, "in_use");
    assert!(msg.ends_with("(1 member holds it)"), "{msg}");
    // Without a body, without the trailing slash.
    app.delete(&format!("{}/team/members/{CAROL_ID}", "/api/v0"))
        .key(DAVE_KEY.replace("dave", "x").as_str())
        .send()
        .await
        .error(401, "auth_error");
    app.delete(&format!("/api/v0/team/members/{CAROL_ID}"))
        .key(ALICE_KEY)
        .send()
        .await
        .ok();
    app.get(paths::CURRENT_USER)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .error(401, "auth_error");
}

#[tokio::test]
async fn member_removal_refusals_change_nothing() {
    let app = TestApp::demo();
    let before = team_state(&app);
    let cases: Vec<(&str, String, u16, &str, &str)> = vec![
        (
            ALICE_KEY,
            "/api/v0/team/members/abc/".into(),
            400,
            "invalid_args",
            "Missing team member's user id",
        ),
        (
            ALICE_KEY,
            "/api/v0/team/members/-3/".into(),
            400,
            "invalid_args",
            "Missing team member's user id",
        ),
        (
            ALICE_KEY,
            "/api/v0/team/members/99999999999999999999/".into(),
            400,
            "invalid_args",
            "Missing team member's user id",
        ),
        (
            ALICE_KEY,
            paths::team_member(GUSTAV_ID),
            404,
            "not_found",
            "User is not a member of this team",
        ),
        (
            ALICE_KEY,
            paths::team_member(ERIN_ID),
            404,
            "not_found",
            "User is not a member of this team",
        ),
        (
            BOB_KEY,
            paths::team_member(CAROL_ID),
            404,
            "not_found",
            "User is not a member of this team",
        ),
        (
            DAVE_TEAM_KEY,
            paths::team_member(ALICE_ID),
            403,
            "forbidden",
            "The team owner cannot be removed",
        ),
        (
            ALICE_KEY,
            paths::team_member(ALICE_ID),
            403,
            "forbidden",
            "The team owner cannot be removed",
        ),
        (
            DAVE_TEAM_KEY,
            paths::team_member(DAVE_ID),
            403,
            "forbidden",
            "You cannot remove yourself",
        ),
        (
            DAVE_KEY,
            paths::team_member(DAVE_ID),
            403,
            "forbidden",
            "You cannot remove yourself",
        ),
        (
            CAROL_TEAM_KEY,
            paths::team_member(FRANK_ID),
            403,
            "forbidden",
            "this key's team role lacks the permission team_write",
        ),
        (
            GUSTAV_KEY,
            paths::team_member(CAROL_ID),
            404,
            "no_team",
            "you are not a member of any team",
        ),
    ];
    for (key, uri, status, error, msg) in cases {
        let answer = app.delete(&uri).key(key).json(json!({})).send().await;
        assert_eq!(answer.error(status, error), msg, "{uri}");
    }
    assert_eq!(team_state(&app), before);
}

// ---- N19 ------------------------------------------------------------------------------

#[tokio::test]
async fn a_members_roles_are_given_replaced_and_taken() {
    let app = TestApp::demo();
    add_member(&app, 953, None);
    let uri = paths::team_member_roles(953);
    let given = post_json(&app, ALICE_KEY, &uri, json!({"role": UNICODE_ROLE})).await;
    assert_eq!(given.ok(), json!({"msg": "success"}));
    assert_eq!(roles_of(&app, 953), "4");
    // Replace carol's single role; the answer carries the new role's permissions.
    let replaced = put_json(
        &app,
        FRANK_TEAM_KEY,
        &paths::team_member_roles(CAROL_ID),
        json!({"member_id": CAROL_ID, "role_id": MARKUP_ROLE_ID}),
    )
    .await;
    assert_eq!(
        replaced.ok(),
        json!({"success": true, "msg": "User role updated successfully",
               "new_role_permissions": {"api": {"billing_read": {}, "team_read": {}, "user_read": {}}}})
    );
    assert_eq!(roles_of(&app, CAROL_ID), "5");
    // Her key sees the change on its next request: team_read now, no instance groups.
    app.get(paths::TEAM_MEMBERS)
        .key(CAROL_TEAM_KEY)
        .send()
        .await
        .ok();
    app.get(&format!(
        "{}?owner=me&machine_ids=1001",
        paths::MAINTENANCES
    ))
    .key(CAROL_TEAM_KEY)
    .send()
    .await
    .error(403, "forbidden");
    // Take one of frank's two roles.
    let taken = delete_json(
        &app,
        ALICE_KEY,
        &format!("/api/v0/team/members/{FRANK_ID}/roles"),
        json!({"role": "member"}),
    )
    .await;
    assert_eq!(taken.ok(), json!({"msg": "success"}));
    assert_eq!(roles_of(&app, FRANK_ID), "2");
}

#[tokio::test]
async fn member_role_refusals_change_nothing() {
    let app = TestApp::demo();
    add_member(&app, 954, None);
    let narrow = add_member(&app, 955, team_manager_only());
    let before = team_state(&app);
    let roles = paths::team_member_roles;
    use axum::http::Method;
    let cases: Vec<(Method, &str, String, Value, u16, &str, &str)> = vec![
        (
            Method::POST,
            ALICE_KEY,
            "/api/v0/team/members/x/roles".into(),
            json!({"role": "member"}),
            400,
            "invalid_args",
            "Missing team member's user id",
        ),
        (
            Method::POST,
            ALICE_KEY,
            roles(954),
            json!({}),
            400,
            "invalid_args",
            "role is required",
        ),
        (
            Method::POST,
            ALICE_KEY,
            roles(954),
            json!({"role": 3}),
            400,
            "invalid_args",
            "role is required",
        ),
        (
            Method::DELETE,
            ALICE_KEY,
            roles(FRANK_ID),
            json!({"role": ""}),
            400,
            "invalid_args",
            "role is required",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({}),
            400,
            "invalid_args",
            "role_id must be an integer",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role_id": "5"}),
            400,
            "invalid_args",
            "role_id must be an integer",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role_id": 5, "member_id": FRANK_ID}),
            400,
            "invalid_args",
            "member_id does not match the path",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role_id": 5, "member_id": "3"}),
            400,
            "invalid_args",
            "member_id does not match the path",
        ),
        (
            Method::POST,
            ALICE_KEY,
            roles(954),
            json!({"role": "owner"}),
            400,
            "invalid_args",
            "The owner role cannot be assigned or removed",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role_id": OWNER_ROLE_ID}),
            400,
            "invalid_args",
            "The owner role cannot be assigned or removed",
        ),
        (
            Method::DELETE,
            ALICE_KEY,
            roles(ALICE_ID),
            json!({"role": "owner"}),
            400,
            "invalid_args",
            "The owner role cannot be assigned or removed",
        ),
        (
            Method::POST,
            ALICE_KEY,
            roles(954),
            json!({"role": "nope"}),
            404,
            "not_found",
            "Role not found",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role_id": 7}),
            404,
            "not_found",
            "Role not found",
        ),
        (
            Method::POST,
            ALICE_KEY,
            roles(GUSTAV_ID),
            json!({"role": "member"}),
            404,
            "not_found",
            "User is not a member of this team",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(ERIN_ID),
            json!({"role_id": 4}),
            404,
            "not_found",
            "User is not a member of this team",
        ),
        (
            Method::PUT,
            DAVE_TEAM_KEY,
            roles(ALICE_ID),
            json!({"role_id": 4}),
            403,
            "forbidden",
            "You cannot change the team owner's roles",
        ),
        (
            Method::POST,
            &narrow,
            roles(954),
            json!({"role": "member"}),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold",
        ),
        // Taking away a role the caller does not hold is refused too.
        (
            Method::PUT,
            &narrow,
            roles(CAROL_ID),
            json!({"role_id": 955}),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold",
        ),
        (
            Method::DELETE,
            &narrow,
            roles(FRANK_ID),
            json!({"role": "member"}),
            403,
            "forbidden",
            "you cannot grant or remove permissions you do not hold",
        ),
        (
            Method::POST,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role": "manager"}),
            409,
            "role_conflict",
            "Member already has a role; use PUT to replace it",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role_id": MEMBER_ROLE_ID}),
            409,
            "role_conflict",
            "Member already has this role",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(954),
            json!({"role_id": 4}),
            409,
            "role_conflict",
            "Member has no role; use POST",
        ),
        (
            Method::PUT,
            ALICE_KEY,
            roles(FRANK_ID),
            json!({"role_id": 4}),
            409,
            "role_conflict",
            "Member has several roles; remove extra roles first",
        ),
        (
            Method::DELETE,
            ALICE_KEY,
            roles(FRANK_ID),
            json!({"role": UNICODE_ROLE}),
            404,
            "not_found",
            "Member does not have that role",
        ),
        (
            Method::DELETE,
            ALICE_KEY,
            roles(CAROL_ID),
            json!({"role": "member"}),
            409,
            "role_conflict",
            "Cannot remove the member's only role; use PUT to replace it",
        ),
    ];
    for (method, key, uri, body, status, error, msg) in cases {
        let answer = app
            .call(method.clone(), &uri)
            .key(key)
            .json(body.clone())
            .send()
            .await;
        assert_eq!(answer.error(status, error), msg, "{method} {uri} {body}");
    }
    // N19 needs a JSON object.
    app.call(Method::POST, &roles(954))
        .key(ALICE_KEY)
        .send()
        .await
        .error(400, "invalid_json");
    assert_eq!(team_state(&app), before);
}

// ---- limits ---------------------------------------------------------------------------

#[tokio::test]
async fn oversized_and_odd_inputs_are_refused_cleanly() {
    let app = TestApp::demo();
    let before = team_state(&app);
    let huge = "x".repeat(70 * 1024);
    app.post(paths::TEAM_ROLES)
        .key(ALICE_KEY)
        .json(json!({"name": huge, "permissions": {}}))
        .send()
        .await
        .error(413, "too_large");
    app.delete(&paths::team_role_removal("x"))
        .key(ALICE_KEY)
        .json(json!({"pad": huge}))
        .send()
        .await
        .error(413, "too_large");
    // A large but allowed name is refused by its length, quoted nowhere in full.
    let big = "y".repeat(60 * 1024);
    let answer = post_json(
        &app,
        ALICE_KEY,
        paths::TEAM_ROLES,
        json!({"name": big, "permissions": {}}),
    )
    .await;
    assert_eq!(
        answer.error(400, "invalid_args"),
        "role name must be 2 to 50 characters"
    );
    let msg = post_json(
        &app,
        ALICE_KEY,
        paths::TEAM_ROLES,
        json!({"name": "ok", "permissions": {"api": {big.clone(): {}}}}),
    )
    .await
    .error(400, "invalid_args");
    assert!(msg.len() < 200, "{msg}");
    let msg = put_json(
        &app,
        ALICE_KEY,
        &paths::team_role_by_id(4),
        json!({"name": "manager"}),
    )
    .await
    .error(409, "duplicate_name");
    assert!(msg.len() < 200);
    // A path name of 200 characters is looked up; the message quotes it short.
    let long_name = "ü".repeat(200);
    let msg = app
        .delete(&paths::team_role_removal(&long_name))
        .key(ALICE_KEY)
        .send()
        .await
        .error(404, "not_found");
    assert_eq!(msg, "Role not found");
    assert_eq!(team_state(&app), before);
}
