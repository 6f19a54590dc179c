//! Views shared by several pages.

pub use gpudeck_logic::components::{calendar, money, words};

pub mod acting_key;
pub mod after_paint;
pub mod attention;
pub mod bar_chart;
pub mod category_field;
pub mod clipboard;
pub mod confirm;
pub mod confirmed_action;
pub mod connection;
pub mod csv;
pub mod data_table;
pub mod error_panel;
pub mod form_field;
pub mod item_results;
pub mod machine_ids_field;
pub mod masked_key;
pub mod narrow_form;
pub mod occupancy;
pub mod page;
pub mod page_access;
pub mod permissions;
pub mod reload;
pub mod resource_view;
pub mod role_summary;
pub mod session_reads;
pub mod time;
pub mod timeline;
pub mod toasts;
pub mod toggle;
