//! Creating a webhook (N29) or changing one (N30) in one form: a name, the URL and the
//! event types, checked before sending, with the server's refusals beside the form. A new
//! webhook's secret goes to the secret dialog, never into the form's state.

use super::rules::{
    changes_of, check_webhook, field_of_refusal, subscribed_keys, url_warning, WebhookDraft,
    WebhookField, MAX_WEBHOOKS,
};
use super::secret::ShownSecret;
use crate::api::requests::WebhookChanges;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction, SubmitButton};
use crate::components::form_field::{problem_for, FieldGroup, FormField, TextInput, TextKind};
use crate::components::toasts::use_toasts;
use crate::components::toggle::Toggle;
use crate::domain::form_problem::Problem;
use gpudeck_wire::notifications::{NotificationType, Webhook};
use leptos::prelude::*;
use std::collections::BTreeMap;

/// The types the webhook turns on, by name, for the confirmation and the result.
fn enabled_sentence(types: &[NotificationType], keys: &[String]) -> String {
    if keys.is_empty() {
        return String::new();
    }
    let names: Vec<String> = keys
        .iter()
        .map(|key| super::rules::subscription_label(types, key))
        .collect();
    format!(" Webhook delivery turned on for: {}.", names.join(", "))
}

#[component]
pub fn WebhookForm(
    types: Signal<Vec<NotificationType>>,
    /// How many webhooks the caller has: none can be created at the limit.
    count: Signal<usize>,
    /// The webhook being changed; `None` while creating.
    editing: RwSignal<Option<Webhook>>,
    shown_secret: RwSignal<Option<ShownSecret>>,
    on_saved: Callback<()>,
) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let url = RwSignal::new(String::new());
    // Each type's box, by key: what the submit reads, and what editing fills.
    let boxes = StoredValue::new(BTreeMap::<String, RwSignal<bool>>::new());
    let tick = move |keys: &[String]| {
        boxes.with_value(|b| {
            for (key, checked) in b {
                checked.set(keys.contains(key));
            }
        })
    };
    let problems = RwSignal::new(Vec::<Problem<WebhookField>>::new());
    let reset = move || {
        name.set(String::new());
        url.set(String::new());
        tick(&[]);
        problems.set(Vec::new());
    };
    // Editing fills the form with the webhook as listed.
    Effect::new(move |_| match editing.get() {
        Some(webhook) => {
            name.set(webhook.name.clone().unwrap_or_default());
            url.set(webhook.webhook_url.clone());
            tick(&subscribed_keys(&types.get_untracked(), &webhook));
            problems.set(Vec::new());
        }
        None => reset(),
    });

    let (create, update) = webhook_actions(types, editing, shown_secret, on_saved, reset);
    let pending = Signal::derive(move || create.pending().get() || update.pending().get());
    let at_limit =
        Signal::derive(move || editing.with(Option::is_none) && count.get() >= MAX_WEBHOOKS);

    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        create.clear();
        update.clear();
        let keys = ticked_keys(&types.get_untracked(), boxes);
        let draft = match check_webhook(&name.get_untracked(), &url.get_untracked(), keys) {
            Ok(draft) => draft,
            Err(found) => return problems.set(found),
        };
        problems.set(Vec::new());
        match editing.get_untracked() {
            None => create.ask(draft),
            Some(webhook) => {
                let changes = changes_of(&webhook, &types.get_untracked(), &draft);
                if changes.is_empty() {
                    problems.set(vec![Problem::new(
                        WebhookField::Url,
                        "Nothing has changed.",
                    )]);
                } else {
                    update.ask((webhook.id, changes));
                }
            }
        }
    };
    let problems = Signal::from(problems);
    // A refusal goes beside the field its message names, else under the form.
    let refused = move |field: Option<WebhookField>| {
        let concerns = move |_, message: &str| field_of_refusal(message) == field;
        create
            .refused_where(concerns)
            .or_else(|| update.refused_where(concerns))
    };
    let error_of = move |field: WebhookField| {
        let checked = problem_for(problems, field);
        Signal::derive(move || checked.get().or_else(|| refused(Some(field))))
    };
    let refusal = move || refused(None);

    view! {
        <section class="webhook-editor" aria-labelledby="webhook-form-heading">
            <h2 id="webhook-form-heading">
                {move || match editing.get() {
                    Some(w) => format!("Change webhook {}", w.id),
                    None => "Create a webhook".to_owned(),
                }}
            </h2>
            <form class="webhook-form" on:submit=submit novalidate>
                <FormField
                    id="webhook-name"
                    label="Name (optional)"
                    hint="Up to 120 characters, to tell your webhooks apart."
                    error=error_of(WebhookField::Name)
                >
                    <TextInput kind=TextKind::Plain text=name />
                </FormField>
                <FormField
                    id="webhook-url"
                    label="URL"
                    hint="Where the signed deliveries are POSTed, e.g. https://example.com/vast/webhooks."
                    status=move || url_warning(&url.get()).unwrap_or_default()
                    error=error_of(WebhookField::Url)
                >
                    <TextInput kind=TextKind::Plain text=url />
                </FormField>
                <EventTypeBoxes
                    types=types
                    editing=editing
                    boxes=boxes
                    error=error_of(WebhookField::Types)
                />
                <p class="form-error" role="alert">
                    {refusal}
                </p>
                <p class="hint" hidden=move || !at_limit.get()>
                    "You have 4 webhooks, the most the service allows. Delete one to create another."
                </p>
                <div class="form-actions">
                    <Show
                        when=move || editing.with(Option::is_some)
                        fallback=move || {
                            view! {
                                <SubmitButton
                                    pending=pending
                                    blocked=at_limit
                                    idle="Create webhook…"
                                    busy="Saving…"
                                />
                            }
                        }
                    >
                        <SubmitButton pending=pending idle="Save changes…" busy="Saving…" />
                        <button type="button" class="button" on:click=move |_| editing.set(None)>
                            "Cancel"
                        </button>
                    </Show>
                </div>
            </form>
            <WebhookConfirmations create=create update=update />
        </section>
    }
}

/// The keys of the ticked boxes, in the types' order, so that the request lists them as
/// the page does.
fn ticked_keys(
    types: &[NotificationType],
    boxes: StoredValue<BTreeMap<String, RwSignal<bool>>>,
) -> Vec<String> {
    types
        .iter()
        .map(|t| t.key.clone())
        .filter(|key| {
            boxes.with_value(|b| b.get(key).is_some_and(|checked| checked.get_untracked()))
        })
        .collect()
}

/// The creation (N29) and the change (N30) the form confirms: a new webhook's secret goes
/// to the secret dialog and the form is emptied; a change ends the editing. Each result
/// says which event types it turned on.
fn webhook_actions(
    types: Signal<Vec<NotificationType>>,
    editing: RwSignal<Option<Webhook>>,
    shown_secret: RwSignal<Option<ShownSecret>>,
    on_saved: Callback<()>,
    reset: impl Fn() + Copy + Send + Sync + 'static,
) -> (
    ConfirmedAction<WebhookDraft, String>,
    ConfirmedAction<(i64, WebhookChanges), String>,
) {
    let toasts = use_toasts();
    let create = ConfirmedAction::new(
        move |api, draft: WebhookDraft| async move {
            api.create_webhook(&draft.name, &draft.webhook_url, &draft.event_types)
                .await
        },
        move |_, created| {
            let id = created.webhook.webhook.id;
            shown_secret.set(Some(ShownSecret {
                webhook_id: id,
                secret: created.webhook.webhook_secret,
            }));
            reset();
            on_saved.run(());
            let enabled = enabled_sentence(
                &types.get_untracked(),
                &created.enabled_notification_preferences,
            );
            let message = format!("Webhook {id} created.{enabled}");
            toasts.success(message.clone());
            message
        },
    );
    let update = ConfirmedAction::new(
        move |api, (id, changes): (i64, WebhookChanges)| async move {
            api.update_webhook(id, &changes).await
        },
        move |(id, _), updated| {
            editing.set(None);
            on_saved.run(());
            let enabled = enabled_sentence(
                &types.get_untracked(),
                &updated.enabled_notification_preferences,
            );
            let message = format!("Webhook {id} changed; its secret is unchanged.{enabled}");
            toasts.success(message.clone());
            message
        },
    );
    (create, update)
}

/// One box per event type the webhook may receive; `boxes` holds each box's state by
/// key, filled from `editing`'s subscriptions when a webhook is being changed.
#[component]
fn EventTypeBoxes(
    types: Signal<Vec<NotificationType>>,
    editing: RwSignal<Option<Webhook>>,
    boxes: StoredValue<BTreeMap<String, RwSignal<bool>>>,
    error: Signal<Option<String>>,
) -> impl IntoView {
    view! {
        <FieldGroup
            id="webhook-types"
            legend="Events it receives"
            hint="Subscribing turns on the webhook channel of those events in your preferences."
            error=error
            class="event-types"
        >
            <For
                each=move || types.get()
                key=|t: &NotificationType| t.key.clone()
                children=move |kind| {
                    let checked = RwSignal::new(
                        editing
                            .with_untracked(|e| {
                                e.as_ref()
                                    .is_some_and(|w| {
                                        subscribed_keys(&types.get_untracked(), w)
                                            .contains(&kind.key)
                                    })
                            }),
                    );
                    boxes
                        .update_value(|b| {
                            b.insert(kind.key.clone(), checked);
                        });
                    view! {
                        <Toggle
                            checked=checked
                            label=format!(" {}", kind.display_name)
                            attr:data-event-type=kind.key.clone()
                        />
                    }
                }
            />
        </FieldGroup>
    }
}

/// The confirmations of a creation and a change, their failures and their results.
#[component]
fn WebhookConfirmations(
    create: ConfirmedAction<WebhookDraft, String>,
    update: ConfirmedAction<(i64, WebhookChanges), String>,
) -> impl IntoView {
    view! {
        <ActionDialog action=create title="Create this webhook?" confirm_label="Create webhook">
            <p>
                {move || {
                    create
                        .asked()
                        .map(|d| {
                            format!(
                                "Deliveries to {} for {} event type(s). Its signing secret is shown once, right after.",
                                d.webhook_url,
                                d.event_types.len(),
                            )
                        })
                }}
            </p>
        </ActionDialog>
        <ActionDialog action=update title="Change this webhook?" confirm_label="Save changes">
            <p>
                {move || {
                    update
                        .asked()
                        .map(|(id, _)| {
                            format!(
                                "Webhook {id} keeps its secret; only the fields you changed are sent.",
                            )
                        })
                }}
            </p>
        </ActionDialog>
        {create.failure_view()}
        {update.failure_view()}
        {move || {
            create
                .done()
                .or_else(|| update.done())
                .map(|message| {
                    view! {
                        <p class="result" role="status" data-testid="webhook-result">
                            {message}
                        </p>
                    }
                })
        }}
    }
}
