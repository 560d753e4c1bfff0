//! Who may call the gateway over HTTP. The rule: a listener beyond
//! loopback authenticates every caller; without authentication the gateway
//! listens on a loopback address only, where every caller is a process of
//! this machine. [`GatewayListener::bind`] is the one place that applies it.

use std::fmt;
use std::net::SocketAddr;

use mcp_toolkit_runtime::redact::RedactedUrl;
use mcp_toolkit_runtime::server::auth::{AuthConfig, AuthSetupError, IntrospectionVerifier};
use mcp_toolkit_runtime::transport::HttpConfig;
use tokio::net::TcpListener;

use super::bearer::StaticBearer;

/// How callers of the gateway over HTTP prove who they are.
#[derive(Clone)]
pub enum GatewayAccess {
    /// They do not: allowed on a loopback address only.
    Open,
    /// OAuth 2.1 access tokens from an authorization server, checked by the
    /// runtime as every protected MCP server checks them (401 with a
    /// challenge that points to the gateway's Protected Resource Metadata).
    OAuth(OAuthAccess),
    /// One static bearer token, for machines.
    Bearer {
        /// The token.
        token: StaticBearer,
        /// The gateway's URL as callers reach it, named in 401 challenges
        /// and the metadata; default `http://ADDR/mcp` as bound, which only
        /// a loopback listener may use.
        resource: Option<String>,
    },
}

/// The gateway as an OAuth 2.1 protected resource.
#[derive(Clone)]
pub struct OAuthAccess {
    /// The authorization server whose tokens are accepted.
    pub issuer: String,
    /// The gateway's canonical URL as callers reach it, the tokens'
    /// audience; default `http://ADDR/mcp` as bound, which only a loopback
    /// listener may use (beyond loopback the gateway sits behind a TLS
    /// proxy, and its public `https://` URL is the audience).
    pub resource: Option<String>,
    /// Check tokens at this RFC 7662 introspection endpoint instead of as
    /// JWTs signed with the issuer's keys.
    pub introspection: Option<Introspection>,
    /// Scopes every call needs.
    pub scopes: Vec<String>,
}

/// Token introspection (RFC 7662), for opaque tokens.
#[derive(Clone)]
pub struct Introspection {
    /// The endpoint.
    pub endpoint: String,
    /// The gateway's client id and secret at the authorization server
    /// (HTTP Basic), when the endpoint wants them.
    pub client: Option<(String, String)>,
}

/// URLs redacted, the token and the secret left out.
impl fmt::Debug for GatewayAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GatewayAccess::Open => f.write_str("Open"),
            GatewayAccess::OAuth(oauth) => f.debug_tuple("OAuth").field(oauth).finish(),
            GatewayAccess::Bearer { token, resource } => f
                .debug_struct("Bearer")
                .field("token", token)
                .field("resource", &redacted(resource.as_deref()))
                .finish(),
        }
    }
}

impl fmt::Debug for OAuthAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthAccess")
            .field("issuer", &RedactedUrl::new(&self.issuer))
            .field("resource", &redacted(self.resource.as_deref()))
            .field("introspection", &self.introspection)
            .field("scopes", &self.scopes)
            .finish()
    }
}

impl fmt::Debug for Introspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &RedactedUrl::new(&self.endpoint))
            .field("client_id", &self.client.as_ref().map(|(id, _)| id))
            .finish_non_exhaustive()
    }
}

fn redacted(url: Option<&str>) -> Option<RedactedUrl<'_>> {
    url.map(RedactedUrl::new)
}

impl GatewayAccess {
    /// Whether callers prove who they are.
    pub fn authenticates(&self) -> bool {
        !matches!(self, GatewayAccess::Open)
    }

    /// Why the gateway may not listen on `addr` with this access, if it may
    /// not. Checked before binding, so that a refusal costs nothing.
    pub fn check(&self, addr: SocketAddr) -> Result<(), AccessError> {
        if addr.ip().is_loopback() {
            return Ok(());
        }
        match self {
            GatewayAccess::Open => Err(AccessError::Unauthenticated(addr)),
            GatewayAccess::OAuth(OAuthAccess { resource: None, .. })
            | GatewayAccess::Bearer { resource: None, .. } => Err(AccessError::NoResource(addr)),
            _ => Ok(()),
        }
    }

    /// The HTTP settings of a gateway listening at `bound`.
    fn http_config(&self, bound: SocketAddr) -> Result<HttpConfig, AccessError> {
        self.check(bound)?;
        let mut config = HttpConfig::default();
        let here = format!("http://{bound}{}", config.path);
        let auth = match self {
            GatewayAccess::Open => return Ok(config),
            GatewayAccess::OAuth(oauth) => {
                oauth.auth_config(oauth.resource.as_deref().unwrap_or(&here))?
            }
            GatewayAccess::Bearer { token, resource } => {
                AuthConfig::new(resource.as_deref().unwrap_or(&here), token.clone())?
            }
        };
        config.auth = Some(auth);
        // The Host check stops a browser page that rebinds a name to this
        // machine; such a page holds no token, so with authentication the
        // check only refuses callers that reach the gateway under a name it
        // cannot know (a proxy's, a LAN address).
        config.allowed_hosts = None;
        Ok(config)
    }
}

impl OAuthAccess {
    fn auth_config(&self, resource: &str) -> Result<AuthConfig, AuthSetupError> {
        let config = match &self.introspection {
            None => AuthConfig::jwt(resource, &self.issuer)?,
            Some(introspection) => {
                let mut verifier = IntrospectionVerifier::new(&introspection.endpoint, resource)?
                    .issuer(&self.issuer);
                if let Some((id, secret)) = &introspection.client {
                    verifier = verifier.client_credentials(id, secret);
                }
                AuthConfig::new(resource, verifier)?.authorization_server(&self.issuer)?
            }
        };
        config.required_scopes(self.scopes.iter().cloned())
    }
}

/// Why the gateway cannot listen as asked.
#[derive(Debug)]
pub enum AccessError {
    /// A listener beyond loopback without authentication.
    Unauthenticated(SocketAddr),
    /// Authentication beyond loopback without the URL callers reach the
    /// gateway at.
    NoResource(SocketAddr),
    /// The authentication cannot be set up (a bad issuer or resource URL).
    Setup(AuthSetupError),
    /// The address cannot be listened on.
    Bind(SocketAddr, std::io::Error),
}

impl From<AuthSetupError> for AccessError {
    fn from(error: AuthSetupError) -> Self {
        AccessError::Setup(error)
    }
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::Unauthenticated(addr) => write!(
                f,
                "refusing to serve every configured tool without authentication on {addr}, \
                 which is not a loopback address: anyone who reaches it could run them with \
                 this host's credentials"
            ),
            AccessError::NoResource(addr) => write!(
                f,
                "on {addr}, which is not a loopback address, name the URL callers reach the \
                 gateway at (https://, through a TLS proxy: the gateway speaks plain HTTP)"
            ),
            AccessError::Setup(error) => write!(f, "authentication: {error}"),
            AccessError::Bind(addr, error) => write!(f, "cannot listen on {addr}: {error}"),
        }
    }
}

impl std::error::Error for AccessError {}

/// A bound listener with the HTTP settings its access asks for: the only
/// way [`Host::serve_gateway_http`](crate::Host::serve_gateway_http) takes,
/// so that a gateway beyond loopback always authenticates.
#[derive(Debug)]
pub struct GatewayListener {
    pub(super) listener: TcpListener,
    pub(super) config: HttpConfig,
    pub(super) authenticates: bool,
    url: String,
}

impl GatewayListener {
    /// Listens on `addr` for callers with `access`; refuses, before
    /// binding, an address beyond loopback without authentication.
    pub async fn bind(addr: SocketAddr, access: &GatewayAccess) -> Result<Self, AccessError> {
        access.check(addr)?;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| AccessError::Bind(addr, e))?;
        let bound = listener
            .local_addr()
            .map_err(|e| AccessError::Bind(addr, e))?;
        let config = access.http_config(bound)?;
        Ok(GatewayListener {
            url: format!("http://{bound}{}", config.path),
            listener,
            config,
            authenticates: access.authenticates(),
        })
    }

    /// The MCP endpoint as bound, `http://IP:PORT/mcp`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The canonical URL tokens must be issued for, when callers
    /// authenticate with OAuth or the static token.
    pub fn resource(&self) -> Option<&str> {
        self.config.auth.as_ref().map(AuthConfig::resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bearer(resource: Option<&str>) -> GatewayAccess {
        GatewayAccess::Bearer {
            token: StaticBearer::new(&"a".repeat(32)).unwrap(),
            resource: resource.map(str::to_owned),
        }
    }

    #[test]
    fn beyond_loopback_callers_authenticate_at_a_named_url() {
        let anywhere: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let lan: SocketAddr = "192.168.1.5:8080".parse().unwrap();
        for addr in [anywhere, lan, "[::]:8080".parse().unwrap()] {
            assert!(matches!(
                GatewayAccess::Open.check(addr),
                Err(AccessError::Unauthenticated(_))
            ));
            assert!(matches!(
                bearer(None).check(addr),
                Err(AccessError::NoResource(_))
            ));
            assert!(
                bearer(Some("https://mcp.example.com/mcp"))
                    .check(addr)
                    .is_ok()
            );
        }
        for loopback in ["127.0.0.1:0", "127.9.9.9:1", "[::1]:0"] {
            let addr = loopback.parse().unwrap();
            assert!(GatewayAccess::Open.check(addr).is_ok(), "{loopback}");
            assert!(bearer(None).check(addr).is_ok(), "{loopback}");
        }
    }

    #[test]
    fn authentication_is_the_runtimes_and_turns_the_host_check_off() {
        let here: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let open = GatewayAccess::Open.http_config(here).unwrap();
        assert!(open.auth.is_none());
        assert!(
            open.allowed_hosts.is_some(),
            "loopback keeps the Host check"
        );

        let config = bearer(None).http_config(here).unwrap();
        let auth = config.auth.expect("protected");
        assert_eq!(auth.resource(), "http://127.0.0.1:4000/mcp");
        assert_eq!(config.allowed_hosts, None);

        let oauth = GatewayAccess::OAuth(OAuthAccess {
            issuer: "http://127.0.0.1:9/".into(),
            resource: None,
            introspection: None,
            scopes: vec!["not a scope".into()],
        });
        assert!(matches!(
            oauth.http_config(here),
            Err(AccessError::Setup(_))
        ));
        let plain_http = bearer(Some("http://mcp.example.com/mcp"));
        let lan: SocketAddr = "10.0.0.1:80".parse().unwrap();
        assert!(matches!(
            plain_http.http_config(lan),
            Err(AccessError::Setup(_))
        ));
    }

    #[test]
    fn debug_output_redacts_urls_and_hides_secrets() {
        let oauth = GatewayAccess::OAuth(OAuthAccess {
            issuer: "https://u:issuer-pw@as.example/?k=issuer-q".into(),
            resource: Some("https://mcp.example/mcp?k=resource-q".into()),
            introspection: Some(Introspection {
                endpoint: "https://as.example/introspect?k=endpoint-q".into(),
                client: Some(("gateway".into(), "client-secret".into())),
            }),
            scopes: vec![],
        });
        let text = format!("{oauth:?} {:?}", bearer(Some("https://x/mcp?k=bearer-q")));
        for secret in [
            "issuer-pw",
            "issuer-q",
            "resource-q",
            "endpoint-q",
            "client-secret",
            "bearer-q",
            &"a".repeat(32),
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("https://as.example/introspect"), "{text}");
    }
}
