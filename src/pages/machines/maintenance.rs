//! Maintenance windows of the host's machines: ids in, a table and a timeline out.
//! The ids, category and status filters, sort and text filter all live in the URL.
//!
//! The page's parts: [`load_windows`] (what the ids in the address lead to),
//! [`WindowFilters`] (the category and status filters), [`LoadedWindows`] (the filters,
//! the timeline, the table and the form that cancels a machine's windows) and
//! [`CancelOutcome`] (refusals of a cancel). Cancelling is N6 (cancel one window) from a row
//! or a bar, and N5 (cancel every window of a machine) from the form.

use crate::api::{ApiClient, ApiError, Refusal};
use crate::components::confirmed_action::{ActionDialog, ConfirmedAction};
use crate::components::data_table::{Column, DataTable, RowFilter};
use crate::components::form_field::FormField;
use crate::components::machine_ids_field::{parsed, MachineIdsForm};
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::time::{
    format_absolute, format_span, now_seconds, relative_window, use_clock, use_utc, Time, UtcToggle,
};
use crate::components::timeline::{category_class, category_key, MaintenanceTimeline};
use crate::components::toasts::use_toasts;
use crate::domain::cancellation::cancelled_text;
use crate::domain::fleet::load_fleet;
pub use gpudeck_logic::pages::machines::maintenance::*;
use gpudeck_wire::machine_ids::format_machine_ids;
use gpudeck_wire::maintenance::HOUR;
use gpudeck_wire::{MachineIdsError, MaintenanceCategory, MaintenanceWindow};
use leptos::prelude::*;
use leptos_router::hooks::query_signal;
use std::sync::Arc;

#[derive(Clone)]
struct Loaded {
    windows: Vec<MaintenanceWindow>,
    at: f64,
    /// No ids were given: these are the windows of all the host's machines.
    every_machine: Option<usize>,
}

/// `the Power window on machine 1001, 2026-11-23 10:00 → 14:00`: how a window is named in
/// confirmations, results and refusals.
pub fn window_name(window: &MaintenanceWindow, utc: bool) -> String {
    format!(
        "the {} window #{} on machine {}, {} → {}",
        window.maintenance_category.label(),
        window.id,
        window.machine_id,
        format_absolute(window.start_time, utc),
        format_absolute(window.end_time, utc),
    )
}

/// Why a window has no Cancel button.
pub const MARKETPLACE_NOTE: &str = "Scheduled by the marketplace: only support can cancel it.";

/// What the ids in the address lead to.
#[derive(Clone)]
enum Asked {
    /// No ids given and no machines to show.
    Nothing,
    /// Ids that do not parse; the field says why, and nothing is sent.
    BadIds,
    Loaded(Loaded),
}

impl Asked {
    /// The windows loaded; none for the other answers.
    fn windows(&self) -> &[MaintenanceWindow] {
        match self {
            Asked::Loaded(loaded) => &loaded.windows,
            _ => &[],
        }
    }

    fn loaded_at(&self) -> Option<f64> {
        match self {
            Asked::Loaded(loaded) => Some(loaded.at),
            _ => None,
        }
    }
}

/// The refusals that are about the ids typed (bad or unknown ids): shown next to the
/// field, which keeps them. Others (no permission, ...) go to the error panel.
fn about_the_ids(refusal: Refusal) -> bool {
    matches!(refusal, Refusal::Malformed | Refusal::NotFound)
}

const PAGE_LEDE: &str = "Active (upcoming and ongoing) maintenance windows of your machines: \
    all of them, or those of the ids you give. Cancelled and finished windows are not listed.";
const PICK_HINT: &str = "Pick a bar (click, or Tab to it and press Enter) to cancel its window.";

/// What the ids in the address lead to: the windows of every machine of the host when
/// there are none, those of the ids given otherwise.
async fn load_windows(
    api: ApiClient,
    ids: Option<Result<Vec<i64>, MachineIdsError>>,
) -> Result<Asked, ApiError> {
    match ids {
        None => {
            let fleet = load_fleet(api).await?;
            if fleet.machines.is_empty() {
                return Ok(Asked::Nothing);
            }
            Ok(Asked::Loaded(Loaded {
                windows: fleet.windows,
                at: fleet.at,
                every_machine: Some(fleet.machines.len()),
            }))
        }
        Some(Err(_)) => Ok(Asked::BadIds),
        Some(Ok(ids)) => api.maintenances(&ids).await.map(|windows| {
            Asked::Loaded(Loaded {
                windows,
                at: now_seconds(),
                every_machine: None,
            })
        }),
    }
}

/// The category and status filters, kept in the address (`cat=gpu,disk`,
/// `status=upcoming`).
#[derive(Clone, Copy)]
struct WindowFilters {
    categories: Memo<Option<String>>,
    set_categories: SignalSetter<Option<String>>,
    status: Memo<Option<String>>,
    set_status: SignalSetter<Option<String>>,
}

impl WindowFilters {
    fn from_url() -> Self {
        let (categories, set_categories) = query_signal::<String>("cat");
        let (status, set_status) = query_signal::<String>("status");
        WindowFilters {
            categories,
            set_categories,
            status,
            set_status,
        }
    }

    fn categories(self) -> Vec<String> {
        self.categories
            .get()
            .map(|c| {
                c.split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn toggle_category(self, value: &'static str) {
        let mut chosen = self.categories();
        match chosen.iter().position(|c| c == value) {
            Some(i) => {
                chosen.remove(i);
            }
            None => chosen.push(value.to_owned()),
        }
        self.set_categories
            .set(Some(chosen.join(",")).filter(|s| !s.is_empty()));
    }

    fn status(self) -> Option<Status> {
        match self.status.get().as_deref() {
            Some("upcoming") => Some(Status::Upcoming),
            Some("ongoing") => Some(Status::Ongoing),
            _ => None,
        }
    }

    /// The rows the filters keep, or `None` when they keep every row.
    fn row_filter(self, now: RwSignal<f64>) -> Signal<Option<RowFilter<MaintenanceWindow>>> {
        Signal::derive(move || {
            let categories = self.categories();
            let status = self.status();
            if categories.is_empty() && status.is_none() {
                return None;
            }
            let now = now.get();
            let keep: RowFilter<MaintenanceWindow> = Arc::new(move |w: &MaintenanceWindow| {
                (categories.is_empty()
                    || categories
                        .iter()
                        .any(|c| c == w.maintenance_category.as_str()))
                    && status.is_none_or(|s| Status::of(w, now) == s)
            });
            Some(keep)
        })
    }
}

#[component]
pub fn MaintenancePage() -> impl IntoView {
    let utc = use_utc();
    let (ids_param, set_ids_param) = query_signal::<String>("ids");
    let filters = WindowFilters::from_url();

    let text = RwSignal::new(ids_param.get_untracked().unwrap_or_default());
    // Back/forward changes the ids in the URL: show them in the field too.
    Effect::new(move |_| {
        if let Some(ids) = ids_param.get() {
            if parsed(&text.get_untracked()) != parsed(&ids) {
                text.set(ids);
            }
        }
    });

    let now = use_clock();
    let data = use_api_resource(move |api| {
        let ids = ids_param.get().map(|text| parsed(&text));
        load_windows(api, ids)
    });
    let toasts = use_toasts();
    // The window picked from a row's Cancel or a bar of the timeline, and a marketplace
    // window's explanation when one of those is picked.
    let notice = RwSignal::new(None::<String>);
    let cancel_one = ConfirmedAction::new(
        |api, window: MaintenanceWindow| async move { api.cancel_maintenance(window.id).await },
        move |window: MaintenanceWindow, _answer| {
            let name = window_name(&window, utc.get_untracked());
            toasts.success(format!("Cancelled {name}."));
            data.refetch();
            format!("Cancelled {name}.")
        },
    );
    let picked_machine = RwSignal::new(String::new());
    let cancel_machine = ConfirmedAction::new(
        |api, machine: i64| async move { api.cancel_machine_maintenance(machine).await },
        move |machine: i64, answer| {
            let text = cancelled_text(machine, &answer);
            toasts.success(text.clone());
            picked_machine.try_set(String::new());
            data.refetch();
            text
        },
    );
    let pick = Callback::new(move |window: MaintenanceWindow| {
        if window.scheduled_by_marketplace {
            notice.set(Some(format!(
                "Window #{} on machine {} was scheduled by the marketplace: only support can cancel it.",
                window.id, window.machine_id
            )));
        } else {
            notice.set(None);
            cancel_one.ask(window);
        }
    });

    // Ids in the address that do not parse, and the interface's own refusals about the
    // ids, belong next to the field.
    let url_problem = move || match ids_param.get().map(|text| parsed(&text)) {
        Some(Err(error)) => Some(error.to_string()),
        _ => None,
    };
    let refusal = move || match data.get() {
        Some(Err(error)) if error.refusal().is_some_and(about_the_ids) => Some(error.message()),
        _ => None,
    };
    let problem = Signal::derive(move || url_problem().or_else(refusal));
    let loaded_at = move || with_loaded(data, Asked::loaded_at).flatten();

    let show_ids = move |ids: Vec<i64>| {
        let compact = format_machine_ids(&ids);
        if ids_param.get_untracked().as_deref() == Some(compact.as_str()) {
            data.refetch();
        } else {
            set_ids_param.set(Some(compact));
        }
    };
    let row_filter = filters.row_filter(now);

    view! {
        <Page class="maintenance" entry=&gpudeck_pages::MAINTENANCE lede=PAGE_LEDE>
            <MachineIdsForm text=text problem=problem on_ids=show_ids>
                <button type="submit" class="button primary">
                    "Show maintenance"
                </button>
                {move || {
                    loaded_at()
                        .map(|at| {
                            view! {
                                <span class="hint">
                                    "Loaded " {format_absolute(at, utc.get())} " · "
                                </span>
                                <button
                                    type="button"
                                    class="button"
                                    on:click=move |_| data.refetch()
                                >
                                    "Reload"
                                </button>
                            }
                        })
                }}
            </MachineIdsForm>
            {ResourceView::new(data, "Loading maintenance windows…")
                .empty_when(
                    |asked| matches!(asked, Asked::Nothing),
                    "You have no machines, so no maintenance windows.",
                )
                .refusals(|_, refusal| about_the_ids(refusal).then(|| ().into_any()))
                .show(move |asked| match asked {
                    Asked::Nothing | Asked::BadIds => ().into_any(),
                    Asked::Loaded(loaded) => {
                        view! {
                            <LoadedWindows
                                loaded=loaded
                                filters=filters
                                row_filter=row_filter
                                now=now
                                notice=notice
                                pick=pick
                                picked_machine=picked_machine
                                cancel_machine=cancel_machine
                            />
                        }
                            .into_any()
                    }
                })}
            <CancelWindowDialog cancel_one=cancel_one />
            <CancelMachineDialog cancel_machine=cancel_machine data=data />
            <CancelOutcome cancel_one=cancel_one cancel_machine=cancel_machine />
        </Page>
    }
}

/// Asks before cancelling the window picked from a row or a bar of the timeline.
#[component]
fn CancelWindowDialog(cancel_one: ConfirmedAction<MaintenanceWindow, String>) -> impl IntoView {
    let utc = use_utc();
    view! {
        <ActionDialog
            action=cancel_one
            title="Cancel this maintenance window?"
            confirm_label="Cancel the window"
            danger=true
        >
            <p>
                {move || {
                    cancel_one
                        .asked()
                        .map(|w| {
                            let mut name = window_name(&w, utc.get());
                            name[..1].make_ascii_uppercase();
                            format!("{name} ({}).", format_span(w.end_time - w.start_time))
                        })
                }}
            </p>
            <p>"Its renters are no longer told about it. This cannot be undone."</p>
        </ActionDialog>
    }
}

/// Asks before cancelling every window of one machine, saying which stay.
#[component]
fn CancelMachineDialog(
    cancel_machine: ConfirmedAction<i64, String>,
    data: LocalResource<Result<Asked, ApiError>>,
) -> impl IntoView {
    view! {
        <ActionDialog
            action=cancel_machine
            title="Cancel every window of this machine?"
            confirm_label="Cancel its windows"
            danger=true
        >
            <p>
                {move || {
                    cancel_machine
                        .asked()
                        .map(|machine| {
                            untrack(|| with_loaded(
                                    data,
                                    |asked| machine_cancel_sentence(machine, asked.windows()),
                                ))
                                .unwrap_or_else(|| machine_cancel_sentence(machine, &[]))
                        })
                }}
            </p>
        </ActionDialog>
    }
}

/// What cancelling every window of `machine` does, among `windows`: the host's own are
/// cancelled, the marketplace's stay.
fn machine_cancel_sentence(machine: i64, windows: &[MaintenanceWindow]) -> String {
    let on: Vec<&MaintenanceWindow> = windows.iter().filter(|w| w.machine_id == machine).collect();
    let marketplace = on.iter().filter(|w| w.scheduled_by_marketplace).count();
    let own = on.len() - marketplace;
    let kept = match marketplace {
        0 => String::new(),
        n => format!(" {n} scheduled by the marketplace stay."),
    };
    format!("Machine {machine}: its {own} upcoming and ongoing windows you scheduled are cancelled.{kept}")
}

/// The windows loaded: the category and status filters, the timeline, the table, and the
/// form that cancels every window of one machine.
#[component]
fn LoadedWindows(
    loaded: Loaded,
    filters: WindowFilters,
    row_filter: Signal<Option<RowFilter<MaintenanceWindow>>>,
    now: RwSignal<f64>,
    notice: RwSignal<Option<String>>,
    pick: Callback<MaintenanceWindow>,
    picked_machine: RwSignal<String>,
    cancel_machine: ConfirmedAction<i64, String>,
) -> impl IntoView {
    let utc = use_utc();
    // Stored and a memo, not derived signals: the table, the timeline and the cancel form
    // each read the windows, and a derived signal would copy all of them (10,000 at 1,000
    // machines) on every read.
    let windows = Signal::stored(loaded.windows);
    let filtered_windows = Memo::new(move |_| {
        let keep = row_filter.get();
        windows.with(|all| {
            all.iter()
                .filter(|w| keep.as_ref().is_none_or(|k| k(w)))
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    view! {
        {loaded
            .every_machine
            .map(|n| {
                view! {
                    <p class="hint" data-testid="every-machine">
                        {format!(
                            "Windows of all your {n} machines. Enter ids above to narrow them.",
                        )}
                    </p>
                }
            })}
        <FilterBar filters=filters />
        <p class="notice" role="status" hidden=move || notice.with(Option::is_none)>
            {move || notice.get()}
        </p>
        <MaintenanceTimeline windows=filtered_windows now=now on_pick=pick />
        <p class="hint">{PICK_HINT}</p>
        <DataTable
            rows=windows
            columns=columns(now.into(), utc.into(), pick)
            row_key=|w: &MaintenanceWindow| w.id.to_string()
            empty="None of these machines has an active maintenance window."
            csv_name="maintenance-windows"
            caption="Active maintenance windows"
            also_filter=row_filter
        />
        <CancelMachineForm windows=windows picked=picked_machine action=cancel_machine />
    }
}

/// The category chips, the status choice and the UTC toggle above the timeline.
#[component]
fn FilterBar(filters: WindowFilters) -> impl IntoView {
    view! {
        <div class="filters" role="group" aria-label="Filter windows">
            <span class="filter-label">"Category"</span>
            {MaintenanceCategory::KNOWN
                .into_iter()
                .map(|category| {
                    let value = category_key(&category);
                    let pressed = move || filters.categories().iter().any(|c| c == value);
                    view! {
                        <button
                            type="button"
                            class=format!("chip badge cat-{value}")
                            aria-pressed=move || pressed().to_string()
                            on:click=move |_| filters.toggle_category(value)
                        >
                            {category.label().to_owned()}
                        </button>
                    }
                })
                .collect_view()}
            <FormField
                id="status-filter"
                label="Status"
                label_class="filter-label"
                class="field-in-row"
            >
                <select
                    prop:value=move || filters.status().map(Status::param).unwrap_or("")
                    on:change=move |ev| {
                        let value = event_target_value(&ev);
                        filters.set_status.set(Some(value).filter(|v| !v.is_empty()));
                    }
                >
                    <option value="">"Any"</option>
                    <option value="upcoming">"Upcoming"</option>
                    <option value="ongoing">"Ongoing"</option>
                </select>
            </FormField>
            <UtcToggle />
        </div>
    }
}

/// Why a cancel was refused, said where the page's actions are.
#[component]
fn CancelOutcome(
    cancel_one: ConfirmedAction<MaintenanceWindow, String>,
    cancel_machine: ConfirmedAction<i64, String>,
) -> impl IntoView {
    let utc = use_utc();
    view! {
        <div class="action-outcome" role="status">
            {move || {
                cancel_one
                    .refusal_where(|_| true)
                    .map(|message| {
                        let name = cancel_one
                            .asked()
                            .map(|w| window_name(&w, utc.get()))
                            .unwrap_or_default();
                        view! {
                            <p class="form-error" data-testid="cancel-refusal">
                                {format!("Not cancelled: {name}: {message}")}
                            </p>
                        }
                    })
            }}
            {move || {
                cancel_machine
                    .refusal_where(|_| true)
                    .map(|message| {
                        let machine = cancel_machine.asked().unwrap_or_default();
                        view! {
                            <p class="form-error" data-testid="cancel-refusal">
                                {format!("Machine {machine}: not cancelled: {message}")}
                            </p>
                        }
                    })
            }}
        </div>
        {cancel_one.failure_view()}
        {cancel_machine.failure_view()}
    }
}

/// Cancel every window of one machine (N5), chosen among the machines with windows here.
#[component]
fn CancelMachineForm(
    windows: Signal<Vec<MaintenanceWindow>>,
    picked: RwSignal<String>,
    action: ConfirmedAction<i64, String>,
) -> impl IntoView {
    let machines = move || {
        let mut ids: Vec<i64> = windows.with(|w| {
            w.iter()
                .filter(|w| !w.scheduled_by_marketplace)
                .map(|w| w.machine_id)
                .collect()
        });
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Ok(machine) = picked.get_untracked().parse::<i64>() {
            action.ask(machine);
        }
    };
    view! {
        <Show when=move || !machines().is_empty()>
            <form class="cancel-machine" on:submit=submit>
                <FormField
                    id="cancel-machine-pick"
                    label="Cancel every window of machine"
                    class="field-in-row"
                >
                    <select
                        prop:value=picked
                        on:change=move |ev| picked.set(event_target_value(&ev))
                    >
                        <option value="">"Choose a machine…"</option>
                        {move || {
                            machines()
                                .into_iter()
                                .map(|id| view! { <option value=id.to_string()>{id}</option> })
                                .collect_view()
                        }}
                    </select>
                </FormField>
                <button
                    type="submit"
                    class="button danger"
                    disabled=move || picked.with(String::is_empty) || action.pending().get()
                >
                    {move || {
                        if action.pending().get() {
                            "Cancelling…"
                        } else {
                            "Cancel all its windows…"
                        }
                    }}
                </button>
            </form>
        </Show>
    }
}

fn columns(
    now: Signal<f64>,
    utc: Signal<bool>,
    pick: Callback<MaintenanceWindow>,
) -> Vec<Column<MaintenanceWindow>> {
    let time_text = move |t: f64| format_absolute(t, utc.get_untracked());
    vec![
        Column::whole("machine", "Machine", |w: &MaintenanceWindow| w.machine_id),
        Column::text("category", "Category", |w: &MaintenanceWindow| w.maintenance_category.label().to_owned())
            .with_cell(|w| {
                view! { <span class=format!("badge {}", category_class(w))>{w.maintenance_category.label().to_owned()}</span> }.into_any()
            }),
        Column::text("status", "Status", move |w: &MaintenanceWindow| Status::of(w, now.get_untracked()).label().to_owned())
            .with_cell(move |w| {
                let (start, end) = (w.start_time, w.end_time);
                let current = move || Status::of_times(start, now.get());
                view! {
                    <span class=move || format!("status {}", current().param())>{move || current().label()}</span>
                    <span class="relative">{move || relative_window(now.get(), start, end)}</span>
                }
                .into_any()
            }),
        Column::number("start", "Start", |w: &MaintenanceWindow| w.start_time, move |w| time_text(w.start_time))
            .with_cell(|w| view! { <Time unix_seconds=w.start_time/> }.into_any()),
        Column::number("end", "End", |w: &MaintenanceWindow| w.end_time, move |w| time_text(w.end_time))
            .with_cell(|w| view! { <Time unix_seconds=w.end_time/> }.into_any()),
        Column::number("duration", "Duration", |w: &MaintenanceWindow| w.duration_hours as f64, |w| {
            format_span(w.duration_hours as f64 * HOUR)
        }),
        Column::text("reason", "Reason", |w: &MaintenanceWindow| w.maintenance_reason.clone().unwrap_or_default())
            .with_cell(|w| match &w.maintenance_reason {
                Some(reason) => view! { <span class="reason" title=reason.clone()>{reason.clone()}</span> }.into_any(),
                None => view! { <span class="muted">"—"</span> }.into_any(),
            }),
        Column::number("created", "Created", |w: &MaintenanceWindow| w.created_at, move |w| time_text(w.created_at))
            .with_cell(|w| view! { <Time unix_seconds=w.created_at/> }.into_any()),
        Column::text("by", "Scheduled by", |w: &MaintenanceWindow| {
            if w.scheduled_by_marketplace { "Marketplace" } else { "You" }.to_owned()
        }),
        Column::actions(move |w: &MaintenanceWindow| {
            if w.scheduled_by_marketplace {
                view! {
                    <span class="marketplace-note" title=MARKETPLACE_NOTE>"Support only"</span>
                }
                .into_any()
            } else {
                let window = w.clone();
                let label = format!("Cancel {}", window_name(w, utc.get_untracked()));
                view! {
                    <button type="button" class="button small danger" aria-label=label on:click=move |_| pick.run(window.clone())>
                        "Cancel…"
                    </button>
                }
                .into_any()
            }
        }),
    ]
}
