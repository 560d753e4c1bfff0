//! The metadata documents of MCP authorization: what a protected resource
//! says about itself (RFC 9728) and what an authorization server says
//! about itself (RFC 8414, or OpenID Connect discovery), with the
//! well-known URLs where each is found.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::redact::{split_authority, split_userinfo};

/// The well-known path of protected resource metadata (RFC 9728).
pub const PROTECTED_RESOURCE_PATH: &str = "/.well-known/oauth-protected-resource";
/// The well-known path of authorization server metadata (RFC 8414).
pub const AUTHORIZATION_SERVER_PATH: &str = "/.well-known/oauth-authorization-server";
/// The well-known path of OpenID Connect discovery.
pub const OPENID_CONFIGURATION_PATH: &str = "/.well-known/openid-configuration";

/// The largest metadata document (or key set) read.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// What a protected MCP server publishes about itself (RFC 9728).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProtectedResourceMetadata {
    /// The resource's canonical URL; tokens name it as their audience.
    pub resource: String,
    /// The issuers whose tokens the resource accepts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authorization_servers: Vec<String>,
    /// The scopes the resource knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes_supported: Vec<String>,
    /// How a token may be sent; MCP uses the `Authorization` header.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bearer_methods_supported: Vec<String>,
    /// A human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_name: Option<String>,
    /// Members this type does not name.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What an authorization server publishes about itself (RFC 8414; OpenID
/// Connect discovery documents have the same members).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthorizationServerMetadata {
    /// The issuer identifier; must equal the URL it was discovered from.
    pub issuer: String,
    /// Where the issuer's signing keys are (JWKS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jwks_uri: Option<String>,
    /// The authorization endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization_endpoint: Option<String>,
    /// The token endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint: Option<String>,
    /// Token introspection (RFC 7662).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub introspection_endpoint: Option<String>,
    /// Dynamic client registration (RFC 7591).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registration_endpoint: Option<String>,
    /// The scopes the issuer knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes_supported: Vec<String>,
    /// Members this type does not name.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Splits `url` into its origin (`scheme://authority`) and path (without a
/// trailing `/`, empty for the root); `None` unless it is an absolute
/// http(s) URL without query, fragment or `\` (which WHATWG parsers read
/// as `/` and others refuse: it would let the host be read two ways).
pub fn split_origin(url: &str) -> Option<(&str, &str)> {
    let http = url.starts_with("https://") || url.starts_with("http://");
    if !http || url.contains(['?', '#', '\\']) {
        return None;
    }
    let (scheme, authority, path) = split_authority(url);
    if authority.is_empty() {
        return None;
    }
    let (origin, _) = url.split_at(scheme.len() + authority.len());
    Some((origin, path.trim_end_matches('/')))
}

/// Where the metadata of the resource at `resource` is: the well-known path
/// with the resource's path appended (`https://h/.well-known/oauth-protected-resource/mcp`
/// for `https://h/mcp`), as RFC 9728 section 3.1 places it.
pub fn protected_resource_metadata_url(resource: &str) -> Option<String> {
    let (origin, path) = split_origin(resource)?;
    Some(format!("{origin}{PROTECTED_RESOURCE_PATH}{path}"))
}

/// The URLs to try, in order, for the metadata of `issuer`, as the MCP
/// authorization spec lists them: RFC 8414 with the path inserted, then
/// OpenID Connect with the path inserted, then (for an issuer with a path)
/// OpenID Connect with the path first.
pub fn authorization_server_metadata_urls(issuer: &str) -> Option<Vec<String>> {
    let (origin, path) = split_origin(issuer)?;
    let mut urls = vec![
        format!("{origin}{AUTHORIZATION_SERVER_PATH}{path}"),
        format!("{origin}{OPENID_CONFIGURATION_PATH}{path}"),
    ];
    if !path.is_empty() {
        urls.push(format!("{origin}{path}{OPENID_CONFIGURATION_PATH}"));
    }
    Some(urls)
}

/// Whether `url` may carry OAuth traffic: an absolute `https://` URL, or a
/// plain `http://` one on a loopback host (development, tests), without
/// query or fragment.
pub fn is_https_or_loopback(url: &str) -> bool {
    split_origin(url).is_some() && (url.starts_with("https://") || is_loopback(url))
}

/// Whether `url`'s host is a loopback name, the only place where a plain
/// `http://` issuer is accepted.
pub fn is_loopback(url: &str) -> bool {
    let Some((origin, _)) = split_origin(url) else {
        return false;
    };
    let (_, authority, _) = split_authority(origin);
    let (_, authority) = split_userinfo(authority);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split_once(']').map_or(v6, |(h, _)| h),
        None => authority.split_once(':').map_or(authority, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_urls_follow_the_spec() {
        assert_eq!(
            protected_resource_metadata_url("https://mcp.example.com/public/mcp").as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp")
        );
        assert_eq!(
            protected_resource_metadata_url("https://mcp.example.com/").as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(
            authorization_server_metadata_urls("https://auth.example.com/tenant1").unwrap(),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            authorization_server_metadata_urls("http://127.0.0.1:9000").unwrap(),
            [
                "http://127.0.0.1:9000/.well-known/oauth-authorization-server",
                "http://127.0.0.1:9000/.well-known/openid-configuration",
            ]
        );
        for bad in [
            "ftp://x/y",
            "https://",
            "https:///path",
            "https://h/p?q=1",
            "https://h\\p",
            "h/p",
        ] {
            assert!(protected_resource_metadata_url(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn only_loopback_hosts_are_loopback() {
        for url in [
            "http://127.0.0.1:8080",
            "http://localhost/x",
            "http://[::1]:9/",
            "http://127.9.9.9",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in [
            "http://example.com",
            "http://127.0.0.1.evil.com",
            "http://localhost.evil.com",
            "http://evil.com@x",
            "http://evil.com\\@127.0.0.1/",
            "http://evil.com\\@localhost",
            "http://[::2]",
            "http://10.0.0.1",
        ] {
            assert!(!is_loopback(url), "{url}");
        }
    }
}
