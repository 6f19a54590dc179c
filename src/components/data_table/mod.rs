//! The table every list page uses: sortable columns, a text filter, shown/total counts,
//! empty states, CSV export of the shown rows, sort and filter kept in the URL, and
//! windowing, so that only the rows in view are in the DOM even with 10,000 rows.
//!
//! By job: [`columns`] is the column model (text, sort keys, CSV), [`windowing`] which
//! rows are in view, [`view`] the component that puts them on screen.

pub mod columns;
pub mod selection;
mod view;
pub mod windowing;

pub use columns::{csv_of, sorted_order, Column, RowFilter, SortKey};
pub use view::DataTable;
pub use windowing::ROW_HEIGHT;
