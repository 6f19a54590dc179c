//! The Machines table's listing columns (§1.7, offers and rental contracts): whether each
//! machine is listed and until when, when its rentals end, and its stage on the way to
//! maintenance. The rules are in [`crate::domain::listing`]; this is how they are shown.

use super::FleetRow;
use crate::components::data_table::Column;
use crate::components::time::{format_absolute, use_utc, Time};
use crate::domain::listing::{
    listing_text, rentals_end_order, rentals_end_text, Listing, RentalsEnd, Stage,
};
use leptos::prelude::*;

/// Listed (until when), Rentals end and Stage, as of `now`.
pub fn listing_columns(now: Signal<f64>) -> [Column<FleetRow>; 3] {
    let utc = use_utc();
    let time_text = move |t: f64| format_absolute(t, utc.get_untracked());
    let listing = move |r: &FleetRow| Listing::of(&r.machine, now.get_untracked());
    let stage = move |r: &FleetRow| Stage::of(&r.machine, now.get_untracked());
    [
        Column::number(
            "listed",
            "Listed",
            move |r: &FleetRow| match listing(r) {
                Listing::NotListed => f64::NEG_INFINITY,
                Listing::Until(end) => end,
                Listing::OpenEnded => f64::INFINITY,
            },
            move |r| listing_text(listing(r), time_text),
        )
        .with_cell(move |r| match listing(r) {
            Listing::Until(end) => {
                view! { <span>"Until " <Time unix_seconds=end/></span> }.into_any()
            }
            other => listing_text(other, time_text).into_any(),
        }),
        Column::number(
            "rentals_end",
            "Rentals end",
            |r: &FleetRow| rentals_end_order(RentalsEnd::of(&r.machine)),
            move |r| rentals_end_text(RentalsEnd::of(&r.machine), time_text),
        )
        .with_cell(move |r| match RentalsEnd::of(&r.machine) {
            RentalsEnd::At(end) => view! { <Time unix_seconds=end/> }.into_any(),
            other => rentals_end_text(other, time_text).into_any(),
        }),
        Column::text("stage", "Stage", move |r: &FleetRow| {
            stage(r).label().to_owned()
        })
        .with_cell(move |r| {
            let stage = stage(r);
            let sentence = stage.sentence(time_text);
            view! { <span class="listing-stage" title=sentence>{stage.label()}</span> }.into_any()
        }),
    ]
}
