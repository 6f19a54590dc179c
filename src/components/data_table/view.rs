//! The table's non-generic core on screen: toolbar (filter, counts, all rows, CSV), empty
//! states, and the windowed body. It knows rows only through [`TableRows`], by index.

use super::erased::{csv_of_rows, search_texts, sorted_order, ColumnInfo, RowKeep, SharedRows};
use super::filtering::{needle_of, Narrowing};
use super::selection::{all_shown_state, range_keys, set_all, AllShown};
use super::windowing::{window_slice, ROW_HEIGHT};
use crate::components::csv;
use crate::components::form_field::FormField;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::query_signal_with_options;
use leptos_router::NavigateOptions;
use leptos_use_fn_debounce_throttle::use_debounce_fn_with_arg;
use std::collections::BTreeSet;
use std::sync::Arc;

/// How long typing must pause before the filter is written to the URL.
const URL_DEBOUNCE_MS: f64 = 300.0;

/// Row indices, a new list for each computation, so narrowing can tell them apart by
/// identity (see [`Narrowing`]).
#[derive(Clone)]
struct Candidates(Arc<Vec<usize>>);

impl PartialEq for Candidates {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Everything the core needs, the rows' type erased (see [`DataTable`](super::DataTable)
/// for what each part means).
pub struct TableSpec {
    pub model: Signal<SharedRows>,
    pub columns: Vec<ColumnInfo>,
    pub keep: Option<Signal<Option<RowKeep>>>,
    pub empty: String,
    pub csv_name: &'static str,
    pub caption: String,
    pub selection: Option<RwSignal<BTreeSet<String>>>,
    pub children: Option<Children>,
    pub url_prefix: &'static str,
}

pub fn table_core(spec: TableSpec) -> AnyView {
    // What many closures below read; the other parts are taken where they are used.
    let TableSpec {
        model,
        keep,
        selection,
        csv_name,
        caption,
        ..
    } = spec;
    let url_options = NavigateOptions {
        replace: true,
        scroll: false,
        ..Default::default()
    };
    let url_parameter = |name: &str| {
        let prefixed = format!("{}{name}", spec.url_prefix);
        query_signal_with_options::<String>(prefixed, url_options.clone())
    };
    let (sort_param, set_sort_param) = url_parameter("sort");
    let (dir_param, set_dir_param) = url_parameter("dir");
    let (filter_param, set_filter_param) = url_parameter("q");
    // Windowing hides rows from find-in-page and printing; `rows=all` renders them all.
    let (rows_param, set_rows_param) = url_parameter("rows");
    let render_all = move || rows_param.get().as_deref() == Some("all");

    let column_count = spec.columns.len();
    let columns = StoredValue::new(spec.columns);
    let filter_text = RwSignal::new(filter_param.get_untracked().unwrap_or_default());

    let sort_column = move || {
        let key = sort_param.get()?;
        columns.with_value(|cols| cols.iter().position(|c| c.key == key))
    };
    let descending = move || dir_param.get().as_deref() == Some("desc");

    // Lower-cased text of each row, computed once per data change, not per keystroke, and
    // only once a filter is typed (a memo runs when first read), so a large table paints
    // without it.
    let haystacks = Memo::new(move |_| {
        Arc::new(model.with(|m| columns.with_value(|cols| search_texts(&*m.0, cols))))
    });
    // Sorting depends on the rows and the sort only: a keystroke never sorts again.
    let order = Memo::new(move |_| {
        let (column, descending) = (sort_column(), descending());
        Candidates(Arc::new(
            model.with(|m| sorted_order(&*m.0, column, descending)),
        ))
    });
    // The sorted rows the page's own filter keeps: what the text filter searches.
    let candidates = Memo::new(move |_| {
        let order = order.get();
        match keep.and_then(|k| k.get()) {
            None => order,
            Some(keep) => Candidates(Arc::new(
                order.0.iter().copied().filter(|&row| keep(row)).collect(),
            )),
        }
    });
    let narrowing = StoredValue::new(Narrowing::default());
    let shown = Memo::new(move |_| {
        let needle = needle_of(&filter_text.get());
        let candidates = candidates.get().0;
        if needle.is_empty() {
            narrowing.update_value(Narrowing::reset);
            return candidates.to_vec();
        }
        haystacks.with(|hay| {
            narrowing
                .try_update_value(|n| n.filter(&candidates, &needle, hay))
                .unwrap_or_default()
        })
    });
    let total = move || model.with(|m| m.0.row_count());

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
    // Rows are 36 px tall, but cards (on a phone) as tall as their lines: measured.
    let row_height = RwSignal::new(ROW_HEIGHT);
    let measure = move |scroller: &web_sys::Element| {
        view_height.set(scroller.client_height() as f64);
        let first_row = scroller
            .query_selector("tbody tr:not(.spacer)")
            .ok()
            .flatten();
        // Never below the table rows' height, which the stylesheet fixes.
        if let Some(height) = first_row
            .map(|row| row.get_bounding_client_rect().height().max(ROW_HEIGHT))
            .filter(|height| *height != row_height.get_untracked())
        {
            row_height.set(height);
        }
    };
    let on_resize = window_event_listener(leptos::ev::resize, move |_| {
        if let Some(scroller) = scroll_box.get_untracked() {
            measure(&scroller);
        }
    });
    on_cleanup(move || on_resize.remove());
    let slice = Memo::new(move |_| {
        let count = shown.with(Vec::len);
        // With every row rendered, scrolling changes nothing: do not track it.
        if render_all() {
            return window_slice(0.0, 0.0, count, true, ROW_HEIGHT);
        }
        window_slice(
            scroll_top.get(),
            view_height.get(),
            count,
            false,
            row_height.get(),
        )
    });
    // The positions in `shown` of the rows in the window. Windowed rows are keyed by
    // position: scrolling adds and removes rows only at the window's edges, and a filter
    // keystroke, a sort or a reload rewrites the rows in view in place (their text nodes)
    // instead of dropping them and building new ones.
    let window_positions = move || {
        let (first, last, _) = slice.get();
        (first..last).collect::<Vec<usize>>()
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
            model.with_untracked(|m| shown.with_untracked(|shown| csv_of_rows(&*m.0, cols, shown)))
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
            model.with_untracked(|m| {
                shown
                    .iter()
                    .map(|&row| m.0.key(row))
                    .collect::<Vec<String>>()
            })
        })
    };
    let anchor = StoredValue::new(None::<String>);
    let select_header = move || {
        selection.map(|selected| {
            let state = Memo::new(move |_| {
                shown.track();
                model.track();
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
    // `key` is the key of the row the cell is in: it changes when a windowed row slot is
    // given another row.
    let select_cell = move |key: Signal<String>| {
        selection.map(|selected| {
            view! {
                <td class="select">
                    <input
                        type="checkbox"
                        aria-label=move || key.with(|key| format!("Select {key}"))
                        prop:checked=move || key.with(|key| selected.with(|s| s.contains(key)))
                        on:click=move |ev: leptos::ev::MouseEvent| {
                            let on = event_target_checked(&ev);
                            let key = key.get_untracked();
                            let keys = if ev.shift_key() {
                                range_keys(&shown_keys(), anchor.get_value().as_deref(), &key)
                            } else {
                                vec![key.clone()]
                            };
                            selected.update(|s| set_all(s, &keys, on));
                            anchor.set_value(Some(key));
                        }
                    />
                </td>
            }
        })
    };

    // Rows with every row rendered (`rows=all`): drawn once, nothing in them reactive, as
    // thousands of rows times their cells of reactive effects would cost far more.
    let render_row = move |position: usize, row: usize| {
        let model = model.get_untracked();
        let cells = columns.with_value(|cols| {
            cols.iter()
                .enumerate()
                .map(|(column, info)| {
                    view! { <td class:numeric=info.numeric data-label=info.label>{model.0.cell(row, column)}</td> }
                })
                .collect_view()
        });
        let key = model.0.key(row);
        let select = select_cell(Signal::stored(key.clone()));
        view! { <tr aria-rowindex=position + 2 data-key=key>{select}{cells}</tr> }
    };

    // A windowed row slot: the row at `position` of `shown`, whichever row that is now.
    // `aria-rowindex` is the position plus 2 (the header row is 1).
    let render_slot = move |position: usize| {
        let row = Memo::new(move |_| shown.with(|shown| shown.get(position).copied()));
        let cells = columns.with_value(|cols| {
            cols.iter()
                .enumerate()
                .map(|(column, info)| {
                    let cell = move || row.get().map(|row| model.with(|m| m.0.cell(row, column)));
                    view! { <td class:numeric=info.numeric data-label=info.label>{cell}</td> }
                })
                .collect_view()
        });
        let key = Signal::derive(move || {
            row.get()
                .map(|row| model.with(|m| m.0.key(row)))
                .unwrap_or_default()
        });
        let select = select_cell(key);
        view! { <tr aria-rowindex=position + 2 data-key=key>{select}{cells}</tr> }
    };

    let cell_count = column_count + usize::from(selection.is_some());
    let empty = spec.empty;
    view! {
        <div class="data-table cards-on-phone">
            <div class="table-toolbar">
                // Named after the CSV file, which is unique among the tables.
                <FormField id=format!("{csv_name}-row-filter") label=format!("Filter rows of {caption}")
                    label_class="visually-hidden" class="filter">
                    <input
                        type="search"
                        placeholder="Filter…"
                        prop:value=filter_text
                        on:input=on_filter_input
                    />
                </FormField>
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
                {spec.children.map(|c| c())}
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
                    measure(&target);
                }
            >
                <table aria-rowcount=move || shown.with(Vec::len) + 1>
                    <caption class="visually-hidden">{caption.clone()}</caption>
                    <thead>
                        <tr aria-rowindex="1">{select_header()}{header}</tr>
                    </thead>
                    <tbody>
                        <tr class="spacer" aria-hidden="true" style:height=move || format!("{}px", slice.get().0 as f64 * row_height.get())>
                            <td colspan=cell_count></td>
                        </tr>
                        {move || {
                            if render_all() {
                                // Every row shown: rows are updated in place by position. A
                                // keyed diff of thousands of interleaved rows is quadratic
                                // (over a minute at 10,000 after clearing a filter).
                                // A reload redraws them even when the same indices are shown.
                                model.track();
                                Either::Left(
                                    shown
                                        .get()
                                        .into_iter()
                                        .enumerate()
                                        .map(|(position, row)| render_row(position, row))
                                        .collect_view(),
                                )
                            } else {
                                Either::Right(view! {
                                    <For each=window_positions key=|position| *position children=render_slot/>
                                })
                            }
                        }}
                        <tr class="spacer" aria-hidden="true" style:height=move || {
                            let (_, last, count) = slice.get();
                            format!("{}px", (count - last) as f64 * row_height.get())
                        }>
                            <td colspan=cell_count></td>
                        </tr>
                    </tbody>
                </table>
            </div>
        </div>
    }
    .into_any()
}
