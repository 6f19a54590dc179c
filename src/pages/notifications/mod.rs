//! Notifications (spec fleet-health §3): the account's webhooks (N28) created (N29),
//! changed (N30), deleted (N31), their secret rotated (N32) and a test sent (N33); and
//! per event type (N25) whether it is sent by e-mail and to webhooks (N26, N27). The
//! console cannot receive deliveries itself: it manages them for when it is closed.
//!
//! The page's parts: [`webhooks::WebhookTable`], [`form::WebhookForm`],
//! [`secret::SecretDialog`] (a new secret, shown once) and [`preferences::Preferences`].

mod form;
mod preferences;
mod secret;
mod webhooks;

pub use gpudeck_logic::pages::notifications::rules;

use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::session::use_session;
use form::WebhookForm;
use gpudeck_wire::notifications::{NotificationType, PreferenceMap, Webhook};
use leptos::prelude::*;
use preferences::Preferences;
use secret::{SecretDialog, ShownSecret};
use webhooks::WebhookTable;

const PAGE_LEDE: &str = "Where the marketplace tells you about your machines while this console \
    is closed: webhooks that receive signed deliveries, and for each event whether it is sent \
    by e-mail and to your webhooks.";

/// The event types the caller is offered, host types first, and the caller's channels.
#[derive(Clone, Debug, PartialEq)]
struct Catalog {
    types: Vec<NotificationType>,
    preferences: PreferenceMap,
}

#[component]
pub fn NotificationsPage() -> impl IntoView {
    let user_id = use_session()
        .get_untracked()
        .map(|s| s.user.id)
        .unwrap_or_default();
    let catalog = use_api_resource(move |api| async move {
        let (types, preferences) = futures::future::try_join(
            api.notification_types(),
            api.notification_preferences(user_id),
        )
        .await?;
        Ok(Catalog {
            types: rules::host_first(&types),
            preferences,
        })
    });
    let webhooks = use_api_resource(|api| async move { api.webhooks().await });
    let types =
        Signal::derive(move || with_loaded(catalog, |c| c.types.clone()).unwrap_or_default());
    let count = Signal::derive(move || with_loaded(webhooks, Vec::len).unwrap_or_default());
    let shown_secret = RwSignal::new(None::<ShownSecret>);
    let editing = RwSignal::new(None::<Webhook>);
    let reload = Callback::new(move |_| webhooks.refetch());

    view! {
        <Page class="notifications" entry=&gpudeck_pages::NOTIFICATIONS lede=PAGE_LEDE>
            <section class="webhooks" aria-labelledby="webhooks-heading">
                <h2 id="webhooks-heading">"Webhooks"</h2>
                {ResourceView::new(webhooks, "Loading your webhooks…")
                    .with_reload_button()
                    .show(move |list| {
                        view! {
                            <WebhookTable
                                webhooks=list
                                types=types.get()
                                editing=editing
                                shown_secret=shown_secret
                                on_changed=reload
                            />
                        }
                    })}
            </section>
            <WebhookForm
                types=types
                count=count
                editing=editing
                shown_secret=shown_secret
                on_saved=reload
            />
            <SecretDialog shown=shown_secret />
            <section class="preferences" aria-labelledby="preferences-heading">
                <h2 id="preferences-heading">"Events and channels"</h2>
                {ResourceView::new(catalog, "Loading the event types…")
                    .show(move |loaded: Catalog| {
                        view! {
                            <Preferences
                                user_id=user_id
                                types=loaded.types
                                preferences=loaded.preferences
                            />
                        }
                    })}
            </section>
        </Page>
    }
}
