//! The two building blocks every page uses, on their own against a scripted `fetch`: the
//! resource view (loading, failure with Try again, empty state, refusals a page shows
//! itself, data) and the confirmed-action hook (confirm, one request at a time, refusal
//! vs failure vs success).

use crate::support::*;
use gpudeck::api::{provide_api, ApiClient, Refusal};
use gpudeck::components::confirm::ConfirmDialog;
use gpudeck::components::confirmed_action::ConfirmedAction;
use gpudeck::components::resource_view::{use_api_resource, ResourceView};
use gpudeck::components::toasts::{provide_toasts, ToastRegion};
use gpudeck::session::provide_session;
use gpudeck_wire::TeamMember;
use leptos::prelude::*;
use wasm_bindgen_test::*;

const MEMBERS: &str = r#"[{"id": 1, "username": "alice", "email": "a@x.test", "fullname": "Alice", "roles": ["owner"]}]"#;

fn with_client<V: IntoView + 'static>(page: impl FnOnce() -> V + 'static) -> Mounted {
    mount(move || {
        provide_api(ApiClient::new("http://api.test", "key-for-building-blocks"));
        provide_toasts();
        view! {
            {page()}
            <ToastRegion />
        }
    })
}

#[component]
fn Members() -> impl IntoView {
    let data = use_api_resource(|api| async move { api.team_members().await });
    ResourceView::new(data, "Loading members…")
        .with_reload_button()
        .empty_when(Vec::is_empty, "Nobody here.")
        .refusals(|error, refusal| {
            (refusal == Refusal::NotFound)
                .then(|| view! { <p class="own-refusal">{error.message()}</p> }.into_any())
        })
        .show(|members: Vec<TeamMember>| {
            view! {
                <ul class="members">
                    {members.into_iter().map(|m| view! { <li>{m.username}</li> }).collect_view()}
                </ul>
            }
        })
}

#[wasm_bindgen_test]
async fn a_resource_shows_loading_then_its_data() {
    let _fetch = FakeFetch::install(vec![no_answer()]);
    let page = with_client(|| view! { <Members /> });
    settle().await;
    assert_eq!(page.text(".loading"), "Loading members…");
    assert_eq!(
        page.get(".loading").get_attribute("role").as_deref(),
        Some("status")
    );
    assert!(page.find(".error-panel").is_none());
    drop(page);

    let _fetch = FakeFetch::install(vec![json(200, MEMBERS)]);
    let page = with_client(|| view! { <Members /> });
    page.wait_for(".members").await;
    assert_eq!(page.text(".members"), "alice");
    assert!(page.find(".loading").is_none());
}

#[wasm_bindgen_test]
async fn a_failed_resource_shows_the_error_panel_whose_retry_fetches_again() {
    let fetch = FakeFetch::install(vec![
        json(500, r#"{"error": "internal_error", "msg": "it broke"}"#),
        json(200, MEMBERS),
    ]);
    let page = with_client(|| view! { <Members /> });
    page.wait_for(".error-panel").await;
    assert!(page.text(".error-panel").contains("it broke"));
    page.click(".error-panel button");
    page.wait_for(".members").await;
    assert!(page.find(".error-panel").is_none());
    assert_eq!(fetch.calls().len(), 2);
}

#[wasm_bindgen_test]
async fn an_empty_resource_shows_its_empty_state_and_reload_fetches_again() {
    let fetch = FakeFetch::install(vec![json(200, "[]"), json(200, MEMBERS)]);
    let page = with_client(|| view! { <Members /> });
    page.wait_for(".empty-state").await;
    assert_eq!(page.text(".empty-state"), "Nobody here.");
    page.click(".form-actions button");
    page.wait_for(".members").await;
    assert_eq!(fetch.calls().len(), 2);
}

#[wasm_bindgen_test]
async fn refusals_the_page_shows_itself_replace_the_panel_others_do_not() {
    let _fetch = FakeFetch::install(vec![json(
        404,
        r#"{"error": "not_found", "msg": "no team"}"#,
    )]);
    let page = with_client(|| view! { <Members /> });
    page.wait_for(".own-refusal").await;
    assert_eq!(page.text(".own-refusal"), "no team");
    assert!(page.find(".error-panel").is_none());
    drop(page);

    let _fetch = FakeFetch::install(vec![json(
        403,
        r#"{"error": "forbidden", "msg": "team_read needed"}"#,
    )]);
    let page = with_client(|| view! { <Members /> });
    page.wait_for(".error-panel").await;
    assert!(page.text(".error-panel").contains("team_read needed"));
    assert!(page.find(".own-refusal").is_none());
}

#[wasm_bindgen_test]
async fn a_refused_key_shows_nothing_and_ends_the_session() {
    const KEY: &str = "key-the-server-refuses";
    let refused = r#"{"error": "auth_error", "msg": "Invalid user key"}"#;
    session_storage()
        .set_item(
            "gpudeck.session",
            &format!(
                r#"{{"api_key": "{KEY}", "base_url": "http://api.test", "user": {{"id": 1, "email": "a@x.test", "username": "alice", "balance": 10}}}}"#
            ),
        )
        .unwrap();
    // The page's request, then the client's check of the key at `users/current`.
    let fetch = FakeFetch::install(vec![json(401, refused), json(401, refused)]);
    let page = mount(move || {
        // What the shell does when the client says the key was refused (src/app.rs).
        let session = provide_session();
        let sign_out = std::rc::Rc::new(move |_: &gpudeck::api::ApiError| {
            session.give_way_after_refusal(KEY);
        });
        provide_api(ApiClient::new("http://api.test", KEY).on_unauthorised(sign_out));
        provide_toasts();
        view! {
            <Members />
            <ToastRegion />
        }
    });
    settle().await;
    page.wait_for_gone(".loading").await;
    assert!(page.find(".error-panel").is_none());
    assert!(page.find(".members").is_none());
    let sent: Vec<(String, String, String)> = fetch
        .calls()
        .into_iter()
        .map(|call| (call.method, call.url, call.authorization))
        .collect();
    let with_key = |url: &str| ("GET".to_owned(), url.to_owned(), format!("Bearer {KEY}"));
    assert_eq!(
        sent,
        [
            with_key("http://api.test/api/v0/team/members/"),
            with_key("http://api.test/api/v0/users/current"),
        ]
    );
    assert_eq!(
        session_storage().get_item("gpudeck.session").unwrap(),
        None,
        "the session is forgotten"
    );
}

/// A page with one confirmed action: deleting template 7 of user 1.
#[component]
fn Deleter(#[prop(optional)] as_failures: bool) -> impl IntoView {
    let action = ConfirmedAction::new(
        |api, id: i64| async move { api.delete_template(1, id).await },
        |id, _answer| format!("deleted {id}"),
    );
    let action = if as_failures {
        action
            .refusals_as_failures()
            .toast_failures("Deleting failed")
    } else {
        action
    };
    let pending = action.pending();
    view! {
        <button id="ask" on:click=move |_| action.ask(7)>
            "Delete…"
        </button>
        <button id="send-again" on:click=move |_| action.send()>
            "Send again"
        </button>
        <ConfirmDialog
            open=action.confirming
            title="Sure?"
            confirm_label="Delete"
            on_confirm=action.on_confirm()
        >
            <p>{move || format!("template {}", action.asked().unwrap_or_default())}</p>
        </ConfirmDialog>
        <p id="any-refusal">{move || action.refusal_where(|_| true)}</p>
        <p id="conflict">{move || action.refusal_where(|kind| kind == Refusal::Conflict)}</p>
        <p id="pending">{move || pending.get().to_string()}</p>
        {action.failure_view()}
        <p id="done">{move || action.done()}</p>
    }
}

fn template_calls(fetch: &FakeFetch) -> usize {
    fetch
        .calls()
        .iter()
        .filter(|c| c.url.contains("templates"))
        .count()
}

#[wasm_bindgen_test]
async fn nothing_is_sent_before_confirming_and_cancel_sends_nothing() {
    let fetch = FakeFetch::install(vec![]);
    let page = with_client(|| view! { <Deleter /> });
    page.click("#ask");
    settle().await;
    assert!(page.find("dialog[open]").is_some());
    assert_eq!(page.text("dialog[open] p"), "template 7");
    page.click("dialog[open] .button:not(.primary)");
    settle().await;
    assert!(page.find("dialog[open]").is_none());
    assert_eq!(template_calls(&fetch), 0);
}

#[wasm_bindgen_test]
async fn a_confirmed_action_is_never_sent_twice_at_once() {
    let fetch = FakeFetch::install(vec![no_answer(), no_answer()]);
    let page = with_client(|| view! { <Deleter /> });
    page.click("#ask");
    settle().await;
    page.click("dialog[open] .button.primary");
    settle().await;
    assert_eq!(page.text("#pending"), "true");
    // A second confirmation, and a direct second send, while the first runs.
    page.click("#ask");
    settle().await;
    page.click("dialog[open] .button.primary");
    page.click("#send-again");
    settle().await;
    assert_eq!(template_calls(&fetch), 1);
    assert_eq!(page.text("#pending"), "true");
}

#[wasm_bindgen_test]
async fn refusals_stand_by_their_field_failures_get_the_panel_successes_the_result() {
    let fetch = FakeFetch::install(vec![
        json(409, r#"{"error": "in_use", "msg": "template 7 is in use"}"#),
        json(403, r#"{"error": "forbidden", "msg": "not yours"}"#),
        network_failure(),
        json(200, r#"{"success": true, "msg": "Template 7 deleted"}"#),
    ]);
    let page = with_client(|| view! { <Deleter /> });
    let confirm = || async {
        page.click("#ask");
        settle().await;
        page.click("dialog[open] .button.primary");
    };

    confirm().await;
    page.wait_for_text("#conflict", "template 7 is in use")
        .await;
    assert_eq!(page.text("#any-refusal"), "template 7 is in use");
    assert!(page.find(".error-panel").is_none());

    // A refusal of another kind: still by the form, but not about the conflicting field.
    confirm().await;
    page.wait_for_text("#any-refusal", "not yours").await;
    assert_eq!(page.text("#conflict"), "");

    // A failure: the panel, no refusal, no toast unless asked for.
    confirm().await;
    page.wait_for(".error-panel").await;
    assert_eq!(page.text("#any-refusal"), "");
    assert!(page.find(".toast").is_none());

    // Try again sends the same request; the success replaces the failure.
    page.click(".error-panel button");
    page.wait_for_text("#done", "deleted 7").await;
    assert!(page.find(".error-panel").is_none());
    assert_eq!(template_calls(&fetch), 4);
    let bodies: Vec<String> = fetch.calls().into_iter().map(|c| c.body).collect();
    assert!(
        bodies.iter().all(|b| b == r#"{"template_id":7}"#),
        "{bodies:?}"
    );
}

#[wasm_bindgen_test]
async fn an_answer_that_did_nothing_is_a_refusal_and_replaces_the_last_success() {
    let _fetch = FakeFetch::install(vec![
        json(200, r#"{"success": true, "msg": "Template 7 deleted"}"#),
        // The client reads a 2xx answer that says it did nothing as a refusal.
        json(
            200,
            r#"{"success": false, "msg": "template 7 was not deleted"}"#,
        ),
    ]);
    let page = with_client(|| view! { <Deleter /> });
    for _ in 0..2 {
        page.click("#ask");
        settle().await;
        page.click("dialog[open] .button.primary");
        settle().await;
    }
    page.wait_for_text("#any-refusal", "template 7 was not deleted")
        .await;
    assert_eq!(page.text("#done"), "");
}

#[wasm_bindgen_test]
async fn refusals_can_be_failures_with_a_toast() {
    let _fetch = FakeFetch::install(vec![json(
        400,
        r#"{"error": "invalid_args", "msg": "bad ids"}"#,
    )]);
    let page = with_client(|| view! { <Deleter as_failures=true /> });
    page.click("#ask");
    settle().await;
    page.click("dialog[open] .button.primary");
    page.wait_for(".error-panel").await;
    assert_eq!(page.text("#any-refusal"), "");
    assert_eq!(
        page.text(".toast.error .toast-text"),
        "Deleting failed: bad ids"
    );
}
