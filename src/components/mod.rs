//! Views shared by several pages.

pub mod acting_key;
pub mod calendar;
pub mod clipboard;
pub mod confirm;
pub mod confirmed_action;
pub mod csv;
pub mod data_table;
pub mod error_panel;
pub mod form_field;
pub mod item_results;
pub mod machine_ids_field;
pub mod masked_key;
pub mod money;
pub mod narrow_form;
pub mod occupancy;
pub mod page;
pub mod page_access;
pub mod permissions;
pub mod reload;
pub mod resource_view;
pub mod role_summary;
pub mod time;
pub mod timeline;
pub mod toasts;
pub mod toggle;
pub mod words;
