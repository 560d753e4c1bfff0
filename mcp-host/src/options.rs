//! How the host runs: its connect timeout, the bound on calls in flight
//! to one server, the user's part of OAuth, the audit key, and what a
//! stdio server does not inherit.

use std::sync::Arc;
use std::time::Duration;

use mcp_toolkit_runtime::client::auth::AuthorizationStep;

use crate::audit::AuditKey;

/// How the host connects.
#[derive(Clone)]
pub struct HostOptions {
    /// The longest wait for a server to start and list its tools (default
    /// 30 s); a server whose `oauth` entry has the user authorize in a
    /// browser gets at least five minutes.
    pub connect_timeout: Duration,
    /// The most calls in flight to one server (default 8); more wait their
    /// turn, within their own timeout.
    pub max_in_flight: usize,
    /// The user's part of OAuth's authorization code flow, for the HTTP
    /// servers whose `oauth` entry uses it (default none: such servers are
    /// unavailable). The `mcp-host` command uses a
    /// [`LoopbackBrowser`](mcp_toolkit_runtime::client::auth::LoopbackBrowser).
    pub authorization_step: Option<Arc<dyn AuthorizationStep>>,
    /// The key of the audit records' argument digests (default none: a
    /// random one per run; see [`AuditKey`]).
    pub audit_key: Option<AuditKey>,
    /// Environment variables a stdio server does not inherit from the host
    /// (default none): the host's own secrets, such as the gateway's token.
    /// A server's `env` entry still sets one explicitly.
    pub withheld_env: Vec<String>,
}

impl Default for HostOptions {
    fn default() -> Self {
        HostOptions {
            connect_timeout: Duration::from_secs(30),
            max_in_flight: 8,
            authorization_step: None,
            audit_key: None,
            withheld_env: Vec::new(),
        }
    }
}

impl std::fmt::Debug for HostOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostOptions")
            .field("connect_timeout", &self.connect_timeout)
            .field("max_in_flight", &self.max_in_flight)
            .field(
                "authorization_step",
                &self
                    .authorization_step
                    .as_ref()
                    .map(|step| step.redirect_uri()),
            )
            .field("audit_key", &self.audit_key)
            .field("withheld_env", &self.withheld_env)
            .finish()
    }
}
