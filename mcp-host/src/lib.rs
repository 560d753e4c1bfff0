//! The Host of MCP's architecture: the application side that holds one
//! client per server, decides what a model may call, asks the user before
//! side effects, bounds every call in time, and treats every server's
//! output as untrusted data.
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_toolkit_host::HostError> {
//! use mcp_toolkit_host::{CallOptions, Config, Host, HostOptions, NeverAllow};
//!
//! let config = Config::load(std::path::Path::new(".mcp.json"))?;
//! let host = Host::start(config, HostOptions::default()).await;
//! for entry in host.tools() {
//!     println!("{}", entry.name());
//! }
//! let outcome = host
//!     .call("echo.add", serde_json::json!({"a": 2, "b": 40}), &CallOptions::new(&NeverAllow))
//!     .await?;
//! println!("{:?}", outcome.result.structured_content);
//! # Ok(())
//! # }
//! ```
//!
//! - [`Config`]: the `mcpServers` format of Claude Desktop, Cursor and VS
//!   Code, `${VAR}` references, and a `policy` section.
//! - [`Host`]: one isolated client per server; one that fails to start
//!   leaves the others working. The merged catalogue follows each server's
//!   `notifications/tools/list_changed` and `ttlMs`.
//! - [`Policy`] and [`Consent`]: allow/deny rules, and the user's consent
//!   before a tool that is not read-only (an untrusted server's hints may
//!   only tighten).
//! - [`CallOptions`]: a timeout that progress extends, under a cap; the call
//!   is cancelled on the wire when it runs out.
//! - [`AuditSink`]: server, tool, argument digest, decision, outcome and
//!   duration of every call, also logged through `tracing`.
//! - [`Host::gateway`]: the catalogue as one MCP server that follows it
//!   (a tool a server adds, changes or drops is added, changed or dropped,
//!   and the gateway's clients are told), under the same policy, consent,
//!   time limits and audit (`mcp-host serve`, over stdio or Streamable
//!   HTTP); [`GatewayOptions`] says how it asks for consent.

mod audit;
mod authorize;
mod call;
mod catalogue;
mod config;
mod connect;
mod error;
mod gateway;
mod host;
mod listed;
mod options;
mod policy;
mod slot;
mod state;
mod sync;

pub use audit::{AuditKey, AuditRecord, AuditSink, Decision, argument_digest};
pub use call::{CallOptions, CallOutcome};
pub use config::{
    AssertionSource, Config, IdentityProviderSettings, OAuthGrant, OAuthSettings, PolicyConfig,
    ServerConfig,
};
pub use error::HostError;
pub use gateway::{
    AccessError, BEARER_SUBJECT, BearerError, ConsentCallers, GatewayAccess, GatewayConsent,
    GatewayListener, GatewayOptions, Introspection, MIN_BEARER_CHARS, OAuthAccess, StaticBearer,
};
pub use host::{CatalogueEntry, Host, ServerStatus};
pub use options::HostOptions;
pub use policy::{AlwaysAllow, Consent, ConsentRequest, NeverAllow, Policy};
pub use state::Freshness;
