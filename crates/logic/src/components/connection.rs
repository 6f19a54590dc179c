//! What the header says the console is connected to.

use gpudeck_wire::ServerInfo;

/// What the header says, from the server's own word about itself (`None`: it gave none,
/// as the public service does not) and the base URL the session talks to.
pub fn connection_words(info: Option<&ServerInfo>, base_url: &str) -> String {
    match info {
        Some(ServerInfo::Demo) => "demo data".to_owned(),
        Some(ServerInfo::Forwarded { upstream }) => upstream.clone(),
        Some(ServerInfo::Local) | None => base_url.to_owned(),
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
