//! The table's header, rows and cells: a sortable header cell per column, a select-all
//! cell, and the body's rows, either windowed slots (the rows in view, updated in place)
//! or every row drawn once (`rows=all`); while columns are folded (the width policy,
//! [`super::folding`]), each row's "More" button and its detail with the folded cells.

use super::selection::{all_shown_state, range_keys, set_all, AllShown};
use super::view::{RowWindow, TableState};
use leptos::either::Either;
use leptos::prelude::*;

/// The header row: the select-all cell when rows can be selected, then one sortable cell
/// per column.
#[component]
pub(super) fn TableHeader(state: TableState) -> impl IntoView {
    let cells = state.columns.with_value(|cols| {
        cols.iter()
            .enumerate()
            .map(|(index, column)| {
                view! {
                    <HeaderCell
                        state=state
                        index=index
                        key=column.key
                        label=column.label
                        numeric=column.numeric
                    />
                }
            })
            .collect_view()
    });
    // The header of the rows' "More" buttons, while any column is folded into them.
    let more = move || {
        state.shows_more().then(|| {
            view! {
                <th scope="col" class="more">
                    <span class="visually-hidden">"More"</span>
                </th>
            }
        })
    };
    view! {
        <thead>
            <tr aria-rowindex="1">
                {state.selection.map(|_| view! { <SelectAllCell state=state /> })}{cells}{more}
            </tr>
        </thead>
    }
}

/// A column's header: a button that sorts by it, and its sort said to assistive tech.
#[component]
fn HeaderCell(
    state: TableState,
    index: usize,
    key: &'static str,
    label: &'static str,
    numeric: bool,
) -> impl IntoView {
    let aria_sort = move || match (state.sort_column() == Some(index), state.descending()) {
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
        <th
            scope="col"
            aria-sort=aria_sort
            class:numeric=numeric
            class:folded=move || state.is_folded(index)
            data-key=key
        >
            <button type="button" class="sort" on:click=move |_| state.sort_by(key)>
                {label}
                <span aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
}

/// Ticks or clears every shown row; mixed when some are ticked.
#[component]
fn SelectAllCell(state: TableState) -> impl IntoView {
    let selected = state.selection?;
    let all_shown = Memo::new(move |_| {
        state.shown.track();
        state.model.track();
        selected.with(|s| all_shown_state(&state.shown_keys(), s))
    });
    let caption = state.caption.get_value();
    Some(view! {
        <th scope="col" class="select">
            <input
                type="checkbox"
                aria-label=format!("Select all shown rows of {caption}")
                prop:checked=move || all_shown.get() == AllShown::All
                prop:indeterminate=move || all_shown.get() == AllShown::Some
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    let keys = state.shown_keys();
                    selected.update(|s| set_all(s, &keys, on));
                    state.anchor.set_value(None);
                }
            />
        </th>
    })
}

/// A row's tick box; a shift-click ticks or clears the range from the last one ticked.
/// `key` is the key of the row the cell is in: it changes when a windowed row slot is
/// given another row.
fn select_cell(state: TableState, key: Signal<String>) -> Option<impl IntoView> {
    let selected = state.selection?;
    Some(view! {
        <td class="select">
            <input
                type="checkbox"
                aria-label=move || key.with(|key| format!("Select {key}"))
                prop:checked=move || key.with(|key| selected.with(|s| s.contains(key)))
                on:click=move |ev: leptos::ev::MouseEvent| {
                    let on = event_target_checked(&ev);
                    let key = key.get_untracked();
                    let keys = if ev.shift_key() {
                        range_keys(&state.shown_keys(), state.anchor.get_value().as_deref(), &key)
                    } else {
                        vec![key.clone()]
                    };
                    selected.update(|s| set_all(s, &keys, on));
                    state.anchor.set_value(Some(key));
                }
            />
        </td>
    })
}

/// A row with every row rendered (`rows=all`): drawn once, nothing in it reactive, as
/// thousands of rows times their cells of reactive effects would cost far more.
fn static_row(state: TableState, position: usize, row: usize) -> impl IntoView {
    let model = state.model.get_untracked();
    let cells = state.columns.with_value(|cols| {
        cols.iter()
            .enumerate()
            .map(|(column, info)| {
                view! {
                    <td
                        class:numeric=info.numeric
                        class:folded=state.is_folded(column)
                        class:off-card=state.off_card(column)
                        data-label=info.label
                    >
                        {model.0.cell(row, column)}
                    </td>
                }
            })
            .collect_view()
    });
    let key = model.0.key(row);
    let select = select_cell(state, Signal::stored(key.clone()));
    // The body is drawn again when columns fold (see `TableBody`): only then are the
    // rows given their "More" buttons and details, which are reactive.
    let folded = state
        .folding
        .with_untracked(|f| f.folded_ranks() > 0 || f.cards());
    let key_of = Signal::stored(key.clone());
    let more = folded.then(|| {
        (
            more_cell(state, key_of),
            row_detail(state, Signal::stored(Some(row)), key_of),
        )
    });
    let (more, detail) = more.unzip();
    view! {
        <tr aria-rowindex=position + 2 data-key=key.clone() class:open=is_open(state, key_of)>
            {select}
            {cells}
            {more}
        </tr>
        {detail}
    }
}

/// Whether the row of `key` is opened (its detail shown, or its whole card).
fn is_open(state: TableState, key: Signal<String>) -> impl Fn() -> bool + Copy {
    move || key.with(|key| state.expanded.with(|e| e.contains(key)))
}

/// The row's "More" button, while any column is folded or the row is a card with columns
/// shown only once opened: it opens the row's detail, or the whole card.
fn more_cell(state: TableState, key: Signal<String>) -> impl IntoView {
    let open = is_open(state, key);
    move || {
        state.shows_more().then(|| {
            view! {
                <td class="more">
                    <button
                        type="button"
                        class="more-toggle"
                        aria-expanded=move || open().to_string()
                        aria-label=move || key.with(|key| format!("More of {key}"))
                        on:click=move |_| {
                            let key = key.get_untracked();
                            state
                                .expanded
                                .update(|e| {
                                    if !e.remove(&key) {
                                        e.insert(key);
                                    }
                                });
                        }
                    >
                        {move || if open() { "Less" } else { "More" }}
                    </button>
                </td>
            }
        })
    }
}

/// The row's detail, under it while open: each folded column's label and cell.
fn row_detail(state: TableState, row: Signal<Option<usize>>, key: Signal<String>) -> impl IntoView {
    let model = state.model;
    move || {
        let open = key.with(|key| state.expanded.with(|e| e.contains(key)));
        let row = row.get().filter(|_| open && state.any_folded())?;
        let span = state.columns.with_value(Vec::len) + 2;
        let parts = state.columns.with_value(|cols| {
            cols.iter()
                .enumerate()
                .filter(|(column, _)| state.is_folded(*column))
                .map(|(column, info)| {
                    view! {
                        <div data-key=info.key>
                            <dt>{info.label}</dt>
                            <dd>{model.with(|m| m.0.cell(row, column))}</dd>
                        </div>
                    }
                })
                .collect_view()
        });
        Some(view! {
            <tr class="row-detail">
                <td colspan=span>
                    <dl>{parts}</dl>
                </td>
            </tr>
        })
    }
}

/// A windowed row slot: the row at `position` of the shown rows, whichever row that is
/// now. `aria-rowindex` is the position plus 2 (the header row is 1).
fn row_slot(state: TableState, position: usize) -> impl IntoView {
    let model = state.model;
    let row = Memo::new(move |_| state.shown.with(|shown| shown.get(position).copied()));
    let cells = state.columns.with_value(|cols| {
        cols.iter()
            .enumerate()
            .map(|(column, info)| {
                let cell = move || row.get().map(|row| model.with(|m| m.0.cell(row, column)));
                view! {
                    <td
                        class:numeric=info.numeric
                        class:folded=move || state.is_folded(column)
                        class:off-card=state.off_card(column)
                        data-label=info.label
                    >
                        {cell}
                    </td>
                }
            })
            .collect_view()
    });
    let key = Signal::derive(move || {
        row.get()
            .map(|row| model.with(|m| m.0.key(row)))
            .unwrap_or_default()
    });
    let select = select_cell(state, key);
    view! {
        <tr aria-rowindex=position + 2 data-key=key class:open=is_open(state, key)>
            {select}
            {cells}
            {more_cell(state, key)}
        </tr>
        {row_detail(state, row.into(), key)}
    }
}

/// The body: the rows in view (or all of them) between two spacers as tall as the rows
/// left out above and below, so the scroll bar is the whole table's.
#[component]
pub(super) fn TableBody(state: TableState, rows: RowWindow) -> impl IntoView {
    let cell_count = state.columns.with_value(Vec::len) + usize::from(state.selection.is_some());
    let (slice, row_height) = (rows.slice, rows.row_height);
    // Windowed rows are keyed by position: scrolling adds and removes rows only at the
    // window's edges, and a filter keystroke, a sort or a reload rewrites the rows in view
    // in place (their text nodes) instead of dropping them and building new ones.
    let rows_in_view = move || {
        if state.render_all() {
            // Every row shown: rows are updated in place by position. A keyed diff of
            // thousands of interleaved rows is quadratic (over a minute at 10,000 after
            // clearing a filter). A reload redraws them even when the same indices are
            // shown.
            state.model.track();
            state.folding.track();
            Either::Left(
                state
                    .shown
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(position, row)| static_row(state, position, row))
                    .collect_view(),
            )
        } else {
            Either::Right(view! {
                <For
                    each=move || rows.positions()
                    key=|position| *position
                    children=move |position| row_slot(state, position)
                />
            })
        }
    };
    view! {
        <tbody>
            <tr
                class="spacer"
                aria-hidden="true"
                style:height=move || format!("{}px", slice.get().0 as f64 * row_height.get())
            >
                <td colspan=cell_count></td>
            </tr>
            {rows_in_view}
            <tr
                class="spacer"
                aria-hidden="true"
                style:height=move || {
                    let (_, last, count) = slice.get();
                    format!("{}px", (count - last) as f64 * row_height.get())
                }
            >
                <td colspan=cell_count></td>
            </tr>
        </tbody>
    }
}
