//! The OpenAPI 3 document, generated from the handlers' `#[utoipa::path]` attributes and
//! the wire types' schemas. Served without authentication at `GET /api/v0/openapi.json`.

use crate::routes;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use gpudeck_wire::{
    AcceptVolumeRequest, AcceptVolumeResponse, CurrentUser, DefragRequest, DefragResult,
    DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, MachineIdsInput, MaintenanceCategory,
    MaintenanceWindow, Subaccount, SubaccountList, TeamMember, TeamRole,
};
use std::sync::LazyLock;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Marketplace REST interface (gpudeck reference server)",
        version = "1.0.0",
        description = "Maintenance windows, GPU offer defragmentation, templates, volumes, \
            subaccounts and teams. Every operation needs an API key: `Authorization: Bearer <key>` \
            (or the `api_key` query parameter; the header wins). Every refusal is a JSON \
            `{error, msg}`. Paths are accepted with and without a trailing slash."
    ),
    paths(
        routes::users::current,
        routes::machines::list_maintenances,
        routes::machines::defrag_offers,
        routes::templates::delete_user_template,
        routes::templates::delete_template,
        routes::volumes::accept,
        routes::subaccounts::list,
        routes::team::role,
        routes::team::members,
    ),
    components(schemas(
        AcceptVolumeRequest, AcceptVolumeResponse, CurrentUser, DefragRequest, DefragResult,
        DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, MachineIdsInput,
        MaintenanceCategory, MaintenanceWindow, Subaccount, SubaccountList, TeamMember, TeamRole,
    )),
    modifiers(&BearerAuth),
    tags(
        (name = "machines", description = "Host machines: maintenance windows and GPU offers"),
        (name = "accounts", description = "The caller's account: identity, templates, subaccounts"),
        (name = "volumes", description = "Volume asks"),
        (name = "team", description = "The caller's current team"),
    )
)]
pub struct ApiDoc;

/// Adds the `bearer` security scheme the paths refer to.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("The API key"))
                    .build(),
            ),
        );
    }
}

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serialises")
});

/// `GET /api/v0/openapi.json`.
pub async fn serve() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], DOCUMENT.as_str())
}
