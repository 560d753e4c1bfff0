//! The Streamable HTTP transport (server side), for both protocol eras on
//! one endpoint.
//!
//! - **2026-07-28**: stateless. Each POST carries one JSON-RPC message whose
//!   `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers must match
//!   the body (-32020 and HTTP 400 otherwise), and so must the
//!   `Mcp-Param-*` headers of a `tools/call` whose tool marks properties
//!   with `x-mcp-header`. The answer is
//!   `application/json`, or `text/event-stream` when the handler sends
//!   progress or log notifications before its result. Closing the response
//!   cancels the request.
//! - **2025-11-25 and earlier**: `initialize` mints an `Mcp-Session-Id`;
//!   later requests must name it (404 once it is unknown or expired), DELETE
//!   ends it, `notifications/cancelled` reaches its requests in flight. On
//!   a server that announces changes (a live registry, `list_changes`), a
//!   GET with `Accept: text/event-stream` opens the session's standalone
//!   stream, which carries `notifications/*/list_changed` and the updates
//!   of the resources it subscribed to (one stream per session: a second
//!   GET gets 409; a server that announces nothing answers GET with 405).
//!   [`HttpConfig::stateless_legacy`] serves them without sessions (and
//!   without streams) instead.
//!
//! Safe by default ([`HttpConfig::default`]): `Host` and `Origin` must be
//! localhost names (403 otherwise, which defeats DNS rebinding), bodies are
//! limited (413), only `application/json` is read (415), `Accept` must allow
//! a response form (406), slow clients time out, and a handler's panic fails
//! only its own request.
//!
//! ```no_run
//! # async fn run(server: mcp_toolkit_runtime::server::Server) -> std::io::Result<()> {
//! server.serve_http("127.0.0.1:8080").await
//! # }
//! ```

mod auth;
mod body;
mod config;
mod exchange;
mod guard;
mod media;
mod response;
mod serve;
mod service;
mod sessions;
mod sse;
mod standalone;
mod stateless;

pub use body::McpBody;
pub use config::HttpConfig;
pub use service::McpService;
