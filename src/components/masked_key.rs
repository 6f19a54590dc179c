//! API keys on screen: masked unless a person asks to see one. Whether a key is shown is
//! component state only, so it is forgotten when the row or page goes away.

use super::clipboard::CopyButton;
pub use gpudeck_logic::components::masked_key::{mask_key, MASK, VISIBLE_ENDS};
use leptos::prelude::*;

/// A key, masked, with a show/hide toggle and a copy button that copies the whole key.
/// `owner` names whose key it is in the buttons' accessible names ("subaccount 11").
#[component]
pub fn MaskedKey(key: String, #[prop(into)] owner: String) -> impl IntoView {
    let revealed = RwSignal::new(false);
    let masked = mask_key(&key);
    let full = key.clone();
    let toggle_label = owner.clone();
    view! {
        <span class="masked-key">
            <code class="key-text" data-revealed=move || revealed.get().to_string()>
                {move || if revealed.get() { full.clone() } else { masked.clone() }}
            </code>
            <button
                type="button"
                class="button small reveal"
                on:click=move |_| revealed.update(|shown| *shown = !*shown)
            >
                {move || if revealed.get() { "Hide" } else { "Show" }}
                <span class="visually-hidden">{format!(" the API key of {toggle_label}")}</span>
            </button>
            <CopyButton text=key label=format!("Copy the API key of {owner}") />
        </span>
    }
}
