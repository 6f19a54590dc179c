//! The API routes, one module per resource, and [`api`]: the one list of them, from which
//! both the router and the OpenAPI document are made.
//!
//! Each handler authenticates through [`crate::auth::Caller`], checks the team permission
//! its operation needs, reads its input as a `gpudeck_wire` request type and runs one query
//! function of [`crate::db`], then says in HTTP what the query's domain result means.

pub mod demo_fields;
pub mod demo_triggers;
pub mod earnings;
pub mod fleet;
pub mod listing;
pub mod machines;
pub mod maintenance;
pub mod min_bid;
pub mod notifications;
pub mod reports;
pub mod server;
pub mod subaccounts;
pub mod team;
pub mod team_invites;
pub mod team_members;
pub mod team_roles;
pub mod templates;
pub mod users;
pub mod volumes;
pub mod webhook_fields;
pub mod webhooks;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Every operation of the interface, answered locally. Each handler's `#[utoipa::path]`
/// names its method and path (from `gpudeck_wire::paths`, which the console requests too),
/// so this list is the route table and the document's operations at once.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(server::about))
        .routes(routes!(users::current))
        .routes(routes!(fleet::list))
        .routes(routes!(fleet::show))
        .routes(routes!(
            machines::list_maintenances,
            maintenance::cancel_window
        ))
        .routes(routes!(maintenance::schedule))
        .routes(routes!(
            maintenance::schedule_batch,
            maintenance::cancel_batch
        ))
        .routes(routes!(maintenance::cancel_machine))
        .routes(routes!(machines::defrag_offers))
        .routes(routes!(listing::list_machine))
        .routes(routes!(listing::unlist_machine))
        .routes(routes!(templates::library, templates::delete_user_template))
        .routes(routes!(templates::search, templates::delete_template))
        .routes(routes!(volumes::accept, volumes::list, volumes::delete))
        .routes(routes!(volumes::search))
        .routes(routes!(subaccounts::list))
        .routes(routes!(subaccounts::create))
        .routes(routes!(team::role, team_roles::update, team_roles::remove))
        .routes(routes!(team::members))
        .routes(routes!(team_roles::list))
        .routes(routes!(team_roles::create, team_roles::remove_by_id))
        .routes(routes!(team_invites::invite))
        .routes(routes!(team_invites::pending))
        .routes(routes!(team_members::remove))
        .routes(routes!(
            team_members::give_role,
            team_members::replace_role,
            team_members::take_role
        ))
        .routes(routes!(reports::list))
        .routes(routes!(earnings::read))
        .routes(routes!(min_bid::set))
        .routes(routes!(notifications::types))
        .routes(routes!(
            notifications::preferences,
            notifications::change_preferences
        ))
        .routes(routes!(webhooks::list, webhooks::create))
        .routes(routes!(webhooks::update, webhooks::delete))
        .routes(routes!(webhooks::rotate_secret))
        .routes(routes!(webhooks::test))
}

/// The demo triggers D1–D3 (spec fleet-health, a project rule). The router mounts them
/// only in demo or test mode, beside [`api`]; the OpenAPI document lists them, saying so.
pub fn demo_triggers() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(demo_triggers::health))
        .routes(routes!(demo_triggers::report))
        .routes(routes!(demo_triggers::event))
}
