//! The table's toolbar (the text filter, the counts, the selection, the all-rows toggle
//! and CSV export) and its empty states.

use super::view::TableState;
use crate::components::form_field::FormField;
use leptos::prelude::*;
use leptos_use_fn_debounce_throttle::use_debounce_fn_with_arg;
use std::collections::BTreeSet;

/// How long typing must pause before the filter is written to the URL.
const URL_DEBOUNCE_MS: f64 = 300.0;
const ALL_ROWS_TITLE: &str = "For printing and find-in-page; slower with thousands of rows";

#[component]
pub(super) fn TableToolbar(
    state: TableState,
    /// The page's own controls, after the counts.
    extra: Option<Children>,
) -> impl IntoView {
    let (shown, filter_text) = (state.shown, state.filter_text);
    let write_filter_to_url = use_debounce_fn_with_arg(
        move |value: String| state.filter.1.set(Some(value).filter(|v| !v.is_empty())),
        URL_DEBOUNCE_MS,
    );
    let on_filter_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        filter_text.set(value.clone());
        write_filter_to_url(value);
    };
    let caption = state.caption.get_value();
    let csv_name = state.csv_name;
    view! {
        <div class="table-toolbar">
            // Named after the CSV file, which is unique among the tables.
            <FormField
                id=format!("{csv_name}-row-filter")
                label=format!("Filter rows of {caption}")
                label_class="visually-hidden"
                class="filter"
            >
                <input
                    type="search"
                    placeholder="Filter…"
                    prop:value=filter_text
                    on:input=on_filter_input
                />
            </FormField>
            <span class="row-count" aria-live="polite">
                {move || {
                    let (shown_count, all) = (shown.with(Vec::len), state.total());
                    if shown_count == all {
                        format!("{all} rows")
                    } else {
                        format!("{shown_count} of {all} rows")
                    }
                }}
            </span>
            {state
                .selection
                .map(|selected| {
                    view! {
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
                    }
                })}
            {extra.map(|c| c())}
            <label class="toggle" title=ALL_ROWS_TITLE>
                <input
                    type="checkbox"
                    prop:checked=move || state.render_all()
                    on:change=move |ev| {
                        let all = event_target_checked(&ev);
                        state.all_rows.1.set(all.then(|| "all".to_owned()));
                    }
                />
                " Show all rows"
            </label>
            <button
                type="button"
                class="button"
                on:click=move |_| state.export()
                disabled=move || shown.with(Vec::is_empty)
            >
                "Export CSV"
            </button>
        </div>
    }
}

/// What the table says instead of rows: the page's sentence when there are none at all,
/// or that the filters keep none, with a way to clear the text filter.
#[component]
pub(super) fn EmptyStates(state: TableState, empty: String) -> impl IntoView {
    move || {
        if state.total() == 0 {
            view! { <p class="empty-state">{empty.clone()}</p> }.into_any()
        } else if state.shown.with(Vec::is_empty) {
            view! {
                <div class="empty-state">
                    <p>"No rows match the filters."</p>
                    <button type="button" class="button" on:click=move |_| state.clear_filter()>
                        "Clear the text filter"
                    </button>
                </div>
            }
            .into_any()
        } else {
            ().into_any()
        }
    }
}
