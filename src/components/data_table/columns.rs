//! The column model: what each column shows, filters on, sorts by and exports. Pure: no
//! browser calls, so it is unit-tested natively.

use super::erased::ColumnInfo;
use crate::components::csv;
use leptos::prelude::*;
use std::cmp::Ordering;
use std::sync::Arc;

/// What a column sorts by.
#[derive(Clone, Debug, PartialEq)]
pub enum SortKey {
    Number(f64),
    Text(String),
}

impl SortKey {
    pub fn compare(&self, other: &SortKey) -> Ordering {
        match (self, other) {
            (SortKey::Number(a), SortKey::Number(b)) => a.total_cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) => a
                .to_lowercase()
                .cmp(&b.to_lowercase())
                .then_with(|| a.cmp(b)),
            (SortKey::Number(_), SortKey::Text(_)) => Ordering::Less,
            (SortKey::Text(_), SortKey::Number(_)) => Ordering::Greater,
        }
    }
}

type TextFn<R> = Arc<dyn Fn(&R) -> String + Send + Sync>;
type SortFn<R> = Arc<dyn Fn(&R) -> SortKey + Send + Sync>;
type CellFn<R> = Arc<dyn Fn(&R) -> AnyView + Send + Sync>;
/// A filter a page adds to the table's own text filter (categories, roles, ...).
pub type RowFilter<R> = Arc<dyn Fn(&R) -> bool + Send + Sync>;

/// One column: its text (for the filter, the CSV and the default cell), its sort key,
/// and optionally a richer cell.
pub struct Column<R> {
    pub key: &'static str,
    pub label: &'static str,
    text: TextFn<R>,
    sort: SortFn<R>,
    cell: Option<CellFn<R>>,
    numeric: bool,
    searchable: bool,
    /// `None`: always in the CSV; otherwise only while the signal is true.
    csv_when: Option<Signal<bool>>,
    /// `None`: never folded; otherwise folded into the row's detail when the table does
    /// not fit its box, rank 1 first (see [`Column::folds`]).
    fold: Option<u8>,
}

impl<R> Clone for Column<R> {
    fn clone(&self) -> Self {
        Self {
            key: self.key,
            label: self.label,
            text: self.text.clone(),
            sort: self.sort.clone(),
            cell: self.cell.clone(),
            numeric: self.numeric,
            searchable: self.searchable,
            csv_when: self.csv_when,
            fold: self.fold,
        }
    }
}

impl<R: 'static> Column<R> {
    /// A column of text, sorted alphabetically (case-insensitive).
    pub fn text(
        key: &'static str,
        label: &'static str,
        text: impl Fn(&R) -> String + Send + Sync + 'static,
    ) -> Self {
        let text: TextFn<R> = Arc::new(text);
        let sort_text = text.clone();
        Self {
            key,
            label,
            text,
            sort: Arc::new(move |r| SortKey::Text(sort_text(r))),
            cell: None,
            numeric: false,
            searchable: true,
            csv_when: None,
            fold: None,
        }
    }

    /// A column sorted by a number, shown as `text`.
    pub fn number(
        key: &'static str,
        label: &'static str,
        value: impl Fn(&R) -> f64 + Send + Sync + 'static,
        text: impl Fn(&R) -> String + Send + Sync + 'static,
    ) -> Self {
        Self {
            key,
            label,
            text: Arc::new(text),
            sort: Arc::new(move |r| SortKey::Number(value(r))),
            cell: None,
            numeric: true,
            searchable: true,
            csv_when: None,
            fold: None,
        }
    }

    /// A column of whole numbers (ids, counts), shown as they are and sorted by value.
    pub fn whole(
        key: &'static str,
        label: &'static str,
        value: impl Fn(&R) -> i64 + Send + Sync + 'static,
    ) -> Self {
        let value = Arc::new(value);
        let shown = value.clone();
        Self::number(
            key,
            label,
            move |r| value(r) as f64,
            move |r| shown(r).to_string(),
        )
    }

    /// Renders cells with `cell` instead of plain text.
    pub fn with_cell(mut self, cell: impl Fn(&R) -> AnyView + Send + Sync + 'static) -> Self {
        self.cell = Some(Arc::new(cell));
        self
    }

    /// Leaves the column out of the text filter (e.g. secrets).
    pub fn not_searchable(mut self) -> Self {
        self.searchable = false;
        self
    }

    /// A column of buttons: neither searched by the text filter nor exported to the CSV.
    pub fn controls_only(mut self) -> Self {
        self.searchable = false;
        self.csv_when = Some(Signal::stored(false));
        self
    }

    /// The row's actions (its buttons), in a column of their own after the data: headed
    /// "Actions", neither searched nor exported.
    pub fn actions(cell: impl Fn(&R) -> AnyView + Send + Sync + 'static) -> Self {
        Self::text("actions", "Actions", |_: &R| String::new())
            .controls_only()
            .with_cell(cell)
    }

    /// The table's width policy: when the table is wider than its box, columns leave it
    /// for the row's detail (a "More" button per row), those of rank 1 first, then 2, and
    /// so on until it fits; they come back when the box has room again. Columns without a
    /// rank are never folded, so a page ranks only what a reader can do without at a
    /// glance. A folded column is still searched by the filter and exported; its header,
    /// and sorting by it, come back with it.
    pub fn folds(mut self, rank: u8) -> Self {
        self.fold = Some(rank.max(1));
        self
    }

    /// Puts the column in the CSV only while `include` is true.
    pub fn csv_only_when(mut self, include: Signal<bool>) -> Self {
        self.csv_when = Some(include);
        self
    }

    pub fn text_of(&self, row: &R) -> String {
        (self.text)(row)
    }

    pub(super) fn sort_key_of(&self, row: &R) -> SortKey {
        (self.sort)(row)
    }

    pub(super) fn cell_of(&self, row: &R) -> AnyView {
        match &self.cell {
            Some(cell) => cell(row),
            None => self.text_of(row).into_any(),
        }
    }

    /// The column without its row type, for the table's non-generic core.
    pub fn info(&self) -> ColumnInfo {
        ColumnInfo {
            key: self.key,
            label: self.label,
            numeric: self.numeric,
            searchable: self.searchable,
            csv_when: self.csv_when,
            fold: self.fold,
            card: false,
        }
    }
}

/// The CSV of `rows` (already filtered and ordered) with the columns meant for export.
pub fn csv_of<R: 'static>(columns: &[Column<R>], rows: &[&R]) -> String {
    let included: Vec<&Column<R>> = columns.iter().filter(|c| c.info().in_csv()).collect();
    let header: Vec<String> = included.iter().map(|c| c.label.to_owned()).collect();
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|row| included.iter().map(|c| c.text_of(row)).collect())
        .collect();
    csv::document(&header, &lines)
}
