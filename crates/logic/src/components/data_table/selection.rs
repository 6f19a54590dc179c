//! Row selection: which rows are ticked, kept by the page as a set of row keys. Pure: the
//! range a shift-click covers and what the select-all box shows are unit-tested natively.

use std::collections::BTreeSet;

/// What the select-all-shown box shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllShown {
    None,
    Some,
    All,
}

/// The state of the select-all box for the `shown` rows (by key).
pub fn all_shown_state(shown: &[String], selected: &BTreeSet<String>) -> AllShown {
    let ticked = shown.iter().filter(|k| selected.contains(*k)).count();
    match ticked {
        0 => AllShown::None,
        n if n == shown.len() => AllShown::All,
        _ => AllShown::Some,
    }
}

/// The keys a shift-click on `clicked` covers: every shown row from the last row clicked
/// (`anchor`) to this one, both included, in either direction. Without an anchor still
/// shown, only the clicked row.
pub fn range_keys(shown: &[String], anchor: Option<&str>, clicked: &str) -> Vec<String> {
    let Some(end) = shown.iter().position(|k| k == clicked) else {
        return vec![clicked.to_owned()];
    };
    let start = anchor
        .and_then(|a| shown.iter().position(|k| k == a))
        .unwrap_or(end);
    let (from, to) = if start <= end {
        (start, end)
    } else {
        (end, start)
    };
    shown[from..=to].to_vec()
}

/// Ticks (`on`) or unticks every key of `keys` in `selected`.
pub fn set_all(selected: &mut BTreeSet<String>, keys: &[String], on: bool) {
    for key in keys {
        if on {
            selected.insert(key.clone());
        } else {
            selected.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn shift_click_covers_the_range_in_either_direction() {
        let shown = keys(&["5", "3", "9", "1", "7"]);
        assert_eq!(range_keys(&shown, Some("3"), "1"), keys(&["3", "9", "1"]));
        assert_eq!(
            range_keys(&shown, Some("7"), "3"),
            keys(&["3", "9", "1", "7"])
        );
        assert_eq!(range_keys(&shown, None, "9"), keys(&["9"]));
        // An anchor filtered out of view: only the row clicked.
        assert_eq!(range_keys(&shown, Some("42"), "9"), keys(&["9"]));
    }

    #[test]
    fn the_select_all_box_reflects_the_shown_rows_only() {
        let shown = keys(&["1", "2"]);
        let mut selected = BTreeSet::new();
        assert_eq!(all_shown_state(&shown, &selected), AllShown::None);
        selected.insert("2".to_string());
        selected.insert("99".to_string());
        assert_eq!(all_shown_state(&shown, &selected), AllShown::Some);
        set_all(&mut selected, &shown, true);
        assert_eq!(all_shown_state(&shown, &selected), AllShown::All);
        set_all(&mut selected, &shown, false);
        assert_eq!(selected, BTreeSet::from(["99".to_string()]));
    }
}
