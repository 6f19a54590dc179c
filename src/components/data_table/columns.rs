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
    pub(super) fn info(&self) -> ColumnInfo {
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Host {
        id: i64,
        name: String,
        gpus: i64,
    }

    fn host_columns() -> Vec<Column<Host>> {
        vec![
            Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
            Column::text("name", "Name", |h: &Host| h.name.clone()),
            Column::number(
                "gpus",
                "GPUs",
                |h: &Host| h.gpus as f64,
                |h| h.gpus.to_string(),
            ),
        ]
    }

    fn host(id: i64, name: &str, gpus: i64) -> Host {
        Host {
            id,
            name: name.into(),
            gpus,
        }
    }

    #[test]
    fn csv_quotes_defuses_and_follows_the_shown_order() {
        let rows = [
            Host {
                id: 1,
                name: "plain".into(),
                gpus: 1,
            },
            Host {
                id: 2,
                name: "comma, \"quoted\"".into(),
                gpus: 2,
            },
            Host {
                id: 3,
                name: "=HYPERLINK(\"x\")".into(),
                gpus: 3,
            },
        ];
        let picked: Vec<&Host> = vec![&rows[2], &rows[0], &rows[1]];
        assert_eq!(
            csv_of(&host_columns(), &picked),
            "Id,Name,GPUs\r\n3,\"'=HYPERLINK(\"\"x\"\")\",3\r\n1,plain,1\r\n2,\"comma, \"\"quoted\"\"\",2\r\n"
        );
        let hidden = RwSignal::new(false);
        let columns = vec![
            Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
            Column::text("name", "Name", |h: &Host| h.name.clone()).csv_only_when(hidden.into()),
        ];
        assert_eq!(csv_of(&columns, &[&rows[0]]), "Id\r\n1\r\n");
        let with_controls = vec![
            columns[0].clone(),
            Column::text("actions", "Actions", |_: &Host| String::new()).controls_only(),
        ];
        assert_eq!(csv_of(&with_controls, &[&rows[0]]), "Id\r\n1\r\n");
        let with_actions = vec![
            columns[0].clone(),
            Column::actions(|h: &Host| format!("Delete {}", h.id).into_any()),
        ];
        assert_eq!(csv_of(&with_actions, &[&rows[0]]), "Id\r\n1\r\n");
        assert!(!with_actions[1].info().searchable);
        assert_eq!(with_actions[1].label, "Actions");
        hidden.set(true);
        assert_eq!(csv_of(&columns, &[&rows[0]]), "Id,Name\r\n1,plain\r\n");
    }

    #[test]
    fn text_sorts_ignoring_case_then_by_case_and_numbers_by_value() {
        let text = |s: &str| SortKey::Text(s.into());
        assert_eq!(text("alpha").compare(&text("Beta")), Ordering::Less);
        assert_eq!(text("Alpha").compare(&text("alpha")), Ordering::Less);
        assert_eq!(text("b").compare(&text("B")), Ordering::Greater);
        assert_eq!(
            SortKey::Number(9.0).compare(&SortKey::Number(10.0)),
            Ordering::Less
        );
        assert_eq!(
            SortKey::Number(-0.5).compare(&SortKey::Number(-1.0)),
            Ordering::Greater
        );
        // Numbers before text, whatever their values.
        assert_eq!(SortKey::Number(1e9).compare(&text("a")), Ordering::Less);
    }

    #[test]
    fn sorting_is_stable_and_reversible() {
        use crate::components::data_table::erased::{sorted_order, RowsOf};
        let rows = vec![
            host(3, "beta", 8),
            host(1, "Alpha", 2),
            host(2, "gamma", 8),
            host(4, "delta", 2),
        ];
        let rows = RowsOf {
            rows,
            columns: Arc::new(host_columns()),
            row_key: |h: &Host| h.id.to_string(),
        };
        assert_eq!(sorted_order(&rows, None, false), [0, 1, 2, 3]);
        assert_eq!(sorted_order(&rows, Some(1), false), [1, 0, 3, 2]);
        assert_eq!(sorted_order(&rows, Some(1), true), [2, 3, 0, 1]);
        // Ties keep their order, in both directions.
        assert_eq!(sorted_order(&rows, Some(2), false), [1, 3, 0, 2]);
        assert_eq!(sorted_order(&rows, Some(2), true), [0, 2, 1, 3]);
    }
}
