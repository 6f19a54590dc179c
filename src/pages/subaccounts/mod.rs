//! The caller's subaccounts: a table with their usernames, whether each hosts or rents,
//! balances in dollars and masked API keys, and a form to create one (N20), which then
//! appears in the list. The keys reach a CSV export only when the person ticks the box
//! that says so.

mod create;

pub use gpudeck_logic::pages::subaccounts::rules;

use crate::components::data_table::{Column, DataTable};
use crate::components::masked_key::MaskedKey;
use crate::components::money::format_usd;
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, ResourceView};
use crate::components::toggle::Toggle;
use create::CreateSubaccount;
use gpudeck_wire::{Subaccount, SubaccountList};
use leptos::prelude::*;

/// Shown for what the service did not send.
const NOT_SENT: &str = "—";

/// `Host` for an account that only hosts, `Client` for one that rents (N20's `host_only`).
pub fn account_kind(subaccount: &Subaccount) -> &'static str {
    match subaccount.host_only {
        Some(true) => "Host",
        Some(false) => "Client",
        None => NOT_SENT,
    }
}

/// The table's columns. The key column is left out of the text filter (typing part of a
/// key should not find it) and out of the CSV unless `include_keys` is true.
pub fn subaccount_columns(include_keys: Signal<bool>) -> Vec<Column<Subaccount>> {
    vec![
        Column::whole("id", "Id", |s: &Subaccount| s.id),
        Column::text("username", "Username", |s: &Subaccount| {
            s.username.clone().unwrap_or_else(|| NOT_SENT.into())
        }),
        Column::text("email", "Email", |s: &Subaccount| s.email.clone()),
        Column::text("kind", "Type", |s: &Subaccount| account_kind(s).to_owned()),
        Column::number(
            "balance",
            "Balance",
            |s: &Subaccount| s.balance,
            |s| format_usd(s.balance),
        ),
        Column::text("api_key", "API key", |s: &Subaccount| s.api_key.clone())
            .not_searchable()
            .csv_only_when(include_keys)
            .with_cell(|s| {
                view! { <MaskedKey key=s.api_key.clone() owner=format!("subaccount {}", s.id)/> }
                    .into_any()
            }),
    ]
}

#[component]
pub fn SubaccountsPage() -> impl IntoView {
    let data = use_api_resource(|api| async move { api.subaccounts().await });
    let include_keys = RwSignal::new(false);

    view! {
        <Page
            class="subaccounts"
            entry=&gpudeck_pages::SUBACCOUNTS
            lede="Accounts that belong to yours, with their prepaid balances and the API keys derived for them. Keys are hidden until you show one."
        >
            {ResourceView::new(data, "Loading subaccounts…")
                .with_reload_button()
                .show(move |SubaccountList { msg, users }| {
                    view! {
                        {(!msg.is_empty())
                            .then(|| {
                                view! {
                                    <p class="server-message" role="status">
                                        {msg}
                                    </p>
                                }
                            })}
                        <DataTable
                            rows=users
                            columns=subaccount_columns(include_keys.into())
                            row_key=|s: &Subaccount| s.id.to_string()
                            empty="You have no subaccounts. Create one below; it then appears here with its own API key."
                            csv_name="subaccounts"
                            caption="Subaccounts"
                        >
                            <Toggle checked=include_keys label="Include the API keys in the CSV" />
                        </DataTable>
                    }
                })}
            <CreateSubaccount on_created=Callback::new(move |()| data.refetch()) />
        </Page>
    }
}
