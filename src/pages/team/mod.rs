//! The team area: its roles (list, one role, the editor) and its members.

pub mod access;
pub mod invitations;
pub mod member_model;
pub mod members;
pub mod role;
pub mod role_editor;
pub mod roles;
