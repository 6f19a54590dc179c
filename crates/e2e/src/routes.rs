//! Every page of the console, for the whole-app tests (`tests/whole_app/routes.rs` opens each cold
//! by its address) and the bench (`felt` times each): the route table's pages
//! (`gpudeck_pages`), as a test opens them.

use gpudeck_pages::{Page, MACHINE_DETAIL, PAGES};
use gpudeck_server::demo;
use std::sync::LazyLock;

/// A page of the console, as a person opens it by its address.
pub struct Route {
    /// The page in the route table.
    pub page: &'static Page,
    /// Names a test's browser session (`cold_machines`).
    pub name: String,
    /// The address it is opened by: its example, with a query or parameters.
    pub path: &'static str,
    /// The text of its `main h1`.
    pub heading: &'static str,
    /// The browser tab's title.
    pub title: String,
    /// A CSS selector for what shows the page is ready for use: its first data row or
    /// its main form, there only once the page's data has come (where it needs any).
    pub content: &'static str,
}

impl Route {
    fn of(page: &'static Page) -> Route {
        Route {
            page,
            name: format!("cold_{}", page.name()),
            path: page.example,
            heading: page.heading,
            title: title_once_shown(page),
            content: page.ready,
        }
    }
}

/// The browser tab's title once the page shows its data: the route table's, but that a
/// machine's page names the machine of its example, one of alice's demo machines.
fn title_once_shown(page: &'static Page) -> String {
    let machine = (page == &MACHINE_DETAIL)
        .then(|| page.example.rsplit('/').next()?.parse::<i64>().ok())
        .flatten();
    match machine {
        Some(id) => format!("Machine {id} · {} · gpudeck", demo::alice_hostname(id)),
        None => format!("{} · gpudeck", page.title),
    }
}

/// Every page of the route table.
pub static ROUTES: LazyLock<Vec<Route>> =
    LazyLock::new(|| PAGES.iter().copied().map(Route::of).collect());
