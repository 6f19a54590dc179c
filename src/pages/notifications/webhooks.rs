//! The caller's webhooks (N28) in a table, each with its actions: edit (in the form),
//! send a test (N33, its outcome said in words), rotate the secret (N32, confirmed) and
//! delete (N31, confirmed).

use super::rules::subscription_label;
use super::secret::ShownSecret;
use crate::api::{use_api, ApiError};
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::data_table::{Column, DataTable};
use crate::components::time::{format_absolute, Time};
use crate::components::toasts::use_toasts;
use gpudeck_wire::notifications::{NotificationType, Webhook, WebhookTested};
use leptos::prelude::*;

/// The subscriptions of `webhook` by name, in its order.
fn subscriptions(types: &[NotificationType], webhook: &Webhook) -> String {
    webhook
        .event_types
        .iter()
        .map(|subscribed| subscription_label(types, subscribed))
        .collect::<Vec<_>>()
        .join(", ")
}

fn name_of(webhook: &Webhook) -> String {
    webhook.name.clone().unwrap_or_default()
}

/// What a row's buttons ask for.
#[derive(Clone, Copy)]
struct RowActions {
    edit: Callback<Webhook>,
    test: Callback<i64>,
    rotate: Callback<i64>,
    delete: Callback<i64>,
}

fn webhook_columns(types: Vec<NotificationType>, actions: RowActions) -> Vec<Column<Webhook>> {
    vec![
        Column::whole("id", "Id", |w: &Webhook| w.id),
        Column::text("name", "Name", name_of),
        Column::text("url", "URL", |w: &Webhook| w.webhook_url.clone()).with_cell(|w| {
            view! { <span class="webhook-url">{w.webhook_url.clone()}</span> }.into_any()
        }),
        Column::text("events", "Events", move |w: &Webhook| {
            subscriptions(&types, w)
        }),
        Column::number(
            "updated",
            "Changed",
            |w: &Webhook| w.updated_at,
            |w| format_absolute(w.updated_at, true),
        )
        .with_cell(|w| view! { <Time unix_seconds=w.updated_at/> }.into_any()),
        Column::actions(move |w: &Webhook| {
            let id = w.id;
            let webhook = w.clone();
            view! {
                <span class="row-actions">
                    <button
                        type="button"
                        class="button small"
                        aria-label=format!("Edit webhook {id}")
                        on:click=move |_| actions.edit.run(webhook.clone())
                    >
                        "Edit"
                    </button>
                    <button
                        type="button"
                        class="button small"
                        aria-label=format!("Send test to webhook {id}")
                        on:click=move |_| actions.test.run(id)
                    >
                        "Send test"
                    </button>
                    <button
                        type="button"
                        class="button small"
                        aria-label=format!("Rotate secret of webhook {id}")
                        on:click=move |_| actions.rotate.run(id)
                    >
                        "Rotate secret…"
                    </button>
                    <button
                        type="button"
                        class="button small danger"
                        aria-label=format!("Delete webhook {id}")
                        on:click=move |_| actions.delete.run(id)
                    >
                        "Delete…"
                    </button>
                </span>
            }
            .into_any()
        }),
    ]
}

#[component]
pub fn WebhookTable(
    webhooks: Vec<Webhook>,
    types: Vec<NotificationType>,
    editing: RwSignal<Option<Webhook>>,
    shown_secret: RwSignal<Option<ShownSecret>>,
    /// After a rotation or deletion: the list is read again.
    on_changed: Callback<()>,
) -> impl IntoView {
    let toasts = use_toasts();
    let api = use_api();
    let listed = StoredValue::new(webhooks.clone());
    // N33 is never repeated by itself: its 502 is the receiver's failure, not the service's.
    let test = Action::new_local(move |id: &i64| {
        let (api, id) = (api.clone(), *id);
        async move { (id, api.test_webhook(id).await) }
    });
    let rotate = ConfirmedAction::new(
        move |api, id: i64| async move { api.rotate_webhook_secret(id).await },
        move |id, answer| {
            shown_secret.set(Some(ShownSecret {
                webhook_id: id,
                secret: answer.webhook.webhook_secret,
            }));
            on_changed.run(());
            format!("Webhook {id} has a new secret; the old one no longer signs deliveries.")
        },
    )
    .refusals_as_failures();
    let delete = ConfirmedAction::new(
        move |api, id: i64| async move { api.delete_webhook(id).await },
        move |id, _| {
            let message = format!("Webhook {id} deleted.");
            toasts.success(message.clone());
            editing.update(|e| {
                if e.as_ref().is_some_and(|w| w.id == id) {
                    *e = None;
                }
            });
            on_changed.run(());
            message
        },
    )
    .refusals_as_failures();
    let actions = RowActions {
        edit: Callback::new(move |w| editing.set(Some(w))),
        test: Callback::new(move |id| {
            test.dispatch(id);
        }),
        rotate: Callback::new(move |id| rotate.ask(id)),
        delete: Callback::new(move |id| delete.ask(id)),
    };
    let asked_url = move || {
        let id = delete.asked()?;
        listed.with_value(|all| {
            all.iter()
                .find(|w| w.id == id)
                .map(|w| w.webhook_url.clone())
        })
    };
    view! {
        <DataTable
            rows=webhooks
            columns=webhook_columns(types, actions)
            row_key=|w: &Webhook| w.id.to_string()
            empty="No webhooks yet. Create one below to receive events while the console is closed."
            csv_name="webhooks"
            caption="Your webhooks"
            url_prefix="hooks_"
        />
        <p class="result" role="status" data-testid="webhook-test-result">
            {move || {
                if test.pending().get() {
                    return "Sending a test delivery…".to_owned();
                }
                test.value()
                    .get()
                    .map(|(id, outcome)| test_outcome(id, outcome))
                    .unwrap_or_default()
            }}
        </p>
        <ActionDialog
            action=rotate
            title="Rotate this webhook's secret?"
            confirm_label="Rotate secret"
            danger=true
        >
            <p>
                {move || {
                    rotate.asked().map(|id| format!("Webhook {id} gets a new signing secret."))
                }}
                " The current secret stops working at once: deliveries are signed with the new one, which is shown once."
            </p>
        </ActionDialog>
        <ActionDialog
            action=delete
            title="Delete this webhook?"
            confirm_label="Delete webhook"
            danger=true
        >
            <p>
                <strong class="id-list">{asked_url}</strong>
            </p>
            <p>"It receives no more deliveries. Your event preferences stay as they are."</p>
        </ActionDialog>
        {rotate.failure_view()}
        {delete.failure_view()}
        {move || {
            rotate
                .done()
                .map(|message| {
                    view! {
                        <p class="result" role="status">
                            {message}
                        </p>
                    }
                })
        }}
    }
}

/// A test's outcome in words: delivered, or the service's account of the receiver's
/// failure (a permanent refusal, or a retryable one such as a timeout or a 5xx).
fn test_outcome(id: i64, outcome: Result<WebhookTested, ApiError>) -> String {
    match outcome {
        Ok(answer) => {
            let said = if answer.msg.is_empty() {
                "Test webhook delivered".to_owned()
            } else {
                answer.msg
            };
            match answer.event_id {
                Some(event) => format!("Webhook {id}: {said} (event {event})."),
                None => format!("Webhook {id}: {said}."),
            }
        }
        Err(error) => format!(
            "The test delivery to webhook {id} failed: {}",
            error.message_with_status()
        ),
    }
}
