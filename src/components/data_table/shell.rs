//! The generic face of the table: pages hand it rows of their own type, it erases the type
//! once (see [`erased`](super::erased)) and hands the rest to the non-generic core, so the
//! table's view code exists once in the bundle, not once per row type.

use super::columns::{Column, RowFilter};
use super::erased::{keep_by_index, ColumnInfo, RowKeep, RowsOf, SharedRows};
use super::view::{table_core, TableSpec};
use leptos::prelude::*;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The rows of one load with their type, compared by identity like [`SharedRows`].
struct TypedRows<R: 'static>(Arc<RowsOf<R>>);

impl<R> Clone for TypedRows<R> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<R> PartialEq for TypedRows<R> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[component]
pub fn DataTable<R>(
    /// The rows; the table sorts and filters its own view of them.
    #[prop(into)]
    rows: Signal<Vec<R>>,
    columns: Vec<Column<R>>,
    /// A stable identity per row, for keeping DOM rows across updates; each row carries
    /// it as `data-key`.
    row_key: fn(&R) -> String,
    /// Shown when there are no rows at all.
    #[prop(into)]
    empty: String,
    /// File name of the CSV export, without `.csv`.
    csv_name: &'static str,
    /// An extra filter from the page; rows it rejects are counted as filtered out.
    #[prop(optional, into)]
    also_filter: Option<Signal<Option<RowFilter<R>>>>,
    /// A caption for screen readers and the CSV button.
    #[prop(into)]
    caption: String,
    /// Row selection: a checkbox per row and a select-all-shown box in the header; a
    /// shift-click ticks the range from the last row clicked. Holds the ticked rows'
    /// `row_key`s, kept by the page (so it survives filtering and sorting).
    #[prop(optional)]
    selection: Option<RwSignal<BTreeSet<String>>>,
    /// Controls shown in the toolbar after the filter.
    #[prop(optional)]
    children: Option<Children>,
    /// Put before the names of the table's URL parameters (`sort`, `dir`, `q`, `rows`), so
    /// that two tables on one page keep their states apart.
    #[prop(optional)]
    url_prefix: &'static str,
    /// On a phone, where each row is a card, the keys of the columns on the card from the
    /// start; the others show once the card is opened (its "More" button), so that a long
    /// list stays a short scroll. Empty: every column is on the card.
    #[prop(optional)]
    on_card: &'static [&'static str],
    /// When the table is wider than its box, its rows first take two lines (the cells
    /// wrap), before any ranked column folds: for a table whose every column should be in
    /// view at a laptop's width.
    #[prop(optional)]
    wrap_first: bool,
) -> impl IntoView
where
    R: Clone + Send + Sync + 'static,
{
    let infos: Vec<ColumnInfo> = columns
        .iter()
        .map(|column| ColumnInfo {
            card: on_card.contains(&column.key),
            ..column.info()
        })
        .collect();
    let columns = Arc::new(columns);
    // One copy of the rows per load, shared by everything the core derives from them.
    let typed = Memo::new(move |_| {
        TypedRows(Arc::new(RowsOf {
            rows: rows.get(),
            columns: columns.clone(),
            row_key,
        }))
    });
    let model = Signal::derive(move || SharedRows(typed.get().0));
    let keep = also_filter.map(|filter| {
        Signal::derive(move || -> Option<RowKeep> {
            let keep = filter.get()?;
            Some(keep_by_index(typed.get().0, keep))
        })
    });
    table_core(TableSpec {
        model,
        columns: infos,
        keep,
        empty,
        csv_name,
        caption,
        selection,
        children,
        url_prefix,
        wrap_first,
    })
}
