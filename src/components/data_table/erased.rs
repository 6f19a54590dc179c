//! The rows with their type erased: the generic [`DataTable`](super::DataTable) wraps its
//! rows and columns once in a [`RowsOf`], and everything else (filtering, sorting,
//! windowing, selection, CSV, the row loop) asks for a row's key, text, sort key or cell by
//! its index through [`TableRows`]. So the table's view code is compiled once, not once per
//! row type. Pure apart from [`TableRows::cell`]: unit-tested natively.

use super::columns::{Column, SortKey};
use crate::components::csv;
use leptos::prelude::*;
use std::sync::Arc;

/// What the table asks of its rows, by row index and column index.
pub trait TableRows: Send + Sync {
    fn row_count(&self) -> usize;
    /// The row's stable identity (for selection).
    fn key(&self, row: usize) -> String;
    fn text(&self, row: usize, column: usize) -> String;
    fn sort_key(&self, row: usize, column: usize) -> SortKey;
    /// The cell's view: the column's own, or its text.
    fn cell(&self, row: usize, column: usize) -> AnyView;
}

/// A page's extra filter, asked by row index.
pub type RowKeep = Arc<dyn Fn(usize) -> bool + Send + Sync>;

/// The page's filter of `R`s as a [`RowKeep`] over `rows`.
pub fn keep_by_index<R: Send + Sync + 'static>(
    rows: Arc<RowsOf<R>>,
    keep: super::RowFilter<R>,
) -> RowKeep {
    Arc::new(move |row| keep(&rows.rows[row]))
}

/// The one generic piece: rows of type `R` with their columns.
pub struct RowsOf<R: 'static> {
    pub rows: Vec<R>,
    pub columns: Arc<Vec<Column<R>>>,
    pub row_key: fn(&R) -> String,
}

impl<R: Send + Sync + 'static> TableRows for RowsOf<R> {
    fn row_count(&self) -> usize {
        self.rows.len()
    }
    fn key(&self, row: usize) -> String {
        (self.row_key)(&self.rows[row])
    }
    fn text(&self, row: usize, column: usize) -> String {
        self.columns[column].text_of(&self.rows[row])
    }
    fn sort_key(&self, row: usize, column: usize) -> SortKey {
        self.columns[column].sort_key_of(&self.rows[row])
    }
    fn cell(&self, row: usize, column: usize) -> AnyView {
        self.columns[column].cell_of(&self.rows[row])
    }
}

/// The rows as the table's reactive graph holds them: compared by identity, so a new load
/// always counts as a change and an unchanged one costs no comparison of every row.
#[derive(Clone)]
pub struct SharedRows(pub Arc<dyn TableRows>);

impl PartialEq for SharedRows {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What the table shows of a column, without its row type.
#[derive(Clone)]
pub struct ColumnInfo {
    pub key: &'static str,
    pub label: &'static str,
    pub numeric: bool,
    pub searchable: bool,
    /// `None`: always in the CSV; otherwise only while the signal is true.
    pub csv_when: Option<Signal<bool>>,
    /// Its rank in the width policy ([`Column::folds`](super::Column::folds)).
    pub fold: Option<u8>,
    /// On a phone's card from the start (the table's `on_card`).
    pub card: bool,
}

impl ColumnInfo {
    pub fn in_csv(&self) -> bool {
        self.csv_when.is_none_or(|s| s.get_untracked())
    }
}

/// Every row's lower-cased searchable text, the columns' texts joined by a separator no
/// filter contains, so a match never spans two columns.
pub fn search_texts(rows: &dyn TableRows, columns: &[ColumnInfo]) -> Vec<String> {
    let searched: Vec<usize> = (0..columns.len())
        .filter(|&c| columns[c].searchable)
        .collect();
    (0..rows.row_count())
        .map(|row| {
            let mut text = String::new();
            for (n, &column) in searched.iter().enumerate() {
                if n > 0 {
                    text.push('\u{1f}');
                }
                text.push_str(&rows.text(row, column).to_lowercase());
            }
            text
        })
        .collect()
}

/// Row order after sorting by `column` (stable; ties keep their order).
pub fn sorted_order(rows: &dyn TableRows, column: Option<usize>, descending: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.row_count()).collect();
    if let Some(column) = column {
        let keys: Vec<SortKey> = order.iter().map(|&r| rows.sort_key(r, column)).collect();
        order.sort_by(|a, b| {
            let ordering = keys[*a].compare(&keys[*b]);
            if descending {
                ordering.reverse()
            } else {
                ordering
            }
        });
    }
    order
}

/// The CSV of the `shown` rows, in that order, with the columns meant for export.
pub fn csv_of_rows(rows: &dyn TableRows, columns: &[ColumnInfo], shown: &[usize]) -> String {
    let included: Vec<usize> = (0..columns.len())
        .filter(|&c| columns[c].in_csv())
        .collect();
    let header: Vec<String> = included
        .iter()
        .map(|&c| columns[c].label.to_owned())
        .collect();
    let lines: Vec<Vec<String>> = shown
        .iter()
        .map(|&row| included.iter().map(|&c| rows.text(row, c)).collect())
        .collect();
    csv::document(&header, &lines)
}
