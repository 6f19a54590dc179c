//! The router and the page shell: navigation, who is signed in, sign-out.

use crate::api::{provide_api, use_api, ApiClient, ApiError};
use crate::components::connection::Connection;
use crate::components::money::format_usd;
use crate::components::time::provide_time_preference;
use crate::components::toasts::{provide_toasts, ToastRegion};
use crate::page;
use crate::pages;
use crate::routes::{
    sign_in_path, ACTING_ACCOUNT, DEFRAG, HOME, MACHINES, MAINTENANCE, NEW_ROLE, ROLLING, SCHEDULE,
    SUBACCOUNTS, TEAM_MEMBERS, TEAM_ROLES, TEMPLATES, VOLUMES,
};
use crate::session::{
    leave_notice_for_next_load, provide_session, take_notice_from_last_load, use_session,
    AfterRefusal, SessionData, SignInNotice,
};
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
                // The addresses are `crate::routes`' constants: `path!` takes only literals, and a
                // test there keeps both lists the same.
                // Sign-in is the first visit's page: it stays in the main module, so the
                // form needs no second round trip and no chunk of its own.
                <Route path=path!("/sign-in") view=pages::sign_in::SignInPage/>
                <ParentRoute path=path!("") view=SignedInShell>
                    <Route path=path!("") view=|| view! { <Redirect path=HOME/> }/>
                    <Route path=path!("machines") view=page!(MachinesRoute at MACHINES, pages::machines::MachinesPage)/>
                    <Route path=path!("machines/rolling") view=page!(RollingRoute at ROLLING, pages::machines::rolling::RollingPage)/>
                    <Route path=path!("machines/schedule") view=page!(ScheduleRoute at SCHEDULE, pages::machines::schedule::SchedulePage)/>
                    <Route path=path!("machines/maintenance") view=page!(MaintenanceRoute at MAINTENANCE, pages::machines::maintenance::MaintenancePage)/>
                    <Route path=path!("machines/defrag") view=page!(DefragRoute at DEFRAG, pages::machines::defrag::DefragPage)/>
                    <Route path=path!("templates") view=page!(TemplatesRoute at TEMPLATES, pages::templates::TemplatesPage)/>
                    <Route path=path!("volumes") view=page!(VolumesRoute at VOLUMES, pages::volumes::VolumesPage)/>
                    <Route path=path!("subaccounts") view=page!(SubaccountsRoute at SUBACCOUNTS, pages::subaccounts::SubaccountsPage)/>
                    <Route path=path!("team/members") view=page!(TeamMembersRoute at TEAM_MEMBERS, pages::team::members::TeamMembersPage)/>
                    <Route path=path!("team/roles") view=page!(TeamRolesRoute at TEAM_ROLES, pages::team::roles::RolesPage)/>
                    <Route path=path!("team/new-role") view=page!(NewRoleRoute at NEW_ROLE, pages::team::role_editor::RoleEditorPage)/>
                    <Route path=path!("team/roles/:name") view=page!(TeamRoleRoute, pages::team::role::TeamRolePage)/>
                    <Route path=path!("team/roles/:name/edit") view=page!(EditRoleRoute, pages::team::role_editor::RoleEditorPage)/>
                    <Route path=path!("acting-account") view=page!(ActingAccountRoute at ACTING_ACCOUNT, pages::acting_account::ActingAccountPage)/>
                </ParentRoute>
            </Routes>
        </Router>
    }
}

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
            fallback=move || view! { <Redirect path=back_here()/> }
        >
            {provide_session_client()}
            {crate::served_sign_in::discard_served()}
            <div class="shell">
                <Header/>
                // The toasts sit in the layout under the navigation, never over a control.
                <div class="sidebar">
                    <div class="sidebar-content">
                        <Nav/>
                        <ToastRegion/>
                    </div>
                </div>
                <main id="main" class="page">
                    <Outlet/>
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
    provide_api(ApiClient::new(base_url, api_key).on_unauthorised(on_unauthorised));
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
            <a class="skip-link" href="#main">"Skip to content"</a>
            <span class="brand">"gpudeck"</span>
            <div class="identity" data-testid="identity">
                <span class="identity-label">"Acting as"</span>
                <span class="identity-name">{move || user().username}</span>
                {move || key_words(&user()).map(|words| view! { <span class="identity-key" data-testid="key-scope">{words}</span> })}
                <Connection base_url=Signal::derive(base_url)/>
                <span class="identity-balance" title="Balance">{move || format_usd(user().balance)}</span>
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

#[component]
fn Nav() -> impl IntoView {
    view! {
        <nav class="sidenav" aria-label="Areas">
            <h2>"Machines"</h2>
            <A href=MACHINES exact=true>"Machines"</A>
            <A href=MAINTENANCE>"Maintenance"</A>
            <A href=DEFRAG>"Defragment"</A>
            <h2>"Account"</h2>
            <A href=TEMPLATES>"Templates"</A>
            <A href=VOLUMES>"Volumes"</A>
            <A href=SUBACCOUNTS>"Subaccounts"</A>
            <h2>"Team"</h2>
            <A href=TEAM_MEMBERS>"Members"</A>
            <A href=TEAM_ROLES>"Roles"</A>
            <A href=ACTING_ACCOUNT>"Acting account"</A>
        </nav>
    }
}
