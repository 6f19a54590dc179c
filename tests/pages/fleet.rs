//! The fleet's pieces in a real browser: the occupancy strip, the schedule form's rules
//! (each named next to its field, nothing sent), its preview's overlap warning, and the
//! fleet loaded again after a run. The rules themselves are unit tests in `crates/logic/src/domain/schedule.rs`.

use crate::support::*;
use gpudeck::app::App;
use gpudeck::components::data_table::{Column, DataTable};
use gpudeck::components::occupancy::{OccupancyLegend, OccupancyStrip};
use leptos::prelude::*;
use leptos_router::components::Router;
use std::collections::BTreeSet;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

const KEY: &str = "key-for-fleet-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;

#[wasm_bindgen_test]
async fn the_occupancy_strip_shows_a_cell_per_gpu_and_says_it_in_words() {
    let page = mount(|| {
        view! {
            <OccupancyStrip occupancy="D R I x Z x" />
            <OccupancyLegend />
        }
    });
    settle().await;
    let cells = page.all(".occupancy .occ");
    assert_eq!(cells.len(), 6);
    let class = |i: usize| cells[i].get_attribute("class").unwrap();
    assert!(class(0).contains("occ-d"));
    assert!(class(1).contains("occ-r"));
    assert!(class(2).contains("occ-i"));
    assert!(class(3).contains("occ-x"));
    // An unknown code is shown as it came, in its own style.
    assert!(class(4).contains("occ-unknown"));
    assert_eq!(cells[4].text_content().unwrap(), "Z");
    // Colour is not the only cue: each cell has its letter, and the strip a sentence.
    let letters: Vec<String> = cells.iter().map(|c| c.text_content().unwrap()).collect();
    assert_eq!(letters, ["D", "R", "I", "x", "Z", "x"]);
    assert_eq!(
        page.text(".occupancy .visually-hidden"),
        "6 GPUs: 1 on-demand, 1 reserved, 1 interruptible, 2 free, 1 code \u{201c}Z\u{201d}"
    );
    assert_eq!(
        cells[0].get_attribute("aria-hidden").as_deref(),
        Some("true")
    );
    let legend = page.text(".occupancy-legend");
    for meaning in [
        "on-demand",
        "reserved",
        "interruptible",
        "free",
        "shown as sent",
    ] {
        assert!(legend.contains(meaning), "{legend}");
    }
}

#[derive(Clone)]
struct Thing {
    id: i64,
    name: String,
}

fn click_checkbox(page: &Mounted, selector: &str, shift: bool) {
    let click = js_sys::Function::new_with_args(
        "element, shift",
        "element.dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: shift }));",
    );
    click
        .call2(
            &wasm_bindgen::JsValue::NULL,
            &page.get(selector),
            &wasm_bindgen::JsValue::from_bool(shift),
        )
        .unwrap();
}

#[wasm_bindgen_test]
async fn rows_are_selected_one_by_one_by_shift_click_ranges_and_all_shown_at_once() {
    go_to("/things");
    let selected = RwSignal::new(BTreeSet::<String>::new());
    let rows: Vec<Thing> = (1..=12)
        .map(|id| Thing {
            id,
            name: format!("thing-{id}"),
        })
        .collect();
    let page = mount(move || {
        view! {
            <Router>
                <DataTable
                    rows=rows.clone()
                    columns=vec![Column::text("name", "Name", |t: &Thing| t.name.clone())]
                    row_key=|t: &Thing| t.id.to_string()
                    empty="Nothing."
                    csv_name="things"
                    caption="Things"
                    selection=selected
                />
            </Router>
        }
    });
    settle().await;
    let chosen = || selected.get_untracked().into_iter().collect::<Vec<_>>();
    click_checkbox(&page, "input[aria-label='Select 2']", false);
    settle().await;
    assert_eq!(chosen(), ["2"]);
    assert_eq!(page.text(".selected-count"), "1 selected");
    let all: web_sys::HtmlInputElement = page.get("th.select input").unchecked_into();
    assert!(all.indeterminate() && !all.checked());

    // Shift-click: every row from the last one clicked.
    click_checkbox(&page, "input[aria-label='Select 5']", true);
    settle().await;
    assert_eq!(chosen(), ["2", "3", "4", "5"]);
    let ticked: web_sys::HtmlInputElement =
        page.get("input[aria-label='Select 4']").unchecked_into();
    assert!(ticked.checked());

    // Select all shown: only the rows the filter keeps.
    page.type_into("input[type=search]", "thing-1");
    settle().await;
    // The second row now shows thing-10: its tick follows the row, not the row's place.
    let second: web_sys::HtmlInputElement = page
        .get("tbody tr:nth-child(3) td.select input")
        .unchecked_into();
    assert_eq!(
        second.get_attribute("aria-label").as_deref(),
        Some("Select 10")
    );
    assert!(!second.checked());
    all.click();
    settle().await;
    assert_eq!(chosen(), ["1", "10", "11", "12", "2", "3", "4", "5"]);
    assert!(all.checked());
    all.click();
    settle().await;
    assert_eq!(chosen(), ["2", "3", "4", "5"]);

    page.type_into("input[type=search]", "");
    settle().await;
    let ticked: web_sys::HtmlInputElement = page
        .get("tbody tr:nth-child(3) td.select input")
        .unchecked_into();
    assert_eq!(
        ticked.get_attribute("aria-label").as_deref(),
        Some("Select 2")
    );
    assert!(ticked.checked());
    page.click(".table-toolbar button");
    settle().await;
    assert!(selected.get_untracked().is_empty(), "Clear selection");
}

/// A stored session, and the address to start at.
fn signed_in_at(path: &str) {
    signed_in_as(KEY, USER, path);
}

/// N1's answer: machines 1001 and 1002, with 1 and 2 running rentals.
fn machines_1001_and_1002() -> &'static str {
    leak(format!(
        r#"{{"machines": [{}, {}]}}"#,
        machine_json(1001, 1, "D x x x"),
        machine_json(1002, 2, "D D x x")
    ))
}

/// The schedule page for machines 1001 and 1002 (1 and 2 running rentals); 1001 has a
/// Power window from tomorrow for 4 hours.
async fn schedule_page() -> (Mounted, FakeFetch, f64) {
    schedule_page_for("1001,1002").await
}

/// [`schedule_page`] with `ids` in the address.
async fn schedule_page_for(ids: &str) -> (Mounted, FakeFetch, f64) {
    signed_in_at(&format!("/machines/schedule?ids={ids}"));
    let tomorrow = (now() / 3600.0).floor() * 3600.0 + 86_400.0;
    let machines = machines_1001_and_1002();
    let windows = leak(format!(
        r#"[{{"id": 7, "machine_id": 1001, "start_time": {tomorrow}, "duration_hours": 4,
        "maintenance_category": "power", "maintenance_reason": null, "created_at": {},
        "cancelled_at": null, "end_time": {}}}]"#,
        now() - 60.0,
        tomorrow + 4.0 * 3600.0
    ));
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, machines)),
        ("machine_ids", json(200, windows)),
    ]);
    let page = mount(App);
    page.wait_for("#schedule-start").await;
    // Times in UTC, so the typed start reads the same on any machine.
    page.click(".schedule-fields .toggle input");
    settle().await;
    (page, fetch, tomorrow)
}

fn writes(fetch: &FakeFetch) -> usize {
    fetch.calls().iter().filter(|c| c.method != "GET").count()
}

fn submit(page: &Mounted) {
    page.click(".schedule-form button[type=submit]");
}

fn dialog_open(page: &Mounted) -> bool {
    page.find("dialog.confirm")
        .map(|d| d.unchecked_into::<web_sys::HtmlDialogElement>().open())
        .unwrap_or(false)
}

#[wasm_bindgen_test]
async fn the_schedule_form_names_each_broken_rule_by_its_field_and_sends_nothing() {
    let (page, fetch, tomorrow) = schedule_page().await;
    assert!(page.text("[data-testid=zone]").contains("UTC"));
    assert!(page
        .text("#schedule-machines-status")
        .starts_with("2 of your machines."));

    page.type_into("#schedule-hours", "0");
    submit(&page);
    settle().await;
    assert_eq!(
        page.text("#schedule-start-error"),
        "Choose a start date and time."
    );
    assert_eq!(
        page.text("#schedule-hours-error"),
        "The duration must be at least one hour."
    );
    assert_eq!(
        page.get("#schedule-hours")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );

    page.type_into("#schedule-start", &typed(now() - 7200.0));
    page.type_into("#schedule-hours", "1.5");
    submit(&page);
    settle().await;
    assert_eq!(
        page.text("#schedule-start-error"),
        "The start must be in the future."
    );
    assert_eq!(
        page.text("#schedule-hours-error"),
        "Enter the duration as a whole number of hours, e.g. 4."
    );

    page.type_into("#schedule-start", &typed(now() + 400.0 * 86_400.0));
    page.type_into("#schedule-hours", "8761");
    submit(&page);
    settle().await;
    assert_eq!(
        page.text("#schedule-start-error"),
        "The start must be within a year from now."
    );
    assert!(page
        .text("#schedule-hours-error")
        .contains("at most 8760 hours"));
    assert!(!dialog_open(&page));
    assert_eq!(writes(&fetch), 0, "nothing is sent while a rule is broken");

    // All rules kept: the confirmation opens, and only confirming sends.
    page.type_into("#schedule-start", &typed(tomorrow + 8.0 * 3600.0));
    page.type_into("#schedule-hours", "2");
    submit(&page);
    settle().await;
    assert_eq!(page.text("#schedule-start-error"), "");
    assert!(dialog_open(&page));
    assert_eq!(writes(&fetch), 0);
}

#[wasm_bindgen_test]
async fn the_preview_draws_the_new_windows_and_warns_where_one_overlaps() {
    let (page, _fetch, tomorrow) = schedule_page().await;
    // Not overlapping: two outlined preview bars, no warning.
    page.type_into("#schedule-start", &typed(tomorrow + 6.0 * 3600.0));
    page.type_into("#schedule-hours", "2");
    settle().await;
    assert_eq!(page.all("rect.preview-bar").len(), 2);
    assert!(page.find("[data-testid=overlap-warning]").is_none());
    let summary = page.text("[data-testid=schedule-summary]");
    assert!(summary.contains("on 2 machines"), "{summary}");
    assert!(
        summary.contains("3 running rentals will be notified"),
        "{summary}"
    );

    // From an hour into 1001's Power window: a warning naming the machine and window.
    page.type_into("#schedule-start", &typed(tomorrow + 3600.0));
    settle().await;
    let warning = page.text("[data-testid=overlap-warning]");
    assert!(
        warning.contains("1 existing window overlaps the new ones:"),
        "{warning}"
    );
    assert!(
        warning.contains("Machine 1001: Power window #7"),
        "{warning}"
    );
    assert!(!warning.contains("Machine 1002"), "{warning}");
    assert_eq!(page.all("rect.bar").len(), 1, "the existing window");
    assert!(page
        .text("figure.timeline figcaption")
        .contains("Previewed: 2 new windows"));
}

/// Confirms the run in the open dialog and waits for its result.
async fn confirm_run(page: &Mounted) {
    page.click("dialog[open] .button.primary");
    page.wait_for("[data-testid=schedule-result]").await;
}

/// Picks `value` in the select `selector`, as a person would.
fn choose(page: &Mounted, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = page.get(selector).unchecked_into();
    select.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    select.dispatch_event(&event).unwrap();
}

#[wasm_bindgen_test]
async fn a_successful_run_says_what_was_done_and_starts_a_fresh_form_on_the_same_machines() {
    let (page, _first, tomorrow) = schedule_page().await;
    page.type_into("#schedule-start", &typed(tomorrow + 8.0 * 3600.0));
    page.type_into("#schedule-hours", "3");
    choose(&page, "#schedule-category", "disk");
    settle().await;
    assert!(page
        .text("[data-testid=schedule-summary]")
        .starts_with("Disk window"));

    let machines = machines_1001_and_1002();
    let fetch = FakeFetch::install_by_url(vec![
        (
            "maintenances/batch",
            json(
                200,
                r#"{"success": true, "results": [
                    {"success": true, "machine_id": 1001, "notifications_sent": 1},
                    {"success": true, "machine_id": 1002, "notifications_sent": 2}]}"#,
            ),
        ),
        ("/api/v0/machines?owner=me", json(200, machines)),
        ("machine_ids", json(200, "[]")),
    ]);
    submit(&page);
    settle().await;
    assert!(dialog_open(&page));
    confirm_run(&page).await;

    // What was done, in words.
    assert_eq!(
        page.text("#schedule-result-heading"),
        "Scheduled on 2 of 2 machines"
    );
    let done = page.text("[data-testid=schedule-done]");
    assert!(done.starts_with("Disk window from "), "{done}");
    assert!(
        done.ends_with("(3 h, UTC) scheduled on 2 machines: 1001, 1002. 3 renters notified."),
        "{done}"
    );
    assert!(page
        .text(".toasts")
        .contains("Scheduled the window on 2 of 2 machines."));

    // A fresh form on the same machines: nothing previewed, nothing warned about.
    assert_eq!(value_of(&page, "#schedule-machines"), "1001,1002");
    assert_eq!(value_of(&page, "#schedule-start"), "");
    assert_eq!(value_of(&page, "#schedule-hours"), "2");
    assert_eq!(value_of(&page, "#schedule-category"), "other");
    assert!(page.find("[data-testid=schedule-summary]").is_none());
    assert!(page.find("[data-testid=overlap-warning]").is_none());

    // So a second click cannot send the same window again: it asks for a start.
    submit(&page);
    settle().await;
    assert!(!dialog_open(&page));
    assert_eq!(
        page.text("#schedule-start-error"),
        "Choose a start date and time."
    );
    assert_eq!(writes(&fetch), 1);
    // The result stays until the next run.
    assert!(page.find("[data-testid=schedule-result]").is_some());
}

#[wasm_bindgen_test]
async fn one_machine_one_rental_and_one_overlap_are_counted_in_the_singular() {
    let (page, _first, tomorrow) = schedule_page_for("1001").await;
    // The ids field says once what the ids are.
    let hints: Vec<String> = page
        .all(".schedule-form p.hint")
        .iter()
        .map(|p| p.text_content().unwrap_or_default())
        .filter(|text| text.contains("machine"))
        .collect();
    assert_eq!(hints, ["1 of your machines."]);

    // From an hour into 1001's Power window.
    page.type_into("#schedule-start", &typed(tomorrow + 3600.0));
    page.type_into("#schedule-hours", "2");
    settle().await;
    let summary = page.text("[data-testid=schedule-summary]");
    assert!(
        summary.ends_with("on 1 machine; 1 running rental will be notified."),
        "{summary}"
    );
    let warning = page.text("[data-testid=overlap-warning]");
    assert!(
        warning.starts_with("1 existing window overlaps the new one:"),
        "{warning}"
    );
    submit(&page);
    settle().await;
    assert!(page
        .text("dialog[open]")
        .contains("1 existing window overlaps it."));

    let _fetch = FakeFetch::install_by_url(vec![
        (
            "dnotify",
            json(
                200,
                r#"{"success": true, "machine_id": 1001, "notifications_sent": 1}"#,
            ),
        ),
        (
            "/api/v0/machines?owner=me",
            json(200, r#"{"machines": []}"#),
        ),
        ("machine_ids", json(200, "[]")),
    ]);
    confirm_run(&page).await;
    assert_eq!(
        page.text("#schedule-result-heading"),
        "Scheduled on 1 of 1 machine"
    );
    assert!(page
        .text("[data-testid=schedule-done]")
        .ends_with("scheduled on 1 machine: 1001. 1 renter notified."));
    assert_eq!(
        page.text("[data-testid=schedule-result] li"),
        "Machine 1001: scheduled, 1 renter notified"
    );
}

#[wasm_bindgen_test]
async fn after_a_run_the_fleet_is_loaded_again_so_the_new_window_counts_as_existing() {
    let (page, _first, tomorrow) = schedule_page().await;
    page.type_into("#schedule-machines", "1002");
    let start = tomorrow + 8.0 * 3600.0;
    page.type_into("#schedule-start", &typed(start));
    page.type_into("#schedule-hours", "2");
    settle().await;
    assert!(page.find("[data-testid=overlap-warning]").is_none());

    // From now on the server also lists the window this run creates.
    let windows = leak(format!(
        r#"[{{"id": 8, "machine_id": 1002, "start_time": {start}, "duration_hours": 2,
        "maintenance_category": "other", "maintenance_reason": null, "created_at": {},
        "cancelled_at": null, "end_time": {}}}]"#,
        now(),
        start + 2.0 * 3600.0
    ));
    let machines = machines_1001_and_1002();
    let fetch = FakeFetch::install_by_url(vec![
        (
            "dnotify",
            json(
                200,
                r#"{"success": true, "machine_id": 1002, "notifications_sent": 2}"#,
            ),
        ),
        ("/api/v0/machines?owner=me", json(200, machines)),
        ("machine_ids", json(200, windows)),
    ]);
    submit(&page);
    settle().await;
    confirm_run(&page).await;
    assert!(
        wait_until(3000, || fetch
            .calls()
            .iter()
            .any(|c| c.method == "GET" && c.url.contains("machine_ids")))
        .await
    );
    settle().await;

    // The same window typed again overlaps the one just made: the page knows it without a
    // reload.
    page.type_into("#schedule-start", &typed(start));
    page.type_into("#schedule-hours", "2");
    page.wait_for("[data-testid=overlap-warning]").await;
    let warning = page.text("[data-testid=overlap-warning]");
    assert!(warning.contains("Machine 1002"), "{warning}");
    let calls = fetch.calls();
    let write = calls
        .iter()
        .position(|c| c.method == "PUT")
        .expect("the write");
    assert!(
        calls[write..]
            .iter()
            .any(|c| c.method == "GET" && c.url.contains("machine_ids")),
        "the windows were fetched again after the write: {:?}",
        calls
            .iter()
            .map(|c| (&c.method, &c.url))
            .collect::<Vec<_>>()
    );
}

/// The Machines page for machines 1001 to 1008 (no windows), every row ticked, and the
/// cancellation of their maintenance confirmed, with `cancels` answering N5.
async fn cancel_on_eight_machines(cancels: Vec<(&'static str, Reply)>) -> (Mounted, FakeFetch) {
    // The bulk cancel keeps N5's public pace from its first request: a hundredth of it here.
    gpudeck::api::pacing::scale_public_intervals(0.01);
    signed_in_at("/machines");
    let machines: Vec<String> = (1001..=1008)
        .map(|id| machine_json(id, 0, "x x x x"))
        .collect();
    let machines = leak(format!(r#"{{"machines": [{}]}}"#, machines.join(", ")));
    let mut routes = vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, machines)),
        ("machine_ids", json(200, "[]")),
    ];
    routes.extend(cancels);
    let fetch = FakeFetch::install_by_url(routes);
    let page = mount(App);
    page.wait_for_count("tbody tr[aria-rowindex]", 8).await;
    page.click("thead input[type=checkbox]");
    settle().await;
    page.click("[data-action=cancel]");
    settle().await;
    page.click("dialog[open] .button.danger");
    (page, fetch)
}

fn cancels(fetch: &FakeFetch) -> Vec<String> {
    fetch
        .calls()
        .into_iter()
        .filter(|c| c.url.contains("cancel_maint"))
        .map(|c| c.url)
        .collect()
}

/// The lines of the cancellation's result, once it shows.
async fn cancel_results(page: &Mounted) -> Vec<String> {
    page.wait_for("[data-testid=cancel-result]").await;
    page.all("[data-testid=cancel-result] li")
        .iter()
        .map(|li| li.text_content().unwrap())
        .collect()
}

const CANCELLED: &str = r#"{"success": true, "msg": "deleted 1 scheduled maintenance window(s)"}"#;

#[wasm_bindgen_test]
async fn a_selections_maintenance_is_cancelled_six_machines_at_a_time() {
    // Machine 1001 never answers: the next five are asked meanwhile, and no more.
    let mut replies = vec![("machines/1001/cancel_maint", no_answer())];
    for id in 1002..=1008 {
        replies.push((
            leak(format!("machines/{id}/cancel_maint")),
            json(200, CANCELLED),
        ));
    }
    let (page, fetch) = cancel_on_eight_machines(replies).await;
    assert!(wait_until(3000, || cancels(&fetch).len() == 6).await);
    for _ in 0..5 {
        settle().await;
    }
    let sent = cancels(&fetch);
    assert_eq!(sent.len(), 6, "{sent:?}");
    assert!(sent
        .iter()
        .all(|url| (1001..=1006).any(|id| url.contains(&format!("/{id}/")))));
    assert_eq!(page.text("[data-action=cancel]"), "Cancelling…");
}

#[wasm_bindgen_test]
async fn a_machines_cancellation_says_how_many_windows_went_in_words() {
    let mut replies = vec![
        (
            "machines/1001/cancel_maint",
            json(
                200,
                r#"{"success": true, "machine_id": 1001, "msg": "deleted 0 scheduled maintenance window(s) on machine 1001"}"#,
            ),
        ),
        (
            "machines/1002/cancel_maint",
            json(
                200,
                r#"{"success": true, "machine_id": 1002, "msg": "deleted 2 scheduled maintenance window(s) on machine 1002"}"#,
            ),
        ),
        (
            "machines/1003/cancel_maint",
            json(
                200,
                r#"{"success": true, "machine_id": 1003, "msg": "deleted 1 scheduled maintenance window(s) on machine 1003; 1 window(s) scheduled by the marketplace were kept"}"#,
            ),
        ),
    ];
    for id in 1004..=1008 {
        replies.push((
            leak(format!("machines/{id}/cancel_maint")),
            json(200, CANCELLED),
        ));
    }
    let (page, _fetch) = cancel_on_eight_machines(replies).await;
    let items = cancel_results(&page).await;
    assert_eq!(
        items[..4],
        [
            "Machine 1001: no scheduled window to cancel",
            "Machine 1002: 2 scheduled windows cancelled",
            "Machine 1003: 1 scheduled window cancelled; 1 window scheduled by the marketplace \
             stays (only support can cancel it)",
            "Machine 1004: 1 scheduled window cancelled",
        ]
    );
    assert!(items.iter().all(|item| !item.contains("(s)")), "{items:?}");
    assert!(page
        .text(".toast")
        .contains("Cancelled the maintenance of 8 of 8 machines."));
}

#[wasm_bindgen_test]
async fn a_windows_cancel_sits_in_an_actions_column_beside_who_scheduled_it() {
    signed_in_at("/machines/maintenance?ids=1001");
    let tomorrow = (now() / 3600.0).floor() * 3600.0 + 86_400.0;
    let windows = leak(format!(
        r#"[{{"id": 7, "machine_id": 1001, "start_time": {tomorrow}, "duration_hours": 4,
        "maintenance_category": "power", "maintenance_reason": null, "created_at": {created},
        "cancelled_at": null, "end_time": {end}, "scheduled_by_marketplace": false}},
        {{"id": 9, "machine_id": 1001, "start_time": {later}, "duration_hours": 4,
        "maintenance_category": "gpu", "maintenance_reason": null, "created_at": {created},
        "cancelled_at": null, "end_time": {later_end}, "scheduled_by_marketplace": true}}]"#,
        created = now() - 60.0,
        end = tomorrow + 4.0 * 3600.0,
        later = tomorrow + 86_400.0,
        later_end = tomorrow + 86_400.0 + 4.0 * 3600.0,
    ));
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("machine_ids", json(200, windows)),
    ]);
    let page = mount(App);
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 2)
        .await;
    let keys = column_keys(&page, ".data-table");
    assert_eq!(keys.last().map(String::as_str), Some("actions"));
    assert_eq!(
        column_texts(&page, ".data-table", "by"),
        ["You", "Marketplace"]
    );
    assert_eq!(columns_with_buttons(&page, ".data-table"), ["actions"]);
    assert_eq!(
        page.get(".data-table td .marketplace-note")
            .get_attribute("title")
            .as_deref(),
        Some("Scheduled by the marketplace: only support can cancel it.")
    );
    assert_eq!(
        column_texts(&page, ".data-table", "actions"),
        ["Cancel…", "Support only"]
    );
}

#[wasm_bindgen_test]
async fn each_machine_of_a_selection_gets_its_own_result_in_order() {
    let mut replies = Vec::new();
    for id in 1001..=1008 {
        let reply = if id == 1003 {
            json(
                404,
                r#"{"error": "not_found", "msg": "No such machine id"}"#,
            )
        } else {
            json(200, CANCELLED)
        };
        replies.push((leak(format!("machines/{id}/cancel_maint")), reply));
    }
    let (page, fetch) = cancel_on_eight_machines(replies).await;
    let items = cancel_results(&page).await;
    assert_eq!(items.len(), 8);
    assert_eq!(items[0], "Machine 1001: 1 scheduled window cancelled");
    assert_eq!(items[2], "Machine 1003: not cancelled: No such machine id");
    assert_eq!(items[7], "Machine 1008: 1 scheduled window cancelled");
    assert_eq!(cancels(&fetch).len(), 8);
    assert!(page
        .text(".toast")
        .contains("Cancelled the maintenance of 7 of 8 machines."));
}
