//! The DNS-rebinding defence: `Host` and `Origin` checked against the
//! allow-lists of [`HttpConfig`].

use std::str::FromStr;

use hyper::http::uri::Authority;
use hyper::{HeaderMap, StatusCode, Uri, header};

use super::HttpConfig;
use super::response::Refusal;

/// The allow-lists of [`HttpConfig`], parsed once when the service is made.
#[derive(Debug)]
pub(super) struct Guard {
    hosts: Option<Vec<HostPort>>,
    origins: Option<Vec<OriginEntry>>,
}

/// An `allowed_origins` entry: `scheme://host[:port]`, or a bare host that
/// matches the name with any scheme.
#[derive(Debug)]
struct OriginEntry {
    scheme: Option<String>,
    host: HostPort,
}

impl Guard {
    /// Parses the allow-lists; an entry that is not a valid authority can
    /// match nothing and is left out.
    pub(super) fn new(config: &HttpConfig) -> Self {
        let hosts = config
            .allowed_hosts
            .as_ref()
            .map(|allowed| allowed.iter().filter_map(|e| parse_authority(e)).collect());
        let origins = config.allowed_origins.as_ref().map(|allowed| {
            allowed
                .iter()
                .filter_map(|entry| match entry.split_once("://") {
                    Some((scheme, authority)) => Some(OriginEntry {
                        scheme: Some(scheme.to_ascii_lowercase()),
                        host: parse_authority(authority)?,
                    }),
                    None => Some(OriginEntry {
                        scheme: None,
                        host: parse_authority(entry)?,
                    }),
                })
                .collect()
        });
        Guard { hosts, origins }
    }

    /// Accepts the request when its `Host` (or absolute URI) and `Origin`
    /// are allowed.
    pub(super) fn check(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        if let Some(allowed) = &self.hosts {
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
        if let Some(allowed) = &self.origins {
            for origin in headers.get_all(header::ORIGIN) {
                let origin = origin.to_str().unwrap_or("<not ASCII>");
                if !origin_allowed(origin, allowed) {
                    return Err(forbidden(format!("Origin `{origin}` is not allowed")));
                }
            }
        }
        Ok(())
    }
}

fn forbidden(reason: String) -> Refusal {
    Refusal::new(StatusCode::FORBIDDEN, reason)
}

/// `host` is a `Host` value: `name` or `name:port`.
fn host_allowed(host: &str, allowed: &[HostPort]) -> bool {
    allowed.iter().any(|entry| entry.admits_exactly(host))
        || authority(host).is_some_and(|host| allowed.iter().any(|entry| entry.admits(&host)))
}

/// `origin` is `scheme://host[:port]`; `null` and anything with a path or
/// user info are refused.
fn origin_allowed(origin: &str, allowed: &[OriginEntry]) -> bool {
    let Ok(uri) = Uri::from_str(origin) else {
        return false;
    };
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return false;
    };
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
        return false;
    }
    let Some(host) = self::authority(authority.as_str()) else {
        return false;
    };
    allowed.iter().any(|entry| match &entry.scheme {
        Some(entry_scheme) => entry_scheme.eq_ignore_ascii_case(scheme) && entry.host.is(&host),
        None => entry.host.admits(&host),
    })
}

/// An allow-list entry's host name and optional port. Names compare
/// without regard to ASCII case, so a request's needs no lower-cased copy.
#[derive(Debug)]
struct HostPort {
    name: String,
    port: Option<u16>,
}

impl HostPort {
    /// As an allow-list entry: one without a port admits the name on any port.
    fn admits(&self, host: &Authority) -> bool {
        self.name.eq_ignore_ascii_case(host.host())
            && (self.port.is_none() || self.port == host.port_u16())
    }

    /// The fast path of [`host_allowed`]: `host` is this entry's name (in
    /// any case), alone or with a decimal port the entry admits. Every
    /// such value is also a valid authority that [`HostPort::admits`]
    /// accepts, so this only spares the common request the parse; anything
    /// else goes through it.
    fn admits_exactly(&self, host: &str) -> bool {
        let Some(name) = host.get(..self.name.len()) else {
            return false;
        };
        if !name.eq_ignore_ascii_case(&self.name) {
            return false;
        }
        match &host[self.name.len()..] {
            "" => self.port.is_none(),
            rest => rest
                .strip_prefix(':')
                .and_then(decimal_port)
                .is_some_and(|port| self.port.is_none_or(|own| own == port)),
        }
    }

    /// The same name and port (or both without a port).
    fn is(&self, host: &Authority) -> bool {
        self.name.eq_ignore_ascii_case(host.host()) && self.port == host.port_u16()
    }
}

/// An allow-list entry.
fn parse_authority(text: &str) -> Option<HostPort> {
    let authority = authority(text)?;
    Some(HostPort {
        name: authority.host().to_owned(),
        port: authority.port_u16(),
    })
}

/// `host[:port]` with a port of decimal digits (RFC 3986: `port = *DIGIT`,
/// here at most 65535; `+80` parses as a number but is no port) and no user
/// info.
fn authority(text: &str) -> Option<Authority> {
    let authority = Authority::from_str(text).ok()?;
    if authority.as_str().contains('@') {
        return None;
    }
    // Without user info the authority starts with the host.
    let port = authority.as_str().get(authority.host().len()..)?;
    let port_valid = match port.strip_prefix(':') {
        None => port.is_empty(),
        Some(digits) => decimal_port(digits).is_some(),
    };
    port_valid.then_some(authority)
}

/// A port written in decimal digits only, at most 65535 (`u16` parsing
/// alone would also take `+80`).
fn decimal_port(digits: &str) -> Option<u16> {
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(allowed: Vec<String>) -> Guard {
        Guard::new(&HttpConfig {
            allowed_hosts: Some(allowed.clone()),
            allowed_origins: Some(allowed),
            ..HttpConfig::default()
        })
    }

    fn localhost() -> Guard {
        Guard::new(&HttpConfig::default())
    }

    fn host_allowed(host: &str, guard: &Guard) -> bool {
        super::host_allowed(host, guard.hosts.as_deref().unwrap())
    }

    fn origin_allowed(origin: &str, guard: &Guard) -> bool {
        super::origin_allowed(origin, guard.origins.as_deref().unwrap())
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
            "localhost:+80",
            "localhost:",
            "localhost:65536",
        ] {
            assert!(!host_allowed(host, &localhost()), "{host}");
        }
    }

    proptest::proptest! {
        /// With its fast path, the check decides exactly as the full parse
        /// alone: the values are drawn from the allow-list's names followed
        /// by a port-like suffix (any digits, signs) or by characters that
        /// could confuse a hand-written match.
        #[test]
        fn the_fast_path_agrees_with_the_parse(
            host in "(localhost|LocalHost|127\\.0\\.0\\.1|\\[::1\\]|mcp\\.example\\.com|)(:[0-9+]{0,6}|[:@0-9a-z.\\[\\]/ +-]{0,8})"
        ) {
            for guard in [localhost(), guard(vec!["mcp.example.com:443".to_owned(), "LOCALHOST".to_owned()])] {
                let allowed = guard.hosts.as_deref().unwrap();
                let parsed = authority(&host)
                    .is_some_and(|parsed| allowed.iter().any(|entry| entry.admits(&parsed)));
                proptest::prop_assert_eq!(super::host_allowed(&host, allowed), parsed, "{:?}", host);
            }
        }
    }

    #[test]
    fn entries_with_a_port_match_exactly() {
        let allowed = guard(vec!["mcp.example.com:443".to_owned()]);
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
        let exact = guard(vec!["https://app.example.com".to_owned()]);
        assert!(origin_allowed("https://APP.example.com", &exact));
        assert!(!origin_allowed("http://app.example.com", &exact));
        assert!(!origin_allowed("https://app.example.com:8443", &exact));
    }
}
