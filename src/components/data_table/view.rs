//! The table's non-generic core on screen, built from named parts as thaw builds its
//! table: [`TableState`] (the address's sort, filter and all-rows parameters, and the rows
//! shown), [`RowWindow`] (which rows are in view), the toolbar and empty states
//! ([`super::toolbar`]), and the header, rows and cells ([`super::rows`]). It knows rows
//! only through [`TableRows`](super::erased::TableRows), by index.

use super::erased::{csv_of_rows, search_texts, sorted_order, ColumnInfo, RowKeep, SharedRows};
use super::filtering::{needle_of, Narrowing};
use super::folding::{ranks_of, Folding, Measure};
use super::rows::{TableBody, TableHeader};
use super::toolbar::{EmptyStates, TableToolbar};
use super::windowing::{window_slice, Reach, ROW_HEIGHT};
use crate::components::after_paint::after_this_frame;
use crate::components::csv;
use leptos::prelude::*;
use leptos_router::hooks::query_signal_with_options;
use leptos_router::NavigateOptions;
use std::collections::BTreeSet;
use std::sync::Arc;

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
    pub wrap_first: bool,
}

/// One parameter of the address, `{prefix}{name}`, written without a history entry.
type UrlParameter = (Memo<Option<String>>, SignalSetter<Option<String>>);

/// The table's state: its rows and columns, the sort, filter and all-rows parameters of
/// the address, the filter as typed, and the rows shown (the page's filter, the text
/// filter and the sort applied). `Copy`, so each part takes it whole.
#[derive(Clone, Copy)]
pub(super) struct TableState {
    pub model: Signal<SharedRows>,
    pub columns: StoredValue<Vec<ColumnInfo>>,
    pub selection: Option<RwSignal<BTreeSet<String>>>,
    pub caption: StoredValue<String>,
    pub csv_name: &'static str,
    sort: UrlParameter,
    direction: UrlParameter,
    pub filter: UrlParameter,
    /// Windowing hides rows from find-in-page and printing; `rows=all` renders them all.
    pub all_rows: UrlParameter,
    pub filter_text: RwSignal<String>,
    /// Indices of the rows shown, in order.
    pub shown: Memo<Vec<usize>>,
    /// The row a shift-click range starts from: the last one ticked.
    pub anchor: StoredValue<Option<String>>,
    /// The width policy's state, the ranks in use, and the rows whose detail is open.
    pub folding: RwSignal<Folding>,
    ranks: StoredValue<Vec<u8>>,
    pub expanded: RwSignal<BTreeSet<String>>,
    /// Whether some columns are on a phone's card from the start (and the others only
    /// once it is opened).
    has_card_columns: bool,
}

impl TableState {
    fn new(spec: &mut TableSpec) -> Self {
        let url_options = NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        };
        let url_parameter = |name: &str| {
            let prefixed = format!("{}{name}", spec.url_prefix);
            query_signal_with_options::<String>(prefixed, url_options.clone())
        };
        let (sort, direction) = (url_parameter("sort"), url_parameter("dir"));
        let filter = url_parameter("q");
        let ranks = ranks_of(spec.columns.iter().map(|c| c.fold));
        let has_card_columns = spec.columns.iter().any(|c| c.card);
        let columns = StoredValue::new(std::mem::take(&mut spec.columns));
        let filter_text = RwSignal::new(filter.0.get_untracked().unwrap_or_default());
        let order = Order {
            sort: sort.0,
            direction: direction.0,
            columns,
        };
        TableState {
            model: spec.model,
            columns,
            selection: spec.selection,
            caption: StoredValue::new(spec.caption.clone()),
            csv_name: spec.csv_name,
            sort,
            direction,
            filter,
            all_rows: url_parameter("rows"),
            filter_text,
            shown: shown_rows(spec.model, order, spec.keep, filter_text),
            anchor: StoredValue::new(None),
            folding: RwSignal::new(if spec.wrap_first {
                Folding::wrapping_first()
            } else {
                Folding::default()
            }),
            ranks: StoredValue::new(ranks),
            expanded: RwSignal::new(BTreeSet::new()),
            has_card_columns,
        }
    }

    /// Whether rows have a "More" button: columns are folded, or the rows are cards
    /// with columns shown only once opened.
    pub fn shows_more(self) -> bool {
        self.folding
            .with(|f| f.folded_ranks() > 0 || (f.cards() && self.has_card_columns))
    }

    /// Whether the column at `index` is on a phone's card only once it is opened.
    pub fn off_card(self, index: usize) -> bool {
        self.has_card_columns && self.columns.with_value(|cols| !cols[index].card)
    }

    /// Whether the column at `index` is folded into the rows' detail now.
    pub fn is_folded(self, index: usize) -> bool {
        let fold = self.columns.with_value(|cols| cols[index].fold);
        self.ranks
            .with_value(|ranks| self.folding.with(|f| f.folds(fold, ranks)))
    }

    pub fn any_folded(self) -> bool {
        self.folding.with(|f| f.folded_ranks() > 0)
    }

    /// Whether the rows take two lines now (the width policy's first step).
    pub fn wrapped(self) -> bool {
        self.folding.with(Folding::wrapped)
    }

    /// [`TableState::wrapped`], untracked; `None` once the table is gone.
    fn try_wrapped(self) -> Option<bool> {
        self.folding.try_with_untracked(Folding::wrapped)
    }

    /// One step of the width policy after measuring the scroll box and its table.
    fn fit_columns(self, scroller: &web_sys::Element) {
        let cards = scroller
            .query_selector("table")
            .ok()
            .flatten()
            .and_then(|table| window().get_computed_style(&table).ok().flatten())
            .and_then(|style| style.get_property_value("display").ok())
            .is_some_and(|display| display != "table");
        let measure = Measure {
            table: scroller.scroll_width() as f64,
            room: scroller.client_width() as f64,
            cards,
        };
        // A frame later the table may be gone (a page left, the Machines page's rehearsal
        // built off-screen and dropped): then there is nothing to fit.
        let (Some(rank_count), Some(mut folding)) = (
            self.ranks.try_with_value(Vec::len),
            self.folding.try_get_untracked(),
        ) else {
            return;
        };
        if folding.fit(measure, rank_count) {
            self.folding.set(folding);
        }
    }

    fn order(self) -> Order {
        Order {
            sort: self.sort.0,
            direction: self.direction.0,
            columns: self.columns,
        }
    }

    pub fn sort_column(self) -> Option<usize> {
        self.order().column()
    }

    pub fn descending(self) -> bool {
        self.order().descending()
    }

    /// Sorts by `key`, ascending first, the other way on a second click.
    pub fn sort_by(self, key: &'static str) {
        let same = self.sort.0.get_untracked().as_deref() == Some(key);
        let next_desc = same && self.direction.0.get_untracked().as_deref() != Some("desc");
        self.sort.1.set(Some(key.to_owned()));
        self.direction
            .1
            .set(Some(if next_desc { "desc" } else { "asc" }.to_owned()));
    }

    pub fn render_all(self) -> bool {
        self.all_rows.0.get().as_deref() == Some("all")
    }

    pub fn total(self) -> usize {
        self.model.with(|m| m.0.row_count())
    }

    pub fn clear_filter(self) {
        self.filter_text.set(String::new());
        self.filter.1.set(None);
    }

    /// The keys of the shown rows, in order, for select-all and shift-click ranges.
    pub fn shown_keys(self) -> Vec<String> {
        self.shown.with_untracked(|shown| {
            self.model
                .with_untracked(|m| shown.iter().map(|&row| m.0.key(row)).collect())
        })
    }

    /// Downloads the shown rows as `{csv_name}.csv`.
    pub fn export(self) {
        let text = self.columns.with_value(|cols| {
            self.model.with_untracked(|m| {
                self.shown
                    .with_untracked(|shown| csv_of_rows(&*m.0, cols, shown))
            })
        });
        if let Err(problem) = csv::download(&format!("{}.csv", self.csv_name), &text) {
            let caption = self.caption.get_value();
            leptos::logging::warn!("CSV export of {caption} failed: {problem}");
        }
    }
}

/// The sort the address asks for: a column key and a direction.
#[derive(Clone, Copy)]
struct Order {
    sort: Memo<Option<String>>,
    direction: Memo<Option<String>>,
    columns: StoredValue<Vec<ColumnInfo>>,
}

impl Order {
    fn column(self) -> Option<usize> {
        let key = self.sort.get()?;
        self.columns
            .with_value(|cols| cols.iter().position(|c| c.key == key))
    }

    fn descending(self) -> bool {
        self.direction.get().as_deref() == Some("desc")
    }
}

/// The rows the page's filter (`keep`) and the text filter keep, sorted.
fn shown_rows(
    model: Signal<SharedRows>,
    order: Order,
    keep: Option<Signal<Option<RowKeep>>>,
    filter_text: RwSignal<String>,
) -> Memo<Vec<usize>> {
    let columns = order.columns;
    // Lower-cased text of each row, computed once per data change, not per keystroke, and
    // only once a filter is typed (a memo runs when first read), so a large table paints
    // without it.
    let haystacks = Memo::new(move |_| {
        Arc::new(model.with(|m| columns.with_value(|cols| search_texts(&*m.0, cols))))
    });
    // Sorting depends on the rows and the sort only: a keystroke never sorts again.
    let sorted = Memo::new(move |_| {
        let (column, descending) = (order.column(), order.descending());
        Candidates(Arc::new(
            model.with(|m| sorted_order(&*m.0, column, descending)),
        ))
    });
    // The sorted rows the page's own filter keeps: what the text filter searches.
    let candidates = Memo::new(move |_| {
        let sorted = sorted.get();
        match keep.and_then(|k| k.get()) {
            None => sorted,
            Some(keep) => Candidates(Arc::new(
                sorted.0.iter().copied().filter(|&row| keep(row)).collect(),
            )),
        }
    });
    let narrowing = StoredValue::new(Narrowing::default());
    Memo::new(move |_| {
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
    })
}

/// Which rows of `shown` are in the scroll box's view, plus OVERSCAN rows either side. The
/// box's height is read on each scroll and resize; until then its CSS cap (70vh) is
/// assumed.
#[derive(Clone, Copy)]
pub(super) struct RowWindow {
    pub scroll_box: NodeRef<leptos::html::Div>,
    scroll_top: RwSignal<f64>,
    view_height: RwSignal<f64>,
    /// Rows are 36 px tall, but cards (on a phone) as tall as their lines: measured.
    pub row_height: RwSignal<f64>,
    /// How far the rows reach while the first ones arrive: the first row, the first
    /// screen, then the box's view and a margin (see `windowing`).
    reach: RwSignal<Reach>,
    /// The first and last positions in view, and how many rows are shown.
    pub slice: Memo<(usize, usize, usize)>,
}

impl RowWindow {
    fn new(state: TableState) -> Self {
        let scroll_top = RwSignal::new(0.0f64);
        let view_height = RwSignal::new(window_height().unwrap_or(900.0) * 0.7);
        let row_height = RwSignal::new(ROW_HEIGHT);
        let reach = RwSignal::new(Reach::FirstRow);
        let slice = Memo::new(move |_| {
            let count = state.shown.with(Vec::len);
            // With every row rendered, scrolling changes nothing: do not track it.
            if state.render_all() {
                return window_slice(0.0, 0.0, count, true, ROW_HEIGHT, Reach::Settled);
            }
            window_slice(
                scroll_top.get(),
                view_height.get(),
                count,
                false,
                row_height.get(),
                reach.get(),
            )
        });
        let rows = RowWindow {
            scroll_box: NodeRef::new(),
            scroll_top,
            view_height,
            row_height,
            reach,
            slice,
        };
        let on_resize = window_event_listener(leptos::ev::resize, move |_| {
            if let Some(scroller) = rows.scroll_box.get_untracked() {
                rows.measure(&scroller);
                state.fit_columns(&scroller);
            }
        });
        // Fit the columns once the rows are on screen, again after each fold (a frame
        // later, when the fold is laid out) and whenever the rows shown change.
        Effect::new(move |_| {
            state.folding.track();
            state.shown.track();
            if let Some(scroller) = rows.scroll_box.get() {
                request_animation_frame(move || {
                    // Two-line rows are taller: the windowing counts with their height,
                    // measured as they come and go; so are a phone's cards, measured on
                    // the first row before any other is built.
                    let first_row = rows.reach.try_get_untracked() == Some(Reach::FirstRow);
                    let measured = rows.row_height.try_get_untracked() != Some(ROW_HEIGHT);
                    if first_row || state.try_wrapped() == Some(true) || measured {
                        let has_row = rows.measure_row_height(&scroller);
                        if first_row && has_row {
                            rows.reach_first_screen(&scroller);
                        }
                    }
                    state.fit_columns(&scroller);
                });
            }
        });
        on_cleanup(move || on_resize.remove());
        rows
    }

    fn measure(self, scroller: &web_sys::Element) {
        self.view_height.set(scroller.client_height() as f64);
        self.measure_row_height(scroller);
    }

    /// The rows' height, from the first one: cards on a phone, two-line rows; whether
    /// there was a row to measure. A frame after a fold the table may be gone (a page
    /// left): then nothing is measured.
    fn measure_row_height(self, scroller: &web_sys::Element) -> bool {
        let Some(known) = self.row_height.try_get_untracked() else {
            return false;
        };
        let Some(first_row) = scroller
            .query_selector("tbody tr:not(.spacer)")
            .ok()
            .flatten()
        else {
            return false;
        };
        // Never below the table rows' height, which the stylesheet fixes.
        let height = first_row
            .get_bounding_client_rect()
            .height()
            .max(ROW_HEIGHT);
        if height != known {
            self.row_height.try_set(height);
        }
        true
    }

    /// Once the first row is in and measured, the rows on the first screen: those this
    /// frame paints. The rest of the box's view and the margin follow right after that
    /// paint. Called from an animation frame callback.
    fn reach_first_screen(self, scroller: &web_sys::Element) {
        let on_screen = window_height().unwrap_or(0.0) - scroller.get_bounding_client_rect().top();
        let row_height = self.row_height.try_get_untracked().unwrap_or(ROW_HEIGHT);
        self.reach.try_set(Reach::FirstScreen {
            height: on_screen.max(row_height),
        });
        after_this_frame(move || {
            self.reach.try_set(Reach::Settled);
        });
    }

    fn on_scroll(self, target: &web_sys::Element) {
        self.scroll_top.set(target.scroll_top() as f64);
        self.measure(target);
    }

    /// The positions in `shown` of the rows in the window.
    pub fn positions(self) -> Vec<usize> {
        let (first, last, _) = self.slice.get();
        (first..last).collect()
    }
}

/// The browser window's inner height, in CSS pixels.
fn window_height() -> Option<f64> {
    window().inner_height().ok()?.as_f64()
}

pub fn table_core(mut spec: TableSpec) -> AnyView {
    let state = TableState::new(&mut spec);
    let rows = RowWindow::new(state);
    let shown = state.shown;
    view! {
        <div class="data-table cards-on-phone" class:two-line=move || state.wrapped()>
            <TableToolbar state=state extra=spec.children />
            <EmptyStates state=state empty=spec.empty />
            <div
                class="table-scroll"
                node_ref=rows.scroll_box
                hidden=move || shown.with(Vec::is_empty)
                on:scroll=move |ev| rows.on_scroll(&event_target(&ev))
            >
                <table aria-rowcount=move || shown.with(Vec::len) + 1>
                    <caption class="visually-hidden">{state.caption.get_value()}</caption>
                    <TableHeader state=state />
                    <TableBody state=state rows=rows />
                </table>
            </div>
        </div>
    }
    .into_any()
}
