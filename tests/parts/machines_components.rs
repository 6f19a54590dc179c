//! The machines area's shared pieces in a real browser: the machine-ids field, the data
//! table (sort, filter, empty states, windowing at 10,000 rows), the timeline, and the
//! Machines page's rehearsal of its table. The CSV text and the sort order are in
//! `table_model.rs`.

use crate::support::*;
use crate::table_model::{host_columns, Host};
use gpudeck::components::data_table::{Column, DataTable};
use gpudeck::components::machine_ids_field::{MachineIdsField, SavedSets};
use gpudeck::components::timeline::{Layout, MaintenanceTimeline};
use gpudeck::pages::machines::rehearsal::{build_off_screen, rehearse};
use gpudeck_wire::{MaintenanceCategory, MaintenanceWindow};
use leptos::prelude::*;
use leptos::reactive::owner::WeakOwner;
use leptos_router::components::Router;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn machine_ids_field_counts_ranges_and_names_bad_tokens() {
    let text = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let page = mount(move || view! { <MachineIdsField text=text problem=problem /> });
    page.type_into("textarea", "1001, 1002\n1005-1010");
    settle().await;
    assert_eq!(page.text(".hint"), "8 machines");
    assert_eq!(
        page.get("textarea")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("false")
    );
    assert_eq!(page.text(".form-error"), "");

    page.type_into("textarea", "1001, 10x2, 5");
    settle().await;
    assert_eq!(
        page.get("textarea")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
    assert!(
        page.text(".form-error")
            .contains("\"10x2\" is not a machine id"),
        "{}",
        page.text(".form-error")
    );

    page.type_into("textarea", "9-3");
    settle().await;
    assert!(page.text(".form-error").contains("runs backwards"));

    page.type_into("textarea", "1-5000");
    settle().await;
    assert!(page.text(".form-error").contains("at most 1000"));

    page.type_into("textarea", "7");
    problem.set(Some("the machine_ids do not exist".into()));
    settle().await;
    assert_eq!(page.text(".hint"), "1 machine");
    assert_eq!(page.text(".form-error"), "the machine_ids do not exist");
    assert_eq!(
        page.get("textarea")
            .get_attribute("aria-invalid")
            .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn saved_sets_keep_ids_only_in_local_storage() {
    local_storage().remove_item("gpudeck.machine-sets").unwrap();
    let text = RwSignal::new(String::new());
    let page = mount(move || view! { <SavedSets text=text /> });
    text.set("1001 1002 1003 1010".into());
    page.type_into("#saved-set-name", "rack A");
    page.click(".saved-sets button:last-of-type");
    settle().await;
    assert_eq!(
        local_storage()
            .get_item("gpudeck.machine-sets")
            .unwrap()
            .as_deref(),
        Some(r#"{"rack A":"1001-1003,1010"}"#)
    );
    text.set(String::new());
    let select: web_sys::HtmlSelectElement =
        wasm_bindgen::JsCast::unchecked_into(page.get("select"));
    select.set_value("rack A");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    settle().await;
    assert_eq!(text.get_untracked(), "1001-1003,1010");

    // A set is not saved from ids that do not parse.
    text.set("1, x".into());
    page.type_into("#saved-set-name", "broken");
    page.click(".saved-sets button:last-of-type");
    settle().await;
    assert!(page
        .text(".saved-sets [role=status]")
        .contains("Nothing saved"));
    assert!(!local_storage()
        .get_item("gpudeck.machine-sets")
        .unwrap()
        .unwrap()
        .contains("broken"));
    local_storage().remove_item("gpudeck.machine-sets").unwrap();
}

fn hosts(n: i64) -> Vec<Host> {
    (1..=n)
        .map(|id| Host {
            id,
            name: format!("host-{:05}", (id * 7919) % 100_000),
            gpus: id % 8 + 1,
        })
        .collect()
}

fn mount_table(rows: RwSignal<Vec<Host>>) -> Mounted {
    mount_table_of(rows, host_columns(), false)
}

/// A table of `rows` with `columns`, whose rows take two lines before a column folds when
/// `wrap_first`.
fn mount_table_of(
    rows: RwSignal<Vec<Host>>,
    columns: Vec<Column<Host>>,
    wrap_first: bool,
) -> Mounted {
    mount(move || {
        view! {
            <Router>
                <DataTable
                    rows=rows
                    columns=columns
                    row_key=|h: &Host| h.id.to_string()
                    empty="No hosts yet."
                    csv_name="hosts"
                    caption="Hosts"
                    wrap_first=wrap_first
                />
            </Router>
        }
    })
}

fn first_column(page: &Mounted) -> Vec<String> {
    page.all("tbody tr:not(.spacer) td:first-child")
        .iter()
        .map(|td| td.text_content().unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn data_table_sorts_by_clicked_column_and_keeps_it_in_the_url() {
    go_to("/table");
    let rows = RwSignal::new(vec![
        Host {
            id: 3,
            name: "beta".into(),
            gpus: 8,
        },
        Host {
            id: 1,
            name: "Alpha".into(),
            gpus: 2,
        },
        Host {
            id: 2,
            name: "gamma".into(),
            gpus: 4,
        },
    ]);
    let page = mount_table(rows);
    settle().await;
    assert_eq!(first_column(&page), ["3", "1", "2"]);
    assert_eq!(
        page.get("th[data-key=name]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("none")
    );

    page.click("th[data-key=name] button");
    assert!(wait_until(1000, || first_column(&page) == ["1", "3", "2"]).await);
    assert_eq!(
        page.get("th[data-key=name]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("ascending")
    );
    assert!(
        current_path().contains("sort=name") && current_path().contains("dir=asc"),
        "{}",
        current_path()
    );

    page.click("th[data-key=name] button");
    assert!(wait_until(1000, || first_column(&page) == ["2", "3", "1"]).await);
    assert_eq!(
        page.get("th[data-key=name]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("descending")
    );

    page.click("th[data-key=gpus] button");
    assert!(wait_until(1000, || first_column(&page) == ["1", "2", "3"]).await);
    assert_eq!(
        page.get("th[data-key=name]")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("none")
    );
}

#[wasm_bindgen_test]
async fn a_taller_scroll_box_gets_more_rows_after_a_resize() {
    go_to("/table");
    let rows = RwSignal::new(hosts(10_000));
    let page = mount_table(rows);
    settle().await;
    let before = page.all("tbody tr:not(.spacer)").len();
    assert!(before < 50, "{before} rows before");

    let scroller: web_sys::HtmlElement =
        wasm_bindgen::JsCast::unchecked_into(page.get(".table-scroll"));
    scroller.style().set_property("height", "1800px").unwrap();
    scroller.style().set_property("overflow", "auto").unwrap();
    web_sys::window()
        .unwrap()
        .dispatch_event(&web_sys::Event::new("resize").unwrap())
        .unwrap();
    settle().await;
    let after = page.all("tbody tr:not(.spacer)").len();
    assert!(after >= 1800 / 36, "{after} rows for 1800px");
}

/// The `aria-rowindex` of each rendered row, in order.
fn row_indexes(page: &Mounted) -> Vec<String> {
    page.all("tbody tr:not(.spacer)")
        .iter()
        .map(|tr| tr.get_attribute("aria-rowindex").unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn a_new_order_rewrites_the_rows_in_view_in_place() {
    go_to("/table");
    let rows = RwSignal::new(hosts(5));
    let page = mount_table(rows);
    settle().await;
    assert_eq!(first_column(&page), ["1", "2", "3", "4", "5"]);
    assert_eq!(row_indexes(&page), ["2", "3", "4", "5", "6"]);
    let second = page.get("tbody tr:nth-child(3)");
    second.set_attribute("data-marker", "same node").unwrap();

    page.click("th[data-key=id] button");
    assert!(wait_until(1000, || current_path().contains("dir=asc")).await);
    page.click("th[data-key=id] button");
    assert!(wait_until(1000, || first_column(&page) == ["5", "4", "3", "2", "1"]).await);
    assert_eq!(row_indexes(&page), ["2", "3", "4", "5", "6"]);
    // The second row's DOM node is still the second row, now showing host 4.
    let marked = page.get("tr[data-marker]");
    assert_eq!(
        marked
            .first_element_child()
            .unwrap()
            .text_content()
            .unwrap(),
        "4"
    );
    assert_eq!(marked.get_attribute("aria-rowindex").as_deref(), Some("3"));

    // A filter keeping fewer rows drops the rows past the end, keeping the rest.
    // (host-31676 and host-39595).
    page.type_into("input[type=search]", "host-3");
    assert!(wait_until(1000, || first_column(&page) == ["5", "4"]).await);
    assert_eq!(row_indexes(&page), ["2", "3"]);
    assert!(page.all("tbody tr:not(.spacer)")[1].has_attribute("data-marker"));
}

#[wasm_bindgen_test]
async fn a_reloaded_row_with_the_same_id_shows_its_new_content() {
    for path in ["/table", "/table?rows=all"] {
        go_to(path);
        let rows = RwSignal::new(hosts(3));
        let page = mount_table(rows);
        settle().await;
        rows.update(|rows| rows[1].name = "renamed-host".into());
        settle().await;
        let names: Vec<String> = page
            .all("tbody tr:not(.spacer) td:nth-child(2)")
            .iter()
            .map(|td| td.text_content().unwrap())
            .collect();
        assert_eq!(names[1], "renamed-host", "{path}");
    }
}

#[wasm_bindgen_test]
async fn rows_with_the_same_key_are_all_shown() {
    go_to("/table");
    let twin = |name: &str| Host {
        id: 7,
        name: name.into(),
        gpus: 1,
    };
    let rows = RwSignal::new(vec![twin("first"), twin("second"), twin("third")]);
    let page = mount_table(rows);
    settle().await;
    let names: Vec<String> = page
        .all("tbody tr:not(.spacer) td:nth-child(2)")
        .iter()
        .map(|td| td.text_content().unwrap())
        .collect();
    assert_eq!(names, ["first", "second", "third"]);
}

#[wasm_bindgen_test]
async fn data_table_reads_sort_and_filter_from_the_url() {
    go_to("/table?sort=id&dir=desc&q=gamma");
    let rows = RwSignal::new(vec![
        Host {
            id: 1,
            name: "alpha".into(),
            gpus: 1,
        },
        Host {
            id: 2,
            name: "gamma".into(),
            gpus: 1,
        },
        Host {
            id: 3,
            name: "gamma ray".into(),
            gpus: 1,
        },
    ]);
    let page = mount_table(rows);
    settle().await;
    assert_eq!(first_column(&page), ["3", "2"]);
    assert_eq!(page.text(".row-count"), "2 of 3 rows");
}

#[wasm_bindgen_test]
async fn data_table_filter_and_both_empty_states() {
    go_to("/table");
    let rows = RwSignal::new(Vec::<Host>::new());
    let page = mount_table(rows);
    settle().await;
    assert_eq!(page.text(".empty-state"), "No hosts yet.");
    assert!(page
        .get("button.button:last-child")
        .has_attribute("disabled"));

    rows.set(hosts(5));
    settle().await;
    assert_eq!(page.text(".row-count"), "5 rows");
    page.type_into("input[type=search]", "no such host");
    settle().await;
    assert!(page
        .text(".empty-state")
        .contains("No rows match the filters."));
    assert_eq!(page.text(".row-count"), "0 of 5 rows");

    page.click(".empty-state button");
    settle().await;
    assert_eq!(page.text(".row-count"), "5 rows");
    assert_eq!(first_column(&page).len(), 5);

    // Matching ignores case, and the URL learns the filter once typing pauses.
    page.type_into("input[type=search]", "HOST-07919");
    settle().await;
    assert_eq!(first_column(&page), ["1"]);
    assert!(
        wait_until(1500, || current_path().contains("q=HOST-07919")).await,
        "{}",
        current_path()
    );
}

#[wasm_bindgen_test]
async fn typing_on_narrows_the_rows_and_deleting_brings_them_back() {
    go_to("/table");
    let rows = RwSignal::new(hosts(1000));
    let page = mount_table(rows);
    settle().await;
    let count = |page: &Mounted| page.text(".row-count");
    page.type_into("input[type=search]", "host-0");
    settle().await;
    let wide = count(&page);
    page.type_into("input[type=search]", "host-07");
    settle().await;
    let narrow = count(&page);
    // Every host named host-07… (ids where id × 7919 mod 100,000 starts with 07).
    let expected = hosts(1000)
        .iter()
        .filter(|h| h.name.starts_with("host-07"))
        .count();
    assert_eq!(narrow, format!("{expected} of 1000 rows"));
    page.type_into("input[type=search]", "host-0");
    settle().await;
    assert_eq!(count(&page), wide);

    // New rows while a filter is typed are searched in full, not narrowed from the old.
    rows.set(vec![Host {
        id: 1,
        name: "host-07-new".into(),
        gpus: 1,
    }]);
    settle().await;
    page.type_into("input[type=search]", "host-07-");
    settle().await;
    assert_eq!(count(&page), "1 rows");
    assert_eq!(first_column(&page), ["1"]);
}

#[wasm_bindgen_test]
async fn windowing_keeps_the_dom_small_at_ten_thousand_rows() {
    go_to("/table");
    let rows = RwSignal::new(hosts(10_000));
    let page = mount_table(rows);
    settle().await;
    let rendered = page.all("tbody tr:not(.spacer)").len();
    assert!(
        rendered > 10 && rendered < 100,
        "{rendered} rows in the DOM"
    );
    assert_eq!(page.text(".row-count"), "10000 rows");
    assert_eq!(
        page.get("table").get_attribute("aria-rowcount").as_deref(),
        Some("10001")
    );
    assert_eq!(first_column(&page)[0], "1");

    // Scrolling shows later rows, still only a window of them.
    let scroller: web_sys::HtmlElement =
        wasm_bindgen::JsCast::unchecked_into(page.get(".table-scroll"));
    // The stylesheet is not loaded in tests; give the scroller the size it has in the app.
    scroller
        .style()
        .set_property("max-height", "500px")
        .unwrap();
    scroller.style().set_property("overflow", "auto").unwrap();
    scroller.set_scroll_top(36 * 5000);
    scroller
        .dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    settle().await;
    let ids = first_column(&page);
    assert!(ids.iter().any(|id| id == "5001"), "{ids:?}");
    // Row 5001 is the 5001st row of the table after its header row.
    let position = ids.iter().position(|id| id == "5001").unwrap();
    assert_eq!(row_indexes(&page)[position], "5002");
    assert!(page.all("tbody tr:not(.spacer)").len() < 100);

    // Filtering 10,000 rows narrows the window's source.
    page.type_into("input[type=search]", "host-0791");
    settle().await;
    assert!(page.text(".row-count").ends_with("of 10000 rows"));
}

/// The rows of the table now in the DOM.
fn rows_built(page: &Mounted) -> usize {
    page.all("tbody tr:not(.spacer)").len()
}

#[wasm_bindgen_test]
async fn the_first_paint_waits_only_for_the_rows_on_the_first_screen() {
    go_to("/table");
    let rows = RwSignal::new(hosts(10_000));
    let page = mount_table(rows);
    // Before any frame: the first row alone, to measure.
    leptos::task::tick().await;
    assert_eq!(rows_built(&page), 1);

    // In the next frame, before its paint: the rows between the box's top and the
    // window's bottom (the box's cap, 70 % of the window, assumed: no stylesheet here).
    next_frame().await;
    leptos::task::tick().await;
    let window_height = web_sys::window()
        .unwrap()
        .inner_height()
        .unwrap()
        .as_f64()
        .unwrap();
    let box_top = page.get(".table-scroll").get_bounding_client_rect().top();
    let row_height = page
        .get("tbody tr:not(.spacer)")
        .get_bounding_client_rect()
        .height()
        .max(36.0);
    let on_screen = (window_height - box_top).min(window_height * 0.7);
    let first_screen = (on_screen / row_height).ceil() as usize;
    assert!(first_screen > 1, "{first_screen} rows on the first screen");
    assert_eq!(rows_built(&page), first_screen);

    // After that paint: the whole box's view and 6 rows below it.
    gloo_timers::future::TimeoutFuture::new(0).await;
    leptos::task::tick().await;
    let settled = ((window_height * 0.7) / row_height).ceil() as usize + 6;
    assert!(settled > first_screen);
    assert_eq!(rows_built(&page), settled);
}

fn window(
    id: i64,
    machine: i64,
    category: MaintenanceCategory,
    start: f64,
    hours: i64,
) -> MaintenanceWindow {
    MaintenanceWindow {
        id,
        machine_id: machine,
        start_time: start,
        duration_hours: hours,
        maintenance_category: category,
        maintenance_reason: Some(format!("<b>reason {id}</b>")),
        created_at: start - 86_400.0,
        cancelled_at: None,
        end_time: start + hours as f64 * 3600.0,
        scheduled_by_marketplace: false,
    }
}

#[wasm_bindgen_test]
async fn timeline_draws_one_bar_per_window_in_its_lane_and_colour() {
    let now = 1_800_000_000.0;
    let windows = vec![
        window(1, 1002, MaintenanceCategory::Gpu, now + 3600.0, 4),
        window(2, 1001, MaintenanceCategory::Power, now - 3600.0, 2),
        window(3, 1002, MaintenanceCategory::Software, now + 36_000.0, 1),
    ];
    let layout = Layout::of(&windows, now);
    assert_eq!(layout.machines, vec![1001, 1002]);
    let page = mount({
        let windows = windows.clone();
        move || view! { <MaintenanceTimeline windows=windows now=now /> }
    });
    settle().await;
    let bars = page.all("rect.bar");
    assert_eq!(bars.len(), 3);
    let bar = |id: i64| page.get(&format!("rect.bar[data-window-id='{id}']"));
    // Horizontal positions are in percent of the chart's width, vertical ones in pixels.
    let number = |text: String| text.trim_end_matches('%').parse::<f64>().unwrap();
    let attr = |id: i64, name: &str| number(bar(id).get_attribute(name).unwrap());

    assert!(bar(1).get_attribute("class").unwrap().contains("cat-gpu"));
    assert!(bar(2).get_attribute("class").unwrap().contains("cat-power"));
    assert!(bar(3)
        .get_attribute("class")
        .unwrap()
        .contains("cat-software"));
    // Lanes: 1001 first, then 1002; windows 1 and 3 share a lane.
    assert!(attr(2, "y") < attr(1, "y"));
    assert_eq!(attr(1, "y"), attr(3, "y"));
    // Position and length follow time: window 1 is 4 h long, window 3 1 h.
    assert!((attr(1, "x") - layout.x(now + 3600.0)).abs() < 0.01);
    assert!((attr(1, "width") / attr(3, "width") - 4.0).abs() < 0.01);
    // The now line sits between the ongoing window's start and its end.
    let now_x = number(page.get("line.now-line").get_attribute("x1").unwrap());
    assert!(attr(2, "x") < now_x && now_x < attr(2, "x") + attr(2, "width"));
    // Tooltips and the text alternative, with markup kept as text.
    let tooltip = bar(1).text_content().unwrap();
    assert!(tooltip.starts_with("Machine 1002 · GPU · "), "{tooltip}");
    assert!(tooltip.ends_with("(4 h) · <b>reason 1</b>"), "{tooltip}");
    assert!(page.find("b").is_none());
    assert!(page
        .text("desc")
        .starts_with("3 active maintenance windows on 2 machines"));
    assert!(page.text("desc").ends_with("1 ongoing now."));
}

#[wasm_bindgen_test]
async fn a_clock_tick_moves_the_now_line_and_keeps_the_bars() {
    let start = 1_800_000_000.0;
    let now = RwSignal::new(start);
    let windows = vec![window(1, 1001, MaintenanceCategory::Gpu, start + 7200.0, 4)];
    let page = mount(move || view! { <MaintenanceTimeline windows=windows.clone() now=now /> });
    settle().await;
    page.get("rect.bar")
        .set_attribute("data-marker", "kept")
        .unwrap();
    let now_x = || page.get("line.now-line").get_attribute("x1").unwrap();
    let before = now_x();

    now.set(start + 30.0);
    settle().await;
    assert_ne!(now_x(), before);
    assert!(
        page.find("rect.bar[data-marker]").is_some(),
        "the bar was redrawn"
    );
}

#[wasm_bindgen_test]
async fn timeline_stays_readable_at_a_hundred_machines() {
    let now = 1_800_000_000.0;
    let windows: Vec<MaintenanceWindow> = (0..100)
        .map(|i| {
            window(
                i,
                2000 + i,
                MaintenanceCategory::Disk,
                now + i as f64 * 1800.0,
                2,
            )
        })
        .collect();
    let page = mount({
        let windows = windows.clone();
        move || view! { <MaintenanceTimeline windows=windows now=now /> }
    });
    settle().await;
    // Only the lanes in view, and a few more, are drawn: a 448 px box shows 28 lanes' worth.
    let drawn = |css: &str| page.all(css).len();
    assert_eq!(drawn("rect.bar"), 32);
    assert_eq!(drawn("text.lane-label"), 32);
    assert_eq!(page.text("text.lane-label"), "2000");
    assert!(page
        .text("desc")
        .starts_with("100 active maintenance windows on 100 machines"));
    let ticks = page.all("g.tick").len();
    assert!((2..=11).contains(&ticks), "{ticks} ticks");
    // The "now" label has a row of its own, so it never sits on a tick label.
    let now_y = page.get("text.now-label").get_attribute("y").unwrap();
    for tick in page.all("g.tick text") {
        assert_ne!(tick.get_attribute("y").unwrap(), now_y);
    }
    // Lanes keep their height: the drawing grows instead of squeezing them (36 px of axis,
    // then 16 px a lane), in the chart and in the label column beside it.
    let height = |css: &str| page.get(css).get_attribute("height").unwrap();
    assert_eq!(height("svg.timeline-chart"), "1636");
    assert_eq!(height("svg.timeline-labels"), "1636");

    // Scrolled to the bottom, the last lanes come in and the first ones go, labels and
    // bars together, each bar still in its own lane.
    let scroller: web_sys::HtmlElement =
        wasm_bindgen::JsCast::unchecked_into(page.get(".timeline-scroll"));
    // The stylesheet is not loaded in tests; give the box the height it has in the app.
    scroller
        .style()
        .set_property("max-height", "448px")
        .unwrap();
    scroller.style().set_property("overflow", "auto").unwrap();
    scroller.set_scroll_top(1636);
    scroller
        .dispatch_event(&web_sys::Event::new("scroll").unwrap())
        .unwrap();
    settle().await;
    assert!(page.find("rect.bar[data-window-id='99']").is_some());
    assert!(page.find("rect.bar[data-window-id='0']").is_none());
    assert_eq!(drawn("rect.bar"), drawn("text.lane-label"));
    let last_bar_y = page
        .get("rect.bar[data-window-id='99']")
        .get_attribute("y")
        .unwrap();
    // Lane 99 starts at 36 + 99 × 16 px; its bar 2 px lower.
    assert_eq!(last_bar_y, "1622");
}

#[wasm_bindgen_test]
async fn timeline_bars_of_lanes_in_view_are_focusable_buttons() {
    let now = 1_800_000_000.0;
    let windows: Vec<MaintenanceWindow> = (0..60)
        .map(|i| window(i, 3000 + i, MaintenanceCategory::Gpu, now + 3600.0, 1))
        .collect();
    let picked = RwSignal::new(None::<i64>);
    let page = mount({
        let windows = windows.clone();
        move || {
            view! {
                <MaintenanceTimeline
                    windows=windows.clone()
                    now=now
                    on_pick=Callback::new(move |w: MaintenanceWindow| picked.set(Some(w.id)))
                />
            }
        }
    });
    settle().await;
    let bars = page.all("rect.bar");
    assert!(bars.len() < 60, "{} bars drawn", bars.len());
    for bar in &bars {
        assert_eq!(bar.get_attribute("role").as_deref(), Some("button"));
        assert_eq!(bar.get_attribute("tabindex").as_deref(), Some("0"));
        assert!(bar
            .get_attribute("aria-label")
            .unwrap()
            .starts_with("Machine 30"));
    }
    // The last bar drawn (in the overscan below the view) is picked with the keyboard.
    let last = bars.last().unwrap();
    let id: i64 = last
        .get_attribute("data-window-id")
        .unwrap()
        .parse()
        .unwrap();
    let enter = web_sys::KeyboardEventInit::new();
    enter.set_key("Enter");
    enter.set_bubbles(true);
    last.dispatch_event(
        &web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &enter).unwrap(),
    )
    .unwrap();
    settle().await;
    assert_eq!(picked.get_untracked(), Some(id));
}

#[wasm_bindgen_test]
async fn with_all_rows_shown_clearing_the_filter_brings_every_row_back_in_order() {
    go_to("/table?rows=all");
    let rows = RwSignal::new(hosts(1000));
    let page = mount_table(rows);
    settle().await;
    page.type_into("input[type=search]", "host-0");
    settle().await;
    let narrowed = page.all("tbody tr:not(.spacer)").len();
    assert!(narrowed > 0 && narrowed < 1000, "{narrowed} rows");

    page.type_into("input[type=search]", "");
    settle().await;
    let ids = first_column(&page);
    let expected: Vec<String> = (1..=1000).map(|id| id.to_string()).collect();
    assert_eq!(ids, expected);
}

#[wasm_bindgen_test]
async fn show_all_rows_turns_windowing_off_for_find_and_print() {
    go_to("/table?rows=all");
    let rows = RwSignal::new(hosts(1000));
    let page = mount_table(rows);
    settle().await;
    assert_eq!(page.all("tbody tr:not(.spacer)").len(), 1000);
    let toggle: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::unchecked_into(page.get(".table-toolbar input[type=checkbox]"));
    assert!(toggle.checked());
    toggle.click();
    settle().await;
    assert!(page.all("tbody tr:not(.spacer)").len() < 100);
    assert!(!current_path().contains("rows=all"), "{}", current_path());
}

/// Builds the Machines page's rehearsal table, as sign-in does, and gives its element.
#[component]
fn Rehearsed(stage: RwSignal<Option<web_sys::Element>, LocalStorage>) -> impl IntoView {
    let (element, built) = build_off_screen().expect("the made-up fleet decodes");
    stage.set(Some(element));
    let built = send_wrapper::SendWrapper::new(built);
    on_cleanup(move || drop(built));
}

#[wasm_bindgen_test]
async fn the_machines_rehearsal_builds_the_table_outside_the_document() {
    go_to("/sign-in");
    let stage = RwSignal::new_local(None);
    let _page = mount(move || {
        view! {
            <Router>
                <Rehearsed stage=stage />
            </Router>
        }
    });
    settle().await;
    let stage = stage.get_untracked().expect("the table was built");
    assert!(!stage.is_connected());
    let cells = stage
        .query_selector_all("tbody tr:not(.spacer) td[data-label=Hostname]")
        .unwrap();
    let hostnames: Vec<String> = (0..cells.length())
        .filter_map(|at| cells.get(at)?.text_content())
        .collect();
    assert_eq!(hostnames, ["rehearsal-1", "rehearsal-2"]);
    assert!(stage.query_selector(".occupancy-legend").unwrap().is_some());
    assert!(document().query_selector("table").unwrap().is_none());
}

/// Gives the owner it is built under, as the sign-in form gives its own to the rehearsal.
#[component]
fn FormOwner(owner: RwSignal<Option<WeakOwner>, LocalStorage>) -> impl IntoView {
    owner.set(Owner::current().map(|owner| owner.downgrade()));
    view! { <input id="typed" aria-label="Typed" /> }
}

#[wasm_bindgen_test]
async fn the_machines_rehearsal_leaves_the_page_the_network_and_the_focus_alone() {
    go_to("/sign-in?next=%2Fmachines");
    document().set_title("Sign in");
    let fetch = FakeFetch::install(Vec::new());
    let owner = RwSignal::new_local(None);
    let page = mount(move || {
        view! {
            <Router>
                <FormOwner owner=owner />
            </Router>
        }
    });
    settle().await;
    let typed: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(page.get("#typed"));
    typed.focus().unwrap();
    let body = document().body().unwrap().inner_html();

    let form = owner.get_untracked().expect("an owner");
    assert!(rehearse(form.clone(), Signal::stored(true)).await);
    settle().await;

    assert_eq!(document().title(), "Sign in");
    assert_eq!(current_path(), "/sign-in?next=%2Fmachines");
    assert_eq!(document().body().unwrap().inner_html(), body);
    assert_eq!(document().active_element(), Some(typed.into()));
    assert!(fetch.calls().is_empty());

    // Enter pressed (sign-in no longer waits), or the form gone: no rehearsal.
    assert!(!rehearse(form, Signal::stored(false)).await);
    drop(page);
    settle().await;
    let gone = owner.get_untracked().expect("an owner");
    assert!(!rehearse(gone, Signal::stored(true)).await);
}

/// The stylesheet the served console links, so widths are the real ones; removed when
/// dropped, so the other tests keep their unstyled page.
struct MainCss(web_sys::Element);

impl MainCss {
    fn add() -> Self {
        let style = document().create_element("style").unwrap();
        style.set_text_content(Some(include_str!("../../style/main.css")));
        document().head().unwrap().append_child(&style).unwrap();
        MainCss(style)
    }
}

impl Drop for MainCss {
    fn drop(&mut self) {
        self.0.remove();
    }
}

fn resize_to(page: &Mounted, width_px: u32) {
    page.root
        .style()
        .set_property("width", &format!("{width_px}px"))
        .unwrap();
    leptos::prelude::window()
        .dispatch_event(&web_sys::Event::new("resize").unwrap())
        .unwrap();
}

fn folded_headers(page: &Mounted) -> Vec<String> {
    page.all("thead th.folded")
        .iter()
        .map(|th| th.get_attribute("data-key").unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn data_table_folds_ranked_columns_into_a_row_detail_when_its_box_is_narrow() {
    go_to("/table");
    let _css = MainCss::add();
    let rows = RwSignal::new(hosts(3));
    let columns = vec![
        Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
        Column::text("name", "Name", |h: &Host| h.name.repeat(3)),
        Column::text("note", "Note", |h: &Host| format!("note on {}", h.name)).folds(2),
        Column::whole("gpus", "GPUs", |h: &Host| h.gpus).folds(1),
    ];
    let page = mount_table_of(rows, columns, false);
    resize_to(&page, 1200);
    page.wait_for("tbody tr:not(.spacer)").await;
    settle().await;
    assert_eq!(folded_headers(&page), Vec::<String>::new());
    assert!(page.find("th.more").is_none());

    // Too narrow for every column: GPUs (rank 1) leaves first, then Note, never Id or Name.
    resize_to(&page, 380);
    page.wait_for("thead th.folded[data-key=note]").await;
    assert_eq!(folded_headers(&page), ["note", "gpus"]);
    let scroller = page.get(".table-scroll");
    assert!(scroller.scroll_width() <= scroller.client_width() + 1);
    page.click("tbody tr[data-key='1'] td.more button");
    page.wait_for("tr.row-detail").await;
    let detail: Vec<String> = page
        .all("tr.row-detail dl > div")
        .iter()
        .map(|part| part.text_content().unwrap())
        .collect();
    let host = &hosts(1)[0];
    assert_eq!(
        detail,
        [
            format!("Notenote on {}", host.name),
            format!("GPUs{}", host.gpus)
        ]
    );
    assert_eq!(
        page.get("tbody tr[data-key='1'] td.more button")
            .get_attribute("aria-expanded")
            .as_deref(),
        Some("true")
    );

    // Room again: both come back, and the details go.
    resize_to(&page, 1200);
    page.wait_for_gone("thead th.folded").await;
    assert!(page.find("th.more").is_none());
    assert!(page.find("tr.row-detail").is_none());
}

#[wasm_bindgen_test]
async fn data_table_that_wraps_first_takes_two_lines_before_folding_a_column() {
    go_to("/table");
    let _css = MainCss::add();
    let rows = RwSignal::new(hosts(3));
    let columns = vec![
        Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
        Column::text("name", "Name", |h: &Host| {
            format!("{} of the long fleet name", h.name)
        }),
        Column::whole("gpus", "GPUs", |h: &Host| h.gpus).folds(1),
    ];
    let page = mount_table_of(rows, columns, true);
    let table = || page.get(".data-table");
    let scroller = || page.get(".table-scroll");
    resize_to(&page, 1200);
    page.wait_for("tbody tr:not(.spacer)").await;
    settle().await;
    assert!(!table().class_list().contains("two-line"), "room: one line");

    // Too narrow for one line (about 360 px), wide enough for two: the names wrap,
    // nothing folds.
    resize_to(&page, 260);
    page.wait_for(".data-table.two-line").await;
    settle().await;
    assert_eq!(folded_headers(&page), Vec::<String>::new());
    assert!(scroller().scroll_width() <= scroller().client_width() + 1);

    // Narrower than two lines allow: GPUs folds, the rows keep two lines.
    resize_to(&page, 100);
    page.wait_for("thead th.folded[data-key=gpus]").await;
    assert!(table().class_list().contains("two-line"));

    // Room again: GPUs first, then one line.
    resize_to(&page, 1200);
    page.wait_for_gone("thead th.folded").await;
    page.wait_for_gone(".data-table.two-line").await;
}

#[wasm_bindgen_test]
async fn data_table_marks_the_columns_a_phones_card_shows_only_once_opened() {
    go_to("/table");
    let rows = RwSignal::new(hosts(2));
    let page = mount(move || {
        view! {
            <Router>
                <DataTable
                    rows=rows
                    columns=host_columns()
                    row_key=|h: &Host| h.id.to_string()
                    empty="No hosts yet."
                    csv_name="hosts"
                    caption="Hosts"
                    on_card=&["id", "name"]
                />
            </Router>
        }
    });
    page.wait_for("tbody tr:not(.spacer)").await;
    let off_card: Vec<String> = page
        .all("tbody tr[data-key='1'] td.off-card")
        .iter()
        .map(|td| td.get_attribute("data-label").unwrap())
        .collect();
    assert_eq!(off_card, ["GPUs"]);
    assert!(page.find("tbody tr.open").is_none());
}
