//! The Machines table's listing column (§1.7, offers and rental contracts): each machine's
//! stage on the way to maintenance, with whether it is listed and until when and when its
//! rentals end in the cell's tooltip and the CSV. One column, because at a laptop's width
//! the table has room for one more (the e2e look test measures it); on a phone the row is
//! a card. The rules are in [`crate::domain::listing`]; this is how they are shown.

use super::FleetRow;
use crate::components::data_table::Column;
use crate::components::time::{format_absolute, use_utc};
use crate::domain::listing::{listing_details, Stage};
use leptos::prelude::*;

/// "Listed": the stage as of `now`, its details in the tooltip and the CSV's cell.
pub fn listing_column(now: Signal<f64>) -> Column<FleetRow> {
    let utc = use_utc();
    let time_text = move |t: f64| format_absolute(t, utc.get_untracked());
    let stage_and_details = move |r: &FleetRow| {
        let now = now.get_untracked();
        let stage = Stage::in_cycle(&r.machine, now, r.next);
        (
            stage.label(),
            listing_details(stage, &r.machine, now, time_text),
        )
    };
    Column::text("listed", "Listed", move |r: &FleetRow| {
        let (label, details) = stage_and_details(r);
        format!("{label} · {details}")
    })
    .with_cell(move |r| {
        let (label, details) = stage_and_details(r);
        view! {
            <span class="listing-stage" title=details>
                {label}
            </span>
        }
        .into_any()
    })
}
