//! Counts as people write them: `1 machine`, `3 machines`, `0 machines`.

/// `n` and the noun in the number `n` asks for.
pub fn counted(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "machine", "machines"), "1 machine");
        assert_eq!(counted(0, "machine", "machines"), "0 machines");
        assert_eq!(
            counted(2, "running rental", "running rentals"),
            "2 running rentals"
        );
        assert_eq!(
            counted(1, "running rental", "running rentals"),
            "1 running rental"
        );
    }
}
