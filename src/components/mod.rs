//! Views shared by several pages.

pub mod planned;
