//! The authorisation matrix: every route × every kind of caller → the documented status,
//! and no other user's data in any body.
//!
//! The one table is [`MATRIX`]; docs/security.md mirrors it. Each cell runs on a fresh
//! demo database, so the cells do not depend on each other's writes.

use crate::common;

use axum::http::Method;
use common::{Answer, TestApp, NOW};
use gpudeck_server::demo::*;
use gpudeck_server::keys;
use gpudeck_wire::operations::{self, Operation};
use gpudeck_wire::{paths, PermissionGroup};
use serde_json::{json, Value};

/// Who calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// alice, whose resources every request names: the control column.
    Owner,
    /// No `Authorization` header and no `api_key`.
    NoKey,
    /// alice's valid key under the wrong scheme (`Token <key>`).
    Malformed,
    /// A key that is not in the database (one character off alice's).
    Unknown,
    /// bob's personal key, against alice's resources.
    OtherUser,
    /// One of alice's derived subaccount keys (it authenticates as the subaccount).
    Subaccount,
    /// A team key in alice's team whose role has every permission group but the one the
    /// route needs (for `users/current`, which needs none: every group but `team_read`).
    TeamLacking,
}

const KINDS: [Kind; 7] = [
    Kind::Owner,
    Kind::NoKey,
    Kind::Malformed,
    Kind::Unknown,
    Kind::OtherUser,
    Kind::Subaccount,
    Kind::TeamLacking,
];

/// The operations: the 47 of the API, the public OpenAPI document, which server answers
/// (a project rule) and the three demo triggers (D1–D3, a project rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    CurrentUser,
    Maintenances,
    Defrag,
    DeleteUserTemplate,
    DeleteTemplateAlias,
    AcceptVolume,
    Subaccounts,
    TeamRole,
    TeamMembers,
    Machines,
    Machine,
    ScheduleOne,
    ScheduleBatch,
    CancelMachine,
    CancelWindow,
    CancelBatch,
    SearchTemplates,
    TemplateLibrary,
    SearchVolumes,
    Volumes,
    DeleteVolume,
    CreateSubaccount,
    TeamRoles,
    CreateRole,
    UpdateRole,
    RemoveRole,
    RemoveRoleById,
    Invite,
    Invitations,
    RemoveMember,
    GiveRole,
    ReplaceRole,
    TakeRole,
    ListMachine,
    UnlistMachine,
    OpenApi,
    Server,
    MachineReports,
    MachineEarnings,
    SetMinBid,
    NotificationTypes,
    NotificationPrefs,
    ChangeNotificationPrefs,
    Webhooks,
    CreateWebhook,
    UpdateWebhook,
    DeleteWebhook,
    RotateWebhookSecret,
    TestWebhook,
    DemoHealth,
    DemoReport,
    DemoEvent,
}

/// An expected answer: status, `error` code (empty for 2xx) and a piece of the body.
type Cell = (u16, &'static str, &'static str);

const OK: Cell = (200, "", "");
const NO_KEY: Cell = (401, "auth_error", "an API key is required");
const MALFORMED: Cell = (401, "auth_error", "Bearer <API key>");
const UNKNOWN: Cell = (401, "auth_error", "Invalid user key");
const NO_TEAM: Cell = (404, "no_team", "not a member of any team");

/// THE table. Columns: owner (alice), no key, malformed header, unknown key, another
/// user's key (bob), a subaccount's key (alice's subaccount 11), a team key whose role
/// lacks the route's permission.
#[rustfmt::skip]
const MATRIX: [(Route, [Cell; 7]); 52] = [
    (Route::CurrentUser, [OK, NO_KEY, MALFORMED, UNKNOWN, OK, OK, OK]),
    (Route::Maintenances, [OK, NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Include only machine_ids that exist and are owned by you"),
        (404, "not_found", "Include only machine_ids that exist and are owned by you"),
        (403, "forbidden", "lacks the permission instance_read")]),
    (Route::Defrag, [(200, "", "\"success\":true"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "{\"success\":false,\"defragmented\":null}"),
        (200, "", "{\"success\":false,\"defragmented\":null}"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::DeleteUserTemplate, [OK, NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "user_id 1 is not you"),
        (403, "forbidden", "user_id 1 is not you"),
        (403, "forbidden", "lacks the permission instance_write")]),
    (Route::DeleteTemplateAlias, [OK, NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "template 501 is not yours"),
        (403, "forbidden", "template 501 is not yours"),
        (403, "forbidden", "lacks the permission instance_write")]),
    // Volume asks are offers on the marketplace: anyone may accept one.
    (Route::AcceptVolume, [OK, NO_KEY, MALFORMED, UNKNOWN, OK, OK,
        (403, "forbidden", "lacks the permission instance_write")]),
    (Route::Subaccounts, [OK, NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "1 subaccount"),
        (200, "", "0 subaccounts"),
        (403, "forbidden", "lacks the permission user_read")]),
    (Route::TeamRole, [OK, NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "\"name\":\"owner\""),
        (404, "no_team", "not a member of any team"),
        (403, "forbidden", "lacks the permission team_read")]),
    (Route::TeamMembers, [OK, NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "bob@example.com"),
        (404, "no_team", "not a member of any team"),
        (403, "forbidden", "lacks the permission team_read")]),
    // bob sees his own machines; a subaccount has none.
    (Route::Machines, [(200, "", "alice-gpu-001"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "bob-node-1"),
        (200, "", "{\"machines\":[]}"),
        (403, "forbidden", "lacks the permission machine_read")]),
    (Route::Machine, [(200, "", "alice-gpu-001"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_read")]),
    (Route::ScheduleOne, [(200, "", "notifications sent"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::ScheduleBatch, [(200, "", "\"success\":true"), NO_KEY, MALFORMED, UNKNOWN,
        (400, "nothing_scheduled", "No such machine id or not owned"),
        (400, "nothing_scheduled", "No such machine id or not owned"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::CancelMachine, [(200, "", "deleted 1 scheduled"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::CancelWindow, [(200, "", "Maintenance cancelled"), NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "User is not the owner of the machine"),
        (403, "forbidden", "User is not the owner of the machine"),
        (403, "forbidden", "lacks the permission machine_write")]),
    // Someone else's window reads as unknown in a batch.
    (Route::CancelBatch, [(200, "", "Maintenance record deleted"), NO_KEY, MALFORMED, UNKNOWN,
        (400, "nothing_cancelled", "Maintenance record not found"),
        (400, "nothing_cancelled", "Maintenance record not found"),
        (403, "forbidden", "lacks the permission machine_write")]),
    // Public templates for everyone, private ones for their creator only.
    (Route::SearchTemplates, [(200, "", "alice-private-llm"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "bob-secret"),
        (200, "", "\"templates_found\":4"),
        (403, "forbidden", "lacks the permission user_read")]),
    (Route::TemplateLibrary, [(200, "", "\"user_template_id\":506"), NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "you may only read your own templates"),
        (403, "forbidden", "you may only read your own templates"),
        (403, "forbidden", "lacks the permission instance_read")]),
    // Offers are the marketplace's: anyone with a key may search them.
    (Route::SearchVolumes, [(200, "", "\"offers\":[{"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "\"offers\":[{"),
        (200, "", "\"offers\":[{"),
        (403, "forbidden", "lacks the permission misc")]),
    (Route::Volumes, [(200, "", "\"label\":\"datasets\""), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "\"id\":20118481"),
        (200, "", "{\"volumes\":[]}"),
        (403, "forbidden", "lacks the permission instance_read")]),
    (Route::DeleteVolume, [(200, "", "{\"success\":true}"), NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "You are not authorized to delete this volume"),
        (403, "forbidden", "You are not authorized to delete this volume"),
        (403, "forbidden", "lacks the permission instance_write")]),
    // Any account that is not itself a subaccount may create its own subaccounts.
    (Route::CreateSubaccount, [(200, "", "new-sub@example.org"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "new-sub@example.org"),
        (403, "forbidden", "subaccounts cannot create subaccounts"),
        (403, "forbidden", "lacks the permission user_write")]),
    // Team operations act on the caller's current team: bob's is his own, where alice's
    // roles and members do not exist; a subaccount has none.
    (Route::TeamRoles, [(200, "", "\"identifier\":\"team_manager\""), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "\"id\":7,"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_read")]),
    (Route::CreateRole, [(200, "", "{\"msg\":\"success\"}"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "{\"msg\":\"success\"}"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::UpdateRole, [(200, "", "Successfully Updated Team Role For Nachtschicht"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Role with id 4 not found."),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::RemoveRole, [(200, "", "removed from team"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Role not found"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::RemoveRoleById, [(200, "", "removed from team"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Role not found"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::Invite, [(200, "", "New invitation sent to new-person@example.org"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "New invitation sent to new-person@example.org"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::Invitations, [(200, "", "dana@example.org"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "[]"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_read")]),
    (Route::RemoveMember, [(200, "", "User removed from the team."), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "User is not a member of this team"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    // Through the interface no member is ever left without a role, so giving a first one
    // reaches its conflict (team.rs gives one to a member seeded without).
    (Route::GiveRole, [(409, "role_conflict", "Member already has a role"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Role not found"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::ReplaceRole, [(200, "", "User role updated successfully"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Role not found"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    (Route::TakeRole, [(200, "", "{\"msg\":\"success\"}"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "User is not a member of this team"),
        NO_TEAM,
        (403, "forbidden", "lacks the permission team_write")]),
    // Someone else's machine reads as absent.
    (Route::ListMachine, [(200, "", "\"extended\":1,\"msg\":\"offer updated\""), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::UnlistMachine, [(200, "", "{\"success\":true,\"machine_id\":1003,\"user_id\":1}"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::OpenApi, [OK, OK, OK, OK, OK, OK, OK]),
    // Says only whether the data is the demo's: nothing of any account.
    (Route::Server, [(200, "", "{\"data\":\"demo\"}"), (200, "", "{\"data\":\"demo\"}"),
        OK, OK, OK, OK, OK]),
    // Someone else's machine reads as absent.
    (Route::MachineReports, [(200, "", "\"problem\":\"Other\""), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_read")]),
    (Route::MachineEarnings, [(200, "", "\"username\":\"alice\""), NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "you may only read your own earnings"),
        (403, "forbidden", "you may only read your own earnings"),
        (403, "forbidden", "lacks the permission billing_read")]),
    (Route::SetMinBid, [(200, "", "\"you_sent\":{"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    // Types, preferences and webhooks are the key's user's own, never a team's: bob and
    // the subaccount see their own or nothing; alice's webhooks read as absent to them.
    (Route::NotificationTypes, [(200, "", "host:machine_offline"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "host:machine_offline"),
        (200, "", "client:low_credit"),
        (403, "forbidden", "lacks the permission user_read")]),
    (Route::NotificationPrefs, [(200, "", "\"machine_offline\":{\"email\":true,\"webhooks\":true}"), NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "you may only read or change your own notification preferences"),
        (403, "forbidden", "you may only read or change your own notification preferences"),
        (403, "forbidden", "lacks the permission user_read")]),
    (Route::ChangeNotificationPrefs, [(200, "", "\"outbid\":{\"email\":true,\"webhooks\":true}"), NO_KEY, MALFORMED, UNKNOWN,
        (403, "forbidden", "you may only read or change your own notification preferences"),
        (403, "forbidden", "you may only read or change your own notification preferences"),
        (403, "forbidden", "lacks the permission user_write")]),
    (Route::Webhooks, [(200, "", ALICE_WEBHOOK_URL), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", BOB_WEBHOOK_URL),
        (200, "", "{\"success\":true,\"webhooks\":[]}"),
        (403, "forbidden", "lacks the permission user_read")]),
    (Route::CreateWebhook, [(200, "", "\"webhook_secret\":"), NO_KEY, MALFORMED, UNKNOWN,
        (200, "", "\"webhook_secret\":"),
        (200, "", "\"webhook_secret\":"),
        (403, "forbidden", "lacks the permission user_write")]),
    (Route::UpdateWebhook, [(200, "", "\"name\":\"Renamed pager\""), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Webhook not found"),
        (404, "not_found", "Webhook not found"),
        (403, "forbidden", "lacks the permission user_write")]),
    (Route::DeleteWebhook, [(200, "", "{\"success\":true}"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Webhook not found"),
        (404, "not_found", "Webhook not found"),
        (403, "forbidden", "lacks the permission user_write")]),
    (Route::RotateWebhookSecret, [(200, "", "\"webhook_secret\":"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Webhook not found"),
        (404, "not_found", "Webhook not found"),
        (403, "forbidden", "lacks the permission user_write")]),
    // alice's webhook on her own network: found, and refused before any connection.
    (Route::TestWebhook, [(400, "undeliverable", "Webhook URL is not deliverable"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "Webhook not found"),
        (404, "not_found", "Webhook not found"),
        (403, "forbidden", "lacks the permission user_write")]),
    // The demo triggers (the matrix runs in demo mode): alice's machine only.
    (Route::DemoHealth, [(200, "", "\"gpu_max_cur_temp\":70.0"), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::DemoReport, [(200, "", "\"message\":\"matrix\""), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
    (Route::DemoEvent, [(200, "", "\"key\":\"host:near_end_date\""), NO_KEY, MALFORMED, UNKNOWN,
        (404, "not_found", "No such machine id"),
        (404, "not_found", "No such machine id"),
        (403, "forbidden", "lacks the permission machine_write")]),
];

/// The operation of the table (`gpudeck_wire::operations`) each route is; `None` for the
/// OpenAPI document, which is no operation of the interface.
fn operation(route: Route) -> Option<&'static Operation> {
    let operation = match route {
        Route::OpenApi => return None,
        Route::CurrentUser => &operations::CURRENT_USER,
        Route::Server => &operations::SERVER,
        Route::Maintenances => &operations::WINDOWS,
        Route::Defrag => &operations::DEFRAG_OFFERS,
        Route::DeleteUserTemplate => &operations::DELETE_TEMPLATE,
        Route::DeleteTemplateAlias => &operations::DELETE_TEMPLATE_ALIAS,
        Route::AcceptVolume => &operations::ACCEPT_VOLUME_ASK,
        Route::Subaccounts => &operations::SUBACCOUNTS,
        Route::TeamRole => &operations::TEAM_ROLE,
        Route::TeamMembers => &operations::TEAM_MEMBERS,
        Route::Machines => &operations::MACHINES,
        Route::Machine => &operations::MACHINE,
        Route::ScheduleOne => &operations::SCHEDULE_WINDOW,
        Route::ScheduleBatch => &operations::SCHEDULE_WINDOWS,
        Route::CancelMachine => &operations::CANCEL_MACHINE_WINDOWS,
        Route::CancelWindow => &operations::CANCEL_WINDOW,
        Route::CancelBatch => &operations::CANCEL_WINDOWS,
        Route::SearchTemplates => &operations::SEARCH_TEMPLATES,
        Route::TemplateLibrary => &operations::TEMPLATE_LIBRARY,
        Route::SearchVolumes => &operations::SEARCH_VOLUME_OFFERS,
        Route::Volumes => &operations::VOLUMES,
        Route::DeleteVolume => &operations::DELETE_VOLUME,
        Route::CreateSubaccount => &operations::CREATE_SUBACCOUNT,
        Route::TeamRoles => &operations::TEAM_ROLES,
        Route::CreateRole => &operations::CREATE_ROLE,
        Route::UpdateRole => &operations::UPDATE_ROLE,
        // N16 with an empty name, the role named by the body's `role_id`.
        Route::RemoveRole | Route::RemoveRoleById => &operations::REMOVE_ROLE,
        Route::Invite => &operations::INVITE_MEMBER,
        Route::Invitations => &operations::INVITATIONS,
        Route::RemoveMember => &operations::REMOVE_MEMBER,
        Route::GiveRole => &operations::GIVE_MEMBER_ROLE,
        Route::ReplaceRole => &operations::REPLACE_MEMBER_ROLE,
        Route::TakeRole => &operations::TAKE_MEMBER_ROLE,
        Route::ListMachine => &operations::LIST_MACHINE,
        Route::UnlistMachine => &operations::UNLIST_MACHINE,
        Route::MachineReports => &operations::MACHINE_REPORTS,
        Route::MachineEarnings => &operations::MACHINE_EARNINGS,
        Route::SetMinBid => &operations::SET_MIN_BID,
        Route::NotificationTypes => &operations::NOTIFICATION_TYPES,
        Route::NotificationPrefs => &operations::NOTIFICATION_PREFERENCES,
        Route::ChangeNotificationPrefs => &operations::CHANGE_NOTIFICATION_PREFERENCES,
        Route::Webhooks => &operations::WEBHOOKS,
        Route::CreateWebhook => &operations::CREATE_WEBHOOK,
        Route::UpdateWebhook => &operations::UPDATE_WEBHOOK,
        Route::DeleteWebhook => &operations::DELETE_WEBHOOK,
        Route::RotateWebhookSecret => &operations::ROTATE_WEBHOOK_SECRET,
        Route::TestWebhook => &operations::TEST_WEBHOOK,
        Route::DemoHealth => &operations::DEMO_MACHINE_HEALTH,
        Route::DemoReport => &operations::DEMO_MACHINE_REPORT,
        Route::DemoEvent => &operations::DEMO_MACHINE_EVENT,
    };
    Some(operation)
}

/// The permission each route needs of a team key (`None`: none), as the table says.
fn needs(route: Route) -> Option<PermissionGroup> {
    operation(route).and_then(|operation| operation.permission)
}

#[test]
fn the_matrix_has_a_row_for_every_operation_of_the_table() {
    for listed in operations::ALL.into_iter().chain(operations::DEMO) {
        assert!(
            MATRIX
                .iter()
                .any(|&(route, _)| operation(route) == Some(listed)),
            "{} has no row",
            listed.name
        );
    }
}

/// The subaccount whose key is used.
const SUBACCOUNT: i64 = ALICE_SUBACCOUNTS[0];

/// Adds to alice's team a member whose only role grants every group but `missing`, with
/// a team key; returns (user id, key).
fn add_lacking_member(app: &TestApp, missing: PermissionGroup) -> (i64, String) {
    let user_id = 900
        + PermissionGroup::ALL
            .iter()
            .position(|g| *g == missing)
            .unwrap() as i64;
    let key = format!("matrix-team-key-without-{missing}-000000000000");
    let mut api = serde_json::Map::new();
    for group in PermissionGroup::ALL.into_iter().filter(|g| *g != missing) {
        api.insert(group.as_str().to_owned(), json!({}));
    }
    let permissions = json!({ "api": api }).to_string();
    let key_for_db = key.clone();
    app.state
        .db
        .with_conn(move |c| {
            c.execute(
                "INSERT OR IGNORE INTO users (id, email, username, created_at)
                 VALUES (?1, ?2, ?3, 0)",
                rusqlite::params![
                    user_id,
                    format!("lacks-{missing}@matrix.example"),
                    format!("lacks-{missing}")
                ],
            )?;
            c.execute(
                "INSERT OR IGNORE INTO team_roles (id, team_id, name, permissions) VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![
                    user_id,
                    ALICE_TEAM_ID,
                    format!("all but {missing}"),
                    permissions
                ],
            )?;
            c.execute(
                "INSERT OR IGNORE INTO team_members (id, team_id, user_id) VALUES (?1, ?2, ?3)",
                rusqlite::params![user_id, ALICE_TEAM_ID, user_id],
            )?;
            c.execute(
                "INSERT OR IGNORE INTO team_member_roles (member_id, role_id) VALUES (?1, ?1)",
                [user_id],
            )?;
            c.execute(
                "INSERT OR IGNORE INTO api_keys (key_hash, user_id, team_id, created_at)
                 VALUES (?1, ?2, ?3, 0)",
                rusqlite::params![keys::hash_key(&key_for_db), user_id, ALICE_TEAM_ID],
            )?;
            Ok(())
        })
        .unwrap();
    (user_id, key)
}

/// The caller's identity in a cell: the `Authorization` header (if any) and the user ids
/// whose data it may see.
struct Caller {
    authorization: Option<String>,
    /// The user id path parameters name (alice's, except a team key names its own).
    path_user: i64,
    own: Vec<i64>,
}

fn caller(app: &TestApp, kind: Kind, route: Route) -> Caller {
    let bearer = |key: &str| Some(format!("Bearer {key}"));
    match kind {
        Kind::Owner => Caller {
            authorization: bearer(ALICE_KEY),
            path_user: ALICE_ID,
            // alice sees her subaccounts and the members of her team.
            own: vec![
                ALICE_ID, 11, 12, 13, 14, CAROL_ID, DAVE_ID, FRANK_ID, ERIN_ID,
            ],
        },
        Kind::NoKey => Caller {
            authorization: None,
            path_user: ALICE_ID,
            own: vec![],
        },
        Kind::Malformed => Caller {
            authorization: Some(format!("Token {ALICE_KEY}")),
            path_user: ALICE_ID,
            own: vec![],
        },
        Kind::Unknown => Caller {
            authorization: bearer(&ALICE_KEY.replace("0001", "0009")),
            path_user: ALICE_ID,
            own: vec![],
        },
        Kind::OtherUser => Caller {
            authorization: bearer(BOB_KEY),
            path_user: ALICE_ID,
            own: vec![BOB_ID, BOB_SUBACCOUNT],
        },
        Kind::Subaccount => Caller {
            authorization: bearer(&keys::subaccount_key(&app.state.secret, SUBACCOUNT)),
            path_user: ALICE_ID,
            own: vec![SUBACCOUNT],
        },
        Kind::TeamLacking => {
            let missing = needs(route).unwrap_or(PermissionGroup::TeamRead);
            let (id, key) = add_lacking_member(app, missing);
            Caller {
                authorization: bearer(&key),
                path_user: id,
                own: vec![id],
            }
        }
    }
}

/// The request of `route`, always naming alice's resources.
async fn request(app: &TestApp, route: Route, caller: &Caller) -> Answer {
    let (method, uri, body) = match route {
        Route::CurrentUser => (Method::GET, paths::CURRENT_USER.to_owned(), None),
        Route::Maintenances => (
            Method::GET,
            format!(
                "{}?owner=me&machine_ids=%5B1001%2C+1002%5D",
                paths::MAINTENANCES
            ),
            None,
        ),
        Route::Defrag => (
            Method::PUT,
            paths::DEFRAG_OFFERS.to_owned(),
            Some(json!({"machine_ids": [FRAGMENTED_MACHINE, FRAGMENTED_MACHINE_2]})),
        ),
        Route::DeleteUserTemplate => (
            Method::DELETE,
            paths::user_templates(caller.path_user),
            Some(json!({ "template_id": TEMPLATE_FREE })),
        ),
        Route::DeleteTemplateAlias => (
            Method::DELETE,
            format!("{}/", paths::TEMPLATE_ALIAS),
            Some(json!({ "template_id": TEMPLATE_FREE })),
        ),
        Route::AcceptVolume => (
            Method::PUT,
            paths::VOLUMES.to_owned(),
            Some(json!({"id": ASK_500_FREE, "size": 1})),
        ),
        Route::Subaccounts => (
            Method::GET,
            format!("{}?owner=me", paths::SUBACCOUNTS),
            None,
        ),
        Route::TeamRole => (Method::GET, paths::team_role("owner"), None),
        Route::TeamMembers => (Method::GET, paths::TEAM_MEMBERS.to_owned(), None),
        Route::Machines => (Method::GET, format!("{}?owner=me", paths::MACHINES), None),
        Route::Machine => (
            Method::GET,
            format!("{}?owner=me", paths::machine(1001)),
            None,
        ),
        Route::ScheduleOne => (
            Method::PUT,
            paths::machine_dnotify(1001),
            Some(
                json!({"client_id": "me", "sdate": NOW + 86_400.0, "duration": 2.0,
                        "maintenance_category": "power"}),
            ),
        ),
        Route::ScheduleBatch => (
            Method::POST,
            paths::MAINTENANCES_BATCH.to_owned(),
            Some(json!({"machine_ids": [1001, 1002], "sdate": NOW + 86_400.0})),
        ),
        Route::CancelMachine => (
            Method::PUT,
            paths::machine_cancel_maint(MARKETPLACE_MACHINE),
            Some(json!({"client_id": "me", "machine_id": MARKETPLACE_MACHINE})),
        ),
        Route::CancelWindow => (
            Method::DELETE,
            paths::MAINTENANCES.to_owned(),
            Some(json!({ "maintenance_id": MARKETPLACE_MACHINE_OWN_WINDOW })),
        ),
        Route::CancelBatch => (
            Method::DELETE,
            paths::MAINTENANCES_BATCH.to_owned(),
            Some(json!({ "maintenance_ids": [MARKETPLACE_MACHINE_OWN_WINDOW] })),
        ),
        Route::SearchTemplates => (
            Method::GET,
            format!(
                "{}/?select_cols=%5B%22%2A%22%5D&select_filters=%7B%7D",
                paths::TEMPLATE_ALIAS
            ),
            None,
        ),
        Route::TemplateLibrary => (
            Method::GET,
            format!("{}/", paths::user_templates(caller.path_user)),
            None,
        ),
        Route::SearchVolumes => (
            Method::POST,
            format!("{}/", paths::VOLUMES_SEARCH),
            Some(json!({"verified": {"eq": true}, "external": {"eq": false},
                "disk_space": {"gte": 1}, "order": [["score", "desc"]], "allocated_storage": 1.0})),
        ),
        Route::Volumes => (
            Method::GET,
            format!("{}?owner=me&type=all_volume", paths::VOLUMES),
            None,
        ),
        Route::DeleteVolume => (
            Method::DELETE,
            format!("{}/?id={ALICE_VOLUME_FREE}", paths::VOLUMES),
            Some(json!({})),
        ),
        Route::CreateSubaccount => (
            Method::POST,
            format!("{}/", paths::USERS),
            Some(
                json!({"email": "new-sub@example.org", "username": "new-sub",
                "password": "correct horse", "host_only": false, "parent_id": "me"}),
            ),
        ),
        Route::TeamRoles => (Method::GET, format!("{}/", paths::TEAM_ROLES_FULL), None),
        Route::CreateRole => (
            Method::POST,
            format!("{}/", paths::TEAM_ROLES),
            Some(json!({"name": "auditor", "permissions": {"api": {"team_read": {}}}})),
        ),
        Route::UpdateRole => (
            Method::PUT,
            paths::team_role_by_id(UNICODE_ROLE_ID),
            Some(json!({"name": "Nachtschicht"})),
        ),
        Route::RemoveRole => (
            Method::DELETE,
            paths::team_role_removal(MARKUP_ROLE),
            Some(json!({})),
        ),
        Route::RemoveRoleById => (
            Method::DELETE,
            format!("{}/", paths::TEAM_ROLES),
            Some(json!({ "role_id": MARKUP_ROLE_ID })),
        ),
        Route::Invite => (
            Method::POST,
            format!(
                "{}/?email=new-person%40example.org&role=member",
                paths::TEAM_INVITE
            ),
            Some(json!({})),
        ),
        Route::Invitations => (Method::GET, format!("{}/", paths::TEAM_INVITES), None),
        Route::RemoveMember => (
            Method::DELETE,
            paths::team_member(CAROL_ID),
            Some(json!({})),
        ),
        Route::GiveRole => (
            Method::POST,
            paths::team_member_roles(CAROL_ID),
            Some(json!({"role": UNICODE_ROLE})),
        ),
        Route::ReplaceRole => (
            Method::PUT,
            paths::team_member_roles(CAROL_ID),
            Some(json!({"member_id": CAROL_ID, "role_id": UNICODE_ROLE_ID})),
        ),
        Route::TakeRole => (
            Method::DELETE,
            paths::team_member_roles(FRANK_ID),
            Some(json!({"role": "member"})),
        ),
        Route::ListMachine => (
            Method::PUT,
            paths::machine_create_asks(),
            Some(json!({"machine": TIDY_MACHINE, "end_date": NOW + 40.0 * 86_400.0})),
        ),
        Route::UnlistMachine => (
            Method::DELETE,
            paths::machine_asks(TIDY_MACHINE),
            Some(json!({})),
        ),
        Route::OpenApi => (Method::GET, paths::OPENAPI.to_owned(), None),
        Route::Server => (Method::GET, paths::SERVER.to_owned(), None),
        Route::MachineReports => (Method::GET, paths::machine_reports(REPORTED_MACHINE), None),
        Route::MachineEarnings => (
            Method::GET,
            format!(
                "/api/v0/users/{}/machine-earnings/?owner=me&last_days=7&machid=null",
                caller.path_user
            ),
            None,
        ),
        Route::SetMinBid => (
            Method::PUT,
            paths::machine_min_bid(TIDY_MACHINE),
            Some(json!({"client_id": "me", "price": 0.11})),
        ),
        Route::NotificationTypes => (Method::GET, format!("{}/", paths::NOTIFICATION_TYPES), None),
        Route::NotificationPrefs => (
            Method::GET,
            paths::notification_prefs(&caller.path_user.to_string()),
            None,
        ),
        Route::ChangeNotificationPrefs => (
            Method::PUT,
            paths::notification_prefs(&caller.path_user.to_string()),
            Some(json!({"notification_preferences": {"client": {"outbid": {"webhooks": true}}}})),
        ),
        Route::Webhooks => (Method::GET, format!("{}/", paths::WEBHOOKS), None),
        Route::CreateWebhook => (
            Method::POST,
            format!("{}/", paths::WEBHOOKS),
            Some(
                json!({"name": "Matrix", "webhook_url": "https://hooks.example.com/matrix",
                        "event_types": ["client:outbid"]}),
            ),
        ),
        Route::UpdateWebhook => (
            Method::PUT,
            paths::webhook(ALICE_WEBHOOK),
            Some(json!({"name": "Renamed pager"})),
        ),
        Route::DeleteWebhook => (Method::DELETE, paths::webhook(ALICE_WEBHOOK), None),
        Route::RotateWebhookSecret => (
            Method::POST,
            paths::webhook_rotate_secret(ALICE_WEBHOOK),
            Some(json!({})),
        ),
        Route::TestWebhook => (Method::POST, paths::webhook_test(ALICE_LAN_WEBHOOK), None),
        Route::DemoHealth => (
            Method::PUT,
            paths::demo_machine_health(TIDY_MACHINE),
            Some(json!({"gpu_max_cur_temp": 70})),
        ),
        Route::DemoReport => (
            Method::POST,
            paths::demo_machine_reports(TIDY_MACHINE),
            Some(json!({"problem": "Other", "message": "matrix"})),
        ),
        Route::DemoEvent => (
            Method::POST,
            paths::demo_machine_events(TIDY_MACHINE),
            Some(json!({"event_type": "host:near_end_date"})),
        ),
    };
    let mut call = app.call(method, &uri);
    if let Some(authorization) = &caller.authorization {
        call = call.header("authorization", authorization);
    }
    if let Some(body) = body {
        call = call.json(body);
    }
    call.send().await
}

/// Everything that identifies the users not in `own`: e-mail addresses, full names, keys
/// (personal and derived), machine host names, maintenance reasons, and the names of the
/// teams they own that the caller is not in. JSON-escaped, as they would appear in a body.
fn foreign_markers(app: &TestApp, own: &[i64]) -> Vec<String> {
    let own = own.to_vec();
    let secret = app.state.secret.clone();
    let mut markers: Vec<String> = app
        .state
        .db
        .with_conn(move |c| {
            let own_list = own.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
            let own_list = if own_list.is_empty() {
                "-1".to_owned()
            } else {
                own_list
            };
            // Subaccounts the caller created in the cell are its own too.
            let own_list = format!(
                "SELECT id FROM users WHERE id IN ({own_list}) OR parent_id IN ({own_list})"
            );
            let mut out = Vec::new();
            let mut texts = |sql: String| -> rusqlite::Result<()> {
                let mut statement = c.prepare(&sql)?;
                let rows = statement.query_map([], |r| r.get::<_, Option<String>>(0))?;
                for row in rows {
                    if let Some(text) = row? {
                        out.push(text);
                    }
                }
                Ok(())
            };
            texts(format!(
                "SELECT email FROM users WHERE id NOT IN ({own_list})"
            ))?;
            texts(format!(
                "SELECT fullname FROM users WHERE id NOT IN ({own_list}) AND fullname != ''"
            ))?;
            texts(format!(
                "SELECT hostname FROM machines WHERE owner_id NOT IN ({own_list})"
            ))?;
            texts(format!(
                "SELECT mt.reason FROM maintenances mt JOIN machines m ON m.id = mt.machine_id
                 WHERE m.owner_id NOT IN ({own_list})"
            ))?;
            texts(format!(
                "SELECT name FROM teams WHERE owner_id NOT IN ({own_list}) AND id NOT IN (
                     SELECT team_id FROM team_members
                     WHERE user_id IN ({own_list}) AND removed_at IS NULL)"
            ))?;
            texts(format!(
                "SELECT name FROM templates WHERE private = 1 AND owner_id NOT IN ({own_list})"
            ))?;
            texts(format!(
                "SELECT label FROM volumes WHERE owner_id NOT IN ({own_list})"
            ))?;
            texts(format!(
                "SELECT webhook_url FROM webhooks WHERE user_id NOT IN ({own_list})"
            ))?;
            texts(format!(
                "SELECT name FROM webhooks WHERE user_id NOT IN ({own_list})"
            ))?;
            let mut subaccounts = c.prepare(&format!(
                "SELECT id FROM users WHERE parent_id IS NOT NULL AND id NOT IN ({own_list})"
            ))?;
            let ids = subaccounts
                .query_map([], |r| r.get::<_, i64>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            out.extend(ids.into_iter().map(|id| keys::subaccount_key(&secret, id)));
            Ok(out)
        })
        .unwrap();
    let key_owners = [
        (ALICE_KEY, ALICE_ID),
        (BOB_KEY, BOB_ID),
        (CAROL_TEAM_KEY, CAROL_ID),
        (DAVE_KEY, DAVE_ID),
        (DAVE_TEAM_KEY, DAVE_ID),
        (ERIN_TEAM_KEY, ERIN_ID),
        (FRANK_TEAM_KEY, FRANK_ID),
        (GUSTAV_KEY, GUSTAV_ID),
    ];
    // A caller's own key is not foreign, but nobody else's personal key may appear, even
    // alice's to alice's team-mates.
    for (key, _) in key_owners {
        markers.push(key.to_owned());
    }
    markers.sort();
    markers.dedup();
    markers
        .into_iter()
        .map(|m| {
            let quoted = serde_json::to_string(&m).unwrap();
            quoted[1..quoted.len() - 1].to_owned()
        })
        .collect()
}

/// Every webhook secret in the database.
fn stored_secrets(app: &TestApp) -> Vec<String> {
    app.state
        .db
        .with_conn(|c| {
            let mut statement = c.prepare("SELECT secret FROM webhooks")?;
            let secrets = statement
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(secrets)
        })
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_for_every_kind_of_caller() {
    let mut cells = 0;
    let mut checked_markers = 0;
    let mut failures = Vec::new();
    for (route, row) in MATRIX {
        for (kind, (status, code, fragment)) in KINDS.into_iter().zip(row) {
            let app = TestApp::demo();
            let who = caller(&app, kind, route);
            let secrets = stored_secrets(&app);
            let answer = request(&app, route, &who).await;
            cells += 1;
            let text = answer.text();
            let cell = format!("{route:?} × {kind:?}");
            if answer.status.as_u16() != status {
                failures.push(format!(
                    "{cell}: {} (wanted {status}): {text}",
                    answer.status
                ));
                continue;
            }
            let body: Value = answer.json();
            if !code.is_empty() && body["error"] != code {
                failures.push(format!("{cell}: error {} (wanted {code})", body["error"]));
            }
            if !text.contains(fragment) {
                failures.push(format!("{cell}: body lacks {fragment:?}: {text}"));
            }
            let markers = foreign_markers(&app, &who.own);
            // The owner's own key is expected in nothing, but alice may see her own
            // subaccount keys; others' personal keys never.
            for marker in &markers {
                let own_key = kind == Kind::Owner && marker == ALICE_KEY;
                if !own_key && text.contains(marker.as_str()) {
                    failures.push(format!("{cell}: body reveals {marker:?}: {text}"));
                }
            }
            checked_markers += markers.len();
            // A webhook's secret is answered only when it is new (N29, N32): no answer
            // carries one stored before the request, not even to its owner.
            for secret in &secrets {
                if text.contains(secret.as_str()) {
                    failures.push(format!("{cell}: body reveals a stored webhook secret"));
                }
            }
        }
    }
    println!(
        "authorisation matrix: {} routes × {} kinds of caller = {cells} cells ({} hostile), \
         {checked_markers} foreign-marker checks",
        MATRIX.len(),
        KINDS.len(),
        cells - MATRIX.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(cells, 364);
    // The markers are real: bob's would include alice's address, key and subaccount keys.
    let app = TestApp::demo();
    let for_bob = foreign_markers(&app, &[BOB_ID, BOB_SUBACCOUNT]);
    let alice_sub = keys::subaccount_key(&app.state.secret, SUBACCOUNT);
    for marker in [
        "alice@example.com",
        ALICE_KEY,
        &alice_sub,
        ALICE_TEAM,
        MARKUP,
        ALICE_WEBHOOK_URL,
    ] {
        assert!(for_bob.iter().any(|m| m == marker), "{marker}");
    }
    assert!(!for_bob.iter().any(|m| m == "bob@example.com"));
}

/// The owner column really exercises each route: the same requests change alice's data.
#[tokio::test]
async fn the_owner_column_acts_and_hostile_columns_change_nothing() {
    let app = TestApp::demo();
    let state_of = |app: &TestApp| {
        (
            app.scalar("SELECT COUNT(*) FROM volumes"),
            app.scalar("SELECT COUNT(*) FROM templates WHERE deleted_at IS NOT NULL"),
            app.scalar("SELECT SUM(slot_start * id) FROM contracts"),
            app.scalar("SELECT COUNT(*) FROM maintenances"),
            app.scalar("SELECT COUNT(*) FROM maintenances WHERE cancelled_at IS NOT NULL"),
            app.scalar("SELECT COUNT(*) FROM volumes WHERE deleted_at IS NOT NULL"),
            app.scalar("SELECT COUNT(*) FROM users WHERE parent_id = 1"),
            app.text(
                "SELECT group_concat(id || name || permissions, '|')
                 FROM (SELECT * FROM team_roles WHERE team_id = 1 AND id < 900 ORDER BY id)",
            ),
            app.scalar("SELECT COUNT(*) FROM team_invitations WHERE team_id = 1"),
            app.scalar("SELECT COUNT(*) FROM team_members WHERE removed_at IS NOT NULL"),
            // The lacking members this test adds (ids from 900) are not alice's data.
            app.scalar(
                "SELECT SUM(member_id * role_id) FROM team_member_roles WHERE member_id < 900",
            ),
            // alice's offer on 1003 (its floor too) and the end dates of its contracts.
            app.text(
                "SELECT (SELECT ifnull(end_date, '-') || ':' || ifnull(withdrawn_at, '-')
                             || ':' || price_min_bid
                         FROM offers WHERE machine_id = 1003)
                     || '#' || (SELECT SUM(end_date) FROM contracts WHERE machine_id = 1003)",
            ),
        )
    };
    // alice's webhooks and notification preferences.
    let notifications_of = |app: &TestApp| {
        (
            app.text(
                "SELECT group_concat(id || ifnull(name, '-') || webhook_url || event_types
                                     || secret, '|')
                 FROM (SELECT * FROM webhooks WHERE user_id = 1 ORDER BY id)",
            ),
            app.text(
                "SELECT group_concat(key || channel || enabled, '|')
                 FROM (SELECT * FROM notification_preferences WHERE user_id = 1
                       ORDER BY key, channel)",
            ),
        )
    };
    // alice's machine 1003 as the demo triggers would change it.
    let health_of = |app: &TestApp| {
        app.text(
            "SELECT ifnull(gpu_max_cur_temp, '-') || ':' || verification || ':'
                    || (SELECT COUNT(*) FROM machine_reports WHERE machine_id = 1003)
             FROM machines WHERE id = 1003",
        )
    };
    let before = state_of(&app);
    let notifications_before = notifications_of(&app);
    let health_before = health_of(&app);
    for kind in [
        Kind::NoKey,
        Kind::Malformed,
        Kind::Unknown,
        Kind::OtherUser,
        Kind::Subaccount,
        Kind::TeamLacking,
    ] {
        for route in [
            Route::Defrag,
            Route::DeleteUserTemplate,
            Route::DeleteTemplateAlias,
            Route::ScheduleOne,
            Route::ScheduleBatch,
            Route::CancelMachine,
            Route::CancelWindow,
            Route::CancelBatch,
            Route::DeleteVolume,
            Route::CreateSubaccount,
            Route::CreateRole,
            Route::UpdateRole,
            Route::RemoveRole,
            Route::Invite,
            Route::RemoveMember,
            Route::GiveRole,
            Route::ReplaceRole,
            Route::TakeRole,
            Route::ListMachine,
            Route::UnlistMachine,
            Route::SetMinBid,
            Route::ChangeNotificationPrefs,
            Route::UpdateWebhook,
            Route::DeleteWebhook,
            Route::RotateWebhookSecret,
            Route::TestWebhook,
            Route::DemoHealth,
            Route::DemoReport,
            Route::DemoEvent,
        ] {
            if route == Route::CreateSubaccount && kind == Kind::OtherUser {
                continue; // bob may create subaccounts of his own
            }
            let who = caller(&app, kind, route);
            let answer = request(&app, route, &who).await;
            assert!(answer.status.as_u16() != 500, "{route:?} {kind:?}");
        }
    }
    assert_eq!(
        state_of(&app),
        before,
        "a hostile caller changed alice's data"
    );
    assert_eq!(
        notifications_of(&app),
        notifications_before,
        "a hostile caller changed alice's webhooks or preferences"
    );
    assert_eq!(
        health_of(&app),
        health_before,
        "a hostile caller changed alice's machine health or reports"
    );
    let who = caller(&app, Kind::Owner, Route::Defrag);
    request(&app, Route::Defrag, &who).await.ok();
    request(&app, Route::DeleteTemplateAlias, &who).await.ok();
    request(&app, Route::ScheduleOne, &who).await.ok();
    request(&app, Route::ScheduleBatch, &who).await.ok();
    request(&app, Route::CancelWindow, &who).await.ok();
    request(&app, Route::DeleteVolume, &who).await.ok();
    request(&app, Route::CreateSubaccount, &who).await.ok();
    request(&app, Route::Invite, &who).await.ok();
    request(&app, Route::TakeRole, &who).await.ok();
    request(&app, Route::RemoveMember, &who).await.ok();
    request(&app, Route::RemoveRole, &who).await.ok();
    request(&app, Route::ListMachine, &who).await.ok();
    let listed = state_of(&app);
    assert_ne!(
        listed.11, before.11,
        "the offer changed and a contract was extended"
    );
    request(&app, Route::UnlistMachine, &who).await.ok();
    request(&app, Route::ChangeNotificationPrefs, &who)
        .await
        .ok();
    request(&app, Route::UpdateWebhook, &who).await.ok();
    let after = state_of(&app);
    let notifications_after = notifications_of(&app);
    assert_ne!(
        notifications_after.0, notifications_before.0,
        "a webhook was renamed"
    );
    assert_ne!(
        notifications_after.1, notifications_before.1,
        "a preference was changed"
    );
    assert_ne!(after.11, listed.11, "the offer was withdrawn");
    assert_ne!(after.7, before.7, "a role was removed");
    assert_eq!(after.8, before.8 + 1, "an invitation was recorded");
    assert_eq!(after.9, before.9 + 1, "a member was removed");
    assert_ne!(after.10, before.10, "a role was taken");
    assert_eq!(after.5, before.5 + 1);
    assert_eq!(after.6, before.6 + 1);
    assert_eq!(after.1, before.1 + 1);
    assert_ne!(after.2, before.2);
    assert_eq!(after.3, before.3 + 3);
    assert_eq!(after.4, before.4 + 1);
    request(&app, Route::SetMinBid, &who).await.ok();
    assert_eq!(
        app.scalar_f64("SELECT price_min_bid FROM offers WHERE machine_id = 1003"),
        Some(0.11),
        "the floor was set"
    );
    request(&app, Route::DemoHealth, &who).await.ok();
    request(&app, Route::DemoReport, &who).await.ok();
    assert_ne!(
        health_of(&app),
        health_before,
        "the owner's triggers changed 1003"
    );
}

/// The OpenAPI document names, as `x-team-permission`, the permission each route is seen
/// to enforce above (and from it documents the route's 403).
#[tokio::test]
async fn the_document_names_the_permission_each_route_enforces() {
    let app = TestApp::demo();
    let document = app.get(paths::OPENAPI).send().await.ok();
    for (route, _) in MATRIX {
        let path = match (route, operation(route)) {
            (Route::OpenApi | Route::Server, _) | (_, None) => continue,
            // N16's form without a name is a route of its own.
            (Route::RemoveRoleById, _) => paths::TEAM_ROLES.to_owned(),
            (_, Some(operation)) => document["paths"]
                .as_object()
                .unwrap()
                .keys()
                .find(|route| operation.is_route(operation.method, route))
                .unwrap_or_else(|| panic!("{} is not in the document", operation.name))
                .clone(),
        };
        let method = operation(route).unwrap().method.to_lowercase();
        let (method, path) = (method.as_str(), path.as_str());
        let operation = &document["paths"][path][method];
        let documented = operation["x-team-permission"].as_str();
        assert_eq!(
            documented,
            needs(route).map(|group| group.as_str()),
            "{method} {path}"
        );
        assert_eq!(
            operation["responses"]["403"].is_object(),
            documented.is_some(),
            "{method} {path}"
        );
    }
}
