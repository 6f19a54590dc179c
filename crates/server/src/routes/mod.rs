//! The API routes, one module per resource. Each handler authenticates through
//! [`crate::auth::Caller`], checks the team permission its operation needs, validates its
//! input and runs one query module function.

pub mod machines;
pub mod subaccounts;
pub mod team;
pub mod templates;
pub mod users;
pub mod volumes;

use crate::AppState;
use axum::routing::{delete, get, put};
use axum::Router;
use gpudeck_wire::paths;

/// Every operation of the interface, answered locally.
pub fn api() -> Router<AppState> {
    Router::new()
        .route(paths::CURRENT_USER, get(users::current))
        .route(paths::MAINTENANCES, get(machines::list_maintenances))
        .route(paths::DEFRAG_OFFERS, put(machines::defrag_offers))
        .route(
            paths::USER_TEMPLATES,
            delete(templates::delete_user_template),
        )
        .route(paths::TEMPLATE_ALIAS, delete(templates::delete_template))
        .route(paths::VOLUMES, put(volumes::accept))
        .route(paths::SUBACCOUNTS, get(subaccounts::list))
        .route(paths::TEAM_ROLE, get(team::role))
        .route(paths::TEAM_MEMBERS, get(team::members))
}
