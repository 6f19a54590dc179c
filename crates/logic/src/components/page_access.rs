//! Which refusals put a page out of reach.

use crate::api::Refusal;

/// How a page says that the acting account cannot use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfReach {
    /// The notice's class and test id.
    pub name: &'static str,
    pub heading: &'static str,
    /// What would let the person in, before the list of other keys.
    pub advice: &'static str,
    /// A refusal besides 403 that puts the whole page out of reach (a team page's 404 "no
    /// team").
    pub also: Option<Refusal>,
}

/// Any page's notice.
pub const ANY_PAGE: OutOfReach = OutOfReach {
    name: "out-of-reach",
    heading: "The acting account cannot use this page",
    advice: "The key acting now lacks the permission this page needs. Act as another key kept in this tab:",
    also: None,
};

impl OutOfReach {
    /// Whether `refusal` means the acting account cannot read the page at all.
    pub fn covers(&self, refusal: Refusal) -> bool {
        refusal == Refusal::Forbidden || self.also == Some(refusal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_403_puts_any_page_out_of_reach_and_a_404_only_where_the_page_says_so() {
        assert!(ANY_PAGE.covers(Refusal::Forbidden));
        assert!(!ANY_PAGE.covers(Refusal::NotFound));
        assert!(!ANY_PAGE.covers(Refusal::Conflict));
        let team = OutOfReach {
            also: Some(Refusal::NotFound),
            ..ANY_PAGE
        };
        assert!(team.covers(Refusal::NotFound));
        assert!(!team.covers(Refusal::Malformed));
    }
}
