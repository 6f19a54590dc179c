//! The Machines table's listing column in a real browser (§1.7, offers and rental
//! contracts): each machine's stage, with whether it is listed and until when and when
//! its rentals end in its tooltip. The stage rule itself is unit-tested in `crates/logic/src/domain/listing.rs`.

use crate::support::*;
use gpudeck::app::App;
use gpudeck::components::time::format_absolute;
use wasm_bindgen_test::*;

const KEY: &str = "key-for-listing-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;
const DAY: f64 = 86_400.0;

/// A machine of N1's answer with its listing fields (`null` where `None`).
fn listed_machine(
    id: i64,
    listed: bool,
    end_date: Option<f64>,
    rentals: i64,
    client_end_date: Option<f64>,
) -> String {
    let or_null = |t: Option<f64>| t.map_or("null".to_owned(), |t| t.to_string());
    machine_json(id, rentals, "D x x x")
        .replace(r#""listed": true"#, &format!(r#""listed": {listed}"#))
        .replace(
            r#""earn_day": 12.5}"#,
            &format!(
                r#""earn_day": 12.5, "end_date": {}, "client_end_date": {}}}"#,
                or_null(end_date),
                or_null(client_end_date)
            ),
        )
}

#[wasm_bindgen_test]
async fn each_machine_shows_its_listing_its_rentals_end_and_its_stage() {
    signed_in_as(KEY, USER, "/machines");
    // Whole seconds, as the server sends them.
    let soon = (now() + DAY).floor();
    let later = (now() + 3.0 * DAY).floor();
    let machines = [
        listed_machine(1001, true, Some(later), 1, Some(soon)),
        listed_machine(1002, true, None, 2, None),
        listed_machine(1004, false, None, 1, Some(soon)),
        listed_machine(1007, true, Some(later), 0, None),
        listed_machine(1019, false, None, 0, None),
        listed_machine(1020, false, None, 0, None),
    ];
    let machines = leak(format!(r#"{{"machines": [{}]}}"#, machines.join(", ")));
    // 1020's window began an hour ago and lasts four.
    let window_start = (now() - 3600.0).floor();
    let window_end = window_start + 4.0 * 3600.0;
    let windows = leak(format!("[{}]", window_json(9, 1020, window_start, 4)));
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, machines)),
        ("machine_ids", json(200, windows)),
    ]);
    let page = mount(App);
    page.wait_for_count("tbody tr[aria-rowindex]", 6).await;

    assert_eq!(
        column_keys(&page, ".data-table"),
        [
            "",
            "id",
            "hostname",
            "gpus",
            "occupancy",
            "listed",
            "rentals",
            "reliability",
            "next",
            "health"
        ]
    );
    assert_eq!(
        column_texts(&page, ".data-table", "listed"),
        [
            "Draining",
            "Listed",
            "Unlisted, rented",
            "Vacant",
            "Unlisted, vacant",
            "In maintenance"
        ]
    );
    // Until when it is listed and when its rentals end are in the cell's tooltip.
    let titles: Vec<String> = page
        .all(".data-table .listing-stage")
        .iter()
        .map(|span| span.get_attribute("title").unwrap_or_default())
        .collect();
    let at = |t: f64| format_absolute(t, false);
    assert_eq!(
        titles,
        [
            format!(
                "Draining: the offer ends at {}; rentals end by {}. Listed: until {}. \
                 Rentals end: {}.",
                at(later),
                at(soon),
                at(later),
                at(soon)
            ),
            "Listed with no offer end date: rentals may come and stay. Listed: open-ended. \
             Rentals end: no end date."
                .into(),
            format!(
                "Unlisted with rentals still running: rentals end by {}. Listed: no. \
                 Rentals end: {}.",
                at(soon),
                at(soon)
            ),
            "Listed and vacant: no rental is running. Listed: until ".to_owned()
                + &at(later)
                + ". Rentals end: none running.",
            "Unlisted and vacant: ready for maintenance. Listed: no. Rentals end: none running."
                .into(),
            format!(
                "In maintenance: its window ends at {}. Listed: no. Rentals end: none running.",
                at(window_end)
            ),
        ]
    );
}
