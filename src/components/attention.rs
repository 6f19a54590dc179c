//! The navigation's count of machines needing attention (issue 55): the health rules
//! applied to the most recent N1 answer the console read, wherever a page asked for it,
//! against the session's read before it and with the latest windows known, as the pages
//! judge ([`crate::components::session_reads`]). It
//! adds no request to a page load: N1 is rate-limited (neighbours §1.5) and a 429 on a
//! page's first read is a known problem. While the tab is visible, the count is read again
//! once its answer is older than fleet-health §1.2's 60 s, and only when N1 would leave at
//! once within the pacer, so it never takes a page's place in the rate limit.

use crate::api::use_api;
use crate::components::after_paint::after_the_next_paint;
use crate::components::session_reads::use_session_reads;
pub use gpudeck_logic::components::attention::{is_due, REFRESH_AFTER_MS};
use leptos::prelude::*;
use std::time::Duration;

/// How often the navigation looks whether the count is due a refresh.
const LOOK_EVERY: Duration = Duration::from_secs(5);

/// `Machines 4`: the count after the Machines link, said in words to assistive tech;
/// nothing while no machine needs attention or before the first answer. Refreshes the
/// count as the module says.
#[component]
pub fn AttentionCount() -> impl IntoView {
    let reads = use_session_reads();
    let api = use_api();
    let started_ms = js_sys::Date::now();
    let since_ms = move || reads.latest_at().map_or(started_ms, |at| at * 1000.0);
    let refresh = move || {
        let visible = !document().hidden();
        if !is_due(since_ms(), js_sys::Date::now(), visible) {
            return;
        }
        let api = api.clone();
        // The answer reaches the count through the client's hook; a refusal leaves the
        // count as it was, and the next look tries again.
        leptos::task::spawn_local(async move {
            let _ = api.machines_if_free().await;
        });
    };
    if let Ok(handle) = set_interval_with_handle(refresh, LOOK_EVERY) {
        on_cleanup(move || handle.clear());
    }
    // A counter can wait: it is judged after the next paint, once however many reads and
    // windows came before it, so that on the Machines page the rows are never behind it.
    let count = RwSignal::new(None::<usize>);
    let judging = StoredValue::new(false);
    Effect::new(move |_| {
        reads.track();
        if judging.get_value() {
            return;
        }
        judging.set_value(true);
        after_the_next_paint(move || {
            judging.try_set_value(false);
            count.try_set(reads.latest_health().map(|h| h.needing_attention()));
        });
    });
    move || {
        let count = count.get().filter(|n| *n > 0)?;
        Some(view! {
            <span class="attention-count" data-testid="attention-count">
                <span aria-hidden="true">{count}</span>
                <span class="visually-hidden">
                    {format!(", {count} need{} attention", if count == 1 { "s" } else { "" })}
                </span>
            </span>
        })
    }
}
