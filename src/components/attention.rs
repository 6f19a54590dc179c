//! The navigation's count of machines needing attention (issue 55): the health rules
//! applied to the most recent N1 answer the console read, wherever a page asked for it. It
//! adds no request to a page load: N1 is rate-limited (neighbours §1.5) and a 429 on a
//! page's first read is a known problem. While the tab is visible, the count is read again
//! once its answer is older than fleet-health §1.2's 60 s, and only when N1 would leave at
//! once within the pacer, so it never takes a page's place in the rate limit.

use crate::api::{use_api, MachinesHook};
use crate::domain::health::FleetHealth;
use gpudeck_wire::Machine;
use leptos::prelude::*;
use std::rc::Rc;
use std::time::Duration;

/// Fleet-health §1.2: "every 60 s while the page is visible".
pub const REFRESH_AFTER_MS: f64 = 60_000.0;

/// How often the navigation looks whether the count is due a refresh.
const LOOK_EVERY: Duration = Duration::from_secs(5);

/// The count, and the N1 answer it was judged from (the next one compares with it).
#[derive(Clone, Copy)]
pub struct Attention {
    count: RwSignal<Option<usize>>,
    previous: StoredValue<Option<Vec<Machine>>>,
    /// When the latest N1 answer was read, or the session's shell started (ms).
    since_ms: StoredValue<f64>,
}

impl Attention {
    /// Made once per session's shell, with the client the hook is given to.
    pub fn new() -> Self {
        Attention {
            count: RwSignal::new(None),
            previous: StoredValue::new(None),
            since_ms: StoredValue::new(js_sys::Date::now()),
        }
    }

    /// What the shell's client tells each N1 answer.
    pub fn hook(self) -> MachinesHook {
        Rc::new(move |machines: &[Machine]| self.note(machines, js_sys::Date::now()))
    }

    fn note(self, machines: &[Machine], now_ms: f64) {
        let previous = self.previous.get_value();
        let health = FleetHealth::judge(machines, &[], previous.as_deref(), now_ms / 1000.0);
        self.count.set(Some(health.needing_attention()));
        self.previous.set_value(Some(machines.to_vec()));
        self.since_ms.set_value(now_ms);
    }

    /// Machines needing attention by the latest N1 answer; `None` before the first.
    pub fn count(self) -> Option<usize> {
        self.count.get()
    }
}

impl Default for Attention {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether the count is due a refresh: the tab is visible and the latest answer (or, with
/// none yet, the shell's start) is at least [`REFRESH_AFTER_MS`] old.
pub fn is_due(since_ms: f64, now_ms: f64, visible: bool) -> bool {
    visible && now_ms - since_ms >= REFRESH_AFTER_MS
}

/// `Machines 4`: the count after the Machines link, said in words to assistive tech;
/// nothing while no machine needs attention or before the first answer. Refreshes the
/// count as the module says.
#[component]
pub fn AttentionCount() -> impl IntoView {
    let attention = expect_context::<Attention>();
    let api = use_api();
    let refresh = move || {
        let visible = !document().hidden();
        if !is_due(attention.since_ms.get_value(), js_sys::Date::now(), visible) {
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
    move || {
        let count = attention.count().filter(|n| *n > 0)?;
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_due_a_refresh_only_when_visible_and_a_minute_old() {
        assert!(!is_due(1000.0, 1000.0, true), "a page load asks nothing");
        assert!(!is_due(1000.0, 60_999.0, true));
        assert!(is_due(1000.0, 61_000.0, true));
        assert!(
            !is_due(1000.0, 600_000.0, false),
            "not while the tab is hidden"
        );
    }
}
