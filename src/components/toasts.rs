//! Short notices in a corner: successes and neutral news hide by themselves, errors stay
//! until dismissed. Each gets its true tone: "nothing changed" is news, not a success.

use leptos::prelude::*;

const SUCCESS_MS: u32 = 6000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ToastKind {
    Success,
    /// Neither good nor bad: the request worked and nothing needed to change.
    Info,
    Error,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Toast {
    pub id: u64,
    pub kind: ToastKind,
    pub text: String,
}

/// The toasts of the page, shared through context.
#[derive(Clone, Copy)]
pub struct Toasts {
    list: RwSignal<Vec<Toast>>,
    next_id: StoredValue<u64>,
}

impl Toasts {
    pub fn success(&self, text: impl Into<String>) {
        self.push_for_a_while(ToastKind::Success, text.into());
    }

    pub fn info(&self, text: impl Into<String>) {
        self.push_for_a_while(ToastKind::Info, text.into());
    }

    fn push_for_a_while(&self, kind: ToastKind, text: String) {
        let id = self.push(kind, text);
        let toasts = *self;
        set_timeout(
            move || toasts.dismiss(id),
            std::time::Duration::from_millis(SUCCESS_MS.into()),
        );
    }

    pub fn error(&self, text: impl Into<String>) {
        self.push(ToastKind::Error, text.into());
    }

    pub fn dismiss(&self, id: u64) {
        self.list.try_update(|list| list.retain(|t| t.id != id));
    }

    pub fn current(&self) -> Vec<Toast> {
        self.list.get()
    }

    /// A toast from a task that outlived the console's shell (a test's page unmounted) is
    /// dropped.
    fn push(&self, kind: ToastKind, text: String) -> u64 {
        let id = self.next_id.try_get_value().unwrap_or_default();
        self.next_id.try_set_value(id + 1);
        self.list
            .try_update(|list| list.push(Toast { id, kind, text }));
        id
    }
}

pub fn provide_toasts() -> Toasts {
    let toasts = Toasts {
        list: RwSignal::new(Vec::new()),
        next_id: StoredValue::new(1),
    };
    provide_context(toasts);
    toasts
}

pub fn use_toasts() -> Toasts {
    expect_context::<Toasts>()
}

/// Where the toasts show; place once in the shell, in the flow of the layout (a toast
/// laid over the page would cover its buttons).
#[component]
pub fn ToastRegion() -> impl IntoView {
    let toasts = use_toasts();
    view! {
        <div class="toasts" role="status" aria-live="polite">
            <For each=move || toasts.current() key=|t| t.id let:toast>
                <div class=match toast.kind {
                    ToastKind::Success => "toast success",
                    ToastKind::Info => "toast info",
                    ToastKind::Error => "toast error",
                }>
                    <span class="toast-text">{toast.text.clone()}</span>
                    <button
                        type="button"
                        class="toast-close"
                        aria-label="Dismiss"
                        on:click=move |_| toasts.dismiss(toast.id)
                    >
                        "×"
                    </button>
                </div>
            </For>
        </div>
    }
}
