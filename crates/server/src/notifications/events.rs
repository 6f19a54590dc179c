//! Host events (spec fleet-health §3.5): one event id for every webhook and retry, each
//! delivery in the background, at most three attempts, 1 s and then 5 s after a
//! retryable failure. Deliveries never delay the request that caused the event and are
//! not kept across a restart.

use super::catalog::Kind;
use super::delivery::{self, attempt, Event, Outcome, Target};
use super::host_events::{self, HostEvent};
use crate::db;
use crate::state::AppState;
use gpudeck_wire::demo::EmittedEvent;
use gpudeck_wire::notifications::Delivery;
use gpudeck_wire::WindowPlan;
use std::time::Duration;

/// The pauses before the second and third attempts.
pub const RETRY_PAUSES: [Duration; 2] = [Duration::from_secs(1), Duration::from_secs(5)];

/// Emits an event of `kind` to `owner`'s subscribed webhooks (when their webhook channel
/// for it is on) and returns its id. Call it after the change that caused it committed.
pub async fn emit(
    state: &AppState,
    owner: i64,
    kind: &'static Kind,
    subject: String,
    message: String,
) -> Result<String, db::DbError> {
    let event = Event::new(&Delivery {
        event_id: delivery::event_id(),
        user_id: owner,
        notif_type: kind.slug().to_owned(),
        subject,
        message,
        timestamp: state.clock.now(),
    });
    let subscribers = state
        .db
        .run(move |conn| db::notifications::subscribers(conn, owner, kind))
        .await?;
    for (webhook, _) in subscribers {
        tokio::spawn(deliver(state.clone(), owner, webhook.id, event.clone()));
    }
    Ok(event.event_id)
}

/// Delivers `event` to webhook `webhook_id`, retrying retryable failures. The webhook is
/// read again before each attempt: a deleted one gets no more attempts, a rotated
/// secret signs the next.
async fn deliver(state: AppState, owner: i64, webhook_id: i64, event: Event) {
    let local_allowed = state.config.demo_or_test_mode();
    for number in 1..=(RETRY_PAUSES.len() as u32 + 1) {
        let found = state
            .db
            .run(move |conn| db::notifications::webhook(conn, owner, webhook_id))
            .await;
        let Ok(Some((webhook, secret))) = found else {
            return;
        };
        let target = Target {
            webhook_id,
            url: webhook.webhook_url,
            secret,
        };
        match attempt(&target, &event, number, local_allowed, &state.clock).await {
            Outcome::Delivered | Outcome::Permanent => return,
            Outcome::Retryable => {
                if let Some(pause) = RETRY_PAUSES.get(number as usize - 1) {
                    tokio::time::sleep(*pause).await;
                }
            }
        }
    }
}

/// Emits each of `events` in turn (after the change that caused them committed) and
/// returns their keys and ids, for a demo trigger's answer.
pub async fn emit_all(
    state: &AppState,
    owner: i64,
    events: Vec<HostEvent>,
) -> Result<Vec<EmittedEvent>, db::DbError> {
    let mut emitted = Vec::with_capacity(events.len());
    for HostEvent {
        kind,
        subject,
        message,
    } in events
    {
        let event_id = emit(state, owner, kind, subject, message).await?;
        emitted.push(EmittedEvent {
            key: kind.key.to_owned(),
            event_id,
        });
    }
    Ok(emitted)
}

/// `host:maintenance_scheduled` for a window N3 or N4 committed on `machine_id`, emitted in
/// the background so that it never delays the answer.
pub fn maintenance_scheduled(state: &AppState, owner: i64, machine_id: i64, window: &WindowPlan) {
    let HostEvent {
        kind,
        subject,
        message,
    } = host_events::maintenance_scheduled(
        machine_id,
        &window.category,
        window.start_time,
        window.duration_hours,
    );
    let state = state.clone();
    tokio::spawn(async move {
        if let Err(error) = emit(&state, owner, kind, subject, message).await {
            tracing::error!(%error, machine_id, "emitting maintenance_scheduled");
        }
    });
}
