//! A run's progress in words while its requests wait for the rate limit.

/// The waiting requests after one starts waiting `Some(seconds)` or stops (`None`).
pub fn one_more_or_less((count, seconds): (usize, u32), wait: Option<u32>) -> (usize, u32) {
    match wait {
        Some(wait) => (count + 1, wait),
        None => (count.saturating_sub(1), seconds),
    }
}

/// What the progress adds while a request waits for the server's rate limit:
/// `, waiting for the rate limit, 2 s`; nothing otherwise.
pub fn rate_limit_text((count, seconds): (usize, u32)) -> String {
    if count == 0 {
        return String::new();
    }
    format!(", waiting for the rate limit, {seconds} s")
}

#[cfg(test)]
mod tests {
    use super::{one_more_or_less, rate_limit_text};

    #[test]
    fn the_wait_is_said_while_any_request_waits() {
        assert_eq!(rate_limit_text((0, 0)), "");
        let first = one_more_or_less((0, 0), Some(2));
        assert_eq!(rate_limit_text(first), ", waiting for the rate limit, 2 s");
        // A second starts waiting, then stops: the first still waits.
        let both = one_more_or_less(first, Some(1));
        assert_eq!(rate_limit_text(both), ", waiting for the rate limit, 1 s");
        let one_left = one_more_or_less(both, None);
        assert_eq!(
            rate_limit_text(one_left),
            ", waiting for the rate limit, 1 s"
        );
        assert_eq!(rate_limit_text(one_more_or_less(one_left, None)), "");
        assert_eq!(one_more_or_less((0, 0), None), (0, 0));
    }
}
