//! The DNS-rebinding defence: `Host` and `Origin` checked against the
//! allow-lists of [`HttpConfig`].

use std::str::FromStr;

use hyper::http::uri::Authority;
use hyper::{HeaderMap, StatusCode, Uri, header};

use super::HttpConfig;
use super::response::Refusal;

/// Accepts the request when its `Host` (or absolute URI) and `Origin` are
/// allowed.
pub(super) fn check(uri: &Uri, headers: &HeaderMap, config: &HttpConfig) -> Result<(), Refusal> {
    if let Some(allowed) = &config.allowed_hosts {
        if headers.get_all(header::HOST).iter().nth(1).is_some() {
            return Err(Refusal::new(
                StatusCode::BAD_REQUEST,
                "more than one Host header",
            ));
        }
        let host = match headers.get(header::HOST) {
            Some(value) => value.to_str().ok(),
            None => uri.authority().map(Authority::as_str),
        };
        let Some(host) = host else {
            return Err(Refusal::new(StatusCode::BAD_REQUEST, "missing Host header"));
        };
        if !host_allowed(host, allowed) {
            return Err(forbidden(format!("Host `{host}` is not allowed")));
        }
    }
    if let Some(allowed) = &config.allowed_origins {
        for origin in headers.get_all(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("<not ASCII>");
            if !origin_allowed(origin, allowed) {
                return Err(forbidden(format!("Origin `{origin}` is not allowed")));
            }
        }
    }
    Ok(())
}

fn forbidden(reason: String) -> Refusal {
    Refusal::new(StatusCode::FORBIDDEN, reason)
}

/// `host` is a `Host` value: `name` or `name:port`.
fn host_allowed(host: &str, allowed: &[String]) -> bool {
    parse_authority(host).is_some_and(|host| allowed.iter().any(|entry| matches(entry, &host)))
}

/// `origin` is `scheme://host[:port]`; `null` and anything with a path or
/// user info are refused.
fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let Ok(uri) = Uri::from_str(origin) else {
        return false;
    };
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return false;
    };
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return false;
    }
    let Some(host) = parse_authority(authority.as_str()) else {
        return false;
    };
    allowed.iter().any(|entry| match entry.split_once("://") {
        Some((entry_scheme, entry_authority)) => {
            entry_scheme.eq_ignore_ascii_case(scheme)
                && parse_authority(entry_authority).is_some_and(|entry| entry == host)
        }
        None => matches(entry, &host),
    })
}

/// A host name (lower case) and optional port.
#[derive(Debug, PartialEq, Eq)]
struct HostPort {
    name: String,
    port: Option<u16>,
}

fn parse_authority(text: &str) -> Option<HostPort> {
    let authority = Authority::from_str(text).ok()?;
    let has_port = authority.as_str().len() != authority.host().len();
    if authority.as_str().contains('@') || (has_port && authority.port_u16().is_none()) {
        return None;
    }
    Some(HostPort {
        name: authority.host().to_ascii_lowercase(),
        port: authority.port_u16(),
    })
}

/// An entry without a port matches the name on any port.
fn matches(entry: &str, host: &HostPort) -> bool {
    parse_authority(entry).is_some_and(|entry| {
        entry.name == host.name && (entry.port.is_none() || entry.port == host.port)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn localhost() -> Vec<String> {
        HttpConfig::default().allowed_hosts.unwrap()
    }

    #[test]
    fn localhost_names_on_any_port() {
        for host in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1:1",
            "[::1]",
            "[::1]:65535",
        ] {
            assert!(host_allowed(host, &localhost()), "{host}");
        }
        for host in [
            "evil.example",
            "localhost.evil.example",
            "127.0.0.2",
            "user@localhost",
            "",
            "localhost:notaport",
        ] {
            assert!(!host_allowed(host, &localhost()), "{host}");
        }
    }

    #[test]
    fn entries_with_a_port_match_exactly() {
        let allowed = vec!["mcp.example.com:443".to_owned()];
        assert!(host_allowed("mcp.example.com:443", &allowed));
        assert!(!host_allowed("mcp.example.com:444", &allowed));
        assert!(!host_allowed("mcp.example.com", &allowed));
    }

    #[test]
    fn origins() {
        for origin in [
            "http://localhost:5173",
            "https://127.0.0.1",
            "http://[::1]:3000",
        ] {
            assert!(origin_allowed(origin, &localhost()), "{origin}");
        }
        for origin in [
            "null",
            "http://evil.example",
            "http://localhost.evil.example",
            "http://localhost/path",
            "localhost",
            "",
        ] {
            assert!(!origin_allowed(origin, &localhost()), "{origin}");
        }
        let exact = vec!["https://app.example.com".to_owned()];
        assert!(origin_allowed("https://APP.example.com", &exact));
        assert!(!origin_allowed("http://app.example.com", &exact));
        assert!(!origin_allowed("https://app.example.com:8443", &exact));
    }
}
