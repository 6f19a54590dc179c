//! When the count of machines needing attention is read again.

/// Fleet-health §1.2: "every 60 s while the page is visible".
pub const REFRESH_AFTER_MS: f64 = 60_000.0;

/// Whether the count is due a refresh: the tab is visible and the latest answer (or, with
/// none yet, the shell's start) is at least [`REFRESH_AFTER_MS`] old.
pub fn is_due(since_ms: f64, now_ms: f64, visible: bool) -> bool {
    visible && now_ms - since_ms >= REFRESH_AFTER_MS
}

#[cfg(test)]
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
