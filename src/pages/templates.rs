//! Template deletion: an id, a confirmation that explains the soft delete, and the
//! server's answer next to the form. The ids deleted in this tab are listed.

use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::id_form::{parse_id, IdField, IdForm};
use crate::components::page::Page;
use crate::components::toasts::use_toasts;
use crate::session::use_session;
use crate::storage::Stored;
use leptos::prelude::*;

/// sessionStorage key (followed by the user id) of the ids deleted in this tab: ids only,
/// per user, so another account signed in later in the same tab does not see them.
const DELETED_KEY_PREFIX: &str = "gpudeck.deleted-templates.";

/// The template ids `user_id` deleted in this tab, most recent first.
fn deleted_ids(user_id: i64) -> Stored<Vec<i64>> {
    Stored::in_session(format!("{DELETED_KEY_PREFIX}{user_id}"))
}

#[component]
pub fn TemplatesPage() -> impl IntoView {
    let session = use_session();
    let toasts = use_toasts();
    let user_id = session
        .get_untracked()
        .map(|s| s.user.id)
        .unwrap_or_default();

    let text = RwSignal::new(String::new());
    let input_error = RwSignal::new(None::<String>);
    let deleted = RwSignal::new(deleted_ids(user_id).load().unwrap_or_default());

    let delete = ConfirmedAction::new(
        move |api, template_id: i64| async move { api.delete_template(user_id, template_id).await },
        move |template_id, answer| {
            if !answer.success {
                return Err(if answer.msg.is_empty() {
                    format!("The server did not delete template {template_id}.")
                } else {
                    answer.msg
                });
            }
            let message = if answer.msg.is_empty() {
                format!("Template {template_id} deleted")
            } else {
                answer.msg
            };
            toasts.success(message.clone());
            text.try_set(String::new());
            deleted.try_update(|ids| {
                ids.retain(|&id| id != template_id);
                ids.insert(0, template_id);
                deleted_ids(user_id).save(ids);
            });
            Ok(message)
        },
    );
    let pending = delete.pending();

    let ask = move || {
        delete.clear();
        match parse_id("template id", &text.get_untracked()) {
            Ok(id) => {
                input_error.set(None);
                delete.ask(id);
            }
            Err(problem) => input_error.set(Some(problem)),
        }
    };
    let field_error =
        Signal::derive(move || input_error.get().or_else(|| delete.refusal_where(|_| true)));

    view! {
        <Page class="templates" title="Templates" lede="Delete one of your templates by its id. Templates other users still rely on are kept until they stop using them.">
            <IdForm on_submit=ask>
                <IdField id="template-id" label="Template id" hint="The number of the template, e.g. 501." text=text error=field_error/>
                <div class="form-actions">
                    <SubmitButton pending=pending idle="Delete template…" busy="Deleting…" danger=true/>
                </div>
            </IdForm>
            <ActionDialog action=delete title="Delete this template?" confirm_label="Delete template" danger=true>
                <p>"Template " <strong class="id-list">{move || delete.asked()}</strong></p>
                <p>
                    "The template is removed from your account; while other users still use it, it is kept and the deletion is refused."
                </p>
            </ActionDialog>
            {delete.failure_view()}
            {move || delete.done().map(|message| view! {
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
        </Page>
    }
}
