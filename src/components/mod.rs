//! Views shared by several pages.

pub mod confirm;
pub mod csv;
pub mod data_table;
pub mod error_panel;
pub mod machine_ids_field;
pub mod planned;
pub mod time;
pub mod timeline;
pub mod toasts;
