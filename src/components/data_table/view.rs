//! The table on screen: toolbar (filter, counts, all rows, CSV), empty states, and the
//! windowed body.

use super::columns::{csv_of, sorted_order, Column, RowFilter};
use super::selection::{all_shown_state, range_keys, set_all, AllShown};
use super::windowing::{window_slice, ROW_HEIGHT};
use crate::components::csv;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::query_signal_with_options;
use leptos_router::NavigateOptions;
use leptos_use_fn_debounce_throttle::use_debounce_fn_with_arg;
use std::collections::{BTreeSet, HashSet};

/// How long typing must pause before the filter is written to the URL.
const URL_DEBOUNCE_MS: f64 = 300.0;

#[component]
pub fn DataTable<R>(
    /// The rows; the table sorts and filters its own view of them.
    #[prop(into)]
    rows: Signal<Vec<R>>,
    columns: Vec<Column<R>>,
    /// A stable identity per row, for keeping DOM rows across updates.
    row_key: fn(&R) -> String,
    /// Shown when there are no rows at all.
    #[prop(into)]
    empty: String,
    /// File name of the CSV export, without `.csv`.
    csv_name: &'static str,
    /// An extra filter from the page; rows it rejects are counted as filtered out.
    #[prop(optional, into)]
    also_filter: Option<Signal<Option<RowFilter<R>>>>,
    /// A caption for screen readers and the CSV button.
    #[prop(into)]
    caption: String,
    /// Row selection: a checkbox per row and a select-all-shown box in the header; a
    /// shift-click ticks the range from the last row clicked. Holds the ticked rows'
    /// `row_key`s, kept by the page (so it survives filtering and sorting).
    #[prop(optional)]
    selection: Option<RwSignal<BTreeSet<String>>>,
    /// Controls shown in the toolbar after the filter.
    #[prop(optional)]
    children: Option<Children>,
    /// Put before the names of the table's URL parameters (`sort`, `dir`, `q`, `rows`), so
    /// that two tables on one page keep their states apart.
    #[prop(optional)]
    url_prefix: &'static str,
) -> impl IntoView
where
    R: Clone + Send + Sync + 'static,
{
    let url_options = NavigateOptions {
        replace: true,
        scroll: false,
        ..Default::default()
    };
    let (sort_param, set_sort_param) =
        query_signal_with_options::<String>(format!("{url_prefix}sort"), url_options.clone());
    let (dir_param, set_dir_param) =
        query_signal_with_options::<String>(format!("{url_prefix}dir"), url_options.clone());
    let (filter_param, set_filter_param) =
        query_signal_with_options::<String>(format!("{url_prefix}q"), url_options.clone());
    // Windowing hides rows from find-in-page and printing; `rows=all` renders them all.
    let (rows_param, set_rows_param) =
        query_signal_with_options::<String>(format!("{url_prefix}rows"), url_options);
    let render_all = move || rows_param.get().as_deref() == Some("all");

    let columns = StoredValue::new(columns);
    let filter_text = RwSignal::new(filter_param.get_untracked().unwrap_or_default());

    let sort_column = move || {
        let key = sort_param.get()?;
        columns.with_value(|cols| cols.iter().position(|c| c.key == key))
    };
    let descending = move || dir_param.get().as_deref() == Some("desc");

    // Lower-cased text of each row, computed once per data change, not per keystroke.
    let haystacks = Memo::new(move |_| {
        rows.with(|rows| {
            columns.with_value(|cols| {
                rows.iter()
                    .map(|row| {
                        cols.iter()
                            .filter(|c| c.searchable)
                            .map(|c| c.text_of(row).to_lowercase())
                            .collect::<Vec<_>>()
                            .join("\u{1f}")
                    })
                    .collect::<Vec<String>>()
            })
        })
    });
    let order = Memo::new(move |_| {
        let column = sort_column();
        let descending = descending();
        rows.with(|rows| {
            columns.with_value(|cols| sorted_order(rows, column.map(|i| &cols[i]), descending))
        })
    });
    let shown = Memo::new(move |_| {
        let needle = filter_text.get().trim().to_lowercase();
        let extra = also_filter.and_then(|f| f.get());
        let keep = |rows: &[R], i: usize| extra.as_ref().is_none_or(|keep| keep(&rows[i]));
        rows.with(|rows| {
            order.with(|order| {
                // The rows' text is built only once there is something to look for, so a
                // large table paints without it.
                if needle.is_empty() {
                    return order.iter().copied().filter(|&i| keep(rows, i)).collect();
                }
                haystacks.with(|hay| {
                    order
                        .iter()
                        .copied()
                        .filter(|&i| hay[i].contains(&needle))
                        .filter(|&i| keep(rows, i))
                        .collect::<Vec<usize>>()
                })
            })
        })
    });
    let total = move || rows.with(Vec::len);

    // Windowing: which slice of `shown` is in view, plus OVERSCAN rows either side. The
    // scroll box's height is read on each scroll and resize; until then assume its CSS
    // cap (70vh).
    let scroll_box = NodeRef::<leptos::html::Div>::new();
    let scroll_top = RwSignal::new(0.0f64);
    let view_height = RwSignal::new(
        window()
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(900.0)
            * 0.7,
    );
    let on_resize = window_event_listener(leptos::ev::resize, move |_| {
        if let Some(scroller) = scroll_box.get_untracked() {
            view_height.set(scroller.client_height() as f64);
        }
    });
    on_cleanup(move || on_resize.remove());
    let slice = Memo::new(move |_| {
        let count = shown.with(Vec::len);
        // With every row rendered, scrolling changes nothing: do not track it.
        if render_all() {
            return window_slice(0.0, 0.0, count, true);
        }
        window_slice(scroll_top.get(), view_height.get(), count, false)
    });
    // The rows in the window, with their keys. Rows are keyed by identity and content, not
    // position, so scrolling and narrowing the filter keep the DOM rows that stay in view,
    // while a reloaded row whose text changed is drawn anew. A key seen twice (bad data)
    // gets a suffix to stay unique.
    let visible_rows = move || {
        let (first, last, _) = slice.get();
        let mut seen = HashSet::new();
        shown.with(|shown| {
            rows.with(|rows| {
                shown[first..last]
                    .iter()
                    .map(|&index| {
                        let row = &rows[index];
                        let mut key = row_key(row);
                        columns.with_value(|cols| {
                            for column in cols {
                                key.push('\u{1f}');
                                key.push_str(&column.text_of(row));
                            }
                        });
                        while !seen.insert(key.clone()) {
                            key.push('+');
                        }
                        (key, row.clone())
                    })
                    .collect::<Vec<(String, R)>>()
            })
        })
    };
    // Every row, in the order shown (no windowing).
    let all_shown_rows = move || {
        shown.with(|shown| {
            rows.with(|rows| shown.iter().map(|&i| rows[i].clone()).collect::<Vec<R>>())
        })
    };

    let write_filter_to_url = use_debounce_fn_with_arg(
        move |value: String| set_filter_param.set(Some(value).filter(|v| !v.is_empty())),
        URL_DEBOUNCE_MS,
    );
    let on_filter_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        filter_text.set(value.clone());
        write_filter_to_url(value);
    };
    let clear_filter = move |_| {
        filter_text.set(String::new());
        set_filter_param.set(None);
    };
    let sort_by = move |key: &'static str| {
        let same = sort_param.get_untracked().as_deref() == Some(key);
        let next_desc = same && dir_param.get_untracked().as_deref() != Some("desc");
        set_sort_param.set(Some(key.to_owned()));
        set_dir_param.set(Some(if next_desc { "desc" } else { "asc" }.to_owned()));
    };
    let caption_for_csv = caption.clone();
    let caption_for_select = caption.clone();
    let export = move |_| {
        let text = columns.with_value(|cols| {
            rows.with_untracked(|rows| {
                shown.with_untracked(|shown| {
                    let picked: Vec<&R> = shown.iter().map(|&i| &rows[i]).collect();
                    csv_of(cols, &picked)
                })
            })
        });
        if let Err(problem) = csv::download(&format!("{csv_name}.csv"), &text) {
            leptos::logging::warn!("CSV export of {caption_for_csv} failed: {problem}");
        }
    };

    let header = move || {
        columns.with_value(|cols| {
            cols.iter()
                .enumerate()
                .map(|(index, column)| {
                    let key = column.key;
                    let label = column.label;
                    let aria_sort = move || match (sort_column() == Some(index), descending()) {
                        (true, false) => "ascending",
                        (true, true) => "descending",
                        _ => "none",
                    };
                    let arrow = move || match aria_sort() {
                        "ascending" => " ▲",
                        "descending" => " ▼",
                        _ => "",
                    };
                    view! {
                        <th scope="col" aria-sort=aria_sort class:numeric=column.numeric data-key=key>
                            <button type="button" class="sort" on:click=move |_| sort_by(key)>
                                {label}<span aria-hidden="true">{arrow}</span>
                            </button>
                        </th>
                    }
                })
                .collect_view()
        })
    };
    // The keys of the shown rows, in order, for select-all and shift-click ranges.
    let shown_keys = move || {
        shown.with_untracked(|shown| {
            rows.with_untracked(|rows| {
                shown
                    .iter()
                    .map(|&i| row_key(&rows[i]))
                    .collect::<Vec<String>>()
            })
        })
    };
    let anchor = StoredValue::new(None::<String>);
    let select_header = move || {
        selection.map(|selected| {
            let state = Memo::new(move |_| {
                shown.track();
                rows.track();
                selected.with(|s| all_shown_state(&shown_keys(), s))
            });
            view! {
                <th scope="col" class="select">
                    <input
                        type="checkbox"
                        aria-label=format!("Select all shown rows of {}", caption_for_select)
                        prop:checked=move || state.get() == AllShown::All
                        prop:indeterminate=move || state.get() == AllShown::Some
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let keys = shown_keys();
                            selected.update(|s| set_all(s, &keys, on));
                            anchor.set_value(None);
                        }
                    />
                </th>
            }
        })
    };
    let select_cell = move |key: String| {
        selection.map(|selected| {
            let label = format!("Select {key}");
            let checked_key = key.clone();
            view! {
                <td class="select">
                    <input
                        type="checkbox"
                        aria-label=label
                        prop:checked=move || selected.with(|s| s.contains(&checked_key))
                        on:click=move |ev: leptos::ev::MouseEvent| {
                            let on = event_target_checked(&ev);
                            let keys = if ev.shift_key() {
                                range_keys(&shown_keys(), anchor.get_value().as_deref(), &key)
                            } else {
                                vec![key.clone()]
                            };
                            selected.update(|s| set_all(s, &keys, on));
                            anchor.set_value(Some(key.clone()));
                        }
                    />
                </td>
            }
        })
    };

    // `row_index` is the row's aria-rowindex: its position in `shown` plus 2 (the header is 1).
    let render_row = move |row_index: Signal<usize>, row: R| {
        let cells = columns.with_value(|cols| {
            cols.iter()
                .map(|column| {
                    let content = match &column.cell {
                        Some(cell) => cell(&row),
                        None => column.text_of(&row).into_any(),
                    };
                    view! { <td class:numeric=column.numeric>{content}</td> }
                })
                .collect_view()
        });
        let select = select_cell(row_key(&row));
        view! { <tr aria-rowindex=move || row_index.get()>{select}{cells}</tr> }
    };

    // A windowed row's offset in the window is kept up to date by ForEnumerate as rows move.
    let render_windowed_row = move |offset: ReadSignal<usize>, (_, row): (String, R)| {
        render_row(
            Signal::derive(move || slice.get().0 + offset.get() + 2),
            row,
        )
    };

    let column_count = columns.with_value(Vec::len) + usize::from(selection.is_some());
    view! {
        <div class="data-table">
            <div class="table-toolbar">
                <label class="filter">
                    <span class="visually-hidden">"Filter rows of " {caption.clone()}</span>
                    <input
                        type="search"
                        placeholder="Filter…"
                        prop:value=filter_text
                        on:input=on_filter_input
                    />
                </label>
                <span class="row-count" aria-live="polite">
                    {move || {
                        let (shown_count, all) = (shown.with(Vec::len), total());
                        if shown_count == all {
                            format!("{all} rows")
                        } else {
                            format!("{shown_count} of {all} rows")
                        }
                    }}
                </span>
                {selection.map(|selected| view! {
                    <span class="selected-count" aria-live="polite">
                        {move || format!("{} selected", selected.with(BTreeSet::len))}
                    </span>
                    <button
                        type="button"
                        class="button"
                        disabled=move || selected.with(BTreeSet::is_empty)
                        on:click=move |_| selected.set(BTreeSet::new())
                    >
                        "Clear selection"
                    </button>
                })}
                {children.map(|c| c())}
                <label class="toggle" title="For printing and find-in-page; slower with thousands of rows">
                    <input
                        type="checkbox"
                        prop:checked=render_all
                        on:change=move |ev| {
                            let all = event_target_checked(&ev);
                            set_rows_param.set(all.then(|| "all".to_owned()));
                        }
                    />
                    " Show all rows"
                </label>
                <button type="button" class="button" on:click=export disabled=move || shown.with(Vec::is_empty)>
                    "Export CSV"
                </button>
            </div>
            {move || {
                if total() == 0 {
                    view! { <p class="empty-state">{empty.clone()}</p> }.into_any()
                } else if shown.with(Vec::is_empty) {
                    view! {
                        <div class="empty-state">
                            <p>"No rows match the filters."</p>
                            <button type="button" class="button" on:click=clear_filter>"Clear the text filter"</button>
                        </div>
                    }
                    .into_any()
                } else {
                    ().into_any()
                }
            }}
            <div
                class="table-scroll"
                node_ref=scroll_box
                hidden=move || shown.with(Vec::is_empty)
                on:scroll=move |ev| {
                    let target: web_sys::Element = event_target(&ev);
                    scroll_top.set(target.scroll_top() as f64);
                    view_height.set(target.client_height() as f64);
                }
            >
                <table aria-rowcount=move || shown.with(Vec::len) + 1>
                    <caption class="visually-hidden">{caption.clone()}</caption>
                    <thead>
                        <tr aria-rowindex="1">{select_header()}{header}</tr>
                    </thead>
                    <tbody>
                        <tr class="spacer" aria-hidden="true" style:height=move || format!("{}px", slice.get().0 as f64 * ROW_HEIGHT)>
                            <td colspan=column_count></td>
                        </tr>
                        {move || {
                            if render_all() {
                                // Every row shown: rows are updated in place by position. A
                                // keyed diff of thousands of interleaved rows is quadratic
                                // (over a minute at 10,000 after clearing a filter).
                                Either::Left(
                                    all_shown_rows()
                                        .into_iter()
                                        .enumerate()
                                        .map(|(position, row)| render_row(Signal::stored(position + 2), row))
                                        .collect_view(),
                                )
                            } else {
                                Either::Right(view! {
                                    <ForEnumerate
                                        each=visible_rows
                                        key=|(key, _)| key.clone()
                                        children=render_windowed_row
                                    />
                                })
                            }
                        }}
                        <tr class="spacer" aria-hidden="true" style:height=move || {
                            let (_, last, count) = slice.get();
                            format!("{}px", (count - last) as f64 * ROW_HEIGHT)
                        }>
                            <td colspan=column_count></td>
                        </tr>
                    </tbody>
                </table>
            </div>
        </div>
    }
}
