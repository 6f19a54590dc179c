//! The router and the page shell: navigation, who is signed in, sign-out.

use crate::api::{provide_api, use_api, ApiClient, ApiError};
use crate::components::attention::AttentionCount;
use crate::components::connection::Connection;
use crate::components::money::format_usd;
use crate::components::session_reads::SessionReads;
use crate::components::time::provide_time_preference;
use crate::components::toasts::{provide_toasts, ToastRegion};
use crate::page;
use crate::pages;
use crate::route_address::Address;
use crate::routes::{sign_in_path, ACTING_ACCOUNT, HOME, MACHINES};
use crate::session::{
    leave_notice_for_next_load, provide_session, take_notice_from_last_load, use_session,
    AfterRefusal, SessionData, SignInNotice,
};
use gpudeck_pages::{Section, PAGES, SIGN_IN};
use gpudeck_wire::{CurrentUser, KeyScope};
use leptos::prelude::*;
use leptos_router::components::{Outlet, ParentRoute, Redirect, Route, Router, Routes, A};
use leptos_router::hooks::use_location;
use leptos_router::path;

#[component]
pub fn App() -> impl IntoView {
    provide_session();
    provide_toasts();
    provide_time_preference();
    view! {
        <Router>
            <Routes fallback=pages::not_found::NotFoundPage>
                // Sign-in is the first visit's page: it stays in the main module, so the
                // form needs no second round trip and no chunk of its own.
                <Route path=Address(SIGN_IN.address) view=pages::sign_in::SignInPage />
                <SignedInRoutes />
            </Routes>
        </Router>
    }
}

/// The router's pages behind sign-in, each `Route for ENTRY => Component`: its address
/// and its name come from its entry in the route table (`gpudeck_pages`), and the
/// compiler holds `Route` to the entry's `route` (see `crate::split`).
macro_rules! routed_pages {
    ($($route:ident for $entry:ident => $($component:ident)::+;)*) => {
        /// Every page of the route table the router serves.
        pub const ROUTED: &[&gpudeck_pages::Page] = &[&SIGN_IN, $(&gpudeck_pages::$entry),*];

        /// Every page but sign-in, in the signed-in shell; `/` opens the home page.
        #[component(transparent)]
        fn SignedInRoutes() -> impl leptos_router::MatchNestedRoutes + Clone {
            view! {
                <ParentRoute path=path!("") view=SignedInShell>
                    <Route path=path!("") view=|| view! { <Redirect path=HOME/> }/>
                    $(
                        <Route
                            path=Address(gpudeck_pages::$entry.address)
                            view=page!($route for gpudeck_pages::$entry, $($component)::+)
                        />
                    )*
                </ParentRoute>
            }
            .into_inner()
        }
    };
}

routed_pages! {
    MachinesRoute for MACHINES => pages::machines::MachinesPage;
    RollingRoute for ROLLING => pages::machines::rolling::RollingPage;
    ScheduleRoute for SCHEDULE => pages::machines::schedule::SchedulePage;
    MaintenanceRoute for MAINTENANCE => pages::machines::maintenance::MaintenancePage;
    DefragRoute for DEFRAG => pages::machines::defrag::DefragPage;
    TemplatesRoute for TEMPLATES => pages::templates::TemplatesPage;
    VolumesRoute for VOLUMES => pages::volumes::VolumesPage;
    SubaccountsRoute for SUBACCOUNTS => pages::subaccounts::SubaccountsPage;
    NotificationsRoute for NOTIFICATIONS => pages::notifications::NotificationsPage;
    TeamMembersRoute for TEAM_MEMBERS => pages::team::members::TeamMembersPage;
    TeamRolesRoute for TEAM_ROLES => pages::team::roles::RolesPage;
    NewRoleRoute for NEW_ROLE => pages::team::role_editor::RoleEditorPage;
    TeamRoleRoute for TEAM_ROLE => pages::team::role::TeamRolePage;
    EditRoleRoute for EDIT_ROLE => pages::team::role_editor::RoleEditorPage;
    ActingAccountRoute for ACTING_ACCOUNT => pages::acting_account::ActingAccountPage;
    // After every `/machines/…` page: the router takes the first route that matches.
    MachineDetailRoute for MACHINE_DETAIL => pages::machines::detail::MachineDetailPage;
}

/// Every page's part shown only on demand (`crate::page_part`), loaded after every page's
/// code. The whole-app test `routes.rs` fails while one is missing: its code is never
/// fetched.
pub const PAGE_PARTS: &[crate::split::Preload] = &[pages::machines::PART];

/// Every page but sign-in: reachable only with a session, otherwise a detour through
/// sign-in that comes back to the same address.
#[component]
fn SignedInShell() -> impl IntoView {
    let session = use_session();
    let location = use_location();
    let back_here = move || {
        let path = location.pathname.get_untracked();
        // The router's `search` comes without its `?`.
        let here = match location.search.get_untracked() {
            query if query.is_empty() => path,
            query => format!("{path}?{query}"),
        };
        sign_in_path(&here)
    };
    view! {
        <Show
            when=move || session.is_signed_in()
            fallback=move || view! { <Redirect path=back_here() /> }
        >
            {provide_session_client()}
            {crate::served_sign_in::discard_served()}
            <div class="shell">
                <Header />
                // The toasts sit in the layout under the navigation, never over a control.
                <div class="sidebar">
                    <div class="sidebar-content">
                        <Nav />
                        <ToastRegion />
                    </div>
                </div>
                <main id="main" class="page">
                    <Outlet />
                </main>
            </div>
        </Show>
    }
}

/// Shares the signed-in session's client with every page. When the server refuses the
/// acting key (the client has already checked that with `users/current`), the next kept
/// key acts; with none kept, the shell signs out and sends the person through sign-in and
/// back to the page they were on.
fn provide_session_client() {
    let session = use_session();
    let notice = expect_context::<SignInNotice>();
    let SessionData {
        api_key, base_url, ..
    } = session.get_untracked().unwrap_or_else(|| SessionData {
        api_key: String::new(),
        base_url: crate::session::own_origin(),
        user: Default::default(),
        others: Vec::new(),
    });
    let acting_key = api_key.clone();
    let on_unauthorised = std::rc::Rc::new(move |error: &ApiError| {
        match session.give_way_after_refusal(&acting_key) {
            AfterRefusal::Switched { refused, acting } => {
                leave_notice_for_next_load(&format!(
                    "The server no longer accepts the key acting as {refused} ({}), so this \
                     tab forgot it. Now acting as {acting}.",
                    error.message()
                ));
                crate::session::reload_page();
            }
            AfterRefusal::SignedOut => notice.0.set(Some(format!(
                "Your session ended: the server refused the API key ({}). Sign in again to \
                 continue.",
                error.message()
            ))),
            AfterRefusal::AlreadyHandled => {}
        }
    });
    // Every N1 answer, whichever page asked, joins the session's reads: the pages judging
    // health and the navigation's attention count compare with the same earlier read.
    let reads = SessionReads::provide();
    provide_api(
        ApiClient::new(base_url, api_key)
            .on_unauthorised(on_unauthorised)
            .on_machines(reads.hook()),
    );
}

#[component]
fn Header() -> impl IntoView {
    let session = use_session();
    // Refresh who is signed in (the balance changes) and find out early if the stored
    // key was revoked: a 401 here is handled like any other. Not when sign-in has just
    // asked: that answer is a moment old.
    let api = use_api();
    if let Some(text) = take_notice_from_last_load() {
        crate::components::toasts::use_toasts().error(text);
    }
    if !session.take_user_just_checked() {
        let asked_for = session.get_untracked().map(|data| data.api_key);
        leptos::task::spawn_local(async move {
            if let (Ok(user), Some(key)) = (api.current_user().await, asked_for) {
                session.update_user(&key, user);
            }
        });
    }
    let notice = expect_context::<SignInNotice>();
    let sign_out = move |_| {
        notice.0.set(Some(
            "You signed out. This tab no longer holds any of your API keys.".to_owned(),
        ));
        session.sign_out();
    };
    let user = move || session.get().map(|s| s.user).unwrap_or_default();
    let base_url = move || session.get().map(|s| s.base_url).unwrap_or_default();
    let kept = move || session.get().map_or(0, |s| s.others.len());
    view! {
        <header class="topbar">
            <a class="skip-link" href="#main">
                "Skip to content"
            </a>
            <span class="brand">"gpudeck"</span>
            <div class="identity" data-testid="identity">
                <span class="identity-label">"Acting as"</span>
                <span class="identity-name">{move || user().username}</span>
                {move || {
                    key_words(&user())
                        .map(|words| {
                            view! {
                                <span class="identity-key" data-testid="key-scope">
                                    {words}
                                </span>
                            }
                        })
                }}
                <Connection base_url=Signal::derive(base_url) />
                <span class="identity-balance" title="Balance">
                    {move || format_usd(user().balance)}
                </span>
                <span class="identity-email">{move || user().email}</span>
                <span class="identity-id">{move || format!("user #{}", user().id)}</span>
            </div>
            <a class="button secondary switch-link" href=ACTING_ACCOUNT>
                {move || match kept() {
                    0 => "Add a key".to_owned(),
                    n => format!("Switch account ({})", n + 1),
                }}
            </a>
            <button class="button secondary sign-out" type="button" on:click=sign_out>
                "Sign out"
            </button>
        </header>
    }
}

/// Which kind of key acts, when the server says: "personal key", "team key · Alice Compute".
fn key_words(user: &CurrentUser) -> Option<String> {
    match user.key_scope.as_ref()? {
        KeyScope::Personal => Some("personal key".to_owned()),
        KeyScope::Team { team_name, .. } => Some(format!("team key · {team_name}")),
    }
}

/// The side navigation: the route table's entries, by section.
#[component]
fn Nav() -> impl IntoView {
    let links = |section: Section| {
        PAGES
            .iter()
            .filter_map(move |page| Some((page.address, page.nav.as_ref()?)))
            .filter(move |(_, nav)| nav.section == section)
            .map(|(address, nav)| {
                view! {
                    <A href=address exact=nav.exact>
                        {nav.label}
                        {(address == MACHINES).then(|| view! { <AttentionCount /> })}
                    </A>
                }
            })
            .collect_view()
    };
    view! {
        <nav class="sidenav" aria-label="Areas">
            {Section::ALL
                .into_iter()
                .map(|section| {
                    view! {
                        <h2>{section.heading()}</h2>
                        {links(section)}
                    }
                })
                .collect_view()}
        </nav>
    }
}
