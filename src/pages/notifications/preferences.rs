//! Per event type, whether it is sent by e-mail and to webhooks (N26), changed and sent
//! back whole (N27). A type the map lacks shows its defaults, said so; e-mail stays on
//! where the service makes it mandatory.

use super::rules::{channels_of, whole_map};
use crate::api::{use_api, ApiError};
use crate::components::confirmed_action::SubmitButton;
use crate::components::data_table::{Column, DataTable};
use crate::components::error_panel::ErrorPanel;
use crate::components::toggle::Toggle;
use gpudeck_wire::notifications::{NotificationType, PreferenceMap, EMAIL, WEBHOOKS};
use leptos::prelude::*;

/// One type's row: its channels as shown, and whether they are its defaults.
#[derive(Clone)]
struct PreferenceRow {
    kind: NotificationType,
    email: RwSignal<bool>,
    webhooks: RwSignal<bool>,
    default: bool,
}

impl PreferenceRow {
    fn new(kind: NotificationType, preferences: &PreferenceMap) -> Self {
        let (channels, default) = channels_of(preferences, &kind);
        let on = |channel: &str| channels.get(channel).copied().unwrap_or(false);
        PreferenceRow {
            email: RwSignal::new(on(EMAIL) || kind.mandatory_email),
            webhooks: RwSignal::new(on(WEBHOOKS)),
            default,
            kind,
        }
    }

    /// The channels shown differently from `preferences`, as N27's changes.
    fn changes(&self, preferences: &PreferenceMap) -> Vec<(String, &'static str, bool)> {
        let (channels, _) = channels_of(preferences, &self.kind);
        [(EMAIL, self.email), (WEBHOOKS, self.webhooks)]
            .into_iter()
            .filter_map(|(channel, shown)| {
                let shown = shown.get_untracked();
                (channels.get(channel).copied().unwrap_or(false) != shown)
                    .then(|| (self.kind.key.clone(), channel, shown))
            })
            .collect()
    }
}

fn on_off(on: bool) -> String {
    if on { "on" } else { "off" }.to_owned()
}

fn channel_column(
    key: &'static str,
    header: &'static str,
    channel: &'static str,
    signal: fn(&PreferenceRow) -> RwSignal<bool>,
) -> Column<PreferenceRow> {
    Column::text(key, header, move |row: &PreferenceRow| {
        on_off(signal(row).get_untracked())
    })
    .with_cell(move |row| {
        let mandatory = channel == EMAIL && row.kind.mandatory_email;
        view! {
            <Toggle
                checked=signal(row)
                label=format!(" {header}")
                disabled=mandatory
                attr:data-preference=format!("{}/{channel}", row.kind.key)
                attr:title=format!("{header} for {}", row.kind.display_name)
            />
        }
        .into_any()
    })
    .not_searchable()
}

fn preference_columns() -> Vec<Column<PreferenceRow>> {
    vec![
        Column::text("event", "Event", |row: &PreferenceRow| {
            row.kind.display_name.clone()
        })
        .with_cell(|row| {
            let note = match (row.default, row.kind.mandatory_email) {
                (true, _) => " (default)",
                (false, true) => " (e-mail mandatory)",
                _ => "",
            };
            view! {
                <span>{row.kind.display_name.clone()}</span>
                <span class="muted">{note}</span>
            }
            .into_any()
        }),
        Column::text("context", "For", |row: &PreferenceRow| {
            if row.kind.context == "host" {
                "Hosting"
            } else {
                "Renting"
            }
            .to_owned()
        }),
        channel_column("email", "E-mail", EMAIL, |row| row.email),
        channel_column("webhooks", "Webhooks", WEBHOOKS, |row| row.webhooks),
    ]
}

#[component]
pub fn Preferences(
    user_id: i64,
    types: Vec<NotificationType>,
    preferences: PreferenceMap,
) -> impl IntoView {
    let api = use_api();
    let rows: Vec<PreferenceRow> = types
        .iter()
        .cloned()
        .map(|kind| PreferenceRow::new(kind, &preferences))
        .collect();
    let stored = StoredValue::new((types, rows.clone()));
    // What the service holds: the base of the next change.
    let base = RwSignal::new(preferences);
    let save = Action::new_local(move |map: &PreferenceMap| {
        let (api, map) = (api.clone(), map.clone());
        async move { api.change_notification_preferences(user_id, &map).await }
    });
    Effect::new(move |_| {
        if let Some(Ok(saved)) = save.value().get() {
            base.set(saved);
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let map = stored.with_value(|(types, rows)| {
            base.with_untracked(|base| {
                let changed: Vec<_> = rows.iter().flat_map(|row| row.changes(base)).collect();
                whole_map(types, base, &changed)
            })
        });
        save.dispatch(map);
    };
    let outcome = move || match save.value().get() {
        Some(Ok(_)) => view! {
            <p class="result" role="status" data-testid="preferences-result">
                "Preferences saved."
            </p>
        }
        .into_any(),
        Some(Err(error)) => {
            let error: ApiError = error;
            view! { <ErrorPanel error=error /> }.into_any()
        }
        None => ().into_any(),
    };
    view! {
        <DataTable
            rows=rows
            columns=preference_columns()
            row_key=|row: &PreferenceRow| row.kind.key.clone()
            empty="The service offers no event types to this account."
            csv_name="notification-preferences"
            caption="Events and their channels"
            url_prefix="prefs_"
        />
        <form class="preferences-save" on:submit=submit>
            <div class="form-actions">
                <SubmitButton pending=save.pending() idle="Save preferences" busy="Saving…" />
            </div>
        </form>
        {outcome}
    }
}
