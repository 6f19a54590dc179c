//! The Machines table's listing columns in a real browser (§1.7, offers and rental
//! contracts): whether each machine is listed and until when, when its rentals end, and
//! its stage. The stage rule itself is unit-tested in `src/domain/listing.rs`.
#![cfg(target_arch = "wasm32")]

mod support;

use gpudeck::app::App;
use support::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

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

/// The `datetime` of the `<time>` in each shown row's cell of column `key` ("" for none).
fn times_in(page: &Mounted, key: &str) -> Vec<String> {
    let index = column_keys(page, ".data-table")
        .iter()
        .position(|k| k == key)
        .unwrap();
    page.all(".data-table tbody tr:not(.spacer)")
        .iter()
        .map(|row| {
            let cell = row.children().item(index as u32).unwrap();
            cell.query_selector("time")
                .unwrap()
                .and_then(|time| time.get_attribute("datetime"))
                .unwrap_or_default()
        })
        .collect()
}

/// `2026-11-23T14:00:00.000Z` for Unix seconds `t`.
fn iso(t: f64) -> String {
    js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(t * 1000.0))
        .to_iso_string()
        .into()
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
    ];
    let machines = leak(format!(r#"{{"machines": [{}]}}"#, machines.join(", ")));
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, machines)),
        ("machine_ids", json(200, "[]")),
    ]);
    let page = mount(App);
    assert!(wait_until(3000, || page.all("tbody tr[aria-rowindex]").len() == 5).await);

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
            "rentals_end",
            "stage",
            "reliability",
            "next",
            "windows"
        ]
    );
    let listed = column_texts(&page, ".data-table", "listed");
    assert_eq!(
        (listed[1].as_str(), listed[2].as_str(), listed[4].as_str()),
        ("Open-ended", "No", "No")
    );
    assert!(
        listed[0].starts_with("Until ") && listed[3].starts_with("Until "),
        "{listed:?}"
    );
    assert_eq!(
        times_in(&page, "listed"),
        [iso(later), "".into(), "".into(), iso(later), "".into()]
    );
    let rentals_end = column_texts(&page, ".data-table", "rentals_end");
    assert_eq!(rentals_end[1], "No end date");
    assert_eq!(rentals_end[3..], ["None running", "None running"]);
    assert_eq!(
        times_in(&page, "rentals_end"),
        [iso(soon), "".into(), iso(soon), "".into(), "".into()]
    );
    assert_eq!(
        column_texts(&page, ".data-table", "stage"),
        [
            "Draining",
            "Listed",
            "Unlisted, rented",
            "Vacant",
            "Unlisted, vacant"
        ]
    );
    // The stage's sentence is the cell's tooltip.
    let titles: Vec<String> = page
        .all(".data-table .listing-stage")
        .iter()
        .map(|span| span.get_attribute("title").unwrap_or_default())
        .collect();
    assert!(
        titles[0].starts_with("Draining: the offer ends at "),
        "{titles:?}"
    );
    assert!(titles[0].contains("; rentals end by "), "{titles:?}");
    assert_eq!(titles[4], "Unlisted and vacant: ready for maintenance.");
}
