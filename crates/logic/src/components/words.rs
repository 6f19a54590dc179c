//! Counts and lists as people write them: `1 machine`, `3 machines`, `1001, 1002 and 3
//! more`; and the sentence an answer gives for a toast.

/// Machines named one by one in a confirmation or a result; the rest are counted.
const NAMED_IDS: usize = 20;

/// `n` and the noun in the number `n` asks for.
pub fn counted(n: i64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `1001, 1002 and 3 more`: the first machines by id, the rest counted.
pub fn named_in_confirmation(ids: &[i64]) -> String {
    let shown: Vec<String> = ids.iter().take(NAMED_IDS).map(i64::to_string).collect();
    match ids.len().saturating_sub(NAMED_IDS) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// The sentence a write's answer gives for a toast: the server's own (a `msg` or
/// `message`) when it says more than "success", else the page's. A 2xx saying it failed
/// never gets here: the API client reads it as a refusal (spec neighbours §1.3 rule 2).
pub fn said_or(said: String, otherwise: String) -> String {
    if said.trim().is_empty() || said == "success" {
        otherwise
    } else {
        said
    }
}

#[cfg(test)]
mod tests {
    use super::{counted, named_in_confirmation, said_or};

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

    #[test]
    fn the_confirmation_names_twenty_machines_and_counts_the_rest() {
        assert_eq!(named_in_confirmation(&[1001, 1003]), "1001, 1003");
        let many: Vec<i64> = (1..=25).collect();
        let named = named_in_confirmation(&many);
        assert!(named.starts_with("1, 2, 3"), "{named}");
        assert!(named.ends_with("19, 20 and 5 more"), "{named}");
        assert_eq!(named_in_confirmation(&[]), "");
    }

    #[test]
    fn the_servers_sentence_wins_unless_it_says_only_success() {
        let said = |said: &str| said_or(said.into(), "Role created".into());
        assert_eq!(said("Role x removed from team"), "Role x removed from team");
        assert_eq!(said("success"), "Role created");
        assert_eq!(said(""), "Role created");
        assert_eq!(said("  "), "Role created");
    }
}
