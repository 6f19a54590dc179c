//! The table every list page uses: sortable columns, a text filter, shown/total counts,
//! empty states, CSV export of the shown rows, sort and filter kept in the URL, and
//! windowing, so that only the rows in view are in the DOM even with 10,000 rows.
//!
//! By job: [`columns`] is the column model (text, sort keys, CSV), [`erased`] the rows with
//! their type erased, [`filtering`] the text filter, [`selection`] the ticked rows,
//! [`windowing`] which rows are in view, [`folding`] the width policy (ranked columns
//! folded into each row's detail when the table is wider than its box); `shell` is the
//! generic component pages use and `view` the non-generic core that puts the rows on
//! screen, from its `toolbar` and its `rows` (header, rows, cells). The four models that
//! need no browser are `gpudeck_logic::components::data_table`'s.

pub use gpudeck_logic::components::data_table::{filtering, folding, selection, windowing};

pub mod columns;
pub mod erased;
mod rows;
mod shell;
mod toolbar;
mod view;

pub use columns::{csv_of, Column, RowFilter, SortKey};
pub use shell::DataTable;
pub use windowing::ROW_HEIGHT;
