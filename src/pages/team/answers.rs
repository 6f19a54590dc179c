//! The sentence a team operation's answer gives for a toast: the server's own (`msg` of
//! N14, N17 and N19, `message` of N16 and N18) when it says more than "success", else the
//! page's. A 2xx saying it failed never gets here: the API client reads it as a refusal
//! (spec neighbours §1.3 rule 2).

pub fn said_or(said: String, otherwise: String) -> String {
    if said.trim().is_empty() || said == "success" {
        otherwise
    } else {
        said
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_servers_sentence_wins_unless_it_says_only_success() {
        let said = |said: &str| said_or(said.into(), "Role created".into());
        assert_eq!(said("Role x removed from team"), "Role x removed from team");
        assert_eq!(said("success"), "Role created");
        assert_eq!(said(""), "Role created");
        assert_eq!(said("  "), "Role created");
    }
}
