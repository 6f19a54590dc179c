//! The Machines page's fleet health in a real browser (fleet-health §1.2): the summary's
//! counts per rule from N1's answer, each filtering the table to its machines, the Health
//! column's worst finding, and "List again…" for machines left unlisted. The rules
//! themselves are unit tests in `crates/logic/src/domain/health/`.

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
        (
            "create_asks",
            json(200, r#"{"success": true, "extended": 0, "msg": "listed"}"#),
        ),
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
        ("maintained-not-listed", "Maintained, not listed: 1"),
    ];
    assert_eq!(rules, expected.map(|(k, t)| (k.to_owned(), t.to_owned())));
    assert_eq!(
        page.text(".fleet-health .health-severities"),
        "Worst finding per machine: 1 critical · 3 warning · 0 info · 1 without a finding."
    );
    // The cell says the worst finding's severity and rule; its tooltip adds the evidence.
    let health = column_texts(&page, ".data-table", "health");
    assert_eq!(
        health,
        [
            "No finding",
            "Warning · Hot",
            "Critical · Machine error",
            "Warning · Maintained, not listed",
            "Warning · Hot"
        ]
    );
    let evidence: Vec<String> = page
        .all(".data-table .health")
        .iter()
        .map(|cell| cell.get_attribute("title").unwrap_or_default())
        .collect();
    assert_eq!(evidence[0], "No finding");
    assert_eq!(evidence[1], "Warning · Hot: hottest GPU at 88 °C");
    assert_eq!(
        evidence[2],
        "Critical · Machine error: failed to inject CDI devices"
    );
    assert!(
        evidence[3].starts_with("Warning · Maintained, not listed: "),
        "{}",
        evidence[3]
    );
    assert_eq!(evidence[4], "Warning · Hot: hottest GPU at 90.5 °C");
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

fn ticked(page: &Mounted, id: i64) -> bool {
    let tick = page.get(&format!(
        ".data-table tbody tr[data-key='{id}'] td.select input"
    ));
    js_sys::Reflect::get(&tick, &"checked".into())
        .unwrap()
        .as_bool()
        .unwrap()
}

#[wasm_bindgen_test]
async fn list_again_lists_the_maintained_machines_on_their_kept_terms_in_one_confirmation() {
    let (page, fetch) = health_page().await;
    page.click(".fleet-health .health-rule[data-rule=maintained-not-listed]");
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 1)
        .await;
    // The count is a link: the filter is in the address.
    assert_eq!(current_path(), "/machines?health=maintained-not-listed");
    // The actions' bar is marked as having a selection (on a phone it shows only then).
    assert!(page.find(".selection-actions.with-selection").is_none());
    page.click(".health-picked button[data-remedy=relist]");
    page.wait_for(".selection-actions.with-selection").await;
    // No form to fill: the confirmation opens at once, for the machine the rule holds.
    page.wait_for("dialog[open]").await;
    assert!(ticked(&page, 1004));
    assert_eq!(
        page.text(".selection-actions .selection-label"),
        "With the 1 selected machine:"
    );
    assert!(
        page.text("dialog[open]").contains("1 machine: 1004"),
        "{}",
        page.text("dialog[open]")
    );
    page.click("dialog[open] .confirm-actions button:last-child");
    assert!(wait_until(WAIT_MS, || !fetch.calls_to("create_asks").is_empty()).await);
    let sent: Vec<serde_json::Value> = fetch
        .calls_to("create_asks")
        .iter()
        .map(|c| serde_json::from_str(&c.body).unwrap())
        .collect();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["machine"], 1004);
    // Its kept price, open-ended: nothing typed.
    assert_eq!(sent[0]["price_gpu"], 0.4);
    assert_eq!(sent[0]["end_date"], serde_json::Value::Null);
}

#[wasm_bindgen_test]
async fn the_address_limits_the_page_to_its_machines_and_picks_its_rule() {
    signed_in_as(
        KEY,
        USER,
        "/machines?ids=1003-1004&health=maintained-not-listed",
    );
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, fleet())),
        ("machine_ids", json(200, "[]")),
    ]);
    let page = mount(App);
    page.wait_for(".fleet-health").await;
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 1)
        .await;
    assert_eq!(shown_ids(&page), ["1004"]);
    assert_eq!(
        page.text(".scope-note"),
        "Only 2 machines from this page's address. Show every machine"
    );
    // The summary counts the two machines of the address only.
    assert_eq!(
        page.text(".fleet-health .health-severities"),
        "Worst finding per machine: 1 critical · 1 warning · 0 info · 0 without a finding."
    );
    assert_eq!(
        page.get(".health-rule[data-rule=maintained-not-listed]")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    // Without the rule, both machines of the address; without the address, all five.
    page.click(".health-rule[data-rule=maintained-not-listed]");
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 2)
        .await;
    assert_eq!(shown_ids(&page), ["1003", "1004"]);
    page.click(".scope-note a");
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 5)
        .await;
    assert!(page.find(".scope-note").is_none());
}

#[wasm_bindgen_test]
async fn the_navigation_counts_the_machines_needing_attention_from_the_latest_read() {
    let (page, fetch) = health_page().await;
    // 1002 and 1005 hot, 1003 an error, 1004 maintained and not listed: 4 warnings or worse.
    let count = ".sidenav a[href='/machines'] [data-testid=attention-count]";
    page.wait_for(count).await;
    assert_eq!(page.text(count), "4, 4 need attention");
    // Another page: the count stays, from the read the Machines page made, and nothing
    // reads N1 again for it.
    page.click(".sidenav a[href='/templates']");
    assert!(wait_until(WAIT_MS, || current_path() == "/templates").await);
    settle().await;
    assert_eq!(page.text(count), "4, 4 need attention");
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 1);
}

#[wasm_bindgen_test]
async fn a_page_load_reads_no_machines_for_the_navigations_count() {
    signed_in_as(KEY, USER, "/templates");
    let fetch = FakeFetch::install_by_url(vec![("users/current", json(200, USER))]);
    let page = mount(App);
    page.wait_for(".sidenav a[href='/machines']").await;
    settle().await;
    assert!(page.find("[data-testid=attention-count]").is_none());
    assert_eq!(fetch.calls_to("/api/v0/machines").len(), 0);
}

#[wasm_bindgen_test]
async fn the_navigations_count_judges_with_the_windows_the_page_loaded() {
    signed_in_as(KEY, USER, "/machines");
    // 1004 is unlisted and vacant inside a window: under way, not forgotten after it.
    let windows = leak(format!("[{}]", window_json(1, 1004, now() - 3600.0, 4)));
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, fleet())),
        ("machine_ids", json(200, windows)),
    ]);
    let page = mount(App);
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 5)
        .await;
    assert!(page
        .find(".health-rule[data-rule=maintained-not-listed]")
        .is_none());
    assert_eq!(
        page.text(".fleet-health .health-severities"),
        "Worst finding per machine: 1 critical · 2 warning · 0 info · 2 without a finding."
    );
    // The navigation counts the same three as the page.
    let count = ".sidenav a[href='/machines'] [data-testid=attention-count]";
    page.wait_for_text(count, "3, 3 need attention").await;
}

/// [`fleet`] with 1001 carrying `reports` renter reports.
fn fleet_reporting(reports: i64) -> &'static str {
    leak(fleet().replacen(
        r#""id": 1001,"#,
        &format!(r#""id": 1001, "num_reports": {reports},"#),
        1,
    ))
}

#[wasm_bindgen_test]
async fn a_second_read_with_more_reports_is_judged_alike_by_the_page_and_the_navigation() {
    signed_in_as(KEY, USER, "/machines");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, fleet_reporting(1))),
        ("machine_ids", json(200, "[]")),
        ("/api/v0/machines?owner=me", json(200, fleet_reporting(2))),
        ("machine_ids", json(200, "[]")),
    ]);
    let page = mount(App);
    let count = ".sidenav a[href='/machines'] [data-testid=attention-count]";
    page.wait_for_count(&format!(".data-table {BODY_ROWS}"), 5)
        .await;
    page.wait_for_text(count, "4, 4 need attention").await;
    assert!(page.find(".health-rule[data-rule=new-reports]").is_none());

    page.click(".machines > .form-actions button");
    page.wait_for(".health-rule[data-rule=new-reports]").await;
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 2);
    assert_eq!(
        page.text(".fleet-health .health-severities"),
        "Worst finding per machine: 1 critical · 4 warning · 0 info · 0 without a finding."
    );
    page.wait_for_text(count, "5, 5 need attention").await;
}
