//! The caller's volumes (N11): name with a copy button, size, machine, age, status and the
//! instances using each, and deletion (N12) after a confirmation. A volume an instance
//! still uses cannot be deleted; the refusal says so in plain words.

use super::rules::volume_name;
use crate::api::{ApiError, Refusal};
use crate::components::clipboard::CopyButton;
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::data_table::{Column, DataTable};
use crate::components::money::format_usd;
use crate::components::resource_view::ResourceView;
use crate::components::time::{format_span, now_seconds};
use crate::components::toasts::use_toasts;
pub use gpudeck_logic::pages::volumes::mine::*;
use gpudeck_wire::Volume;
use leptos::prelude::*;

/// Hours in the 30-day month N10 (search volume offers) and N11 price by.
const HOURS_A_MONTH: f64 = 720.0;

fn volume_columns(now: f64, on_delete: Callback<Volume>) -> Vec<Column<Volume>> {
    vec![
        Column::text("volume", "Volume", |v: &Volume| volume_name(v.id)).with_cell(|v| {
            let name = volume_name(v.id);
            view! {
                <span class="volume-id">{name.clone()}</span>
                <CopyButton text=name.clone() label=format!("Copy the volume name {name}")/>
            }
            .into_any()
        }),
        Column::text("label", "Name", |v: &Volume| {
            v.label.clone().unwrap_or_default()
        }),
        Column::number(
            "size",
            "Size (GB)",
            |v: &Volume| v.disk_space,
            |v| v.disk_space.to_string(),
        ),
        Column::whole("machine", "Machine", |v: &Volume| v.machine_id),
        Column::text("location", "Location", |v: &Volume| {
            v.geolocation.clone().unwrap_or_else(|| "—".into())
        }),
        Column::number(
            "age",
            "Age",
            |v: &Volume| v.start_date,
            move |v| format_span(now - v.start_date),
        ),
        Column::number(
            "cost",
            "Cost a month",
            |v: &Volume| v.storage_total_cost,
            |v| format_usd(v.storage_total_cost * HOURS_A_MONTH),
        ),
        Column::text("instances", "Instances", |v: &Volume| {
            let names = instance_names(v);
            if names.is_empty() {
                "None".into()
            } else {
                names.join(", ")
            }
        }),
        Column::text("status", "Status", |v: &Volume| v.status.clone()),
        Column::actions(move |v: &Volume| {
            let volume = v.clone();
            let label = format!("Delete volume {}", volume_name(v.id));
            view! {
                <button type="button" class="button small danger" aria-label=label on:click=move |_| on_delete.run(volume.clone())>
                    "Delete…"
                </button>
            }
            .into_any()
        }),
    ]
}

#[component]
pub fn MyVolumes(
    volumes: LocalResource<Result<Vec<Volume>, ApiError>>,
    /// After a deletion, e.g. to search the offers again (the space went back).
    on_deleted: Callback<()>,
) -> impl IntoView {
    let toasts = use_toasts();
    let delete = ConfirmedAction::new(
        |api, volume: Volume| async move { api.delete_volume(volume.id).await },
        move |volume: Volume, _answer| {
            let name = volume_name(volume.id);
            toasts.success(format!("Volume {name} deleted"));
            volumes.refetch();
            on_deleted.run(());
            name
        },
    );
    let on_delete = Callback::new(move |volume: Volume| delete.ask(volume));
    let refusal = move || {
        let volume = delete.asked()?;
        let in_use = delete.refusal_where(|kind| kind == Refusal::Conflict);
        let other = delete.refusal_where(|kind| kind != Refusal::Conflict);
        in_use
            .map(|_| in_use_explanation(&volume))
            .or_else(|| other.map(|m| format!("{} was not deleted: {m}", volume_name(volume.id))))
    };

    view! {
        <section class="my-volumes" aria-labelledby="my-volumes-heading">
            <h2 id="my-volumes-heading">"My volumes"</h2>
            <p class="form-error" role="alert" data-testid="volume-refusal">
                {refusal}
            </p>
            {delete.failure_view()}
            {ResourceView::new(volumes, "Loading your volumes…")
                .with_reload_button()
                .show(move |rows| {
                    view! {
                        <DataTable
                            rows=rows
                            columns=volume_columns(now_seconds(), on_delete)
                            row_key=|v: &Volume| v.id.to_string()
                            empty="You have no volumes yet. Accept an offer above to create one."
                            csv_name="volumes"
                            caption="My volumes"
                            url_prefix="mine-"
                        />
                    }
                })}
            <ActionDialog
                action=delete
                title="Delete this volume?"
                confirm_label="Delete volume"
                danger=true
            >
                {move || {
                    delete
                        .asked()
                        .map(|volume| {
                            let in_use = !volume.instances.is_empty();
                            view! {
                                <p>
                                    <strong class="id-list">{volume_name(volume.id)}</strong>
                                    {volume.label.clone().map(|l| format!(" ({l})"))}
                                    {format!(
                                        ": {} GB on machine {}.",
                                        volume.disk_space,
                                        volume.machine_id,
                                    )}
                                </p>
                                <p>
                                    "Its data is deleted and its space goes back to the host's offer. This cannot be undone."
                                </p>
                                {in_use
                                    .then(|| {
                                        view! {
                                            <p class="warning-text">
                                                {format!(
                                                    "{} The server will refuse while it is used.",
                                                    in_use_explanation(&volume),
                                                )}
                                            </p>
                                        }
                                    })}
                            }
                        })
                }}
            </ActionDialog>
        </section>
    }
}
