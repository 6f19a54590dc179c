//! The typed fetch layer against a scripted `fetch`: what is sent, how failures become
//! one `ApiError`, which requests are retried, and what a 401 does.

use crate::support::*;
use gpudeck::api::{ApiClient, ApiError, Outcome, Refusal, MAX_GET_ATTEMPTS};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen_test::*;

const KEY: &str = "secret-key-1234567890";

fn client() -> ApiClient {
    ApiClient::new("http://api.test/", KEY)
}

#[wasm_bindgen_test]
async fn get_sends_bearer_key_and_decodes() {
    let fetch = FakeFetch::install(vec![json(
        200,
        r#"{"id": 7, "email": "a@x.test", "username": "ann", "balance": 3.5, "extra": true}"#,
    )]);
    let user = client().current_user().await.unwrap();
    assert_eq!(
        (user.id, user.username.as_str(), user.balance),
        (7, "ann", 3.5)
    );
    let calls = fetch.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].method, "GET");
    assert_eq!(calls[0].url, "http://api.test/api/v0/users/current");
    assert_eq!(calls[0].authorization, format!("Bearer {KEY}"));
    assert!(
        !calls[0].url.contains(KEY),
        "the key must never be in a URL"
    );
}

#[wasm_bindgen_test]
async fn maintenance_ids_go_as_a_json_array_in_the_query() {
    let fetch = FakeFetch::install(vec![json(200, "[]")]);
    let windows = client().maintenances(&[1, 2]).await.unwrap();
    assert!(windows.is_empty());
    assert_eq!(
        fetch.calls()[0].url,
        "http://api.test/api/v0/machines/maintenances?owner=me&machine_ids=%5B1%2C2%5D"
    );
}

#[wasm_bindgen_test]
async fn writes_send_json_bodies() {
    let fetch = FakeFetch::install(vec![
        json(200, r#"{"success": true, "volume_name": "V.20118481"}"#),
        json(200, r#"{"success": true, "msg": "Template 5 deleted"}"#),
        json(200, r#"{"success": false, "defragmented": null}"#),
    ]);
    let api = client();
    assert_eq!(
        api.accept_volume_ask(7, 20, None)
            .await
            .unwrap()
            .volume_name,
        "V.20118481"
    );
    assert_eq!(
        api.delete_template(42, 5).await.unwrap().msg,
        "Template 5 deleted"
    );
    assert_eq!(api.defrag_offers(&[3, 4]).await.unwrap().defragmented, None);
    let calls = fetch.calls();
    assert_eq!(
        (calls[0].method.as_str(), calls[0].url.as_str()),
        ("PUT", "http://api.test/api/v0/volumes/")
    );
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&calls[0].body).unwrap(),
        serde_json::json!({"id": 7, "size": 20})
    );
    assert_eq!(
        (calls[1].method.as_str(), calls[1].url.as_str()),
        ("DELETE", "http://api.test/api/v0/users/42/templates/")
    );
    assert_eq!(calls[1].body, r#"{"template_id":5}"#);
    assert_eq!(calls[2].body, r#"{"machine_ids":[3,4]}"#);
    assert!(calls.iter().all(|c| c.content_type == "application/json"));
}

fn subaccount_request() -> gpudeck_wire::CreateSubaccountRequest {
    gpudeck_wire::CreateSubaccountRequest {
        email: Some("u@x.test".to_owned().into()),
        username: Some("u".to_owned().into()),
        password: Some("12345678".to_owned().into()),
        host_only: Some(false.into()),
        parent_id: Some(gpudeck_wire::ParentId::Me.into()),
        ssh_key: None,
    }
}

#[wasm_bindgen_test]
async fn a_2xx_saying_it_failed_is_a_refusal_for_reads_and_writes_alike() {
    let fetch = FakeFetch::install(vec![
        json(200, r#"{"success": false, "msg": "Invalid query"}"#),
        json(
            200,
            r#"{"success": false, "error": "forbidden", "message": "No access"}"#,
        ),
        json(
            200,
            r#"{"status": "failure", "detail": "user already exists."}"#,
        ),
        json(200, r#"{"success": false, "msg": "Team is archived"}"#),
        json(
            200,
            r#"{"status": "failure", "message": "No role was removed from the team"}"#,
        ),
        json(200, r#"{"success": false}"#),
    ]);
    let api = client();
    let search = api
        .search_volume_offers(&gpudeck_wire::VolumeSearchRequest::default())
        .await
        .unwrap_err();
    assert_eq!(search.outcome(), Outcome::Refused(Refusal::Declined));
    assert_eq!(search.message(), "Invalid query");
    let volumes = api.volumes().await.unwrap_err();
    assert_eq!(
        volumes,
        ApiError::Declined {
            error: Some("forbidden".into()),
            msg: "No access".into()
        }
    );
    let request = subaccount_request();
    let created = api.create_subaccount(&request).await.unwrap_err();
    assert_eq!(created.refusal(), Some(Refusal::Declined));
    assert_eq!(created.message(), "user already exists.");
    // A list read: its sentence, not "unexpected answer" for a body that is no list.
    let members = api.team_members().await.unwrap_err();
    assert_eq!(members.refusal(), Some(Refusal::Declined));
    assert_eq!(members.message(), "Team is archived");
    let removed = api.remove_role("auditor").await.unwrap_err();
    assert_eq!(removed.message(), "No role was removed from the team");
    // No sentence at all: a plain one, never the raw body.
    let scheduled = api
        .schedule_maintenance(
            3,
            1_900_000_000.0,
            2,
            &gpudeck_wire::MaintenanceCategory::Power,
            None,
        )
        .await
        .unwrap_err();
    assert_eq!(scheduled.refusal(), Some(Refusal::Declined));
    assert_eq!(
        scheduled.message(),
        "the server answered that it did not do it"
    );
    // Refusals are not retried: one request each.
    assert_eq!(fetch.calls().len(), 6);
}

#[wasm_bindgen_test]
async fn per_item_answers_stay_results_when_they_say_nothing_was_done() {
    let _fetch = FakeFetch::install(vec![
        json(
            200,
            r#"{"success": false, "results": [{"success": false, "machine_id": 3, "error": "not_found", "msg": "No such machine id or not owned"}]}"#,
        ),
        json(
            200,
            r#"{"success": false, "results": [{"success": false, "maintenance_id": 9, "msg": "already cancelled"}]}"#,
        ),
        json(200, r#"{"success": false, "defragmented": null}"#),
    ]);
    let api = client();
    let scheduled = api
        .schedule_maintenance_batch(
            &[3],
            1_900_000_000.0,
            2,
            &gpudeck_wire::MaintenanceCategory::Power,
        )
        .await
        .unwrap();
    assert_eq!(scheduled.results.len(), 1);
    assert!(!scheduled.results[0].success);
    let cancelled = api.cancel_maintenances(&[9]).await.unwrap();
    assert_eq!(cancelled.results[0].msg, "already cancelled");
    let defrag = api.defrag_offers(&[3]).await.unwrap();
    assert!(!defrag.success && defrag.defragmented.is_none());
}

#[wasm_bindgen_test]
async fn account_operations_take_the_official_clients_forms() {
    let fetch = FakeFetch::install(vec![
        json(200, r#"{"success": true, "templates": []}"#),
        json(200, r#"{"success": false, "msg": "No templates"}"#),
        json(200, r#"{"offers": []}"#),
        json(200, r#"{"volumes": []}"#),
        json(200, r#"{"success": true}"#),
        json(200, r#"{"success": true, "volume_name": "V.20118484"}"#),
        json(
            200,
            r#"{"id": 15, "username": "u", "email": "u@x.test", "key_id": 3}"#,
        ),
    ]);
    let api = client();
    assert!(api.template_library(42).await.unwrap().is_empty());
    // A 2xx that says it did not do it is a refusal, not an empty library.
    let refused = api.template_library(42).await.unwrap_err();
    assert_eq!(refused.refusal(), Some(Refusal::Declined));
    assert_eq!(refused.message(), "No templates");
    let query = gpudeck_wire::VolumeSearchRequest::default();
    assert!(api.search_volume_offers(&query).await.unwrap().is_empty());
    assert!(api.volumes().await.unwrap().is_empty());
    assert!(api.delete_volume(20118471).await.unwrap().success);
    api.accept_volume_ask(8, 25, Some("scratch_1"))
        .await
        .unwrap();
    let request = subaccount_request();
    // The docs' shorter answer, without the key, is an answer too.
    assert_eq!(api.create_subaccount(&request).await.unwrap().api_key, None);

    let calls = fetch.calls();
    let sent: Vec<(&str, &str, &str)> = calls
        .iter()
        .map(|c| (c.method.as_str(), c.url.as_str(), c.body.as_str()))
        .collect();
    assert_eq!(sent[0].0, "GET");
    assert_eq!(sent[0].1, "http://api.test/api/v0/users/42/templates/");
    assert_eq!(sent[2].0, "POST");
    assert_eq!(sent[2].1, "http://api.test/api/v0/volumes/search/");
    assert_eq!(
        sent[3].1,
        "http://api.test/api/v0/volumes?owner=me&type=all_volume"
    );
    assert_eq!(
        sent[4],
        (
            "DELETE",
            "http://api.test/api/v0/volumes/?id=20118471",
            "{}"
        )
    );
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(sent[5].2).unwrap(),
        serde_json::json!({"id": 8, "size": 25, "name": "scratch_1"})
    );
    assert_eq!(
        sent[6],
        (
            "POST",
            "http://api.test/api/v0/users/",
            r#"{"email":"u@x.test","username":"u","password":"12345678","host_only":false,"parent_id":"me"}"#
        )
    );
}

#[wasm_bindgen_test]
async fn role_names_are_encoded_into_one_path_segment() {
    let fetch = FakeFetch::install(vec![json(
        404,
        r#"{"error": "not_found", "msg": "no role"}"#,
    )]);
    let _ = client().team_role("a/b ü").await;
    assert_eq!(
        fetch.calls()[0].url,
        "http://api.test/api/v0/team/roles/a%2Fb%20%C3%BC/"
    );
}

#[wasm_bindgen_test]
async fn json_error_bodies_become_status_error_and_msg() {
    let _fetch = FakeFetch::install(vec![json(
        404,
        r#"{"success": false, "error": "invalid_args", "msg": "machine_ids do not exist"}"#,
    )]);
    let error = client().maintenances(&[9]).await.unwrap_err();
    assert_eq!(
        error,
        ApiError::Http {
            status: 404,
            error: Some("invalid_args".into()),
            msg: "machine_ids do not exist".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "404 invalid_args: machine_ids do not exist"
    );
}

#[wasm_bindgen_test]
async fn echoed_keys_are_redacted() {
    let _fetch = FakeFetch::install(vec![json(
        400,
        r#"{"error": "bad", "msg": "key secret-key-1234567890 is odd"}"#,
    )]);
    let error = client().subaccounts().await.unwrap_err();
    assert_eq!(error.message(), "key [redacted] is odd");
}

#[wasm_bindgen_test]
async fn gets_are_retried_on_plain_text_429_and_gateway_errors() {
    let fetch = FakeFetch::install(vec![
        text(429, "Too many requests"),
        json(503, r#"{"error": "busy", "msg": "try later"}"#),
        json(200, r#"{"users": [], "msg": "0 subaccounts"}"#),
    ]);
    let list = client().subaccounts().await.unwrap();
    assert_eq!(list.msg, "0 subaccounts");
    assert_eq!(fetch.calls().len(), 3);
}

#[wasm_bindgen_test]
async fn gets_give_up_after_three_attempts_with_the_last_error() {
    let fetch = FakeFetch::install(vec![
        network_failure(),
        text(502, "bad gateway"),
        text(504, "gateway timeout"),
        json(200, "[]"),
    ]);
    let error = client().team_members().await.unwrap_err();
    assert_eq!(fetch.calls().len() as u32, MAX_GET_ATTEMPTS);
    // A read with no answer is no unknown outcome: nothing was done.
    assert_eq!(
        error,
        ApiError::Http {
            status: 504,
            error: None,
            msg: "gateway timeout".into()
        }
    );
}

#[wasm_bindgen_test]
async fn network_failures_are_network_errors() {
    let _fetch = FakeFetch::install(vec![
        network_failure(),
        network_failure(),
        network_failure(),
    ]);
    let error = client().team_members().await.unwrap_err();
    assert!(matches!(error, ApiError::Network(_)), "{error:?}");
    assert!(error.message().contains("http://api.test"));
    assert!(
        error.message().contains("--connect-src"),
        "another origin: name the policy"
    );
}

#[wasm_bindgen_test]
async fn writes_are_never_retried() {
    let fetch = FakeFetch::install(vec![text(503, "unavailable"), json(200, "{}")]);
    let error = client().accept_volume_ask(1, 1, None).await.unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(fetch.calls().len(), 1);
}

#[wasm_bindgen_test]
async fn client_errors_are_not_retried() {
    let fetch = FakeFetch::install(vec![
        json(404, r#"{"error":"not_found","msg":"gone"}"#),
        json(200, "[]"),
    ]);
    assert_eq!(
        client().team_members().await.unwrap_err().status(),
        Some(404)
    );
    assert_eq!(fetch.calls().len(), 1);
}

#[wasm_bindgen_test]
async fn a_401_calls_the_unauthorised_hook_once_users_current_refuses_the_key_too() {
    let refused = r#"{"error":"auth_error","msg":"Invalid user key"}"#;
    let fetch = FakeFetch::install(vec![json(401, refused), json(401, refused)]);
    let seen = Rc::new(Cell::new(0));
    let counter = seen.clone();
    let api = client().on_unauthorised(Rc::new(move |error: &ApiError| {
        assert_eq!(error.message(), "Invalid user key");
        counter.set(counter.get() + 1);
    }));
    assert!(api.team_members().await.unwrap_err().is_unauthorised());
    assert_eq!(seen.get(), 1);
    let calls = fetch.calls();
    assert_eq!(calls.len(), 2);
    assert!(
        calls[1].url.ends_with("/api/v0/users/current"),
        "{}",
        calls[1].url
    );
    assert_eq!(calls[1].authorization, format!("Bearer {KEY}"));
}

/// The public service answers 401 for a target the caller does not own (N12, seed op 3):
/// while `users/current` accepts the key, that is a refusal to show, not a sign-out.
#[wasm_bindgen_test]
async fn a_401_about_the_target_is_a_refusal_while_the_key_still_works() {
    let fetch = FakeFetch::install(vec![
        json(
            401,
            r#"{"msg":"You are not authorized to delete this volume"}"#,
        ),
        json(
            200,
            r#"{"id": 1, "email": "a@x", "username": "alice", "balance": 0}"#,
        ),
    ]);
    let seen = Rc::new(Cell::new(0));
    let counter = seen.clone();
    let api = client().on_unauthorised(Rc::new(move |_: &ApiError| {
        counter.set(counter.get() + 1);
    }));
    let error = api.delete_volume(20118481).await.unwrap_err();
    assert!(matches!(error, ApiError::NotYours(_)), "{error:?}");
    assert_eq!(
        error.outcome(),
        gpudeck::api::Outcome::Refused(gpudeck::api::Refusal::Forbidden)
    );
    assert_eq!(
        error.message(),
        "You are not authorized to delete this volume"
    );
    assert_eq!(seen.get(), 0);
    assert_eq!(fetch.calls().len(), 2);
    // No answer from users/current is no proof either: the key is not given up.
    let _fetch = FakeFetch::install(vec![json(401, r#"{"msg":"not yours"}"#), network_failure()]);
    assert!(matches!(
        api.delete_volume(20118481).await.unwrap_err(),
        ApiError::NotYours(_)
    ));
    assert_eq!(seen.get(), 0);
}

#[wasm_bindgen_test]
async fn a_2xx_of_the_wrong_shape_is_a_decode_error() {
    let _fetch = FakeFetch::install(vec![json(200, r#"{"users": "nope"}"#)]);
    assert!(matches!(
        client().subaccounts().await.unwrap_err(),
        ApiError::Decode(_)
    ));
}

#[wasm_bindgen_test]
async fn a_decode_error_says_what_serde_json_says_with_the_key_redacted() {
    const BODY: &str =
        r#"{"id": "secret-key-1234567890", "email": "a@x.test", "username": "ann", "balance": 1}"#;
    let _fetch = FakeFetch::install(vec![json(200, BODY)]);
    let error = client().current_user().await.unwrap_err();
    let serde_says = serde_json::from_str::<gpudeck_wire::CurrentUser>(BODY)
        .unwrap_err()
        .to_string();
    assert!(serde_says.contains(KEY), "{serde_says}");
    assert_eq!(
        error,
        ApiError::Decode(serde_says.replace(KEY, "[redacted]"))
    );
}

#[wasm_bindgen_test]
async fn aborted_requests_report_aborted() {
    real_fetch();
    let controller = web_sys::AbortController::new().unwrap();
    controller.abort();
    // The real fetch honours the signal before any network activity.
    let error = client()
        .with_abort_signal(Some(controller.signal()))
        .team_members()
        .await
        .unwrap_err();
    assert_eq!(error, ApiError::Aborted);
}

/// Starts a request from a page-bound client and never gets an answer.
#[leptos::component]
fn WaitingPage() -> impl leptos::IntoView {
    let api = gpudeck::api::use_api();
    leptos::task::spawn_local(async move {
        let _ = api.team_members().await;
    });
    "waiting"
}

#[wasm_bindgen_test]
async fn leaving_a_page_aborts_its_requests() {
    use leptos::prelude::*;
    let _fetch = FakeFetch::install(vec![no_answer()]);
    let page = mount(|| {
        gpudeck::api::provide_api(client());
        view! { <WaitingPage /> }
    });
    settle().await;
    assert!(!request_aborted(0), "still wanted while the page is shown");
    drop(page);
    assert!(
        request_aborted(0),
        "the request is aborted once the page is gone"
    );
}
