//! The team area: its roles (list, one role, the editor) and its members.

pub use gpudeck_logic::pages::team::member_model;

pub mod access;
pub mod invitations;
pub mod members;
pub mod role;
pub mod role_editor;
pub mod roles;
