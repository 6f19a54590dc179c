//! One machine's story, at `/machines/{id}`: what a host looks at before deciding to take
//! it down. Its findings (fleet-health §1.2, judged within the whole fleet, since some
//! rules compare machines) with the actions that help, the renters' recent reports (N24),
//! its rentals and offer, its maintenance windows, and what it earned per day (N34).
//! Everything but the reports and earnings comes from the fleet read the Machines page
//! makes (N1 and seed op 1): a machine not among the caller's is not found.

mod earnings;
mod findings;
mod offer;
mod reports;
mod signals;

use super::offers::OfferActions;
use super::PART;
use crate::components::occupancy::OccupancyStrip;
use crate::components::page::Page;
use crate::components::resource_view::{use_api_resource, with_loaded, ResourceView};
use crate::components::session_reads::{use_session_reads, SessionReads};
use crate::components::time::{format_absolute, now_seconds, use_utc};
use crate::domain::earnings::MachineEarned;
use crate::domain::fleet::{load_fleet, Fleet};
use crate::domain::reports::newest_first;
use crate::routes::MACHINES;
pub use gpudeck_logic::pages::machines::detail::machine_id_of;
use gpudeck_wire::earnings::day_of;
use gpudeck_wire::reads::MACHINE_EARNINGS_DAYS;
use gpudeck_wire::Machine;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

/// What the page says, and its tab, of an address naming none of the caller's machines.
const NOT_FOUND: &str = "No such machine";

/// Which machine this is, in the heading and the tab: `Machine 1037 · alice-gpu-037`.
fn machine_name(machine: &Machine) -> String {
    format!("Machine {} · {}", machine.id, machine.hostname)
}

const LEDE: &str = "Everything to look at before taking a machine down: what needs you, what \
    its renters reported, its rentals, offer and windows, and what it earned.";

#[component]
pub fn MachineDetailPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id").and_then(|s| machine_id_of(&s))));

    let fleet = use_api_resource(load_fleet);
    let reports = use_api_resource(move |api| {
        let id = id.get();
        async move {
            match id {
                Some(id) => api.machine_reports(id).await.map(newest_first),
                None => Ok(Vec::new()),
            }
        }
    });
    let earnings = use_api_resource(move |api| {
        let id = id.get();
        // The whole UTC days before today, the ones the served page may have asked for.
        let today = day_of(now_seconds());
        let (first, last) = (today - MACHINE_EARNINGS_DAYS, today - 1);
        async move {
            match id {
                Some(id) => api
                    .machine_earnings(id, first, last)
                    .await
                    .map(|answer| Some(MachineEarned::of(&answer, id, first, last))),
                None => Ok(None),
            }
        }
    });
    let offers = OfferActions::new(move || fleet.refetch());
    let reads = use_session_reads();
    crate::split::preload_part(PART);
    // The tab names the machine once it is found, and says when it is not.
    let title = Signal::derive(move || {
        let Some(id) = id.get() else {
            return Some(NOT_FOUND.to_owned());
        };
        with_loaded(fleet, |loaded| {
            loaded
                .machines
                .iter()
                .find(|m| m.id == id)
                .map_or_else(|| NOT_FOUND.to_owned(), machine_name)
        })
    });

    let story = move |id: i64| {
        ResourceView::new(fleet, "Loading the machine…")
            .with_reload_button()
            .show(
                move |loaded: Fleet| match loaded.machines.iter().find(|m| m.id == id).cloned() {
                    Some(machine) => {
                        let shown = Story {
                            fleet: loaded,
                            machine,
                        };
                        shown
                            .view(fleet, reads, reports, earnings, offers)
                            .into_any()
                    }
                    None => not_found(id).into_any(),
                },
            )
    };
    view! {
        <Page class="machine-detail" entry=&gpudeck_pages::MACHINE_DETAIL lede=LEDE title=title>
            <nav class="machine-links" aria-label="Machines">
                <A href=MACHINES exact=true>
                    "All machines"
                </A>
            </nav>
            {move || match id.get() {
                Some(id) => story(id).into_any(),
                None => not_found_at(&params.with(|p| p.get("id").unwrap_or_default())).into_any(),
            }}
        </Page>
    }
}

/// The machine as loaded with its fleet.
struct Story {
    fleet: Fleet,
    machine: Machine,
}

impl Story {
    fn view(
        self,
        fleet: findings::FleetResource,
        reads: SessionReads,
        reports: reports::ReportsResource,
        earnings: earnings::EarningsResource,
        offers: OfferActions,
    ) -> impl IntoView {
        let Story {
            fleet: loaded,
            machine,
        } = self;
        let id = machine.id;
        // Judged within the whole fleet (driver drift and duplicate hostnames compare it
        // with the caller's other machines), against the session's read before this one.
        let health = reads.judge(&loaded).of(id).cloned().unwrap_or_default();
        let windows: Vec<_> = loaded
            .windows
            .iter()
            .filter(|w| w.machine_id == id)
            .cloned()
            .collect();
        let selected = Signal::derive(move || {
            with_loaded(fleet, |f| {
                f.machines.iter().filter(|m| m.id == id).cloned().collect()
            })
            .unwrap_or_default()
        });
        view! {
            <MachineHeader machine=machine.clone() at=loaded.at />
            <findings::Findings health=health id=id fleet=fleet offers=offers />
            <signals::Signals machine=machine.clone() />
            <reports::Reports reports=reports />
            <offer::RentalsAndOffer machine=machine at=loaded.at offers=offers selected=selected />
            <offer::Windows id=id windows=windows now=loaded.at />
            <earnings::Earnings earnings=earnings />
        }
    }
}

/// Which machine this is: its id and hostname, GPUs, occupancy and when it was read.
#[component]
fn MachineHeader(machine: Machine, at: f64) -> impl IntoView {
    let utc = use_utc();
    view! {
        <div class="machine-header">
            <h2 data-testid="machine-name">{machine_name(&machine)}</h2>
            <p class="machine-facts">
                {format!("{} × {}", machine.gpu_name, machine.num_gpus)}
                <OccupancyStrip occupancy=machine.gpu_occupancy.clone() />
            </p>
            <p class="hint">{format!("Read {}", format_absolute(at, utc.get_untracked()))}</p>
        </div>
    }
}

/// No machine `id` among the caller's: unknown, or another account's.
fn not_found(id: i64) -> impl IntoView {
    not_found_at(&id.to_string())
}

/// The address names no machine of the caller's.
fn not_found_at(segment: &str) -> impl IntoView {
    view! {
        <div class="result nothing" role="alert" data-testid="machine-not-found">
            <h2>{NOT_FOUND}</h2>
            <p>
                {format!(
                    "None of your machines has the id “{segment}”: it may be another account's, or gone.",
                )}
            </p>
            <p>
                <A href=MACHINES exact=true>
                    "Pick one from your machines"
                </A>
            </p>
        </div>
    }
}
