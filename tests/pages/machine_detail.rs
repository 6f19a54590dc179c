//! One machine's page in a real browser: its findings with their severity and actions,
//! its renters' reports newest first (messages as text), what it earned with the chart's
//! words and table, and the not-found state for a machine not among the caller's. The
//! rules behind them are unit tests (`crates/logic/src/domain/health`, `reports`, `earnings`).

use crate::support::*;
use gpudeck::app::App;
use wasm_bindgen_test::*;

const KEY: &str = "key-for-machine-detail-tests";
const USER: &str =
    r#"{"id": 1, "email": "alice@example.test", "username": "alice", "balance": 10}"#;

/// N1's answer: 1037 deverified with a machine error, beside two healthy machines.
fn fleet() -> &'static str {
    let broken = machine_json(1037, 1, "D D x x")
        .replace(r#""verification": "verified""#, r#""verification": "deverified""#)
        .replace(
            r#""earn_day": 12.5}"#,
            r#""earn_day": 12.5, "error_description": "failed to inject CDI devices: unresolvable CDI devices"}"#,
        );
    leak(format!(
        r#"{{"machines": [{}, {broken}, {}]}}"#,
        machine_json(1001, 0, "x x x x"),
        machine_json(1002, 0, "x x x x")
    ))
}

/// N24's answer, not in time order, with one time no form reads and one message of markup.
const REPORTS: &str = r#"[
    {"problem": "Machine Has Port Issues", "message": "ports closed", "created_at": 1700000000},
    {"problem": "Other", "message": "<b>markup</b>", "created_at": "2024-06-06T00:00:00Z"},
    {"problem": "Unable To Start Instance", "message": "no start", "created_at": "soon"},
    {"problem": "Machine Performance Is Less Than Expected", "message": "slow", "created_at": 1600000000000}
]"#;

/// N34's answer for 1037 over three days: $31.14 in all, the days adding up to it.
const EARNINGS: &str = r#"{"sday": 20454, "eday": 20456,
    "summary": {"total_gpu": 30, "total_stor": 0.6, "total_bwu": 0.03, "total_bwd": 0.01},
    "per_machine": [{"machine_id": 1037, "gpu_earn": 30, "sto_earn": 0.6, "bwu_earn": 0.03,
        "bwd_earn": 0.01, "sla_earn": 0.5, "reliability": 0.9}],
    "per_day": [
        {"day": 20456, "gpu_earn": 0, "sto_earn": 0.2, "bwu_earn": 0.01, "bwd_earn": 0},
        {"day": 20454, "gpu_earn": 20, "sto_earn": 0.2, "bwu_earn": 0.01, "bwd_earn": 0.01, "sla_earn": 0.5},
        {"day": 20455, "gpu_earn": 10, "sto_earn": 0.2, "bwu_earn": 0.01, "bwd_earn": 0}
    ]}"#;

#[wasm_bindgen_test]
async fn a_machine_shows_its_findings_reports_and_earnings() {
    signed_in_as(KEY, USER, "/machines/1037");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, fleet())),
        ("machine_ids", json(200, "[]")),
        ("/api/v0/machines/1037/reports/", json(200, REPORTS)),
        ("machine-earnings", json(200, EARNINGS)),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=machine-findings] .finding")
        .await;
    assert_eq!(
        page.text("[data-testid=machine-name]"),
        "Machine 1037 · host-1037"
    );

    // Each finding says its severity in words, what was seen, and offers what helps.
    let error = ".finding[data-rule=machine-error]";
    let said = page.text(error);
    assert!(said.starts_with("Critical"), "{said}");
    assert!(
        said.contains("Machine error") && said.contains("unresolvable CDI devices"),
        "{said}"
    );
    assert_eq!(
        page.get(&format!("{error} [data-remedy=schedule]"))
            .get_attribute("href")
            .as_deref(),
        Some("/machines/schedule?ids=1037")
    );
    assert_eq!(
        page.text(&format!("{error} [data-remedy=end-offers]")),
        "End offers at…"
    );
    assert!(page
        .text(".finding[data-rule=verification-lost]")
        .starts_with("Critical"));

    // Reports: newest first, the unreadable time last and said as sent, markup as text.
    page.wait_for_count(".report", 4).await;
    let problems: Vec<String> = page
        .all(".report .report-problem")
        .iter()
        .map(|p| p.text_content().unwrap())
        .collect();
    assert_eq!(
        problems,
        [
            "Other",
            "Machine Has Port Issues",
            "Machine Performance Is Less Than Expected",
            "Unable To Start Instance"
        ]
    );
    let markup = page.get(".report:first-child .report-message");
    assert_eq!(markup.text_content().unwrap(), "<b>markup</b>");
    assert!(markup.query_selector("b").unwrap().is_none());
    assert_eq!(
        page.text(".report:last-child .report-when"),
        "reported (as sent): soon"
    );

    // Earnings: the total from per_machine, the chart's words, the same days as a table.
    page.wait_for("[data-testid=earnings-total]").await;
    assert_eq!(
        page.text("[data-testid=earnings-total]"),
        "Earned $31.14 in the 3 days from 2026-01-01 to 2026-01-03 (UTC)."
    );
    let chart = page.get("svg.bar-chart");
    assert_eq!(chart.get_attribute("role").as_deref(), Some("img"));
    assert_eq!(page.all("svg.bar-chart rect.bar").len(), 3);
    assert_eq!(
        page.text("svg.bar-chart title"),
        "Earnings per day, 2026-01-01 to 2026-01-03"
    );
    assert_eq!(
        page.text("svg.bar-chart desc"),
        "3 days. Highest $20.72 on 2026-01-01, lowest $0.21 on 2026-01-03."
    );
    let rows: Vec<String> = page
        .all("[data-testid=earnings-table] tbody tr")
        .iter()
        .map(|r| r.text_content().unwrap())
        .collect();
    assert_eq!(
        rows,
        ["2026-01-01$20.72", "2026-01-02$10.21", "2026-01-03$0.21"]
    );
    // The days add up to the machine's total: not said to be fleet-wide.
    assert_eq!(page.text(".earnings-chart figcaption"), "Per day");

    // Asked for this machine alone, over whole days before today.
    let today = (now() / 86_400.0).floor() as i64;
    let asked = &fetch.calls_to("machine-earnings")[0].url;
    assert!(
        asked.ends_with(&format!(
            "/api/v0/users/me/machine-earnings/?owner=me&sday={}&eday={}&machid=1037",
            today - 30,
            today - 1
        )),
        "{asked}"
    );
}

#[wasm_bindgen_test]
async fn a_finding_opens_the_offer_form_it_calls_for_on_this_machine() {
    signed_in_as(KEY, USER, "/machines/1037");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, fleet())),
        ("machine_ids", json(200, "[]")),
        ("/reports/", json(200, "[]")),
        ("machine-earnings", json(200, EARNINGS)),
    ]);
    let page = mount(App);
    page.wait_for(".finding[data-rule=machine-error] [data-remedy=end-offers]")
        .await;
    assert_eq!(
        page.text("[data-testid=machine-reports] .empty-state"),
        "No renter has reported a problem with this machine lately."
    );
    page.click(".finding[data-rule=machine-error] [data-remedy=end-offers]");
    page.wait_for("#machine-offer [data-testid=end-offers]")
        .await;
}

#[wasm_bindgen_test]
async fn a_machine_not_among_the_callers_is_not_found() {
    signed_in_as(KEY, USER, "/machines/2001");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, ONE_MACHINE)),
        ("machine_ids", json(200, "[]")),
        (
            "/reports/",
            json(
                404,
                r#"{"error": "not_found", "msg": "No such machine id"}"#,
            ),
        ),
        (
            "machine-earnings",
            json(
                404,
                r#"{"error": "not_found", "msg": "No such machine id"}"#,
            ),
        ),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=machine-not-found]").await;
    let said = page.text("[data-testid=machine-not-found]");
    assert!(said.contains("No such machine"), "{said}");
    assert!(said.contains("“2001”"), "{said}");
    assert!(page.find("[data-testid=machine-findings]").is_none());
    assert!(page.find("[data-testid=machine-earnings]").is_none());
    assert_eq!(tab_title(), "No such machine · gpudeck");
}

#[wasm_bindgen_test]
async fn an_address_that_is_no_machine_id_is_not_found_and_asks_nothing() {
    signed_in_as(KEY, USER, "/machines/12ab");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, ONE_MACHINE)),
        ("machine_ids", json(200, "[]")),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=machine-not-found]").await;
    assert!(page
        .text("[data-testid=machine-not-found]")
        .contains("“12ab”"));
    assert!(fetch.calls_to("/reports/").is_empty());
    assert!(fetch.calls_to("machine-earnings").is_empty());
    assert_eq!(tab_title(), "No such machine · gpudeck");
}

/// N1's answer with 1037 (among two machines) carrying `reports` renter reports.
fn reported(reports: i64) -> &'static str {
    let reported = machine_json(1037, 1, "D x x x").replace(
        r#""earn_day": 12.5}"#,
        &format!(r#""earn_day": 12.5, "num_reports": {reports}}}"#),
    );
    leak(format!(
        r#"{{"machines": [{}, {reported}]}}"#,
        machine_json(1001, 0, "x x x x")
    ))
}

fn tab_title() -> String {
    web_sys::window().unwrap().document().unwrap().title()
}

#[wasm_bindgen_test]
async fn new_reports_since_the_last_read_show_on_the_machine_named_in_its_tab() {
    signed_in_as(KEY, USER, "/machines/1037");
    let fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, reported(1))),
        ("machine_ids", json(200, "[]")),
        ("/reports/", json(200, "[]")),
        ("machine-earnings", json(200, EARNINGS)),
        ("/api/v0/machines?owner=me", json(200, reported(3))),
        ("machine_ids", json(200, "[]")),
    ]);
    let page = mount(App);
    page.wait_for("[data-testid=machine-name]").await;
    assert_eq!(tab_title(), "Machine 1037 · host-1037 · gpudeck");
    // The first read only sets the baseline.
    assert!(page.find(".finding[data-rule=new-reports]").is_none());

    // Read again: two more reports than at the last read.
    page.click(".machine-detail > .form-actions button");
    page.wait_for(".finding[data-rule=new-reports]").await;
    assert_eq!(fetch.calls_to("/api/v0/machines?owner=me").len(), 2);
    let said = page.text(".finding[data-rule=new-reports]");
    assert!(
        said.starts_with("Warning") && said.contains("more renter reports than at the last read"),
        "{said}"
    );
    assert_eq!(tab_title(), "Machine 1037 · host-1037 · gpudeck");
}

#[wasm_bindgen_test]
async fn the_machine_page_compares_with_the_read_the_machines_page_made() {
    signed_in_as(KEY, USER, "/machines");
    let _fetch = FakeFetch::install_by_url(vec![
        ("users/current", json(200, USER)),
        ("/api/v0/machines?owner=me", json(200, reported(1))),
        ("machine_ids", json(200, "[]")),
        ("/api/v0/machines?owner=me", json(200, reported(2))),
        ("machine_ids", json(200, "[]")),
        ("/reports/", json(200, "[]")),
        ("machine-earnings", json(200, EARNINGS)),
    ]);
    let page = mount(App);
    page.wait_for(".data-table a[href='/machines/1037']").await;
    assert!(page.find(".health-rule[data-rule=new-reports]").is_none());
    // The machine's page reads the fleet again: one more report than the Machines page saw.
    page.click(".data-table a[href='/machines/1037']");
    page.wait_for(".finding[data-rule=new-reports]").await;
    assert_eq!(
        page.text("[data-testid=machine-name]"),
        "Machine 1037 · host-1037"
    );
}
