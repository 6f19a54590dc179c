//! One async function per operation of the interface.

use super::client::ApiClient;
use super::error::ApiError;
use gpudeck_wire::machine_ids::MachineIdsInput;
use gpudeck_wire::{
    paths, AcceptVolumeRequest, AcceptVolumeResponse, CurrentUser, DefragRequest, DefragResult,
    DeleteTemplateRequest, DeleteTemplateResponse, MaintenanceWindow, SubaccountList, TeamMember,
    TeamRole,
};

impl ApiClient {
    /// `GET /users/current`: who the key belongs to.
    pub async fn current_user(&self) -> Result<CurrentUser, ApiError> {
        self.get(paths::CURRENT_USER, &[]).await
    }

    /// `GET /machines/maintenances`: active windows of the caller's machines among `ids`.
    /// Sent the way the official client sends it: a JSON array in the query string.
    pub async fn maintenances(&self, ids: &[i64]) -> Result<Vec<MaintenanceWindow>, ApiError> {
        let list = serde_json::to_string(ids).unwrap_or_default();
        self.get(
            paths::MAINTENANCES,
            &[("owner", "me"), ("machine_ids", &list)],
        )
        .await
    }

    /// `PUT /machines/defrag_offers`.
    pub async fn defrag_offers(&self, ids: &[i64]) -> Result<DefragResult, ApiError> {
        let body = DefragRequest {
            machine_ids: MachineIdsInput::List(ids.to_vec()),
        };
        self.put(paths::DEFRAG_OFFERS, &body).await
    }

    /// `DELETE /users/{user_id}/templates`: soft-deletes one of the caller's templates.
    pub async fn delete_template(
        &self,
        user_id: i64,
        template_id: i64,
    ) -> Result<DeleteTemplateResponse, ApiError> {
        self.delete(
            &paths::user_templates(user_id),
            &DeleteTemplateRequest { template_id },
        )
        .await
    }

    /// `PUT /volumes`: accepts volume ask `ask_id` for a volume of `size_gb`.
    pub async fn accept_volume_ask(
        &self,
        ask_id: i64,
        size_gb: i64,
    ) -> Result<AcceptVolumeResponse, ApiError> {
        self.put(
            paths::VOLUMES,
            &AcceptVolumeRequest {
                id: ask_id,
                size: size_gb,
            },
        )
        .await
    }

    /// `GET /subaccounts`.
    pub async fn subaccounts(&self) -> Result<SubaccountList, ApiError> {
        self.get(paths::SUBACCOUNTS, &[("owner", "me")]).await
    }

    /// `GET /team/roles/{name}`.
    pub async fn team_role(&self, name: &str) -> Result<TeamRole, ApiError> {
        self.get(&paths::team_role(name), &[]).await
    }

    /// `GET /team/members`.
    pub async fn team_members(&self) -> Result<Vec<TeamMember>, ApiError> {
        self.get(paths::TEAM_MEMBERS, &[]).await
    }
}
