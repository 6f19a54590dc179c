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
    modifiers(&BearerAuth, &CommonResponses),
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

/// Answers any operation may give: 429 when the server runs with `--rate-limit`, 414 and
/// 431 for an oversized request target or headers, 503 when a request times out.
struct CommonResponses;

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::header::HeaderBuilder;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let error = |description: &str| {
            ResponseBuilder::new().description(description).content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("ErrorBody")))
                    .build(),
            )
        };
        let common = [
            (
                "414",
                error("`uri_too_long`: the path and query are longer than 32 KiB").build(),
            ),
            (
                "429",
                error(
                    "`rate_limited`: this key made more requests per second than the server \
                     allows (only when it runs with `--rate-limit`)",
                )
                .header(
                    "Retry-After",
                    HeaderBuilder::new()
                        .schema(
                            ObjectBuilder::new()
                                .schema_type(Type::Integer)
                                .minimum(Some(1)),
                        )
                        .description(Some("Seconds to wait before retrying"))
                        .build(),
                )
                .build(),
            ),
            (
                "431",
                error("`headers_too_large`: the request headers are larger than 16 KiB").build(),
            ),
            (
                "503",
                error("`timeout`: the request took longer than the server's time-out").build(),
            ),
        ];
        for item in openapi.paths.paths.values_mut() {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.delete,
                &mut item.post,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                for (status, response) in &common {
                    operation
                        .responses
                        .responses
                        .entry(status.to_string())
                        .or_insert_with(|| response.clone().into());
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_machine_ids_pattern_is_the_wire_crates() {
        let document: serde_json::Value = serde_json::from_str(&DOCUMENT).unwrap();
        let params = &document["paths"]["/api/v0/machines/maintenances"]["get"]["parameters"];
        let machine_ids = params
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "machine_ids")
            .unwrap();
        assert_eq!(
            machine_ids["schema"]["pattern"],
            gpudeck_wire::MACHINE_IDS_PATTERN
        );
        let volumes = &document["paths"]["/api/v0/volumes"]["put"]["responses"];
        assert!(
            volumes["429"]["headers"]["Retry-After"].is_object(),
            "{volumes}"
        );
        assert_eq!(
            document["components"]["schemas"]["AcceptVolumeRequest"]["properties"]["size"]
                ["minimum"],
            1
        );
    }
}
