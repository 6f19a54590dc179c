//! Template deletion: an id, a confirmation that explains the soft delete, and the
//! server's answer next to the form. The ids deleted in this tab are listed.

use crate::api::{use_api, ApiError};
use crate::components::confirm::ConfirmDialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::id_form::{is_refusal, parse_id, IdField};
use crate::components::toasts::use_toasts;
use crate::session::use_session;
use leptos::prelude::*;

/// sessionStorage key (followed by the user id) of the ids deleted in this tab: ids only,
/// per user, so another account signed in later in the same tab does not see them.
const DELETED_KEY_PREFIX: &str = "gpudeck.deleted-templates.";

/// The template ids `user_id` deleted in this tab, most recent first.
fn load_deleted(user_id: i64) -> Vec<i64> {
    crate::storage::session()
        .and_then(|s| {
            s.get_item(&format!("{DELETED_KEY_PREFIX}{user_id}"))
                .ok()
                .flatten()
        })
        .and_then(|json| serde_json::from_str(&json).ok())
        .unwrap_or_default()
}

fn store_deleted(user_id: i64, ids: &[i64]) {
    if let (Some(storage), Ok(json)) = (crate::storage::session(), serde_json::to_string(ids)) {
        let _ = storage.set_item(&format!("{DELETED_KEY_PREFIX}{user_id}"), &json);
    }
}

#[component]
pub fn TemplatesPage() -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let toasts = use_toasts();
    let user_id = move || {
        session
            .get_untracked()
            .map(|s| s.user.id)
            .unwrap_or_default()
    };

    let text = RwSignal::new(String::new());
    let input_error = RwSignal::new(None::<String>);
    let refusal = RwSignal::new(None::<String>);
    let failure = RwSignal::new(None::<ApiError>);
    let done = RwSignal::new(None::<String>);
    let confirming = RwSignal::new(false);
    let to_delete = RwSignal::new(0i64);
    let deleted = RwSignal::new(load_deleted(user_id()));

    let delete = Action::new_local(move |template_id: &i64| {
        let api = api.clone();
        let template_id = *template_id;
        let user_id = user_id();
        async move {
            match api.delete_template(user_id, template_id).await {
                Ok(answer) if answer.success => {
                    let message = if answer.msg.is_empty() {
                        format!("Template {template_id} deleted")
                    } else {
                        answer.msg
                    };
                    toasts.success(message.clone());
                    done.try_set(Some(message));
                    text.try_set(String::new());
                    deleted.try_update(|ids| {
                        ids.retain(|&id| id != template_id);
                        ids.insert(0, template_id);
                        store_deleted(user_id, ids);
                    });
                }
                Ok(answer) => {
                    refusal.try_set(Some(if answer.msg.is_empty() {
                        format!("The server did not delete template {template_id}.")
                    } else {
                        answer.msg
                    }));
                }
                Err(ApiError::Aborted) => {}
                Err(error) if is_refusal(&error) => {
                    refusal.try_set(Some(error.message()));
                }
                Err(error) => {
                    failure.try_set(Some(error));
                }
            }
        }
    });
    let pending = delete.pending();

    let ask = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        refusal.set(None);
        failure.set(None);
        done.set(None);
        match parse_id("template id", &text.get_untracked()) {
            Ok(id) => {
                input_error.set(None);
                to_delete.set(id);
                confirming.set(true);
            }
            Err(problem) => input_error.set(Some(problem)),
        }
    };
    let send = move || {
        if !delete.pending().get_untracked() {
            refusal.set(None);
            failure.set(None);
            delete.dispatch(to_delete.get_untracked());
        }
    };
    let field_error = Signal::derive(move || input_error.get().or_else(|| refusal.get()));

    view! {
        <section class="templates">
            <h1>"Templates"</h1>
            <p class="lede">"Delete one of your templates by its id. Templates other users still rely on are kept until they stop using them."</p>
            <form class="id-form" on:submit=ask novalidate>
                <IdField
                    id="template-id"
                    label="Template id"
                    hint="The number of the template, e.g. 501."
                    text=text
                    error=field_error
                />
                <div class="form-actions">
                    <button type="submit" class="button danger" disabled=pending>
                        {move || if pending.get() { "Deleting…" } else { "Delete template…" }}
                    </button>
                </div>
            </form>
            <ConfirmDialog
                open=confirming
                title="Delete this template?"
                confirm_label="Delete template"
                danger=true
                on_confirm=Callback::new(move |_| send())
            >
                <p>"Template " <strong class="id-list">{move || to_delete.get()}</strong></p>
                <p>
                    "The template is removed from your account; while other users still use it, it is kept and the deletion is refused."
                </p>
            </ConfirmDialog>
            {move || failure.get().map(|error| view! {
                <ErrorPanel error=error on_retry=Callback::new(move |_| send())/>
            })}
            {move || done.get().map(|message| view! {
                <div class="result" role="status" data-testid="template-result">
                    <h2>"Deleted"</h2>
                    <p>{message}</p>
                </div>
            })}
            <section class="recently-deleted" aria-labelledby="recently-deleted-heading">
                <h2 id="recently-deleted-heading">"Deleted in this session"</h2>
                {move || {
                    let ids = deleted.get();
                    if ids.is_empty() {
                        view! { <p class="muted">"No templates deleted yet in this tab."</p> }.into_any()
                    } else {
                        view! {
                            <ul class="id-chips" data-testid="recently-deleted">
                                {ids.into_iter().map(|id| view! { <li>{id}</li> }).collect_view()}
                            </ul>
                        }.into_any()
                    }
                }}
            </section>
        </section>
    }
}
