//! The console's requests as plain values: one pure function per operation builds the
//! method (its [`Operation`]), path, query and JSON body that [`super::operations`] then
//! sends. Pure, so that a native test can build exactly what the console sends and set it
//! beside the official client's request for the same intent (`parity.rs`).

use gpudeck_wire::lenient::{Lenient, Nullable};
use gpudeck_wire::machine_ids::MachineIdsInput;
use gpudeck_wire::notifications::{
    ChangePreferencesRequest, CreateWebhookRequest, PreferenceMap, UpdateWebhookRequest,
};
use gpudeck_wire::operations::{self as op, Operation};
use gpudeck_wire::reads::{self, Read};
use gpudeck_wire::{
    paths, AcceptVolumeRequest, BatchCancelRequest, BatchScheduleRequest, CancelMaintenanceRequest,
    CreateSubaccountRequest, DefragRequest, DeleteTemplateRequest, DeleteVolumeRequest,
    ListMachineRequest, MaintenanceCategory, MemberRoleRequest, MinBidRequest,
    ReplaceMemberRoleRequest, RoleRequest, ScheduleMaintenanceRequest, VolumeSearchRequest,
};
use serde::Serialize;
use serde_json::{json, Value};

/// One request as the console sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiRequest {
    pub operation: &'static Operation,
    /// From `/api/` on; the client puts its base URL before it.
    pub path: String,
    pub query: Vec<(&'static str, String)>,
    /// JSON, in the order its type writes it; `None` for a GET.
    pub body: Option<String>,
}

impl ApiRequest {
    fn new(operation: &'static Operation, path: String) -> Self {
        ApiRequest {
            operation,
            path,
            query: Vec::new(),
            body: None,
        }
    }

    /// `operation` on its path, which has no placeholders.
    fn to(operation: &'static Operation) -> Self {
        Self::new(operation, operation.path_with(&[]))
    }

    /// `operation` on its path with `values` in its placeholders.
    fn to_filled(operation: &'static Operation, values: &[&str]) -> Self {
        Self::new(operation, operation.path_with(values))
    }

    /// A read the served page may have started already ([`reads`]): the very same request.
    fn read(operation: &'static Operation, read: &Read, path: String) -> Self {
        debug_assert_eq!(operation.method, read.method);
        ApiRequest {
            query: read
                .query
                .iter()
                .map(|&(name, value)| (name, value.to_owned()))
                .collect(),
            body: read.body.map(str::to_owned),
            ..Self::new(operation, path)
        }
    }

    fn query(mut self, query: &[(&'static str, &str)]) -> Self {
        self.query = query
            .iter()
            .map(|&(name, value)| (name, value.to_owned()))
            .collect();
        self
    }

    fn body(mut self, body: &impl Serialize) -> Self {
        // Every request type serialises: its fields are plain data.
        self.body = Some(serde_json::to_string(body).expect("a request body serialises"));
        self
    }

    pub fn method(&self) -> &'static str {
        self.operation.method
    }

    /// The query as the client takes it.
    pub fn query_pairs(&self) -> Vec<(&str, &str)> {
        self.query
            .iter()
            .map(|(name, value)| (*name, value.as_str()))
            .collect()
    }
}

fn id(value: i64) -> String {
    value.to_string()
}

/// `GET /users/current` (N21): who the key belongs to.
pub fn current_user() -> ApiRequest {
    ApiRequest::read(
        &op::CURRENT_USER,
        &reads::CURRENT_USER,
        reads::CURRENT_USER.path.into(),
    )
}

/// `GET /gpudeck/server` (a project rule): which server answers.
pub fn server_info() -> ApiRequest {
    ApiRequest::read(&op::SERVER, &reads::SERVER, reads::SERVER.path.into())
}

/// Seed op 1: the windows of the machines `ids`, a JSON list in the query as the official
/// client sends it.
pub fn windows(ids: &[i64]) -> ApiRequest {
    let list = serde_json::to_string(ids).unwrap_or_default();
    ApiRequest {
        query: reads::WINDOWS.query_with_machine_ids(&list),
        ..ApiRequest::to(&op::WINDOWS)
    }
}

/// Seed op 2: defragment the offers of the machines `ids`.
pub fn defrag_offers(ids: &[i64]) -> ApiRequest {
    ApiRequest::to(&op::DEFRAG_OFFERS).body(&DefragRequest {
        machine_ids: MachineIdsInput::List(ids.to_vec()),
    })
}

/// Seed op 3: soft-delete one of the caller's (`user_id`'s) templates.
pub fn delete_template(user_id: i64, template_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::DELETE_TEMPLATE, &[&id(user_id)])
        .body(&DeleteTemplateRequest { template_id })
}

/// Seed op 4: accept volume ask `ask_id` for a volume of `size_gb`, labelled `name` when
/// one is given (already checked).
pub fn accept_volume_ask(ask_id: i64, size_gb: i64, name: Option<&str>) -> ApiRequest {
    ApiRequest::to(&op::ACCEPT_VOLUME_ASK).body(&AcceptVolumeRequest {
        id: ask_id,
        size: size_gb,
        name: name.map(|name| name.to_owned().into()),
    })
}

/// Seed op 5: the caller's subaccounts.
pub fn subaccounts() -> ApiRequest {
    ApiRequest::read(
        &op::SUBACCOUNTS,
        &reads::SUBACCOUNTS,
        reads::SUBACCOUNTS.path.into(),
    )
}

/// Seed op 6: one role, by name.
pub fn team_role(name: &str) -> ApiRequest {
    let path = reads::TEAM_ROLE.path_with("name", &paths::encode_path_segment(name));
    ApiRequest::read(&op::TEAM_ROLE, &reads::TEAM_ROLE, path)
}

/// Seed op 7: the team's members.
pub fn team_members() -> ApiRequest {
    ApiRequest::read(
        &op::TEAM_MEMBERS,
        &reads::TEAM_MEMBERS,
        reads::TEAM_MEMBERS.path.into(),
    )
}

/// N1: every machine of the caller.
pub fn machines() -> ApiRequest {
    ApiRequest::read(&op::MACHINES, &reads::MACHINES, reads::MACHINES.path.into())
}

/// N2: one machine.
pub fn machine(machine_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::MACHINE, &[&id(machine_id)]).query(&[("owner", "me")])
}

/// N3: a window on one machine.
pub fn schedule_window(
    machine_id: i64,
    start: f64,
    duration_hours: i64,
    category: &MaintenanceCategory,
    reason: Option<String>,
) -> ApiRequest {
    let body = ScheduleMaintenanceRequest::new(start, duration_hours as f64, category, reason);
    ApiRequest::to_filled(&op::SCHEDULE_WINDOW, &[&id(machine_id)]).body(&body)
}

/// N4: the same window on up to 100 machines.
pub fn schedule_windows(
    machine_ids: &[i64],
    start: f64,
    duration_hours: i64,
    category: &MaintenanceCategory,
) -> ApiRequest {
    let body = BatchScheduleRequest::new(machine_ids, start, duration_hours as f64, category);
    ApiRequest::to(&op::SCHEDULE_WINDOWS).body(&body)
}

/// N5: cancel every window of one machine the host may cancel.
pub fn cancel_machine_windows(machine_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::CANCEL_MACHINE_WINDOWS, &[&id(machine_id)])
        .body(&json!({ "machine_id": machine_id }))
}

/// N6: cancel one window.
pub fn cancel_window(maintenance_id: i64) -> ApiRequest {
    ApiRequest::to(&op::CANCEL_WINDOW).body(&CancelMaintenanceRequest::new(maintenance_id))
}

/// N7: cancel up to 100 windows.
pub fn cancel_windows(maintenance_ids: &[i64]) -> ApiRequest {
    ApiRequest::to(&op::CANCEL_WINDOWS).body(&BatchCancelRequest::new(maintenance_ids))
}

/// N9: the caller's (`user_id`'s) own templates.
pub fn template_library(user_id: i64) -> ApiRequest {
    let path = reads::TEMPLATE_LIBRARY.path_with("user_id", &id(user_id));
    ApiRequest::read(&op::TEMPLATE_LIBRARY, &reads::TEMPLATE_LIBRARY, path)
}

/// N10: the volume offers `query` lets through.
pub fn search_volume_offers(query: &VolumeSearchRequest) -> ApiRequest {
    ApiRequest::to(&op::SEARCH_VOLUME_OFFERS).body(query)
}

/// N11: the caller's volumes.
pub fn volumes() -> ApiRequest {
    ApiRequest::read(&op::VOLUMES, &reads::VOLUMES, reads::VOLUMES.path.into())
}

/// N12: delete a volume, named in the query, with the official client's empty object.
pub fn delete_volume(volume_id: i64) -> ApiRequest {
    ApiRequest::to(&op::DELETE_VOLUME)
        .query(&[("id", &id(volume_id))])
        .body(&DeleteVolumeRequest::default())
}

/// N13: every assignable role.
pub fn team_roles() -> ApiRequest {
    ApiRequest::read(
        &op::TEAM_ROLES,
        &reads::TEAM_ROLES,
        reads::TEAM_ROLES.path.into(),
    )
}

/// N14: create a role.
pub fn create_role(name: &str, permissions: Value) -> ApiRequest {
    ApiRequest::to(&op::CREATE_ROLE).body(&RoleRequest {
        name: Some(name.to_owned().into()),
        permissions: Some(permissions),
    })
}

/// N15: change a role; only what is given changes.
pub fn update_role(role_id: i64, name: Option<String>, permissions: Option<Value>) -> ApiRequest {
    ApiRequest::to_filled(&op::UPDATE_ROLE, &[&id(role_id)]).body(&RoleRequest {
        name: name.map(Into::into),
        permissions,
    })
}

/// N16: remove a role, by name, with `{}`.
pub fn remove_role(name: &str) -> ApiRequest {
    ApiRequest::to_filled(&op::REMOVE_ROLE, &[&paths::encode_path_segment(name)]).body(&json!({}))
}

/// N17: invite a member; the inputs in the query, `{}` as the body, as the client sends it.
pub fn invite_member(email: &str, role: &str) -> ApiRequest {
    ApiRequest::to(&op::INVITE_MEMBER)
        .query(&[("email", email), ("role", role)])
        .body(&json!({}))
}

/// N17a: pending invitations.
pub fn invitations() -> ApiRequest {
    ApiRequest::read(
        &op::INVITATIONS,
        &reads::TEAM_INVITES,
        reads::TEAM_INVITES.path.into(),
    )
}

/// N18: remove a member, with `{}`.
pub fn remove_member(user_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::REMOVE_MEMBER, &[&id(user_id)]).body(&json!({}))
}

fn member_role(role: &str) -> MemberRoleRequest {
    MemberRoleRequest {
        role: Some(role.to_owned().into()),
    }
}

/// N19 `POST`: a first role for a member who has none.
pub fn give_member_role(user_id: i64, role: &str) -> ApiRequest {
    ApiRequest::to_filled(&op::GIVE_MEMBER_ROLE, &[&id(user_id)]).body(&member_role(role))
}

/// N19 `PUT`: replace the member's single role.
pub fn replace_member_role(user_id: i64, role_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::REPLACE_MEMBER_ROLE, &[&id(user_id)]).body(
        &ReplaceMemberRoleRequest {
            member_id: Some(gpudeck_wire::Whole(user_id).into()),
            role_id: Some(gpudeck_wire::Whole(role_id).into()),
        },
    )
}

/// N19 `DELETE`: take one of the member's several roles away.
pub fn take_member_role(user_id: i64, role: &str) -> ApiRequest {
    ApiRequest::to_filled(&op::TAKE_MEMBER_ROLE, &[&id(user_id)]).body(&member_role(role))
}

/// N20: a subaccount of the caller.
pub fn create_subaccount(request: &CreateSubaccountRequest) -> ApiRequest {
    ApiRequest::to(&op::CREATE_SUBACCOUNT).body(request)
}

/// N22: create or change a machine's offer; the machine is in the body.
pub fn list_machine(request: &ListMachineRequest) -> ApiRequest {
    ApiRequest::to(&op::LIST_MACHINE).body(request)
}

/// N23: no new rentals of a machine from now on; client 1.9.1 sends `{}`.
pub fn unlist_machine(machine_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::UNLIST_MACHINE, &[&id(machine_id)]).body(&json!({}))
}

/// N35: a machine's interruptible floor alone, $/GPU-hour; the body the client sends.
pub fn set_min_bid(machine_id: i64, price: f64) -> ApiRequest {
    ApiRequest::to_filled(&op::SET_MIN_BID, &[&id(machine_id)]).body(&MinBidRequest::new(price))
}

/// N24: a machine's renter reports. No body: a browser cannot send one on a GET, and the
/// path names the machine (fleet-health §2).
pub fn machine_reports(machine_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::MACHINE_REPORTS, &[&id(machine_id)])
}

/// N34: what the caller's machines (or `machine_id` alone) earned on the whole UTC days
/// `first_day..=last_day` (days since 1970-01-01). `me` as the client sends it, with the
/// route table's trailing slash, which the client leaves out: a slashless path may be
/// redirected, and a redirect breaks a browser's CORS preflight (fleet-health §4).
pub fn machine_earnings(first_day: i64, last_day: i64, machine_id: Option<i64>) -> ApiRequest {
    let path = format!("{}/", op::MACHINE_EARNINGS.path_with(&["me"]));
    // JSON-encoded like every non-string value the client sends, so none is `null`.
    let machine = machine_id.map_or("null".to_owned(), id);
    ApiRequest::new(&op::MACHINE_EARNINGS, path).query(&[
        ("owner", "me"),
        ("sday", &id(first_day)),
        ("eday", &id(last_day)),
        ("machid", &machine),
    ])
}

/// N25: the event types the caller may subscribe to.
pub fn notification_types() -> ApiRequest {
    ApiRequest::read(
        &op::NOTIFICATION_TYPES,
        &reads::NOTIFICATION_TYPES,
        reads::NOTIFICATION_TYPES.path.into(),
    )
}

/// N26: the caller's (`user_id`'s) channels per type; the docs show no `me` form.
pub fn notification_preferences(user_id: i64) -> ApiRequest {
    let path = reads::NOTIFICATION_PREFERENCES.path_with("user_id", &id(user_id));
    ApiRequest::read(
        &op::NOTIFICATION_PREFERENCES,
        &reads::NOTIFICATION_PREFERENCES,
        path,
    )
}

/// N27: the whole map read from N26 with the changes made, because whether the public
/// service resets the types left out is uncertain (spec fleet-health N27).
pub fn change_notification_preferences(user_id: i64, preferences: &PreferenceMap) -> ApiRequest {
    ApiRequest::to_filled(&op::CHANGE_NOTIFICATION_PREFERENCES, &[&id(user_id)])
        .body(&ChangePreferencesRequest::new(preferences))
}

/// N28: the caller's webhooks, without secrets.
pub fn webhooks() -> ApiRequest {
    ApiRequest::read(&op::WEBHOOKS, &reads::WEBHOOKS, reads::WEBHOOKS.path.into())
}

/// N29: a webhook; `name` left out when empty, every type by its full key.
pub fn create_webhook(name: &str, webhook_url: &str, event_types: &[String]) -> ApiRequest {
    ApiRequest::to(&op::CREATE_WEBHOOK).body(&CreateWebhookRequest::new(
        name,
        webhook_url,
        event_types,
    ))
}

/// What N30 changes of a webhook: only the fields given, because resending an unchanged
/// URL could meet the public service's duplicate check (spec fleet-health N30).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebhookChanges {
    /// `Some(None)` clears the name.
    pub name: Option<Option<String>>,
    pub webhook_url: Option<String>,
    pub event_types: Option<Vec<String>>,
}

impl WebhookChanges {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// N30: change a webhook; its secret is kept.
pub fn update_webhook(webhook_id: i64, changes: &WebhookChanges) -> ApiRequest {
    let body = UpdateWebhookRequest {
        name: changes
            .name
            .clone()
            .map(|name| name.map_or(Nullable::Null, Into::into)),
        webhook_url: changes.webhook_url.clone().map(Into::into),
        event_types: changes
            .event_types
            .as_ref()
            .map(|keys| Lenient::Valid(keys.iter().cloned().map(Into::into).collect())),
    };
    ApiRequest::to_filled(&op::UPDATE_WEBHOOK, &[&id(webhook_id)]).body(&body)
}

/// N31: delete a webhook, with no body, as the docs' example.
pub fn delete_webhook(webhook_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::DELETE_WEBHOOK, &[&id(webhook_id)])
}

/// N32: a new signing secret, with no body.
pub fn rotate_webhook_secret(webhook_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::ROTATE_WEBHOOK_SECRET, &[&id(webhook_id)])
}

/// N33: one signed test delivery to the webhook's URL, with no body.
pub fn test_webhook(webhook_id: i64) -> ApiRequest {
    ApiRequest::to_filled(&op::TEST_WEBHOOK, &[&id(webhook_id)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_the_ones_the_served_page_may_have_started() {
        let members = team_members();
        assert_eq!(members.method(), "GET");
        assert_eq!(members.path, "/api/v0/team/members/");
        assert_eq!(members.body, None);
        let role = team_role("a b");
        assert_eq!(role.path, "/api/v0/team/roles/a%20b/");
        assert_eq!(
            windows(&[1, 2]).query_pairs(),
            [("owner", "me"), ("machine_ids", "[1,2]")]
        );
        assert_eq!(template_library(42).path, "/api/v0/users/42/templates/");
        let reports = machine_reports(1058);
        assert_eq!(
            (reports.method(), reports.path.as_str(), reports.body),
            ("GET", "/api/v0/machines/1058/reports/", None)
        );
        let earnings = machine_earnings(20_454, 20_484, None);
        assert_eq!(earnings.path, "/api/v0/users/me/machine-earnings/");
        assert_eq!(
            earnings.query_pairs(),
            [
                ("owner", "me"),
                ("sday", "20454"),
                ("eday", "20484"),
                ("machid", "null")
            ]
        );
        assert_eq!(
            machine_earnings(1, 2, Some(1001)).query_pairs()[3],
            ("machid", "1001")
        );
    }

    /// The served page may have asked for a machine's earnings already: the console's
    /// request must be the very one it sent.
    #[test]
    fn a_machines_earnings_are_the_read_the_served_page_sends() {
        let (today, machine) = (20_784, 1037);
        let fill = |value: &str| match value {
            "{id}" => machine.to_string(),
            "{days_ago_1}" => (today - 1).to_string(),
            days if days == format!("{{days_ago_{}}}", reads::MACHINE_EARNINGS_DAYS) => {
                (today - reads::MACHINE_EARNINGS_DAYS).to_string()
            }
            other => other.to_owned(),
        };
        let sent = machine_earnings(
            today - reads::MACHINE_EARNINGS_DAYS,
            today - 1,
            Some(machine),
        );
        assert_eq!(sent.path, reads::MACHINE_EARNINGS.path);
        let read: Vec<(&str, String)> = reads::MACHINE_EARNINGS
            .query
            .iter()
            .map(|&(name, value)| (name, fill(value)))
            .collect();
        assert_eq!(sent.query, read);
        assert_eq!(
            machine_reports(machine).path,
            reads::MACHINE_REPORTS.path_with("id", "1037")
        );
    }

    #[test]
    fn writes_carry_their_operation_path_and_body() {
        let defrag = defrag_offers(&[1001, 1002]);
        assert_eq!(
            (defrag.method(), defrag.path.as_str()),
            ("PUT", "/api/v0/machines/defrag_offers/")
        );
        assert_eq!(
            defrag.body.as_deref(),
            Some(r#"{"machine_ids":[1001,1002]}"#)
        );
        let deletion = delete_template(42, 7);
        assert_eq!(deletion.path, "/api/v0/users/42/templates/");
        assert_eq!(deletion.body.as_deref(), Some(r#"{"template_id":7}"#));
        assert_eq!(accept_volume_ask(5, 10, None).path, "/api/v0/volumes/");
        let floor = set_min_bid(1001, 0.25);
        assert_eq!(
            (floor.method(), floor.path.as_str()),
            ("PUT", "/api/v0/machines/1001/minbid/")
        );
        assert_eq!(
            floor.body.as_deref(),
            Some(r#"{"client_id":"me","price":0.25}"#)
        );
        let volume = delete_volume(4);
        assert_eq!(volume.query_pairs(), [("id", "4")]);
        assert_eq!(volume.body.as_deref(), Some("{}"));
    }

    #[test]
    fn a_webhook_change_carries_only_what_changed_and_a_cleared_name_as_null() {
        let cleared = update_webhook(
            3,
            &WebhookChanges {
                name: Some(None),
                event_types: Some(vec!["host:machine_error".into()]),
                ..Default::default()
            },
        );
        assert_eq!(
            cleared.body.as_deref(),
            Some(r#"{"name":null,"event_types":["host:machine_error"]}"#)
        );
        assert_eq!(delete_webhook(3).body, None);
        assert_eq!(test_webhook(3).path, "/api/v0/webhooks/3/test/");
    }
}
