//! The text filter over rows already sorted and passed by the page's filter. A keystroke
//! that extends the filter (typing on) only looks again at the rows the previous filter
//! kept, since a row that lacks `gpu` cannot contain `gpu-a`. Pure: unit-tested natively.

use std::sync::Arc;

/// Row indices in the order shown, shared without copying.
pub type Indices = Arc<Vec<usize>>;

/// The last filter's answer, kept to narrow from.
#[derive(Default)]
pub struct Narrowing {
    candidates: Option<Indices>,
    needle: String,
    kept: Vec<usize>,
}

impl Narrowing {
    /// The rows of `candidates` (in their order) whose lower-cased `haystacks` entry
    /// contains `needle`, itself lower-cased and trimmed. When the candidates are the same
    /// as last time and `needle` contains the last needle, only last time's rows are
    /// searched.
    pub fn filter(
        &mut self,
        candidates: &Indices,
        needle: &str,
        haystacks: &[String],
    ) -> Vec<usize> {
        let same_rows = self
            .candidates
            .as_ref()
            .is_some_and(|last| Arc::ptr_eq(last, candidates));
        let searched: &[usize] = if same_rows && needle.contains(self.needle.as_str()) {
            &self.kept
        } else {
            candidates
        };
        let kept: Vec<usize> = searched
            .iter()
            .copied()
            .filter(|&row| haystacks[row].contains(needle))
            .collect();
        self.candidates = Some(candidates.clone());
        self.needle = needle.to_owned();
        self.kept = kept.clone();
        kept
    }

    /// Forgets the last answer (the filter was cleared), so nothing stale is narrowed from.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

/// The filter as typed, ready to search lower-cased text.
pub fn needle_of(typed: &str) -> String {
    typed.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn haystacks() -> Vec<String> {
        ["gpu-a1", "disk", "gpu-b2", "gpu-a3", "power"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn keeps_matching_rows_in_the_candidates_order() {
        let mut narrowing = Narrowing::default();
        let order: Indices = Arc::new(vec![3, 2, 1, 0, 4]);
        assert_eq!(narrowing.filter(&order, "gpu", &haystacks()), [3, 2, 0]);
        assert_eq!(narrowing.filter(&order, "o", &haystacks()), [4]);
    }

    #[test]
    fn an_extended_filter_searches_only_the_rows_kept_last_time() {
        let mut narrowing = Narrowing::default();
        let order: Indices = Arc::new(vec![0, 1, 2, 3, 4]);
        let mut hay = haystacks();
        assert_eq!(narrowing.filter(&order, "gpu", &hay), [0, 2, 3]);
        // Row 1 would match now, but an extended filter does not look at it again: the
        // proof that it narrows rather than searching every row.
        hay[1] = "gpu-a9".into();
        assert_eq!(narrowing.filter(&order, "gpu-a", &hay), [0, 3]);
        // Deleting a character widens the filter: every candidate is searched again.
        assert_eq!(narrowing.filter(&order, "gpu", &hay), [0, 1, 2, 3]);
    }

    #[test]
    fn new_candidates_are_searched_in_full() {
        let mut narrowing = Narrowing::default();
        let hay = haystacks();
        let first: Indices = Arc::new(vec![0, 1]);
        assert_eq!(narrowing.filter(&first, "gpu", &hay), [0]);
        // A new sort order or page filter is a new list, even with the same contents.
        let resorted: Indices = Arc::new(vec![4, 3, 2, 1, 0]);
        assert_eq!(narrowing.filter(&resorted, "gpu-", &hay), [3, 2, 0]);
        narrowing.reset();
        assert_eq!(narrowing.filter(&resorted, "gpu-b", &hay), [2]);
    }

    #[test]
    fn the_needle_is_trimmed_and_lower_cased() {
        assert_eq!(needle_of("  GPU-a "), "gpu-a");
    }
}
