//! Windowing: which rows of the shown ones are in the DOM. Only those in view, plus a few
//! either side so fast scrolling shows no gaps, are rendered. [`visible_range`] serves any
//! list of equally tall items (the timeline's lanes too).
//!
//! The first rows a table gets are built in three steps, so that the first paint waits only
//! for what it shows ([`Reach`]): the first row alone, whose height is then measured (a
//! phone's cards are two to eight lines tall, a laptop's two-line rows 50 px); the rows on
//! the first screen, painted; then, after that paint, the rest of the box's view and a
//! margin either side.

/// Every row of a table is this tall (CSS keeps it so) until the table measures its rows:
/// on a phone they are cards, each as tall as its lines.
pub const ROW_HEIGHT: f64 = 36.0;
/// Rows rendered above and below the visible ones, so fast scrolling shows no gaps.
const OVERSCAN: usize = 6;

/// How far a table's rows reach: see the module's documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reach {
    /// Only the first row, to measure a row's height.
    FirstRow,
    /// The rows on the first screen: the `height` pixels of the box inside the window.
    FirstScreen { height: f64 },
    /// The rows in the box's view and [`OVERSCAN`] more either side.
    Settled,
}

/// `(first, last, count)`: rows `first..last` of `count` shown rows, each `row_height`
/// pixels tall, are rendered for a scroll box scrolled to `scroll_top` and `view_height`
/// pixels tall, as far as `reach` goes; all of them when `render_all`.
pub fn window_slice(
    scroll_top: f64,
    view_height: f64,
    count: usize,
    render_all: bool,
    row_height: f64,
    reach: Reach,
) -> (usize, usize, usize) {
    if render_all {
        return (0, count, count);
    }
    let (first, last) = match reach {
        Reach::FirstRow => (0, count.min(1)),
        Reach::FirstScreen { height } => {
            visible_range(scroll_top, height.min(view_height), count, row_height, 0)
        }
        Reach::Settled => visible_range(scroll_top, view_height, count, row_height, OVERSCAN),
    };
    (first, last, count)
}

/// Items `first..last` of `count` items `item_height` pixels tall, stacked from the top of
/// a box scrolled to `scroll_top` and `view_height` tall: those in view and `overscan`
/// more either side.
pub fn visible_range(
    scroll_top: f64,
    view_height: f64,
    count: usize,
    item_height: f64,
    overscan: usize,
) -> (usize, usize) {
    let first_in_view = (scroll_top.max(0.0) / item_height) as usize;
    let in_view = (view_height.max(0.0) / item_height).ceil() as usize;
    let first = first_in_view.saturating_sub(overscan).min(count);
    let last = first_in_view
        .saturating_add(in_view)
        .saturating_add(overscan)
        .min(count);
    (first, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_the_rows_in_view_and_a_margin() {
        // 500 px at the top: 14 rows in view, 6 more below.
        assert_eq!(
            window_slice(0.0, 500.0, 10_000, false, ROW_HEIGHT, Reach::Settled),
            (0, 20, 10_000)
        );
        // Scrolled to row 5000: 6 rows above it too.
        assert_eq!(
            window_slice(
                36.0 * 5000.0,
                500.0,
                10_000,
                false,
                ROW_HEIGHT,
                Reach::Settled
            ),
            (4994, 5020, 10_000)
        );
        // Near the end and past it, the window stops at the last row.
        assert_eq!(
            window_slice(
                36.0 * 9995.0,
                500.0,
                10_000,
                false,
                ROW_HEIGHT,
                Reach::Settled
            ),
            (9989, 10_000, 10_000)
        );
        assert_eq!(
            window_slice(1e9, 500.0, 3, false, ROW_HEIGHT, Reach::Settled),
            (3, 3, 3)
        );
        assert_eq!(
            window_slice(0.0, 500.0, 0, false, ROW_HEIGHT, Reach::Settled),
            (0, 0, 0)
        );
    }

    #[test]
    fn any_item_height_and_overscan() {
        // 16 px lanes in a 448 px box: 28 in view, 3 either side.
        assert_eq!(visible_range(0.0, 448.0, 1000, 16.0, 3), (0, 31));
        assert_eq!(visible_range(1600.0, 448.0, 1000, 16.0, 3), (97, 131));
        assert_eq!(visible_range(-20.0, 448.0, 10, 16.0, 3), (0, 10));
        assert_eq!(visible_range(16_000.0, 448.0, 1000, 16.0, 3), (997, 1000));
    }

    #[test]
    fn rows_as_tall_as_phone_cards() {
        // 150 px cards in a 600 px box, scrolled to the 20th: 4 in view, 6 either side.
        assert_eq!(
            window_slice(150.0 * 20.0, 600.0, 100, false, 150.0, Reach::Settled),
            (14, 30, 100)
        );
    }

    #[test]
    fn all_rows_when_asked() {
        assert_eq!(
            window_slice(36.0 * 50.0, 500.0, 1000, true, ROW_HEIGHT, Reach::FirstRow),
            (0, 1000, 1000)
        );
    }

    #[test]
    fn the_first_rows_come_in_three_steps() {
        // The first row alone, however many rows and however tall the box.
        assert_eq!(
            window_slice(0.0, 576.0, 120, false, ROW_HEIGHT, Reach::FirstRow),
            (0, 1, 120)
        );
        assert_eq!(
            window_slice(0.0, 576.0, 0, false, ROW_HEIGHT, Reach::FirstRow),
            (0, 0, 0)
        );
        // A phone: 64 px cards, a 576 px box of which 400 px are on the first screen: the
        // 7 cards there (the 7th cut by the window's edge), no margin.
        let first_screen = Reach::FirstScreen { height: 400.0 };
        assert_eq!(
            window_slice(0.0, 576.0, 120, false, 64.0, first_screen),
            (0, 7, 120)
        );
        // A box wholly on screen: its own height bounds the rows.
        let whole_box = Reach::FirstScreen { height: 2000.0 };
        assert_eq!(
            window_slice(0.0, 576.0, 120, false, 64.0, whole_box),
            (0, 9, 120)
        );
        // After the paint: the box's 9 cards and 6 more below.
        assert_eq!(
            window_slice(0.0, 576.0, 120, false, 64.0, Reach::Settled),
            (0, 15, 120)
        );
    }
}
