//! A key masked for showing.

/// Characters kept visible at each end of a masked key.
pub const VISIBLE_ENDS: usize = 4;

/// The middle is always this many dots, so the mask does not depend on the key's length.
pub const MASK: &str = "••••••••";

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

#[cfg(test)]
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
