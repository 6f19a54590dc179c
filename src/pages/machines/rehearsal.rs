//! The Machines page's table, built once before it is needed. A browser compiles a wasm
//! function the first time it is called, on the page's own thread: on a slow phone,
//! painting the first rows of a fleet that has just arrived cost hundreds of milliseconds,
//! most of them compiling the decoder and the table. Sign-in rehearses while the person
//! types: it decodes a made-up fleet with the page's decoder and builds the page's table
//! for it in an element that is never put in the document, then throws it all away.
//!
//! Nothing is fetched, and nothing touches the title, the focus or the address.

use super::fleet_table;
use crate::api::ApiClient;
use crate::domain::fleet::Fleet;
use crate::domain::health::FleetHealth;
use leptos::prelude::*;
use leptos::reactive::owner::WeakOwner;
use leptos::tachys::view::{Mountable, Render};
use std::collections::BTreeSet;

/// N1's answer for the made-up fleet, as the service writes it: machines rented and free,
/// listed and not, with each kind of GPU slot.
const MACHINES: &str = r#"{"machines": [
{"id": 1, "machine_id": 1, "hostname": "rehearsal-1", "gpu_name": "RTX 4090", "cpu_name": "EPYC 7713", "driver_version": "550.54.14", "num_gpus": 4, "cpu_cores": 64, "current_rentals_running": 2, "gpu_ram": 24564, "cpu_ram": 257000, "disk_space": 3500.5, "listed": true, "verification": "verified", "reliability2": 0.9953, "gpu_occupancy": "D R I x", "geolocation": "Sweden, SE", "public_ipaddr": "203.0.113.7", "timeout": 0, "listed_gpu_cost": 0.42, "min_bid_price": 0.2, "earn_day": 18.25},
{"id": 2, "machine_id": 2, "hostname": "rehearsal-2", "gpu_name": "A100 SXM4", "cpu_name": "Xeon 8380", "driver_version": "535.161.08", "num_gpus": 8, "cpu_cores": 80, "current_rentals_running": 0, "gpu_ram": 81920, "cpu_ram": 1031000, "disk_space": 7000, "listed": false, "verification": "unverified", "reliability2": 0.91, "gpu_occupancy": "x x x x x x x x", "geolocation": null, "public_ipaddr": null, "timeout": 0, "listed_gpu_cost": null, "min_bid_price": null, "earn_day": 0}
]}"#;

/// The windows of the made-up fleet, both on the first machine: one long past, one to come.
const WINDOWS: &str = r#"[
{"id": 1, "machine_id": 1, "start_time": 1, "duration_hours": 2, "maintenance_category": "disk", "maintenance_reason": null, "created_at": 1, "cancelled_at": null, "end_time": 7201, "scheduled_by_marketplace": false},
{"id": 2, "machine_id": 1, "start_time": 4102444800, "duration_hours": 4, "maintenance_category": "power", "maintenance_reason": "New power supply", "created_at": 1, "cancelled_at": null, "end_time": 4102459200, "scheduled_by_marketplace": true}
]"#;

/// Builds the table once, off-screen, under an owner of the sign-in form's (whose router
/// the table reads its address's parameters from), if the form is still there and
/// `waiting` says it still waits for Enter; the effects it started run before it is thrown
/// away. Whether it was built. Loaded from its own split beside the Machines page's code,
/// so none of that code joins the main module.
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn rehearse(form: WeakOwner, waiting: Signal<bool>) -> bool {
    let Some(form) = form.upgrade() else {
        return false;
    };
    if waiting.try_get_untracked() != Some(true) {
        return false;
    }
    let scope = form.child();
    let built = scope.with(build_off_screen);
    let rehearsed = built.is_some();
    // A task queued now runs after the effects the build scheduled.
    gloo_timers::future::TimeoutFuture::new(0).await;
    drop(built);
    scope.cleanup();
    rehearsed
}

/// The made-up fleet, decoded as the page decodes N1's answer and the windows.
pub fn rehearsal_fleet() -> Result<Fleet, crate::api::ApiError> {
    let api = ApiClient::new("", "");
    let machines = api.machines_from(MACHINES)?;
    let windows = api.maintenances_from(&[WINDOWS.to_owned()])?;
    // When it was loaded is not shown in the table.
    Ok(Fleet {
        machines,
        windows,
        at: 0.0,
    })
}

/// The table built for the made-up fleet and mounted in an element of its own, outside the
/// document; `None` when the fleet no longer decodes (the page's decoder changed).
pub fn build_off_screen() -> Option<(web_sys::Element, impl Mountable)> {
    let fleet = rehearsal_fleet().ok()?;
    let now = Signal::stored(crate::components::time::now_seconds());
    let selected = RwSignal::new(BTreeSet::new());
    let health = FleetHealth::judge(&fleet.machines, &fleet.windows, None, fleet.at);
    let stage = document().create_element("div").ok()?;
    let mut built = fleet_table(&fleet, &health, now, selected, Signal::stored(None))
        .into_view()
        .build();
    built.mount(&stage, None);
    Some((stage, built))
}
