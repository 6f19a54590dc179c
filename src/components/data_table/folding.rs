//! The table's width policy: when the table is wider than its box, the columns a page
//! ranked ([`Column::folds`](super::Column::folds)) leave the table for each row's detail,
//! rank 1 first, one rank at a time until the table fits; they come back once the box is
//! as wide as the table was before they left. A table laid out as cards (a phone) folds
//! nothing: a card shows every column, those not on it from the start (the table's
//! `on_card`) once opened. Pure: unit-tested natively.

/// How many ranks are folded, and the table's width before each fold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Folding {
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
    /// How many of the ranks are folded.
    pub fn level(&self) -> usize {
        self.widths_before.len()
    }

    /// Whether the table is laid out as cards (a phone).
    pub fn cards(&self) -> bool {
        self.cards
    }

    /// Whether a column of rank `fold` is folded, `ranks` being the table's ranks in use,
    /// sorted and without repeats.
    pub fn folds(&self, fold: Option<u8>, ranks: &[u8]) -> bool {
        fold.is_some_and(|rank| ranks.iter().take(self.level()).any(|r| *r == rank))
    }

    /// One step towards fitting, after a measure: fold the next rank when the table is
    /// wider than its box, unfold the last one when the box has the room it lacked.
    /// Returns whether anything changed (the table is then measured again).
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
        if measure.table > measure.room + 1.0 && self.level() < rank_count {
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

#[cfg(all(test, not(target_arch = "wasm32")))]
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
