//! `GET /api/v0/gpudeck/server` (project rule): which server answers.

use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use gpudeck_wire::{paths, ServerInfo};

/// Whether this server answers with the demo data, its own database, or forwards to an
/// upstream (named by host only). Needs no key: it says nothing about any account.
#[utoipa::path(
    get,
    path = paths::SERVER,
    tag = "server",
    responses((status = 200, description = "Which server answers", body = ServerInfo))
)]
pub async fn about(State(state): State<AppState>) -> Json<ServerInfo> {
    Json(match &state.upstream {
        Some(upstream) => ServerInfo::Forwarded {
            upstream: upstream.host().to_owned(),
        },
        None if state.config.demo => ServerInfo::Demo,
        None => ServerInfo::Local,
    })
}
