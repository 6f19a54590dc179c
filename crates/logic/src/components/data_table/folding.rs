//! The table's width policy: when the table is wider than its box, a table that allows it
//! first lets its rows take two lines (its cells wrap), so that nothing leaves the table
//! at a laptop's width; then the columns a page ranked
//! ([`Column::folds`](super::Column::folds)) leave the table for each row's detail, rank 1
//! first, one rank at a time until the table fits. Each step is undone once the box is as
//! wide as the table was before it. A table laid out as cards (a phone) folds
//! nothing: a card shows every column, those not on it from the start (the table's
//! `on_card`) once opened. Pure: unit-tested natively.

/// How many steps are taken, and the table's width before each step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Folding {
    /// Whether the first step is two-line rows rather than a fold.
    wraps_first: bool,
    widths_before: Vec<f64>,
    /// Whether the table was laid out as cards when last measured.
    cards: bool,
}

/// What the table measured: its width, its box's width, and whether it is cards.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    pub table: f64,
    pub room: f64,
    pub cards: bool,
}

impl Folding {
    /// The policy of a table whose rows take two lines before any column folds.
    pub fn wrapping_first() -> Self {
        Folding {
            wraps_first: true,
            ..Default::default()
        }
    }

    /// How many steps are taken: the two-line step, if the table has it, then one per
    /// rank folded.
    fn level(&self) -> usize {
        self.widths_before.len()
    }

    /// How many steps the table can take with `rank_count` ranks.
    fn step_count(&self, rank_count: usize) -> usize {
        rank_count + usize::from(self.wraps_first)
    }

    /// Whether the rows take two lines.
    pub fn wrapped(&self) -> bool {
        self.wraps_first && self.level() > 0
    }

    /// How many of the ranks are folded.
    pub fn folded_ranks(&self) -> usize {
        self.level() - usize::from(self.wrapped())
    }

    /// Whether the table is laid out as cards (a phone).
    pub fn cards(&self) -> bool {
        self.cards
    }

    /// Whether a column of rank `fold` is folded, `ranks` being the table's ranks in use,
    /// sorted and without repeats.
    pub fn folds(&self, fold: Option<u8>, ranks: &[u8]) -> bool {
        fold.is_some_and(|rank| ranks.iter().take(self.folded_ranks()).any(|r| *r == rank))
    }

    /// One step towards fitting, after a measure: take the next step (two lines, or the
    /// next rank folded) when the table is wider than its box, undo the last one when the
    /// box has the room it lacked. Returns whether anything changed (the table is then
    /// measured again).
    pub fn fit(&mut self, measure: Measure, rank_count: usize) -> bool {
        if measure.cards {
            let changed = self.level() > 0 || !self.cards;
            self.widths_before.clear();
            self.cards = true;
            return changed;
        }
        if self.cards {
            self.cards = false;
            return true;
        }
        // A pixel of rounding is not overflow (as the look tests count it).
        if measure.table > measure.room + 1.0 && self.level() < self.step_count(rank_count) {
            self.widths_before.push(measure.table);
            return true;
        }
        match self.widths_before.last() {
            Some(before) if measure.room >= *before => {
                self.widths_before.pop();
                true
            }
            _ => false,
        }
    }
}

/// The distinct ranks of `folds`, in folding order.
pub fn ranks_of(folds: impl IntoIterator<Item = Option<u8>>) -> Vec<u8> {
    let mut ranks: Vec<u8> = folds.into_iter().flatten().collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(table: f64, room: f64) -> Measure {
        Measure {
            table,
            room,
            cards: false,
        }
    }

    #[test]
    fn ranks_fold_lowest_first_until_the_table_fits_and_come_back_with_room() {
        let ranks = ranks_of([None, Some(2), Some(1), None, Some(2)]);
        assert_eq!(ranks, [1, 2]);
        let mut folding = Folding::default();
        assert!(
            !folding.fit(measure(1046.0, 1046.0), 2),
            "fits: nothing folds"
        );
        assert!(
            !folding.fit(measure(1047.0, 1046.0), 2),
            "a pixel is rounding"
        );
        assert!(folding.fit(measure(1155.0, 1046.0), 2));
        assert!(folding.folds(Some(1), &ranks));
        assert!(!folding.folds(Some(2), &ranks));
        assert!(!folding.folds(None, &ranks));
        assert!(folding.fit(measure(1080.0, 1046.0), 2));
        assert!(folding.folds(Some(2), &ranks));
        // Every rank folded: the table stays as it is, however narrow the box.
        assert!(!folding.fit(measure(1000.0, 900.0), 2));
        assert_eq!(folding.level(), 2);
        // Room for the table as it was before the last fold: that rank comes back first.
        assert!(!folding.fit(measure(990.0, 1079.0), 2));
        assert!(folding.fit(measure(990.0, 1080.0), 2));
        assert_eq!(folding.level(), 1);
        assert!(folding.fit(measure(1080.0, 1920.0), 2));
        assert_eq!(folding.level(), 0);
        assert!(!folding.fit(measure(1155.0, 1920.0), 2));
    }

    #[test]
    fn rows_take_two_lines_before_any_column_folds() {
        let ranks = ranks_of([Some(1), None]);
        let mut folding = Folding::wrapping_first();
        assert!(!folding.fit(measure(1046.0, 1046.0), 1));
        assert!(!folding.wrapped());
        assert!(folding.fit(measure(1250.0, 1046.0), 1));
        assert!(folding.wrapped(), "the first step is two-line rows");
        assert!(!folding.folds(Some(1), &ranks), "and folds nothing");
        assert_eq!(folding.folded_ranks(), 0);
        // Two lines fit: nothing more happens.
        assert!(!folding.fit(measure(1040.0, 1046.0), 1));
        // Narrower still: rank 1 folds, the rows keep two lines.
        assert!(folding.fit(measure(1040.0, 900.0), 1));
        assert!(folding.wrapped());
        assert!(folding.folds(Some(1), &ranks));
        assert!(!folding.fit(measure(950.0, 900.0), 1), "no step left");
        // Back to a laptop: the rank comes back, then, with a desktop's room, one line.
        assert!(folding.fit(measure(900.0, 1046.0), 1));
        assert!(!folding.folds(Some(1), &ranks));
        assert!(folding.wrapped());
        assert!(!folding.fit(measure(1040.0, 1249.0), 1));
        assert!(folding.fit(measure(1040.0, 1250.0), 1));
        assert!(!folding.wrapped());
    }

    #[test]
    fn cards_fold_nothing() {
        let mut folding = Folding::default();
        assert!(folding.fit(measure(1155.0, 1046.0), 1));
        let cards = Measure {
            table: 390.0,
            room: 360.0,
            cards: true,
        };
        assert!(folding.fit(cards, 1));
        assert_eq!(folding.level(), 0);
        assert!(folding.cards());
        assert!(!folding.fit(cards, 1));
        // Back to a table: no longer cards, then it fits as before.
        assert!(folding.fit(measure(1000.0, 1046.0), 1));
        assert!(!folding.cards());
        assert!(!folding.fit(measure(1000.0, 1046.0), 1));
    }
}
