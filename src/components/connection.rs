//! Where the console is connected, said beside who acts: "demo data" on the demo server,
//! the upstream's host name on a forwarding server, the base URL anywhere else. A schedule
//! or an unlisting on the wrong one is a real mistake, so the two must never look alike.

use crate::api::use_api;
use gpudeck_wire::ServerInfo;
use leptos::prelude::*;

/// What the header says, from the server's own word about itself (`None`: it gave none,
/// as the public service does not) and the base URL the session talks to.
pub fn connection_words(info: Option<&ServerInfo>, base_url: &str) -> String {
    match info {
        Some(ServerInfo::Demo) => "demo data".to_owned(),
        Some(ServerInfo::Forwarded { upstream }) => upstream.clone(),
        Some(ServerInfo::Local) | None => base_url.to_owned(),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_say_demo_data_the_upstream_or_the_base_url() {
        let base = "https://console.example.com";
        assert_eq!(connection_words(Some(&ServerInfo::Demo), base), "demo data");
        let forwarded = ServerInfo::Forwarded {
            upstream: "console.vast.ai".to_owned(),
        };
        assert_eq!(connection_words(Some(&forwarded), base), "console.vast.ai");
        assert_eq!(connection_words(Some(&ServerInfo::Local), base), base);
        // A server that does not say (the public service) is named by its address.
        assert_eq!(connection_words(None, base), base);
    }
}
