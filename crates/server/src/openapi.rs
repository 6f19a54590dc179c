//! The OpenAPI 3 document: the operations of [`routes::api`] and the demo triggers of
//! [`routes::demo_triggers`] (from the handlers' `#[utoipa::path]` attributes), the wire types' schemas, and the answers operations share,
//! added here once. Served without authentication at `GET /api/v0/openapi.json`.

use crate::routes;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use gpudeck_wire::{
    AcceptVolumeRequest, AcceptVolumeResponse, CurrentUser, DefragRequest, DefragResult,
    DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, KeyScope, MachineIdsInput,
    MaintenanceCategory, MaintenanceWindow, Subaccount, SubaccountList, TeamMember, TeamRole,
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
            subaccounts and teams. Every operation but `GET /api/v0/gpudeck/server` needs an API key: `Authorization: Bearer <key>` \
            (or the `api_key` query parameter; the header wins). Every refusal is a JSON \
            `{error, msg}`. Paths are accepted with and without a trailing slash."
    ),
    components(schemas(
        AcceptVolumeRequest, AcceptVolumeResponse, CurrentUser, KeyScope, DefragRequest, DefragResult,
        DeleteTemplateRequest, DeleteTemplateResponse, ErrorBody, MachineIdsInput,
        MaintenanceCategory, MaintenanceWindow, Subaccount, SubaccountList, TeamMember, TeamRole,
    )),
    modifiers(&BearerAuth),
    tags(
        (name = "machines", description = "Host machines: maintenance windows and GPU offers"),
        (name = "accounts", description = "The caller's account: identity, templates, subaccounts"),
        (name = "volumes", description = "Volume asks"),
        (name = "team", description = "The caller's current team"),
        (name = "notifications", description = "Notification types, preferences and webhooks"),
        (name = "server", description = "Which server answers (a project rule of this server)"),
        (name = "demo", description = "Demo triggers (a project rule of this server): only \
            when it runs with `--demo` or `--test-mode`, else 404; the public service has none"),
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

/// The operation extension naming the team permission a team key needs for it, e.g.
/// `"x-team-permission": "instance_read"` (personal keys need none).
pub const TEAM_PERMISSION: &str = "x-team-permission";

/// The document as served: [`ApiDoc`] with the operations the router serves, each with
/// the answers it shares with others.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, operations) = routes::api().split_for_parts();
    let (_, demo_triggers) = routes::demo_triggers().split_for_parts();
    let mut document = ApiDoc::openapi();
    document.merge(operations);
    document.merge(demo_triggers);
    TablePermissions.modify(&mut document);
    SecuredResponses.modify(&mut document);
    CommonResponses.modify(&mut document);
    document
}

/// The operations of `openapi`, whatever their method.
fn operations(
    openapi: &mut utoipa::openapi::OpenApi,
) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    openapi.paths.paths.values_mut().flat_map(|item| {
        [
            &mut item.get,
            &mut item.put,
            &mut item.delete,
            &mut item.post,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
    })
}

/// Each operation's [`TEAM_PERMISSION`], from the operation table
/// (`gpudeck_wire::operations`), which the handlers enforce too. A route of no operation of
/// the table (N16 without a name) declares its own.
struct TablePermissions;

impl Modify for TablePermissions {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (route, item) in openapi.paths.paths.iter_mut() {
            let methods = [
                ("GET", &mut item.get),
                ("PUT", &mut item.put),
                ("POST", &mut item.post),
                ("DELETE", &mut item.delete),
            ];
            for (method, operation) in methods {
                let Some(operation) = operation else { continue };
                let group = gpudeck_wire::operations::ALL
                    .into_iter()
                    .chain(gpudeck_wire::operations::DEMO)
                    .find(|listed| listed.is_route(method, route))
                    .and_then(|listed| listed.permission);
                if let Some(group) = group {
                    operation
                        .extensions
                        .get_or_insert_with(Default::default)
                        .insert(TEAM_PERMISSION.to_owned(), group.as_str().into());
                }
            }
        }
    }
}

/// An answer with an [`ErrorBody`].
fn error_response(description: &str) -> utoipa::openapi::ResponseBuilder {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    ResponseBuilder::new().description(description).content(
        "application/json",
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build(),
    )
}

/// The refusals that follow from how an operation is declared, so no handler repeats
/// them: 401 for every operation with a key, 403 for one whose team keys need a
/// permission (its [`TEAM_PERMISSION`] extension), and 413 for one with a body. A handler
/// that describes one of these itself keeps its own.
struct SecuredResponses;

impl Modify for SecuredResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for operation in operations(openapi) {
            let mut shared = Vec::new();
            let permission = operation
                .extensions
                .as_ref()
                .and_then(|extensions| extensions.get(TEAM_PERMISSION))
                .and_then(|permission| permission.as_str())
                .map(str::to_owned);
            if operation.security.as_ref().is_some_and(|s| !s.is_empty()) {
                shared.push(("401", "Missing, malformed or unknown key".to_owned()));
            }
            if let Some(permission) = permission {
                shared.push(("403", format!("A team key whose role lacks {permission}")));
            }
            if operation.request_body.is_some() {
                shared.push(("413", "Body larger than the limit".to_owned()));
            }
            for (status, description) in shared {
                operation
                    .responses
                    .responses
                    .entry(status.to_owned())
                    .or_insert_with(|| error_response(&description).build().into());
            }
        }
    }
}

/// Answers any operation may give: 429 when the server runs with `--rate-limit`, 414 and
/// 431 for an oversized request target or headers, 503 when a request times out.
struct CommonResponses;

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::header::HeaderBuilder;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let error = error_response;
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
        for operation in operations(openapi) {
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

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    document()
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
    use gpudeck_wire::paths;

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

    /// Every status an operation gives, as `tests/api/authorization.rs` and the handlers show:
    /// the shared refusals are where they belong and nowhere else.
    #[test]
    fn shared_refusals_follow_each_operations_declaration() {
        let document: serde_json::Value = serde_json::from_str(&DOCUMENT).unwrap();
        let statuses = |path: &str, method: &str| -> Vec<String> {
            let responses = document["paths"][path][method]["responses"]
                .as_object()
                .unwrap_or_else(|| panic!("{method} {path} is documented"));
            responses.keys().cloned().collect()
        };
        let common = ["414", "429", "431", "503"];
        // Each operation's statuses besides `common`: those it describes and those its
        // declaration adds. `write`: a write refused in every way a team write can be.
        let write = "200 400 401 403 404 409 413";
        let own = [
            (paths::CURRENT_USER, "get", "200 401"),
            (paths::MAINTENANCES, "get", "200 400 401 403 404"),
            (paths::DEFRAG_OFFERS, "put", "200 400 401 403 413"),
            (paths::USER_TEMPLATES, "delete", write),
            (paths::TEMPLATE_ALIAS, "delete", write),
            (paths::VOLUMES, "put", "200 400 401 403 404 409 413 422"),
            (paths::SUBACCOUNTS, "get", "200 401 403"),
            (paths::TEAM_ROLE, "get", "200 400 401 403 404"),
            (paths::TEAM_MEMBERS, "get", "200 401 403 404"),
            (paths::MACHINES, "get", "200 401 403"),
            (paths::MACHINE, "get", "200 400 401 403 404"),
            (paths::MACHINE_DNOTIFY, "put", "200 400 401 403 404 413 422"),
            (paths::MAINTENANCES_BATCH, "post", "200 400 401 403 413 422"),
            (
                paths::MACHINE_CANCEL_MAINT,
                "put",
                "200 400 401 403 404 413",
            ),
            (paths::MAINTENANCES, "delete", write),
            (paths::MAINTENANCES_BATCH, "delete", "200 400 401 403 413"),
            (paths::TEMPLATE_ALIAS, "get", "200 400 401 403"),
            (paths::USER_TEMPLATES, "get", "200 400 401 403"),
            (paths::VOLUMES, "get", "200 400 401 403"),
            (paths::VOLUMES, "delete", write),
            (paths::VOLUMES_SEARCH, "post", "200 400 401 403 413"),
            (paths::USERS, "post", "200 400 401 403 409 413"),
            (paths::TEAM_ROLES_FULL, "get", "200 401 403 404"),
            (paths::TEAM_ROLES, "post", write),
            (paths::TEAM_ROLE, "put", write),
            (paths::TEAM_ROLE, "delete", write),
            (paths::TEAM_ROLES, "delete", write),
            (paths::TEAM_INVITE, "post", write),
            (paths::TEAM_INVITES, "get", "200 401 403 404"),
            (paths::TEAM_MEMBER, "delete", "200 400 401 403 404 413"),
            (paths::TEAM_MEMBER_ROLES, "post", write),
            (paths::TEAM_MEMBER_ROLES, "put", write),
            (paths::TEAM_MEMBER_ROLES, "delete", write),
            (paths::MACHINE_CREATE_ASKS, "put", "200 400 401 403 404 413"),
            (paths::MACHINE_ASKS, "delete", "200 400 401 403 404 413"),
            (paths::MACHINE_REPORTS, "get", "200 400 401 403 404"),
            (paths::MACHINE_EARNINGS, "get", "200 400 401 403 404"),
            (
                paths::MACHINE_MIN_BID,
                "put",
                "200 400 401 403 404 409 413 422",
            ),
            (paths::NOTIFICATION_TYPES, "get", "200 401 403"),
            (paths::NOTIFICATION_PREFS, "get", "200 400 401 403"),
            (paths::NOTIFICATION_PREFS, "put", "200 400 401 403 413"),
            (paths::WEBHOOKS, "get", "200 401 403"),
            (paths::WEBHOOKS, "post", "200 400 401 403 409 413"),
            (paths::WEBHOOK, "put", write),
            (paths::WEBHOOK, "delete", "200 400 401 403 404 413"),
            (
                paths::WEBHOOK_ROTATE_SECRET,
                "post",
                "200 400 401 403 404 413",
            ),
            (paths::WEBHOOK_TEST, "post", "200 400 401 403 404 413 502"),
            (paths::DEMO_MACHINE_HEALTH, "put", "200 400 401 403 404 413"),
            (
                paths::DEMO_MACHINE_REPORTS,
                "post",
                "200 400 401 403 404 413",
            ),
            (
                paths::DEMO_MACHINE_EVENTS,
                "post",
                "200 400 401 403 404 413",
            ),
        ];
        for (path, method, own) in own {
            let mut wanted: Vec<&str> = own.split(' ').chain(common).collect();
            wanted.sort();
            let mut got = statuses(path, method);
            got.sort();
            assert_eq!(got, wanted, "{method} {path}");
        }
        let forbidden = &document["paths"][paths::DEFRAG_OFFERS]["put"]["responses"]["403"];
        assert_eq!(
            forbidden["description"],
            "A team key whose role lacks machine_write"
        );
        let invite_429 = &document["paths"][paths::TEAM_INVITE]["post"]["responses"]["429"];
        assert!(invite_429["headers"]["Retry-After"].is_object());
        assert_eq!(
            document["paths"].as_object().unwrap().len(),
            37,
            "one path per route (N6 shares the maintenance list's, N7 N4's, N8 the template \
             alias's, N9 the user templates', N11 and N12 seed op 4's, N15 and N16 seed op 6's, \
             N27 N26's, N29 N28's, N31 N30's; with the project's own server route and the \
             three demo triggers)"
        );
    }
}
