//! The OAuth 2.1 client of MCP authorization (2025-06-18 and later): on a
//! 401 the client reads the server's challenge, finds its Protected
//! Resource Metadata (RFC 9728) and its authorization server's metadata
//! (RFC 8414 or OpenID Connect discovery, exact `issuer`), registers
//! (pre-registered credentials, a Client ID Metadata Document, or Dynamic
//! Client Registration, RFC 7591), gets a token (authorization code with
//! PKCE S256 and RFC 8707 `resource`, or client credentials) and retries;
//! a 403 `insufficient_scope` steps up to the union of the scopes held and
//! asked for, a bounded number of times. A token is only ever sent to the
//! resource it was issued for.
//!
//! The [`TokenStore`] keeps, with each token, what refreshing it needs (the
//! issuer's metadata, the resource, the client's own registration), so
//! that a later run with a [`FileTokenStore`] refreshes an expired token
//! without the user. A refresh token is forgotten only when the
//! authorization server refuses it (`invalid_grant`), never because a
//! refresh failed on the way. After the authorization server fails (no
//! answer, a server error), a client asks it nothing for ten seconds: the
//! requests meanwhile share that failure, so that a server that is down
//! gets one token request per client, not one per call.
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_toolkit_runtime::client::ClientError> {
//! use std::sync::Arc;
//! use mcp_toolkit_runtime::client::auth::{LoopbackBrowser, OAuthConfig};
//! use mcp_toolkit_runtime::client::{Client, ConnectOptions};
//!
//! let browser = LoopbackBrowser::bind().await?;
//! let options = ConnectOptions {
//!     oauth: Some(Arc::new(OAuthConfig::authorization_code("my-app", browser))),
//!     ..ConnectOptions::default()
//! };
//! let client = Client::connect_http_with("https://mcp.example.com/mcp", options).await?;
//! # Ok(())
//! # }
//! ```

mod assertion;
mod discovery;
#[cfg(feature = "jwt")]
mod dpop;
#[cfg(not(feature = "jwt"))]
#[path = "dpop_off.rs"]
mod dpop;
mod enterprise;
mod file_store;
mod flow;
mod pkce;
mod redirect;
mod refusal;
mod registration;
mod store;
mod token;

use std::fmt;
use std::sync::Arc;

pub use assertion::Assertion;
pub use enterprise::IdentityProvider;
pub use file_store::FileTokenStore;
pub use redirect::{AuthorizationStep, AuthorizeFuture, FollowRedirect, LoopbackBrowser};
pub use store::{
    MemoryTokenStore, StoreLock, StoredDpopKey, StoredEntry, StoredIssuer, StoredRegistration,
    StoredToken, TokenStore,
};

pub(crate) use flow::OAuthSession;

/// How a client authorizes with a protected server.
///
/// Who the client is at an authorization server, one rule for every token
/// request: the credentials of the configuration
/// ([`pre_registered`](OAuthConfig::pre_registered), or those of
/// [`client_credentials`](OAuthConfig::client_credentials)) first; else
/// its own registration there, this run's or the store's, which a refresh
/// always uses and a new authorization uses only when the redirect URI it
/// was registered with matches the step's exactly (a [`LoopbackBrowser`]
/// has a new one each run); else a Client ID Metadata Document or a new
/// registration.
#[derive(Clone)]
pub struct OAuthConfig {
    pub(crate) grant: Grant,
    pub(crate) client_name: String,
    pub(crate) client_metadata_url: Option<String>,
    pub(crate) pre_registered: Option<ClientCredentials>,
    pub(crate) store: Arc<dyn TokenStore>,
    pub(crate) max_step_ups: usize,
    pub(crate) timeout: std::time::Duration,
}

#[derive(Clone)]
pub(crate) enum Grant {
    /// A user authorizes in a browser (or whatever `step` does).
    AuthorizationCode(Arc<dyn AuthorizationStep>),
    /// The client acts for itself (machine to machine).
    ClientCredentials(ClientCredentials),
    /// The authorization code flow with no user to ask: stored tokens
    /// only, refreshed; the reason is the error when the user is needed.
    WithoutUser(String),
    /// Enterprise-managed authorization (SEP-990): an ID-JAG from the
    /// identity provider, traded with the JWT-bearer grant.
    EnterpriseManaged {
        idp: IdentityProvider,
        client: ClientCredentials,
    },
    /// Workload identity federation (SEP-1933): the workload's own JWT in
    /// the JWT-bearer grant.
    WorkloadIdentity {
        client: ClientCredentials,
        token: Assertion,
    },
}

/// A client's identity at an authorization server, registered beforehand.
#[derive(Clone)]
pub struct ClientCredentials {
    pub(crate) client_id: String,
    pub(crate) secret: ClientSecret,
}

/// How a registered client proves its identity at the token endpoint.
#[derive(Clone)]
pub enum ClientSecret {
    /// A public client (`none`): no secret.
    None,
    /// A shared secret, sent with HTTP Basic (`client_secret_basic`) or in
    /// the form (`client_secret_post`), as the server advertises.
    Secret(String),
    /// A signed JWT assertion (`private_key_jwt`, RFC 7523) made with this
    /// PKCS#8 PEM key and algorithm (`ES256`, `RS256`...).
    PrivateKeyJwt {
        /// The private key, PKCS#8 PEM.
        pem: String,
        /// The JWS algorithm.
        algorithm: String,
    },
}

impl ClientCredentials {
    /// `client_id` with `secret`.
    pub fn new(client_id: impl Into<String>, secret: ClientSecret) -> Self {
        ClientCredentials {
            client_id: client_id.into(),
            secret,
        }
    }
}

impl fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

impl OAuthConfig {
    /// The authorization code flow: `step` shows the user the authorization
    /// URL and returns the URL the browser was redirected to.
    pub fn authorization_code(client_name: &str, step: impl AuthorizationStep) -> Self {
        OAuthConfig::with_grant(client_name, Grant::AuthorizationCode(Arc::new(step)))
    }

    /// The authorization code flow for a client that cannot ask a user (a
    /// build script, a headless run): it uses the tokens its store kept and
    /// refreshes them, and where the user's authorization is needed it
    /// fails with `why`, before registering or asking anyone.
    pub fn without_user(client_name: &str, why: impl Into<String>) -> Self {
        OAuthConfig::with_grant(client_name, Grant::WithoutUser(why.into()))
    }

    /// The client credentials grant (machine to machine) with pre-registered
    /// credentials.
    pub fn client_credentials(credentials: ClientCredentials) -> Self {
        OAuthConfig::with_grant(
            &credentials.client_id.clone(),
            Grant::ClientCredentials(credentials),
        )
    }

    /// Enterprise-managed authorization (SEP-990): the user's identity
    /// assertion is exchanged at the enterprise's identity provider `idp`
    /// for an identity assertion grant (ID-JAG), which the MCP server's
    /// authorization server, where this client is `client`, trades for an
    /// access token. No browser, no registration.
    pub fn enterprise_managed(idp: IdentityProvider, client: ClientCredentials) -> Self {
        OAuthConfig::with_grant(
            &client.client_id.clone(),
            Grant::EnterpriseManaged { idp, client },
        )
    }

    /// Workload identity federation (SEP-1933): the client, a workload
    /// (a service in a cluster, a CI job), presents the JWT its platform
    /// issued it (`token`, read again at each token request so that a
    /// rotated one is used) in the JWT-bearer grant (RFC 7523), as
    /// `client` (usually a public client: `ClientSecret::None`). No stored
    /// secret.
    pub fn workload_identity(client: ClientCredentials, token: Assertion) -> Self {
        OAuthConfig::with_grant(
            &client.client_id.clone(),
            Grant::WorkloadIdentity { client, token },
        )
    }

    fn with_grant(client_name: &str, grant: Grant) -> Self {
        OAuthConfig {
            grant,
            client_name: client_name.to_owned(),
            client_metadata_url: None,
            pre_registered: None,
            store: Arc::new(MemoryTokenStore::default()),
            max_step_ups: 2,
            timeout: std::time::Duration::from_secs(30),
        }
    }

    /// Uses these credentials instead of registering.
    pub fn pre_registered(mut self, credentials: ClientCredentials) -> Self {
        self.pre_registered = Some(credentials);
        self
    }

    /// The HTTPS URL of this client's Client ID Metadata Document, used as
    /// its `client_id` wherever the authorization server supports them.
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// Where tokens are kept (default: in memory).
    pub fn store(mut self, store: impl TokenStore) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// The longest wait for any one answer of an authorization server
    /// (metadata, registration, token; default 30 s).
    pub fn timeout(mut self, timeout: std::time::Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How often one request may re-authorize for more scopes (default 2).
    pub fn max_step_ups(mut self, max: usize) -> Self {
        self.max_step_ups = max;
        self
    }
}

impl fmt::Debug for OAuthConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthConfig")
            .field("client_name", &self.client_name)
            .field("client_metadata_url", &self.client_metadata_url)
            .finish_non_exhaustive()
    }
}
