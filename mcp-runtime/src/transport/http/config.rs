//! The knobs of the HTTP transport, with safe defaults.

use std::time::Duration;

use crate::server::auth::AuthConfig;

/// Settings of the Streamable HTTP server. [`HttpConfig::default`] is safe
/// for a server on a developer's machine: it accepts only requests addressed
/// to a localhost name, from no browser origin other than a localhost one,
/// with bounded bodies, timeouts and session counts.
///
/// Change [`allowed_hosts`](Self::allowed_hosts) and
/// [`allowed_origins`](Self::allowed_origins) when the server is reached
/// under another name (behind a reverse proxy, say).
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// The path of the MCP endpoint (default `/mcp`). Requests to any other
    /// path get 404. Used by [`serve_http_with`](crate::server::Server::serve_http_with);
    /// a [`McpService`](super::McpService) mounted in a router answers on
    /// whatever path it is mounted at.
    pub path: String,
    /// The `Host` values accepted, as host names that match on any port
    /// (`localhost`) or `host:port` pairs that match exactly
    /// (`mcp.example.com:443`); compared case-insensitively. Other hosts get
    /// 403, which defeats DNS rebinding. `None` turns the check off, for a
    /// server whose proxy checks `Host` itself. Default: `localhost`,
    /// `127.0.0.1` and `[::1]`.
    pub allowed_hosts: Option<Vec<String>>,
    /// The `Origin` values accepted when a request carries one: a host name
    /// that matches any scheme and port (`localhost`), or an exact origin
    /// (`https://app.example.com`). A request without `Origin` (not from a
    /// browser) is accepted; `Origin: null` never is. Other origins get 403.
    /// `None` turns the check off. Default: `localhost`, `127.0.0.1` and
    /// `[::1]`.
    pub allowed_origins: Option<Vec<String>>,
    /// The largest accepted request body in bytes (default 4 MiB); a larger
    /// one gets 413.
    pub max_body_bytes: usize,
    /// How long a client may take to send a request's headers (default
    /// 10 s). hyper starts this timer whenever the connection waits for the
    /// next request, so it is also the idle timeout of a kept-alive
    /// connection.
    pub header_read_timeout: Duration,
    /// How long a client may take to send a request's body once its headers
    /// arrived (default 30 s); a slower one gets 408.
    pub body_read_timeout: Duration,
    /// How long a legacy (2025-11-25 and earlier) session may stay unused
    /// before it expires and its id answers 404 (default 30 minutes).
    pub session_idle_timeout: Duration,
    /// The most legacy sessions alive at once (default 10 000); `initialize`
    /// beyond it gets 503 until sessions end or expire.
    pub max_sessions: usize,
    /// The most connections served at once (default 1024); further clients
    /// wait in the listen backlog.
    pub max_connections: usize,
    /// Serve legacy (2025-11-25 and earlier) requests without sessions
    /// (default `false`), for deployments that cannot keep per-client state
    /// (several instances without sticky routing, serverless).
    /// `initialize` is answered but mints no `Mcp-Session-Id`, and every
    /// request without one is served on its own as if the handshake had
    /// just happened, at the version its `MCP-Protocol-Version` header names
    /// (2025-03-26 without one). The trade-offs: no client capabilities are
    /// known, so a handler cannot send requests to the client (elicitation,
    /// sampling, roots fail with a missing capability); a
    /// `notifications/cancelled` reaches no request (closing the connection
    /// does not cancel either, as in any legacy exchange); `logging/setLevel`
    /// does not carry over to later requests; with no session there is no
    /// GET stream (405), so legacy clients are told of no changes. The
    /// 2026-07-28 era is stateless anyway and is not affected.
    pub stateless_legacy: bool,
    /// How long requests in flight may take to finish after the shutdown
    /// signal before they are cancelled (default 10 s).
    pub shutdown_grace: Duration,
    /// Makes the endpoint an OAuth 2.1 protected resource (default `None`:
    /// no authorization). Every request then needs a valid access token
    /// (401 with a `WWW-Authenticate` challenge otherwise), a tool's
    /// [`scopes`](crate::server::ToolDef::scopes) are enforced (403
    /// `insufficient_scope`), and the Protected Resource Metadata is served
    /// at [`AuthConfig::metadata_paths`]. See [`crate::server::auth`].
    pub auth: Option<AuthConfig>,
}

/// The host names a local server answers to.
const LOCALHOST_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

impl Default for HttpConfig {
    fn default() -> Self {
        let localhost = || Some(LOCALHOST_NAMES.iter().map(|h| (*h).to_owned()).collect());
        HttpConfig {
            path: "/mcp".to_owned(),
            allowed_hosts: localhost(),
            allowed_origins: localhost(),
            max_body_bytes: 4 * 1024 * 1024,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            session_idle_timeout: Duration::from_secs(30 * 60),
            max_sessions: 10_000,
            max_connections: 1024,
            stateless_legacy: false,
            shutdown_grace: Duration::from_secs(10),
            auth: None,
        }
    }
}
