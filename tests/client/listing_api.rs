//! The fetch layer's N22 (list machine) and N23 (unlist machine) against a scripted
//! `fetch`: the requests exactly as client 1.9.1 sends them, and their answers and
//! refusals as the pages read them.

use crate::support::*;
use gpudeck::api::{ApiClient, ApiError, Outcome, Refusal};
use gpudeck_wire::ListMachineRequest;
use serde_json::{json, Value};
use wasm_bindgen_test::*;

fn client() -> ApiClient {
    ApiClient::new("http://api.test/", "secret-key-1234567890")
}

#[wasm_bindgen_test]
async fn listing_sends_the_terms_it_has_and_never_a_null() {
    let fetch = FakeFetch::install(vec![json(
        200,
        r#"{"success": true, "extended": 2, "msg": "offer updated"}"#,
    )]);
    // The minimum GPUs is always sent (absent would reset it to 1, null is refused).
    let request = ListMachineRequest {
        end_date: Some(1_900_000_000.0.into()),
        min_chunk: Some(gpudeck_wire::Whole(2).into()),
        ..ListMachineRequest::new(1001)
    };
    let answer = client().list_machine(&request).await.unwrap();
    assert!(answer.success);
    assert_eq!(
        (answer.extended, answer.msg.as_str()),
        (Some(2), "offer updated")
    );
    let calls = fetch.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(
        (calls[0].method.as_str(), calls[0].url.as_str()),
        ("PUT", "http://api.test/api/v0/machines/create_asks/")
    );
    assert_eq!(calls[0].content_type, "application/json");
    assert_eq!(
        serde_json::from_str::<Value>(&calls[0].body).unwrap(),
        json!({"machine": 1001, "min_chunk": 2, "end_date": 1_900_000_000.0})
    );
}

#[wasm_bindgen_test]
async fn unlisting_sends_an_empty_object_to_the_machines_asks() {
    let fetch = FakeFetch::install(vec![json(
        200,
        r#"{"success": true, "machine_id": 1004, "user_id": 7}"#,
    )]);
    let answer = client().unlist_machine(1004).await.unwrap();
    assert_eq!(
        (answer.success, answer.machine_id, answer.user_id),
        (true, Some(1004), Some(7))
    );
    let calls = fetch.calls();
    assert_eq!(
        (calls[0].method.as_str(), calls[0].url.as_str()),
        ("DELETE", "http://api.test/api/v0/machines/1004/asks/")
    );
    assert_eq!(calls[0].body, "{}");
}

#[wasm_bindgen_test]
async fn refusals_keep_the_servers_words_and_are_sent_once() {
    let fetch = FakeFetch::install(vec![
        json(
            400,
            r#"{"success": false, "error": "invalid_min_chunk", "msg": "min_chunk must be 1 or a power of two up to 8"}"#,
        ),
        json(
            404,
            r#"{"success": false, "error": "not_found", "msg": "No such machine id"}"#,
        ),
        json(200, r#"{"success": false, "msg": "offer not changed"}"#),
    ]);
    let api = client();
    let request = ListMachineRequest {
        min_chunk: Some(gpudeck_wire::Whole(3).into()),
        ..ListMachineRequest::new(1001)
    };
    assert_eq!(
        api.list_machine(&request).await.unwrap_err(),
        ApiError::Http {
            status: 400,
            error: Some("invalid_min_chunk".into()),
            msg: "min_chunk must be 1 or a power of two up to 8".into(),
        }
    );
    let unlisted = api.unlist_machine(9).await.unwrap_err();
    assert_eq!(unlisted.message(), "No such machine id");
    assert!(!unlisted.is_unauthorised());
    // A 2xx that says it failed is a refusal, not an offer changed.
    let declined = api.list_machine(&request).await.unwrap_err();
    assert_eq!(declined.outcome(), Outcome::Refused(Refusal::Declined));
    assert_eq!(declined.message(), "offer not changed");
    assert_eq!(fetch.calls().len(), 3);
}
