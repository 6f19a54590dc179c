pub mod member_model;
pub mod members;
pub mod role_editor;
