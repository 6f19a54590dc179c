//! Where a delivery may go (spec fleet-health §3.3): the host is resolved once, every
//! address must be public, and the delivery connects to the address checked (so a second
//! DNS answer cannot point it elsewhere). In demo or test mode `127.0.0.1` and
//! `localhost` are allowed too, so that tests can receive deliveries.

use reqwest::Url;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The two hosts demo and test mode let a webhook target.
pub const LOCAL_HOSTS: [&str; 2] = ["127.0.0.1", "localhost"];

/// Whether `url`'s host is one of [`LOCAL_HOSTS`].
pub fn is_local(url: &Url) -> bool {
    url.host_str()
        .is_some_and(|host| LOCAL_HOSTS.contains(&host))
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || (a == 100 && (64..128).contains(&b))
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_broadcast()
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let first = ip.segments()[0];
    ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xffc0) == 0xfe80
        || (first & 0xfe00) == 0xfc00
}

/// Whether the public service would refuse to deliver to `ip`: loopback, private,
/// carrier-grade NAT, link-local, unique-local, unspecified, multicast or broadcast.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => forbidden_v4(ip),
        IpAddr::V6(ip) => forbidden_v6(ip),
    }
}

/// Why a target was refused; said in the log only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    NoHost,
    Unresolved,
    Private(IpAddr),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NoHost => write!(f, "the URL names no host"),
            Refused::Unresolved => write!(f, "the host does not resolve"),
            Refused::Private(ip) => write!(f, "the host resolves to a non-public address {ip}"),
        }
    }
}

/// The addresses to connect to for `url`, resolved once and every one checked.
pub async fn resolve(url: &Url, local_allowed: bool) -> Result<Vec<SocketAddr>, Refused> {
    let host = url.host_str().ok_or(Refused::NoHost)?;
    let port = url.port_or_known_default().ok_or(Refused::NoHost)?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|_| Refused::Unresolved)?
        .collect();
    let local = local_allowed && is_local(url);
    if let Some(bad) = addresses
        .iter()
        .find(|address| is_forbidden(address.ip()) && !(local && address.ip().is_loopback()))
    {
        return Err(Refused::Private(bad.ip()));
    }
    if addresses.is_empty() {
        return Err(Refused::Unresolved);
    }
    Ok(addresses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_refused() {
        for refused in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "100.127.255.255",
            "169.254.169.254",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fc00::1",
            "fdff::1",
            "ff02::1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_forbidden(refused.parse().unwrap()), "{refused}");
        }
        for allowed in [
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "93.184.216.34",
            "2606:4700::1111",
        ] {
            assert!(!is_forbidden(allowed.parse().unwrap()), "{allowed}");
        }
    }

    #[tokio::test]
    async fn loopback_is_allowed_only_by_its_two_names_in_demo_or_test_mode() {
        let url = |text: &str| Url::parse(text).unwrap();
        let local = url("http://127.0.0.1:9/hook");
        assert_eq!(
            resolve(&local, false).await,
            Err(Refused::Private("127.0.0.1".parse().unwrap()))
        );
        assert_eq!(
            resolve(&local, true).await,
            Ok(vec!["127.0.0.1:9".parse().unwrap()])
        );
        // Another name for loopback, and a private literal, stay refused in test mode.
        for other in [
            "http://127.0.0.2/hook",
            "https://10.0.0.1/hook",
            "https://[::1]/hook",
        ] {
            assert!(
                matches!(resolve(&url(other), true).await, Err(Refused::Private(_))),
                "{other}"
            );
        }
    }
}
