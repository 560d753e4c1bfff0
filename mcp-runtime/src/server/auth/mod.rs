//! The resource-server role of MCP authorization (2025-06-18 and later):
//! a server behind [`HttpConfig::auth`](crate::transport::http::HttpConfig::auth)
//! publishes its Protected Resource Metadata (RFC 9728), answers a request
//! without a valid access token with 401 and a `WWW-Authenticate` challenge
//! that points to that metadata, and a token without a tool's scopes with
//! 403 `insufficient_scope`. Tokens are checked by a [`TokenVerifier`]:
//! [`JwtVerifier`] or [`IntrospectionVerifier`], or your own. A token may
//! come as `Bearer` or, DPoP-bound (RFC 9449), as `DPoP` with a proof of
//! its key; [`DpopPolicy`] says how DPoP is taken (`jwt` feature).
//!
//! ```no_run
//! # #[cfg(feature = "jwt")]
//! # async fn run(server: mcp_toolkit_runtime::server::Server) -> Result<(), Box<dyn std::error::Error>> {
//! use mcp_toolkit_runtime::server::auth::AuthConfig;
//! use mcp_toolkit_runtime::transport::http::HttpConfig;
//!
//! let auth = AuthConfig::jwt("https://mcp.example.com/mcp", "https://auth.example.com")?;
//! let config = HttpConfig { auth: Some(auth), ..HttpConfig::default() };
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! server.serve_http_with(listener, config, std::future::pending()).await?;
//! # Ok(())
//! # }
//! ```
//!
//! Stdio servers take no tokens: as the spec says, they take credentials
//! from their environment.
//!
//! Without the `http` feature only [`Principal`] is here: what a handler
//! asks its context for, always `None` over stdio.

#[cfg(feature = "http")]
mod config;
#[cfg(feature = "jwt")]
mod dpop;
#[cfg(feature = "http")]
mod introspection;
#[cfg(feature = "jwt")]
mod jwt;
mod principal;
#[cfg(feature = "http")]
mod verifier;

#[cfg(feature = "http")]
pub(crate) use config::check_issuer_url;
#[cfg(feature = "http")]
pub use config::{AuthConfig, AuthSetupError};
#[cfg(feature = "jwt")]
pub use dpop::{DEFAULT_REPLAY_ENTRIES, DpopPolicy};
#[cfg(feature = "jwt")]
pub(crate) use dpop::{DpopRefusal, bound_key};
#[cfg(all(feature = "jwt", feature = "redis"))]
pub(crate) use dpop::{ReplayCache, ReplayError, ReplayKey};
#[cfg(feature = "http")]
pub use introspection::IntrospectionVerifier;
#[cfg(feature = "jwt")]
pub use jwt::JwtVerifier;
pub use principal::Principal;
#[cfg(feature = "http")]
pub use verifier::{TokenError, TokenVerifier, VerifyFuture};
