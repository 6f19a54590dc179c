//! The pure half of the console's shared views: their words, numbers and models.

pub mod acting_key;
pub mod attention;
pub mod bar_chart;
pub mod calendar;
pub mod connection;
pub mod csv;
pub mod data_table;
pub mod form_field;
pub mod item_results;
pub mod masked_key;
pub mod money;
pub mod occupancy;
pub mod page;
pub mod page_access;
pub mod permissions;
pub mod time;
pub mod timeline;
pub mod words;
