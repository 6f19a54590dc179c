//! The Machines page's fleet health in a real browser (fleet-health §1.2): the summary's
//! counts per rule from N1's answer, each filtering the table to its machines, the Health
//! column's worst finding, and "List again…" for machines left unlisted. The rules
//! themselves are unit tests in `src/domain/health/`.

use crate::support::*;
use gpudeck::app::App;
use wasm_bindgen_test::*;

const KEY: &str = "key-for-health-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;

/// `machine_json` with more fields (`"name": value, ...`) at its end.
fn with_fields(machine: String, fields: &str) -> String {
    machine.replace(
        r#""earn_day": 12.5}"#,
        &format!(r#""earn_day": 12.5, {fields}}}"#),
    )
}

/// Five machines: 1001 has no finding, 1002 and 1005 are hot, 1003 has a machine error,
/// and 1004 is unlisted and vacant with no window.
fn fleet() -> &'static str {
    let machines = [
        machine_json(1001, 1, "D x x x"),
        with_fields(
            machine_json(1002, 1, "D x x x"),
            r#""gpu_max_cur_temp": 88"#,
        ),
        with_fields(
            machine_json(1003, 1, "D x x x"),
            r#""error_description": "failed to inject CDI devices""#,
        ),
        machine_json(1004, 0, "x x x x")
            .replace(r#""listed": true"#, r#""listed": false"#)
            .replace(r#""earn_day": 12.5"#, r#""earn_day": 0"#),
        with_fields(
            machine_json(1005, 1, "D x x x"),
            r#""gpu_max_cur_temp": 90.5"#,
        ),
    ];
    leak(format!(r#"{{"machines": [{}]}}"#, machines.join(", ")))
}

async fn health_page() -> (Mounted, FakeFetch) {
    signed_in_as(KEY, USER, "/machines");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, fleet())),
        ("machine_ids", json(200, "[]")),
    ]);
    let page = mount(App);
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 5)
        .await;
    (page, fetch)
}

fn shown_ids(page: &Mounted) -> Vec<String> {
    column_texts(page, ".data-table", "id")
}

#[wasm_bindgen_test]
async fn the_summary_counts_each_rule_and_the_column_says_the_worst_finding() {
    let (page, _fetch) = health_page().await;
    let rules: Vec<(String, String)> = page
        .all(".fleet-health .health-rule")
        .iter()
        .map(|b| {
            (
                b.get_attribute("data-rule").unwrap(),
                b.text_content().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("machine-error", "Machine error: 1"),
        ("hot", "Hot: 2"),
        (
            "unlisted-no-maintenance",
            "Not listed, no maintenance under way: 1",
        ),
    ];
    assert_eq!(rules, expected.map(|(k, t)| (k.to_owned(), t.to_owned())));
    assert_eq!(
        page.text(".fleet-health .health-severities"),
        "Worst finding per machine: 1 critical · 3 warning · 0 info · 1 without a finding."
    );
    let health = column_texts(&page, ".data-table", "health");
    assert_eq!(health[0], "No finding");
    assert_eq!(health[1], "Warning · Hot: hottest GPU at 88 °C");
    assert_eq!(
        health[2],
        "Critical · Machine error: failed to inject CDI devices"
    );
    assert!(
        health[3].starts_with("Warning · Not listed, no maintenance under way"),
        "{}",
        health[3]
    );
    assert_eq!(health[4], "Warning · Hot: hottest GPU at 90.5 °C");
}

#[wasm_bindgen_test]
async fn a_rules_count_filters_the_table_to_its_machines_and_back() {
    let (page, _fetch) = health_page().await;
    let hot = ".fleet-health .health-rule[data-rule=hot]";
    page.click(hot);
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 2)
        .await;
    assert_eq!(shown_ids(&page), ["1002", "1005"]);
    assert_eq!(
        page.get(hot).get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    assert!(
        page.text(".health-picked")
            .starts_with("Showing the 2 machines with “Hot”."),
        "{}",
        page.text(".health-picked")
    );
    // Another rule replaces it; pressing it again shows every machine.
    let error = ".fleet-health .health-rule[data-rule=machine-error]";
    page.click(error);
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 1)
        .await;
    assert_eq!(shown_ids(&page), ["1003"]);
    assert_eq!(
        page.get(hot).get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    page.click(error);
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 5)
        .await;
    assert!(page.find(".health-picked").is_none());
}

#[wasm_bindgen_test]
async fn list_again_selects_the_machines_left_unlisted_and_opens_its_form() {
    let (page, _fetch) = health_page().await;
    page.click(".fleet-health .health-rule[data-rule=unlisted-no-maintenance]");
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 1)
        .await;
    page.click(".health-picked button[data-remedy=relist]");
    page.wait_for(".selection-actions button[data-action=relist][aria-expanded=true]")
        .await;
    assert_eq!(
        page.text(".selection-actions .selection-label"),
        "With the 1 selected machine:"
    );
    let ticked = page.get(".data-table tbody tr[data-key='1004'] td.select input");
    let checked = js_sys::Reflect::get(&ticked, &"checked".into()).unwrap();
    assert_eq!(checked.as_bool(), Some(true));
}
