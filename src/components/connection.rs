//! Where the console is connected, said beside who acts: "demo data" on the demo server,
//! the upstream's host name on a forwarding server, the base URL anywhere else. A schedule
//! or an unlisting on the wrong one is a real mistake, so the two must never look alike.

use crate::api::use_api;
pub use gpudeck_logic::components::connection::connection_words;
use gpudeck_wire::ServerInfo;
use leptos::prelude::*;

/// The connection, asked once per signed-in shell. Nothing shows until the server has
/// answered (or failed to), so demo data is never shown as a real account for a moment.
#[component]
pub fn Connection(#[prop(into)] base_url: Signal<String>) -> impl IntoView {
    let api = use_api();
    let info = LocalResource::new(move || {
        let api = api.clone();
        async move { api.server_info().await.ok() }
    });
    let known = move || {
        info.get()
            .map(|info| (connection_words(info.as_ref(), &base_url.get()), info))
    };
    move || {
        known().map(|(words, info)| {
            let demo = matches!(info, Some(ServerInfo::Demo));
            view! {
                <span
                    class="identity-connection"
                    class:demo=demo
                    data-testid="connection"
                    title="Where this console is connected"
                >
                    <span class="visually-hidden">"Connected to "</span>
                    {words}
                </span>
            }
        })
    }
}
