//! API keys on screen: masked unless a person asks to see one. Whether a key is shown is
//! component state only, so it is forgotten when the row or page goes away.

use super::clipboard::CopyButton;
use leptos::prelude::*;

/// Characters kept visible at each end of a masked key.
const VISIBLE_ENDS: usize = 4;
/// The middle is always this many dots, so the mask does not depend on the key's length.
const MASK: &str = "••••••••";

/// `abcd••••••••wxyz`: the first and last four characters. A key too short to keep
/// anything hidden that way is masked whole.
pub fn mask_key(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 2 * VISIBLE_ENDS {
        return MASK.to_owned();
    }
    let head: String = chars[..VISIBLE_ENDS].iter().collect();
    let tail: String = chars[chars.len() - VISIBLE_ENDS..].iter().collect();
    format!("{head}{MASK}{tail}")
}

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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::mask_key;

    const FULL_KEY: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn keys_are_masked_to_their_first_and_last_four_characters() {
        assert_eq!(mask_key(FULL_KEY), "0123••••••••cdef");
        // Too short to keep anything hidden that way: masked whole.
        assert_eq!(mask_key("abcdefgh"), "••••••••");
        assert_eq!(mask_key(""), "••••••••");
        // Characters, not bytes.
        assert_eq!(mask_key("äöüß12345ÄÖÜẞ"), "äöüß••••••••ÄÖÜẞ");
    }
}
