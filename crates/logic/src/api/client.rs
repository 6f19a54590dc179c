//! How long a failed read waits before it is sent again.

/// Milliseconds to wait before attempt `attempt + 1` (after attempt `attempt` failed):
/// 400 ms, then 1.2 s.
pub fn backoff_ms(attempt: u32) -> u32 {
    400 * 3u32.pow(attempt.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::backoff_ms;

    #[test]
    fn backoff_grows() {
        assert_eq!(backoff_ms(1), 400);
        assert_eq!(backoff_ms(2), 1200);
        assert!(backoff_ms(3) > backoff_ms(2));
    }
}
