//! Copying text for people: the clipboard when the browser allows it, otherwise the text
//! selected in a field with a hint to press Ctrl+C.

use leptos::html::Input;
use leptos::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq)]
enum CopyState {
    Idle,
    Copied,
    /// The clipboard was unavailable or refused: the text is shown selected instead.
    Manual,
}

/// Writes `text` to the clipboard. `false` when the browser has no clipboard here (an
/// insecure origin, an old browser) or refuses (no permission, the page lacks focus).
pub async fn write_to_clipboard(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let available = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .is_ok_and(|clipboard| !clipboard.is_undefined() && !clipboard.is_null());
    if !available {
        return false;
    }
    wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .is_ok()
}

/// A copy button with a visible status. `label` is its accessible name, e.g. "Copy the API
/// key of subaccount 11", so that a list of such buttons can be told apart.
#[component]
pub fn CopyButton(#[prop(into)] text: String, #[prop(into)] label: String) -> impl IntoView {
    let state = RwSignal::new(CopyState::Idle);
    let text = StoredValue::new(text);
    let fallback = NodeRef::<Input>::new();
    Effect::new(move |_| {
        if state.get() == CopyState::Manual {
            if let Some(field) = fallback.get() {
                let _ = field.focus();
                field.select();
            }
        }
    });
    let copy = move |_| {
        state.set(CopyState::Idle);
        let value = text.get_value();
        leptos::task::spawn_local(async move {
            let copied = write_to_clipboard(&value).await;
            state.try_set(if copied {
                CopyState::Copied
            } else {
                CopyState::Manual
            });
        });
    };
    view! {
        <span class="copy">
            <button type="button" class="button small" aria-label=label on:click=copy>
                "Copy"
            </button>
            <Show when=move || state.get() == CopyState::Manual>
                <input
                    node_ref=fallback
                    class="copy-fallback"
                    type="text"
                    readonly
                    aria-label="Text to copy"
                    prop:value=move || text.get_value()
                />
            </Show>
            <span class="copy-status" role="status">
                {move || match state.get() {
                    CopyState::Idle => "",
                    CopyState::Copied => "Copied",
                    CopyState::Manual => "Press Ctrl+C to copy",
                }}
            </span>
        </span>
    }
}
