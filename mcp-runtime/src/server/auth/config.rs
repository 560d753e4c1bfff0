//! The protection of an HTTP server: its canonical URL, trusted issuers,
//! verifier and scopes.

use std::fmt;
use std::sync::Arc;

use super::TokenVerifier;
#[cfg(feature = "jwt")]
use super::{DpopPolicy, JwtVerifier};
use crate::oauth::metadata::{
    PROTECTED_RESOURCE_PATH, is_https_or_loopback, protected_resource_metadata_url, split_origin,
};

/// What makes the HTTP transport a protected resource: this server's
/// canonical URL, the issuers it trusts, and how tokens are verified.
#[derive(Clone)]
pub struct AuthConfig {
    pub(crate) resource: String,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) verifier: Arc<dyn TokenVerifier>,
    pub(crate) scopes_supported: Vec<String>,
    pub(crate) required_scopes: Vec<String>,
    pub(crate) resource_name: Option<String>,
    #[cfg(feature = "jwt")]
    pub(crate) dpop: Option<DpopPolicy>,
}

impl AuthConfig {
    /// Protects the server whose canonical URL is `resource` (the MCP
    /// endpoint as clients reach it, such as `https://mcp.example.com/mcp`)
    /// with `verifier`. Name the issuers with
    /// [`authorization_server`](Self::authorization_server).
    pub fn new(resource: &str, verifier: impl TokenVerifier) -> Result<Self, AuthSetupError> {
        check_issuer_url(resource).map_err(|e| AuthSetupError::new(format!("resource: {e}")))?;
        Ok(AuthConfig {
            resource: resource.to_owned(),
            authorization_servers: Vec::new(),
            verifier: Arc::new(verifier),
            scopes_supported: Vec::new(),
            required_scopes: Vec::new(),
            resource_name: None,
            #[cfg(feature = "jwt")]
            dpop: None,
        })
    }

    /// Protects `resource` with JWT access tokens from `issuer`, whose
    /// audience must include `resource`.
    #[cfg(feature = "jwt")]
    pub fn jwt(resource: &str, issuer: &str) -> Result<Self, AuthSetupError> {
        AuthConfig::new(resource, JwtVerifier::new(issuer, resource)?)?.authorization_server(issuer)
    }

    /// Lists `issuer` in the metadata's `authorization_servers`.
    pub fn authorization_server(mut self, issuer: &str) -> Result<Self, AuthSetupError> {
        check_issuer_url(issuer)?;
        self.authorization_servers.push(issuer.to_owned());
        Ok(self)
    }

    /// Scopes every request needs, on top of a tool's own.
    pub fn required_scopes<I, S>(mut self, scopes: I) -> Result<Self, AuthSetupError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.required_scopes = checked_scopes(scopes)?;
        Ok(self)
    }

    /// Scopes to list in `scopes_supported` besides those of the tools.
    pub fn scopes_supported<I, S>(mut self, scopes: I) -> Result<Self, AuthSetupError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes_supported = checked_scopes(scopes)?;
        Ok(self)
    }

    /// A human-readable name for the metadata's `resource_name`.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// Takes DPoP-bound access tokens (RFC 9449) under `policy`, and says
    /// so in the metadata and challenges; see [`DpopPolicy`] for what a
    /// server without one does.
    #[cfg(feature = "jwt")]
    pub fn dpop(mut self, policy: DpopPolicy) -> Self {
        self.dpop = Some(policy);
        self
    }

    /// The canonical URL of this resource.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// Where clients find this resource's metadata (the path-inserted
    /// form of RFC 9728); sent in every 401 challenge.
    pub fn metadata_url(&self) -> String {
        protected_resource_metadata_url(&self.resource).unwrap_or_default()
    }

    /// The paths at which the metadata is served: the path-inserted one
    /// and, for a resource with a path, the root one. Route these to the
    /// [`McpService`](crate::transport::http::McpService) when you mount
    /// it in your own router.
    pub fn metadata_paths(&self) -> Vec<String> {
        let path = split_origin(&self.resource).map_or("", |(_, path)| path);
        let mut paths = vec![format!("{PROTECTED_RESOURCE_PATH}{path}")];
        if !path.is_empty() {
            paths.push(PROTECTED_RESOURCE_PATH.to_owned());
        }
        paths
    }
}

impl fmt::Debug for AuthConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("AuthConfig");
        debug
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes_supported", &self.scopes_supported)
            .field("required_scopes", &self.required_scopes);
        #[cfg(feature = "jwt")]
        debug.field("dpop", &self.dpop);
        debug.finish_non_exhaustive()
    }
}

/// A protection that cannot be set up as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthSetupError(String);

impl AuthSetupError {
    pub(crate) fn new(why: impl Into<String>) -> Self {
        AuthSetupError(why.into())
    }
}

impl fmt::Display for AuthSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AuthSetupError {}

/// An issuer (or a URL published by one) must be `https://`; plain
/// `http://` only on a loopback host, for development and tests.
pub(crate) fn check_issuer_url(url: &str) -> Result<(), AuthSetupError> {
    let shown = crate::redact::RedactedUrl::new(url);
    if split_origin(url).is_none() {
        return Err(AuthSetupError::new(format!(
            "{shown:?} is not an absolute http(s) URL without query or fragment"
        )));
    }
    if !is_https_or_loopback(url) {
        return Err(AuthSetupError::new(format!(
            "{shown} must use https:// (plain http:// only on a loopback host)"
        )));
    }
    Ok(())
}

fn checked_scopes<I, S>(scopes: I) -> Result<Vec<String>, AuthSetupError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    scopes
        .into_iter()
        .map(Into::into)
        .map(|scope| match mcp_toolkit_names::is_scope_token(&scope) {
            true => Ok(scope),
            false => Err(AuthSetupError::new(format!(
                "{scope:?} is not an OAuth scope token"
            ))),
        })
        .collect()
}
