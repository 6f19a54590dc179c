//! The data table's model, free of the browser: the text filter, the ticked rows, which
//! rows are in view, and which columns fold into a row's detail. The console's
//! `components::data_table` puts them on screen.

pub mod filtering;
pub mod folding;
pub mod selection;
pub mod windowing;
