//! Route splitting: with the `split` feature each page is a lazy route whose code
//! `cargo xtask` cuts into its own wasm chunk (wasm-split), loaded when the page is first
//! opened. Without the feature (`trunk serve`, the wasm-bindgen-test suites) `page!` is
//! the page's component itself and nothing here runs.
//!
//! The router declares a route's view as `page!(SomeRoute for ENTRY, pages::some::SomePage)`:
//! `SomeRoute` is a new type that names the split chunk, and `ENTRY` the page's entry in
//! the route table (`gpudeck_pages`), whose `route` must name that type (the compiler
//! checks it).

/// Loads one split without running it: a lazy route's chunk, or a page's part.
pub type Preload = fn() -> std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>;

#[cfg(feature = "split")]
mod lazy {
    use super::Preload;
    use std::cell::{Cell, RefCell};

    thread_local! {
        /// Every lazy route the router declared, with its page in the route table, for
        /// [`preload_after_first_paint`] and [`load_page_at`].
        static ROUTES: RefCell<Vec<(&'static gpudeck_pages::Page, Preload)>> =
            const { RefCell::new(Vec::new()) };
        /// Lazy pages the router has chosen whose view has not been built yet (their
        /// chunks are loading).
        static OPENING: Cell<usize> = const { Cell::new(0) };
        /// Pages shown now that keep other pages' code off the network: see
        /// [`hold_preloads`].
        static HOLDS: Cell<usize> = const { Cell::new(0) };
    }

    /// Keeps the preload from starting another page's chunk until the hold is dropped. For
    /// a page whose next step sends the requests a person waits for: on sign-in, a chunk
    /// still arriving when Enter is pressed delays the key check and the fleet behind it
    /// (on a phone network, by half a second).
    #[must_use = "the hold ends when it is dropped"]
    pub struct PreloadHold(());

    pub fn hold_preloads() -> PreloadHold {
        HOLDS.set(HOLDS.get() + 1);
        PreloadHold(())
    }

    impl Drop for PreloadHold {
        fn drop(&mut self) {
            HOLDS.set(HOLDS.get().saturating_sub(1));
        }
    }

    /// How often a held preload looks again whether it may go on.
    const HOLD_POLL_MS: u32 = 100;

    /// Called by `page!` as the router is built.
    pub fn register(page: &'static gpudeck_pages::Page, preload: Preload) {
        ROUTES.with_borrow_mut(|routes| routes.push((page, preload)));
    }

    /// Loads the code of the page at `path` (without its query) now, hold or not, and
    /// resolves once it is loaded: sign-in readies the page it opens next while the person
    /// types, so that Enter waits only for the network. Resolves at once for a path no
    /// route serves.
    pub async fn load_page_at(path: &str) {
        let preload = ROUTES.with_borrow(|routes| {
            routes
                .iter()
                .find(|(page, _)| page.serves(path))
                .map(|(_, preload)| *preload)
        });
        if let Some(preload) = preload {
            preload().await;
        }
    }

    /// Called by `page!` when the router chooses a lazy page, before its chunk loads.
    pub fn page_opening() {
        OPENING.set(OPENING.get() + 1);
    }

    /// Called by `page!` once the page's chunk is loaded and its view is being built.
    pub fn page_built() {
        OPENING.set(OPENING.get().saturating_sub(1));
    }

    /// Once the page first opened has painted, loads the other pages' chunks one after
    /// another, then each page's part in `parts` (see [`crate::page_part`]), so that
    /// neither the next navigation nor the next dialog waits for the network. The first
    /// paint of a lazy page is the one after its own chunk has loaded: preloading before
    /// that would queue a hundred requests ahead of the page's chunks and its API calls, on
    /// the six connections a browser opens to one HTTP/1.1 server. Each chunk also waits for
    /// the API answers under way, and for any [`hold_preloads`] to end. A chunk already
    /// loading is not fetched twice: the loader shares one load per chunk.
    pub fn preload_after_first_paint(parts: &'static [Preload]) {
        leptos::task::spawn_local(async move {
            next_frame().await;
            until_the_page_has_painted().await;
            let routes = ROUTES.with_borrow(Clone::clone);
            for preload in routes
                .into_iter()
                .map(|(_, preload)| preload)
                .chain(parts.iter().copied())
            {
                if until_no_hold().await {
                    // The hold ended on the way to another page: let it open first.
                    until_the_page_has_painted().await;
                }
                until_no_data_is_awaited().await;
                preload().await;
            }
        });
    }

    /// Loads the part of the page being built, the forms and dialogs it shows only on
    /// demand ([`crate::page_part`]), once the page has painted and its data has arrived,
    /// beside the other pages' code rather than after all of it: its bytes stay out of
    /// the page's pack, and opening one soon waits for nothing. A part already loaded
    /// resolves at once.
    pub fn preload_part(part: Preload) {
        leptos::task::spawn_local(async move {
            next_frame().await;
            until_the_page_has_painted().await;
            until_no_hold().await;
            until_no_data_is_awaited().await;
            part().await;
        });
    }

    /// Resolves once no [`hold_preloads`] keeps other code off the network; whether one did.
    async fn until_no_hold() -> bool {
        let held = HOLDS.get() > 0;
        while HOLDS.get() > 0 {
            gloo_timers::future::TimeoutFuture::new(HOLD_POLL_MS).await;
        }
        held
    }

    /// Resolves once no lazy page is opening and the next frame has painted.
    async fn until_the_page_has_painted() {
        while OPENING.get() > 0 {
            next_frame().await;
        }
        after_the_next_paint().await;
    }

    /// The longest the preload waits for API answers: a request that never ends must not
    /// stop it for good.
    const DATA_PATIENCE_MS: f64 = 10_000.0;

    /// Resolves once no API request is on its way and what the last one brought has
    /// painted, so that other pages' code never shares the network with the data a person
    /// is waiting for (the page just opened, or the next one they went to).
    async fn until_no_data_is_awaited() {
        let since = js_sys::Date::now();
        let mut waited = false;
        while crate::api::any_in_flight() && js_sys::Date::now() - since < DATA_PATIENCE_MS {
            waited = true;
            next_frame().await;
        }
        if waited {
            after_the_next_paint().await;
        }
    }

    /// Resolves after the next frame has painted: a task queued from an animation frame
    /// callback runs after that frame's paint.
    async fn after_the_next_paint() {
        next_frame().await;
        gloo_timers::future::TimeoutFuture::new(0).await;
    }

    /// Resolves at the next animation frame (the one that paints what was mounted).
    async fn next_frame() {
        let frame = js_sys::Promise::new(&mut |resolve, _reject| {
            let _ = web_sys::window()
                .expect("a browser window")
                .request_animation_frame(&resolve);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
    }

    /// A lazy route for a page component: `page!(Route for ENTRY, path::to::Page)`.
    #[macro_export]
    macro_rules! page {
        ($route:ident for $entry:path, $page:path) => {{
            struct $route;
            $crate::route_is_named_by_its_entry!($route, $entry);

            #[::leptos_router::lazy_route]
            impl ::leptos_router::LazyRoute for $route {
                fn data() -> Self {
                    $crate::split::page_opening();
                    $route
                }

                fn view(_this: Self) -> ::leptos::prelude::AnyView {
                    $crate::split::page_built();
                    ::leptos::prelude::IntoAny::into_any($page())
                }
            }

            $crate::split::register(&$entry, || {
                ::std::boxed::Box::pin(<$route as ::leptos_router::LazyRoute>::preload())
            });
            ::leptos_router::Lazy::<$route>::new()
        }};
    }
}

/// Shows the part `load` builds once `wanted` first holds, and keeps it: a page's dialogs
/// and results, whose code is loaded on demand (see [`crate::page_part`]) and whose
/// elements need not be in the page before they are first asked for.
pub fn part_once<F>(
    wanted: impl Fn() -> bool + Send + Sync + 'static,
    load: impl Fn() -> F + Send + Sync + 'static,
) -> impl leptos::prelude::IntoView
where
    F: std::future::Future<Output = leptos::prelude::AnyView> + Send + 'static,
{
    use leptos::prelude::{Get, Memo, Suspend};
    let wanted = Memo::new(move |was: Option<&bool>| was == Some(&true) || wanted());
    move || wanted.get().then(|| Suspend::new(load()))
}

/// The part of a page that it shows only on demand, `page_part!(pub PART = __preload_part)`:
/// a function made `#[lazy]` with the `split` feature (see `pages::machines::parts`), named
/// by the preload function that attribute writes beside it, `__preload_` and its name. One
/// part per page, as the macro takes one: each split more makes every page's code larger
/// (docs/load-path.md). The page loads it once it has painted ([`preload_part`]), and
/// `app::PAGE_PARTS` lists every page's, which load after every page's code. Without the
/// feature the part is in the one module, and loading it does nothing.
#[cfg(feature = "split")]
#[macro_export]
macro_rules! page_part {
    ($vis:vis $name:ident = $preload:path) => {
        /// This page's part shown only on demand (`crate::page_part`).
        $vis const $name: $crate::split::Preload = || ::std::boxed::Box::pin($preload());
    };
}

/// Without the `split` feature: nothing to load (see the macro of the split build).
#[cfg(not(feature = "split"))]
#[macro_export]
macro_rules! page_part {
    ($vis:vis $name:ident = $preload:path) => {
        /// This page's part: in the one module without the `split` feature.
        $vis const $name: $crate::split::Preload = || ::std::boxed::Box::pin(async {});
    };
}

#[cfg(feature = "split")]
pub use lazy::{
    hold_preloads, load_page_at, page_built, page_opening, preload_after_first_paint, preload_part,
    register, PreloadHold,
};

/// Readies the page at `path` (without its query) while sign-in waits for Enter, so that
/// Enter waits only for the network: loads its code, and builds the Machines page's table
/// once off-screen under `form` (see `pages::machines::rehearsal`) while `waiting` says
/// Enter has not been pressed.
pub async fn ready_page_at(
    path: &str,
    form: Option<leptos::reactive::owner::WeakOwner>,
    waiting: leptos::prelude::Signal<bool>,
) {
    load_page_at(path).await;
    if let (true, Some(form)) = (gpudeck_pages::MACHINES.serves(path), form) {
        crate::pages::machines::rehearsal::rehearse(form, waiting).await;
    }
}

#[cfg(not(feature = "split"))]
mod eager {
    use super::Preload;

    /// Without the `split` feature there is nothing to preload.
    pub fn preload_after_first_paint(_parts: &'static [Preload]) {}

    /// Nor any part: each is in the one module.
    pub fn preload_part(_part: Preload) {}

    /// Nothing to hold back either.
    pub struct PreloadHold;

    pub fn hold_preloads() -> PreloadHold {
        PreloadHold
    }

    /// Every page's code is in the one module.
    pub async fn load_page_at(_address: &str) {}

    /// The page's component itself: `page!(Route for ENTRY, path::to::Page)` is
    /// `path::to::Page`.
    #[macro_export]
    macro_rules! page {
        ($route:ident for $entry:path, $page:path) => {{
            $crate::route_is_named_by_its_entry!($route, $entry);
            $page
        }};
    }
}

/// Fails to compile unless the route table's `entry` names the lazy route type `route`:
/// the build finds a page's pack by that name.
#[macro_export]
macro_rules! route_is_named_by_its_entry {
    ($route:ident, $entry:path) => {
        const _: () = assert!(
            match $entry.route {
                Some(name) => ::gpudeck_pages::same(name, stringify!($route)),
                None => false,
            },
            concat!(
                "the route table does not name this page's route ",
                stringify!($route)
            )
        );
    };
}

#[cfg(not(feature = "split"))]
pub use eager::{
    hold_preloads, load_page_at, preload_after_first_paint, preload_part, PreloadHold,
};
