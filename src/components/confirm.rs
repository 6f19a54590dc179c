//! The confirmation every change to data goes through: a native modal `<dialog>` (the
//! rest of the page is inert while it is open), focus kept inside, Escape cancels.

use leptos::html::Dialog;
use leptos::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use wasm_bindgen::JsCast;

#[component]
pub fn ConfirmDialog(
    /// Open while true; the dialog sets it false when it closes.
    open: RwSignal<bool>,
    #[prop(into)] title: String,
    #[prop(into)] confirm_label: String,
    /// Styles the confirm button as destructive.
    #[prop(optional)]
    danger: bool,
    on_confirm: Callback<()>,
    children: Children,
) -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    Effect::new(move |_| {
        let Some(element) = dialog.get() else { return };
        match (open.get(), element.open()) {
            (true, false) => {
                let _ = element.show_modal();
            }
            (false, true) => element.close(),
            _ => {}
        }
    });
    let confirm = move |_| {
        open.set(false);
        on_confirm.run(());
    };
    // Tab and Shift+Tab cycle through the dialog's own controls.
    let trap_focus = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() != "Tab" {
            return;
        }
        let Some(element) = dialog.get() else { return };
        let Ok(list) = element.query_selector_all("button, input, select, textarea, a[href]")
        else {
            return;
        };
        let focusable: Vec<web_sys::HtmlElement> = (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| n.dyn_into().ok())
            .collect();
        let (Some(first), Some(last)) = (focusable.first(), focusable.last()) else {
            return;
        };
        let active = document().active_element();
        let at = |el: &web_sys::HtmlElement| active.as_ref() == Some(el.unchecked_ref());
        if ev.shift_key() && at(first) {
            ev.prevent_default();
            let _ = last.focus();
        } else if !ev.shift_key() && at(last) {
            ev.prevent_default();
            let _ = first.focus();
        }
    };
    static NEXT_ID: AtomicUsize = AtomicUsize::new(1);
    let title_id = format!("confirm-{}", NEXT_ID.fetch_add(1, Relaxed));
    let labelled_by = title_id.clone();
    view! {
        <dialog
            node_ref=dialog
            class="confirm"
            aria-labelledby=labelled_by
            // The `close` event is queued as a task and may arrive after the dialog was
            // opened again; only a dialog that is really closed makes `open` false.
            on:close=move |_| {
                if dialog.get_untracked().is_none_or(|d| !d.open()) {
                    open.set(false);
                }
            }
            on:cancel=move |_: web_sys::Event| open.set(false)
            on:keydown=trap_focus
        >
            <h2 id=title_id>{title}</h2>
            <div class="confirm-body">{children()}</div>
            <div class="confirm-actions">
                <button type="button" class="button" autofocus on:click=move |_| open.set(false)>
                    "Cancel"
                </button>
                <button
                    type="button"
                    class=if danger { "button danger" } else { "button primary" }
                    on:click=confirm
                >
                    {confirm_label}
                </button>
            </div>
        </dialog>
    }
}
