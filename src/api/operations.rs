//! One async function per operation of the interface: each sends the request
//! [`super::requests`] builds and reads its answer.

use super::client::ApiClient;
use super::requests;
use super::ApiError;
use gpudeck_wire::notifications::{
    NotificationPreferences, NotificationType, NotificationTypes, PreferenceMap, SecretRotated,
    Webhook, WebhookCreated, WebhookDeleted, WebhookList, WebhookTested, WebhookUpdated,
};
use gpudeck_wire::{
    AcceptVolumeResponse, BatchCancelResponse, BatchScheduleResponse,
    CancelMachineMaintenanceResponse, CancelMaintenanceResponse, CreateSubaccountRequest,
    CreatedSubaccount, CurrentUser, DefragResult, DeleteTemplateResponse, DeleteVolumeResponse,
    Invitation, ListMachineRequest, ListMachineResponse, Machine, MachineEarnings, MachineList,
    MaintenanceCategory, MaintenanceWindow, MemberRoleReplaced, MessageAnswer, RenterReport,
    RoleUpdated, ScheduleMaintenanceResponse, ServerInfo, StatusAnswer, SubaccountList, TeamMember,
    TeamRole, TeamRoleEntry, Template, TemplateLibrary, UnlistMachineResponse, Volume, VolumeList,
    VolumeOffer, VolumeOfferList, VolumeSearchRequest,
};
use serde_json::Value;

impl ApiClient {
    /// `GET /users/current`: who the key belongs to.
    pub async fn current_user(&self) -> Result<CurrentUser, ApiError> {
        self.send(&requests::current_user()).await
    }

    /// `GET /gpudeck/server` (a project rule of the reference server): which server answers.
    /// The public service has no such route, so a failure means a server the console does
    /// not know.
    pub async fn server_info(&self) -> Result<ServerInfo, ApiError> {
        self.send(&requests::server_info()).await
    }

    /// `GET /machines/maintenances`: active windows of the caller's machines among `ids`.
    /// Sent the way the official client sends it: a JSON array in the query string.
    pub async fn maintenances(&self, ids: &[i64]) -> Result<Vec<MaintenanceWindow>, ApiError> {
        let answer = self.maintenances_unread(ids).await?;
        self.decode(&answer)
    }

    /// [`ApiClient::maintenances`]' answer, undecoded: [`ApiClient::maintenances_of`]
    /// sends several together and decodes them after.
    async fn maintenances_unread(&self, ids: &[i64]) -> Result<String, ApiError> {
        self.send_unread(&requests::windows(ids)).await
    }

    /// `PUT /machines/defrag_offers/` (seed op 2).
    pub async fn defrag_offers(&self, ids: &[i64]) -> Result<DefragResult, ApiError> {
        // `{success: false, defragmented: null}` is this operation's answer to no valid ids.
        self.reading_failures_as_results()
            .send(&requests::defrag_offers(ids))
            .await
    }

    /// `DELETE /users/{user_id}/templates/` (seed op 3): soft-deletes one of the caller's templates.
    pub async fn delete_template(
        &self,
        user_id: i64,
        template_id: i64,
    ) -> Result<DeleteTemplateResponse, ApiError> {
        self.send(&requests::delete_template(user_id, template_id))
            .await
    }

    /// `PUT /volumes/` (seed op 4): accepts volume ask `ask_id` for a volume of `size_gb`, labelled
    /// `name` when one is given (seed op 4's optional `name`, already checked).
    pub async fn accept_volume_ask(
        &self,
        ask_id: i64,
        size_gb: i64,
        name: Option<&str>,
    ) -> Result<AcceptVolumeResponse, ApiError> {
        self.send(&requests::accept_volume_ask(ask_id, size_gb, name))
            .await
    }

    /// `GET /users/{user_id}/templates/` (N9): the caller's own templates, most recently
    /// updated first.
    pub async fn template_library(&self, user_id: i64) -> Result<Vec<Template>, ApiError> {
        let library: TemplateLibrary = self.send(&requests::template_library(user_id)).await?;
        Ok(library.templates)
    }

    /// `POST /volumes/search/` (N10): the offers the query lets through.
    pub async fn search_volume_offers(
        &self,
        query: &VolumeSearchRequest,
    ) -> Result<Vec<VolumeOffer>, ApiError> {
        let list: VolumeOfferList = self.send(&requests::search_volume_offers(query)).await?;
        Ok(list.offers)
    }

    /// `GET /volumes?owner=me&type=all_volume` (N11): the caller's volumes, by id.
    pub async fn volumes(&self) -> Result<Vec<Volume>, ApiError> {
        let list: VolumeList = self.send(&requests::volumes()).await?;
        Ok(list.volumes)
    }

    /// `DELETE /volumes/?id=` (N12) with the official client's empty object as body.
    pub async fn delete_volume(&self, id: i64) -> Result<DeleteVolumeResponse, ApiError> {
        self.send(&requests::delete_volume(id)).await
    }

    /// `POST /users/` (N20): a subaccount of the caller.
    pub async fn create_subaccount(
        &self,
        request: &CreateSubaccountRequest,
    ) -> Result<CreatedSubaccount, ApiError> {
        self.send(&requests::create_subaccount(request)).await
    }

    /// `GET /subaccounts` (seed op 5).
    pub async fn subaccounts(&self) -> Result<SubaccountList, ApiError> {
        self.send(&requests::subaccounts()).await
    }

    /// `GET /team/roles/{name}/` (seed op 6).
    pub async fn team_role(&self, name: &str) -> Result<TeamRole, ApiError> {
        self.send(&requests::team_role(name)).await
    }

    /// `GET /team/members/` (seed op 7).
    pub async fn team_members(&self) -> Result<Vec<TeamMember>, ApiError> {
        self.send(&requests::team_members()).await
    }

    /// `GET /machines?owner=me` (N1): every machine of the caller, by id.
    pub async fn machines(&self) -> Result<Vec<Machine>, ApiError> {
        let answer = self.send_unread(&requests::machines()).await?;
        let machines = self.machines_from(&answer)?;
        self.tell_machines(&machines);
        Ok(machines)
    }

    /// Reads N1 only if it would leave at once within the pacer (spec neighbours §1.5):
    /// for a read nobody waits for, which must never take a page's place in the rate
    /// limit. `None` when it was not sent.
    pub async fn machines_if_free(&self) -> Option<Result<Vec<Machine>, ApiError>> {
        if !self.is_free_now(&requests::machines()) {
            return None;
        }
        Some(self.machines().await)
    }

    /// The machines of N1's answer (the Machines page's rehearsal decodes a made-up one).
    pub fn machines_from(&self, answer: &str) -> Result<Vec<Machine>, ApiError> {
        let list: MachineList = self.decode(answer)?;
        Ok(list.machines)
    }

    /// `GET /machines/{id}?owner=me` (N2): one machine. The answer is a bare array; an
    /// empty one means not found, more than one element is not an answer to this question.
    pub async fn machine(&self, id: i64) -> Result<Machine, ApiError> {
        let mut list: Vec<Machine> = self.send(&requests::machine(id)).await?;
        match list.len() {
            0 => Err(ApiError::Http {
                status: 404,
                error: Some("not_found".into()),
                msg: format!("No such machine id: {id}"),
            }),
            1 => Ok(list.remove(0)),
            n => Err(ApiError::Decode(format!(
                "{n} machines in the answer for machine {id}"
            ))),
        }
    }

    /// `GET /machines/{id}/reports/` (N24): the renters' reports on one of the caller's
    /// machines, as the server orders them (at most 20).
    pub async fn machine_reports(&self, id: i64) -> Result<Vec<RenterReport>, ApiError> {
        self.send(&requests::machine_reports(id)).await
    }

    /// `GET /users/me/machine-earnings/` (N34): what machine `id` earned on the whole UTC
    /// days `first_day..=last_day` (days since 1970-01-01).
    pub async fn machine_earnings(
        &self,
        id: i64,
        first_day: i64,
        last_day: i64,
    ) -> Result<MachineEarnings, ApiError> {
        self.send(&requests::machine_earnings(first_day, last_day, Some(id)))
            .await
    }

    /// `PUT /machines/{id}/dnotify/` (N3): a window on one machine.
    pub async fn schedule_maintenance(
        &self,
        machine_id: i64,
        start: f64,
        duration_hours: i64,
        category: &MaintenanceCategory,
        reason: Option<String>,
    ) -> Result<ScheduleMaintenanceResponse, ApiError> {
        let request =
            requests::schedule_window(machine_id, start, duration_hours, category, reason);
        self.send(&request).await
    }

    /// `POST /machines/maintenances/batch` (N4): the same window on up to 100 machines,
    /// with a result per machine, read as such even beside `success: false`.
    pub async fn schedule_maintenance_batch(
        &self,
        machine_ids: &[i64],
        start: f64,
        duration_hours: i64,
        category: &MaintenanceCategory,
    ) -> Result<BatchScheduleResponse, ApiError> {
        let request = requests::schedule_windows(machine_ids, start, duration_hours, category);
        self.reading_failures_as_results().send(&request).await
    }

    /// `PUT /machines/{id}/cancel_maint/` (N5): cancels every window of one machine the
    /// host may cancel (marketplace windows stay).
    pub async fn cancel_machine_maintenance(
        &self,
        machine_id: i64,
    ) -> Result<CancelMachineMaintenanceResponse, ApiError> {
        self.send(&requests::cancel_machine_windows(machine_id))
            .await
    }

    /// `DELETE /machines/maintenances` (N6): cancels one window.
    pub async fn cancel_maintenance(
        &self,
        maintenance_id: i64,
    ) -> Result<CancelMaintenanceResponse, ApiError> {
        self.send(&requests::cancel_window(maintenance_id)).await
    }

    /// `DELETE /machines/maintenances/batch` (N7): cancels up to 100 windows, with a result
    /// per window, read as such even beside `success: false`.
    pub async fn cancel_maintenances(
        &self,
        maintenance_ids: &[i64],
    ) -> Result<BatchCancelResponse, ApiError> {
        self.reading_failures_as_results()
            .send(&requests::cancel_windows(maintenance_ids))
            .await
    }

    /// `PUT /machines/create_asks/` (N22 (list machine)): creates or changes the machine's
    /// offer. The request carries every term it has a value for and never a `null` (spec
    /// §1.3 rule 8); the answer may count the running contracts a later offer end date
    /// extended.
    pub async fn list_machine(
        &self,
        request: &ListMachineRequest,
    ) -> Result<ListMachineResponse, ApiError> {
        self.send(&requests::list_machine(request)).await
    }

    /// `DELETE /machines/{id}/asks/` (N23 (unlist machine)): no new rentals from now on;
    /// running contracts go on to their rental end dates. Client 1.9.1 sends `{}`.
    pub async fn unlist_machine(&self, machine_id: i64) -> Result<UnlistMachineResponse, ApiError> {
        self.send(&requests::unlist_machine(machine_id)).await
    }

    /// Seed op 1 for any number of machines: requests of at most 1000 ids each (the most
    /// one request takes), sent together, their windows in the order of the ids.
    pub async fn maintenances_of(&self, ids: &[i64]) -> Result<Vec<MaintenanceWindow>, ApiError> {
        let requests = ids
            .chunks(gpudeck_wire::MAX_MACHINE_IDS)
            .map(|chunk| self.maintenances_unread(chunk));
        let answers = futures::future::try_join_all(requests).await?;
        self.maintenances_from(&answers)
    }

    /// The windows of answers to [`ApiClient::maintenances_unread`], in their order.
    pub fn maintenances_from(
        &self,
        answers: &[String],
    ) -> Result<Vec<MaintenanceWindow>, ApiError> {
        let mut windows = Vec::new();
        for answer in answers {
            windows.extend(self.decode::<Vec<MaintenanceWindow>>(answer)?);
        }
        Ok(windows)
    }

    /// N13 `GET /team/roles-full/`: every assignable role (never the owner role).
    pub async fn team_roles(&self) -> Result<Vec<TeamRoleEntry>, ApiError> {
        self.send(&requests::team_roles()).await
    }

    /// N14 `POST /team/roles/`.
    pub async fn create_role(
        &self,
        name: &str,
        permissions: Value,
    ) -> Result<MessageAnswer, ApiError> {
        self.send(&requests::create_role(name, permissions)).await
    }

    /// N15 `PUT /team/roles/{id}/`: only what is given changes.
    pub async fn update_role(
        &self,
        role_id: i64,
        name: Option<String>,
        permissions: Option<Value>,
    ) -> Result<RoleUpdated, ApiError> {
        self.send(&requests::update_role(role_id, name, permissions))
            .await
    }

    /// N16 `DELETE /team/roles/{name}/` with `{}`.
    pub async fn remove_role(&self, name: &str) -> Result<StatusAnswer, ApiError> {
        self.send(&requests::remove_role(name)).await
    }

    /// N17 `POST /team/invite/?email=…&role=…` with `{}`, as the official client sends it.
    pub async fn invite_member(&self, email: &str, role: &str) -> Result<MessageAnswer, ApiError> {
        self.send(&requests::invite_member(email, role)).await
    }

    /// N17a `GET /team/invites/`: pending invitations, newest first.
    pub async fn invitations(&self) -> Result<Vec<Invitation>, ApiError> {
        self.send(&requests::invitations()).await
    }

    /// N18 `DELETE /team/members/{id}/` with `{}`.
    pub async fn remove_member(&self, user_id: i64) -> Result<StatusAnswer, ApiError> {
        self.send(&requests::remove_member(user_id)).await
    }

    /// N19 `POST`: a first role for a member who has none.
    pub async fn give_member_role(
        &self,
        user_id: i64,
        role: &str,
    ) -> Result<MessageAnswer, ApiError> {
        self.send(&requests::give_member_role(user_id, role)).await
    }

    /// N19 `PUT`: replaces the member's single role.
    pub async fn replace_member_role(
        &self,
        user_id: i64,
        role_id: i64,
    ) -> Result<MemberRoleReplaced, ApiError> {
        self.send(&requests::replace_member_role(user_id, role_id))
            .await
    }

    /// N19 `DELETE`: takes one of the member's several roles away.
    pub async fn take_member_role(
        &self,
        user_id: i64,
        role: &str,
    ) -> Result<MessageAnswer, ApiError> {
        self.send(&requests::take_member_role(user_id, role)).await
    }

    /// N25 `GET /notification-types/`: the event types the caller may subscribe to.
    pub async fn notification_types(&self) -> Result<Vec<NotificationType>, ApiError> {
        let list: NotificationTypes = self.send(&requests::notification_types()).await?;
        Ok(list.notification_types)
    }

    /// N26 `GET /users/{user_id}/notification-prefs/`: the caller's channels per type.
    pub async fn notification_preferences(&self, user_id: i64) -> Result<PreferenceMap, ApiError> {
        let answer: NotificationPreferences = self
            .send(&requests::notification_preferences(user_id))
            .await?;
        Ok(answer.notification_preferences)
    }

    /// N27 `PUT /users/{user_id}/notification-prefs/` with the whole map: the map after
    /// the change.
    pub async fn change_notification_preferences(
        &self,
        user_id: i64,
        preferences: &PreferenceMap,
    ) -> Result<PreferenceMap, ApiError> {
        let answer: NotificationPreferences = self
            .send(&requests::change_notification_preferences(
                user_id,
                preferences,
            ))
            .await?;
        Ok(answer.notification_preferences)
    }

    /// N28 `GET /webhooks/`: the caller's webhooks, without secrets.
    pub async fn webhooks(&self) -> Result<Vec<Webhook>, ApiError> {
        let list: WebhookList = self.send(&requests::webhooks()).await?;
        Ok(list.webhooks)
    }

    /// N29 `POST /webhooks/`: the webhook with its secret, the one time but N32 it is
    /// returned.
    pub async fn create_webhook(
        &self,
        name: &str,
        webhook_url: &str,
        event_types: &[String],
    ) -> Result<WebhookCreated, ApiError> {
        self.send(&requests::create_webhook(name, webhook_url, event_types))
            .await
    }

    /// N30 `PUT /webhooks/{id}/`: only the changed fields; the secret is kept.
    pub async fn update_webhook(
        &self,
        webhook_id: i64,
        changes: &requests::WebhookChanges,
    ) -> Result<WebhookUpdated, ApiError> {
        self.send(&requests::update_webhook(webhook_id, changes))
            .await
    }

    /// N31 `DELETE /webhooks/{id}/`.
    pub async fn delete_webhook(&self, webhook_id: i64) -> Result<WebhookDeleted, ApiError> {
        self.send(&requests::delete_webhook(webhook_id)).await
    }

    /// N32 `POST /webhooks/{id}/rotate-secret/`: the new secret; the old one stops working.
    pub async fn rotate_webhook_secret(&self, webhook_id: i64) -> Result<SecretRotated, ApiError> {
        self.send(&requests::rotate_webhook_secret(webhook_id))
            .await
    }

    /// N33 `POST /webhooks/{id}/test/`: one signed delivery, not retried by the service
    /// nor here (its 502 is the receiver's failure, not the service's).
    pub async fn test_webhook(&self, webhook_id: i64) -> Result<WebhookTested, ApiError> {
        self.send(&requests::test_webhook(webhook_id)).await
    }
}
