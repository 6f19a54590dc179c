//! The data table's model: rows with their type erased, the columns' text, sort keys and
//! CSV, and the subaccounts table's CSV. They hold Leptos' views and signals, so they are
//! tested in the browser rather than with the pure logic (`gpudeck_logic`).

use gpudeck::components::data_table::Column;

/// A row of the tables here and in `machines_components`: a host with its GPUs.
#[derive(Clone, Debug, PartialEq)]
pub struct Host {
    pub id: i64,
    pub name: String,
    pub gpus: i64,
}

/// The columns of [`Host`]: its id and GPUs as numbers, its name as text.
pub fn host_columns() -> Vec<Column<Host>> {
    vec![
        Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
        Column::text("name", "Name", |h: &Host| h.name.clone()),
        Column::number(
            "gpus",
            "GPUs",
            |h: &Host| h.gpus as f64,
            |h| h.gpus.to_string(),
        ),
    ]
}

mod erased {
    use gpudeck::components::data_table::erased::*;
    use gpudeck::components::data_table::RowFilter;
    use gpudeck::components::data_table::{Column, SortKey};
    use leptos::prelude::*;
    use std::sync::Arc;
    use wasm_bindgen_test::*;

    struct Host {
        id: i64,
        name: &'static str,
        secret: &'static str,
    }

    fn model(hosts: Vec<Host>) -> (RowsOf<Host>, Vec<ColumnInfo>) {
        let columns = vec![
            Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
            Column::text("name", "Name", |h: &Host| h.name.to_owned()),
            Column::text("secret", "Secret", |h: &Host| h.secret.to_owned()).not_searchable(),
        ];
        let infos = columns.iter().map(Column::info).collect();
        let rows = RowsOf {
            rows: hosts,
            columns: Arc::new(columns),
            row_key: |h: &Host| format!("host-{}", h.id),
        };
        (rows, infos)
    }

    fn hosts() -> Vec<Host> {
        vec![
            Host {
                id: 10,
                name: "Beta",
                secret: "s1",
            },
            Host {
                id: 2,
                name: "alpha",
                secret: "S2",
            },
            Host {
                id: 7,
                name: "Gamma",
                secret: "s3",
            },
        ]
    }

    #[wasm_bindgen_test]
    fn the_model_answers_by_index_with_the_columns_text() {
        let (rows, _) = model(hosts());
        assert_eq!(rows.row_count(), 3);
        assert_eq!(rows.key(1), "host-2");
        assert_eq!(rows.text(2, 1), "Gamma");
        assert_eq!(rows.sort_key(0, 0), SortKey::Number(10.0));
    }

    #[wasm_bindgen_test]
    fn search_text_is_lower_case_and_leaves_out_unsearchable_columns() {
        let (rows, columns) = model(hosts());
        assert_eq!(
            search_texts(&rows, &columns),
            ["10\u{1f}beta", "2\u{1f}alpha", "7\u{1f}gamma"]
        );
    }

    #[wasm_bindgen_test]
    fn sorting_by_index_is_stable_and_reversible() {
        let (rows, _) = model(hosts());
        assert_eq!(sorted_order(&rows, None, false), [0, 1, 2]);
        assert_eq!(sorted_order(&rows, Some(0), false), [1, 2, 0]);
        assert_eq!(sorted_order(&rows, Some(1), false), [1, 0, 2]);
        assert_eq!(sorted_order(&rows, Some(1), true), [2, 0, 1]);
    }

    #[wasm_bindgen_test]
    fn csv_follows_the_shown_order_and_the_exported_columns() {
        let (rows, mut columns) = model(hosts());
        columns[2].csv_when = Some(Signal::stored(false));
        assert_eq!(
            csv_of_rows(&rows, &columns, &[2, 0]),
            "Id,Name\r\n7,Gamma\r\n10,Beta\r\n"
        );
    }

    #[wasm_bindgen_test]
    fn the_page_filter_is_applied_with_its_row_type() {
        let (rows, _) = model(hosts());
        let keep: RowFilter<Host> = Arc::new(|h: &Host| h.id > 5);
        let by_index = keep_by_index(Arc::new(rows), keep);
        let kept: Vec<usize> = (0..3).filter(|&r| by_index(r)).collect();
        assert_eq!(kept, [0, 2]);
    }
}

mod columns {
    use super::{host_columns, Host};
    use gpudeck::components::data_table::columns::*;
    use leptos::prelude::*;
    use std::cmp::Ordering;
    use std::sync::Arc;
    use wasm_bindgen_test::*;

    fn host(id: i64, name: &str, gpus: i64) -> Host {
        Host {
            id,
            name: name.into(),
            gpus,
        }
    }

    #[wasm_bindgen_test]
    fn csv_quotes_defuses_and_follows_the_shown_order() {
        let rows = [
            Host {
                id: 1,
                name: "plain".into(),
                gpus: 1,
            },
            Host {
                id: 2,
                name: "comma, \"quoted\"".into(),
                gpus: 2,
            },
            Host {
                id: 3,
                name: "=HYPERLINK(\"x\")".into(),
                gpus: 3,
            },
        ];
        let picked: Vec<&Host> = vec![&rows[2], &rows[0], &rows[1]];
        assert_eq!(
            csv_of(&host_columns(), &picked),
            "Id,Name,GPUs\r\n3,\"'=HYPERLINK(\"\"x\"\")\",3\r\n1,plain,1\r\n2,\"comma, \"\"quoted\"\"\",2\r\n"
        );
        let hidden = RwSignal::new(false);
        let columns = vec![
            Column::number("id", "Id", |h: &Host| h.id as f64, |h| h.id.to_string()),
            Column::text("name", "Name", |h: &Host| h.name.clone()).csv_only_when(hidden.into()),
        ];
        assert_eq!(csv_of(&columns, &[&rows[0]]), "Id\r\n1\r\n");
        let with_controls = vec![
            columns[0].clone(),
            Column::text("actions", "Actions", |_: &Host| String::new()).controls_only(),
        ];
        assert_eq!(csv_of(&with_controls, &[&rows[0]]), "Id\r\n1\r\n");
        let with_actions = vec![
            columns[0].clone(),
            Column::actions(|h: &Host| format!("Delete {}", h.id).into_any()),
        ];
        assert_eq!(csv_of(&with_actions, &[&rows[0]]), "Id\r\n1\r\n");
        assert!(!with_actions[1].info().searchable);
        assert_eq!(with_actions[1].label, "Actions");
        hidden.set(true);
        assert_eq!(csv_of(&columns, &[&rows[0]]), "Id,Name\r\n1,plain\r\n");
    }

    #[wasm_bindgen_test]
    fn text_sorts_ignoring_case_then_by_case_and_numbers_by_value() {
        let text = |s: &str| SortKey::Text(s.into());
        assert_eq!(text("alpha").compare(&text("Beta")), Ordering::Less);
        assert_eq!(text("Alpha").compare(&text("alpha")), Ordering::Less);
        assert_eq!(text("b").compare(&text("B")), Ordering::Greater);
        assert_eq!(
            SortKey::Number(9.0).compare(&SortKey::Number(10.0)),
            Ordering::Less
        );
        assert_eq!(
            SortKey::Number(-0.5).compare(&SortKey::Number(-1.0)),
            Ordering::Greater
        );
        // Numbers before text, whatever their values.
        assert_eq!(SortKey::Number(1e9).compare(&text("a")), Ordering::Less);
    }

    #[wasm_bindgen_test]
    fn sorting_is_stable_and_reversible() {
        use gpudeck::components::data_table::erased::{sorted_order, RowsOf};
        let rows = vec![
            host(3, "beta", 8),
            host(1, "Alpha", 2),
            host(2, "gamma", 8),
            host(4, "delta", 2),
        ];
        let rows = RowsOf {
            rows,
            columns: Arc::new(host_columns()),
            row_key: |h: &Host| h.id.to_string(),
        };
        assert_eq!(sorted_order(&rows, None, false), [0, 1, 2, 3]);
        assert_eq!(sorted_order(&rows, Some(1), false), [1, 0, 3, 2]);
        assert_eq!(sorted_order(&rows, Some(1), true), [2, 3, 0, 1]);
        // Ties keep their order, in both directions.
        assert_eq!(sorted_order(&rows, Some(2), false), [1, 3, 0, 2]);
        assert_eq!(sorted_order(&rows, Some(2), true), [0, 2, 1, 3]);
    }
}

mod subaccounts {
    use gpudeck::components::data_table::csv_of;
    use gpudeck::pages::subaccounts::subaccount_columns;
    use gpudeck_wire::Subaccount;
    use leptos::prelude::*;
    use wasm_bindgen_test::*;

    const FULL_KEY: &str = "0123456789abcdef0123456789abcdef";

    fn subaccount(id: i64, email: &str, key: &str) -> Subaccount {
        Subaccount {
            id,
            email: email.into(),
            api_key: key.into(),
            balance: 1200.75,
            username: Some(format!("user{id}")),
            host_only: Some(id == 11),
        }
    }

    #[wasm_bindgen_test]
    fn the_csv_leaves_keys_out_unless_asked_to_include_them() {
        let owner = Owner::new();
        owner.with(|| {
            let include = RwSignal::new(false);
            let columns = subaccount_columns(include.into());
            let rows = [
                subaccount(11, "a@x.test", FULL_KEY),
                subaccount(12, "=cmd@x.test", "k2k2k2k2k2k2k2k2k2"),
            ];
            let picked: Vec<&Subaccount> = rows.iter().collect();

            let without = csv_of(&columns, &picked);
            assert_eq!(
                without,
                "Id,Username,Email,Type,Balance\r\n11,user11,a@x.test,Host,\"$1,200.75\"\r\n12,user12,'=cmd@x.test,Client,\"$1,200.75\"\r\n"
            );
            assert!(!without.contains(FULL_KEY));

            include.set(true);
            let with = csv_of(&columns, &picked);
            assert_eq!(
                with.lines().next(),
                Some("Id,Username,Email,Type,Balance,API key"),
                "{with}"
            );
            assert!(with.contains(&format!(",{FULL_KEY}\r\n")));
            assert!(with.contains(",k2k2k2k2k2k2k2k2k2\r\n"));
        });
    }
}
