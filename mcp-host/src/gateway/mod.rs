//! The gateway: the host's catalogue served as one MCP server, as
//! `mcp-host serve` does over stdio or Streamable HTTP. What is served and
//! how calls are checked is documented on [`Host::gateway`].
//!
//! Parts: `tools` makes a server's tools into tool definitions, `follow`
//! keeps them in step with the host's view of the server, `forward` runs
//! one call through [`Host::call`], `consent` asks the gateway's client,
//! `access` decides who may call it over HTTP, and `bearer` is the static
//! token one of those ways takes.

mod access;
mod bearer;
mod consent;
mod follow;
mod forward;
mod tools;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use mcp_toolkit_runtime::protocol::Implementation;
use mcp_toolkit_runtime::server::{BuildError, Server, ServerOptions};

pub use access::{AccessError, GatewayAccess, GatewayListener, Introspection, OAuthAccess};
pub use bearer::{BEARER_SUBJECT, BearerError, MIN_BEARER_CHARS, StaticBearer};

use crate::host::Host;

/// Who allows a call of a tool that may have side effects, when it comes
/// through the gateway (which has no terminal of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GatewayConsent {
    /// Ask the gateway's client with an elicitation form, when it declares
    /// the capability; refuse when it does not (the default).
    #[default]
    AskClient,
    /// Allow every call the policy allows (`mcp-host serve --yes`).
    AllowAll,
}

/// Which callers over HTTP may be asked for consent. Over stdio the caller
/// is the process that started the gateway, and is always asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConsentCallers {
    /// Only a caller whose access token the transport verified (the
    /// default): a caller nobody authenticated is refused as one the
    /// gateway cannot ask.
    #[default]
    Authenticated,
    /// Any caller, authenticated or not: right only when the listener is on
    /// a loopback address, so that every caller is a process of this
    /// machine. [`Host::serve_gateway_http`] sets it for a
    /// [`GatewayAccess::Open`] listener.
    Local,
}

/// How the gateway serves the catalogue.
#[derive(Debug, Clone)]
pub struct GatewayOptions {
    /// Who consents to calls with side effects.
    pub consent: GatewayConsent,
    /// Which callers over HTTP may be asked (default: those whose token
    /// the transport verified). [`Host::serve_gateway_http`] sets it from
    /// its listener, whatever it was; it matters when [`Host::gateway`] is
    /// served over HTTP some other way.
    pub consent_callers: ConsentCallers,
    /// The longest wait without progress for one call (default 60 s).
    pub timeout: Duration,
    /// The longest wait for one call in all (default 10 minutes).
    pub max_timeout: Duration,
    /// The name and version the gateway reports (default `mcp-host` and
    /// its version).
    pub info: Implementation,
    /// The options of the gateway's own server (page size, cache hints, the
    /// key that seals 2026-07-28 request state).
    pub server: ServerOptions,
}

impl Default for GatewayOptions {
    fn default() -> Self {
        GatewayOptions {
            consent: GatewayConsent::default(),
            consent_callers: ConsentCallers::default(),
            timeout: Duration::from_secs(60),
            max_timeout: Duration::from_secs(600),
            info: mcp_toolkit_runtime::server_info!(),
            server: ServerOptions::default(),
        }
    }
}

impl Host {
    /// One MCP server that serves this host's catalogue, and follows it: a
    /// gateway. Serve it with [`Server::serve_stdio`] or
    /// [`Server::serve_http_with`]. Call it within a Tokio runtime (as
    /// [`Host::start`] is): it starts a task per server that follows it.
    ///
    /// - Every tool the policy allows is served under its host name,
    ///   `SERVER.TOOL`, with its server's input schema, output schema,
    ///   title, description and the annotations the host believes
    ///   ([`Policy::believed_hints`](crate::Policy::believed_hints): an
    ///   untrusted server's claims that a tool is safe are left out). A tool whose name or schemas the runtime cannot serve
    ///   (`SERVER.TOOL` longer than 128 characters, say) is left out with a
    ///   warning.
    /// - A tool the policy refuses is not served at all: it is not listed,
    ///   and a client that calls it by name gets the JSON-RPC error of any
    ///   unknown tool (-32602 `Unknown tool`), which does not reveal that it
    ///   exists.
    /// - Every call goes through [`Host::call`]: the policy again, the
    ///   arguments checked against the server's current schema, consent,
    ///   the time limits (the server's progress extends them and is passed
    ///   on to the gateway's client), the output checked, an audit record.
    ///   What the host refuses or cannot do is a tool result with
    ///   `isError: true` whose text says why.
    /// - Consent to a tool with side effects: [`GatewayConsent::AllowAll`]
    ///   gives it; otherwise the gateway's client is asked with an
    ///   elicitation form when it declares that capability (in 2026-07-28
    ///   the call answers `input_required` and runs when the client retries
    ///   with the answer, so that round is audited as not confirmed; in the
    ///   legacy era the call waits for the answer), and the call is refused
    ///   with a message naming `--yes` when it does not.
    /// - A consent question never goes to a remote caller nobody
    ///   authenticated. Over HTTP it goes only to a caller whose access
    ///   token the transport verified, unless
    ///   [`GatewayOptions::consent_callers`] is [`ConsentCallers::Local`];
    ///   [`Host::serve_gateway_http`] sets that only for a listener without
    ///   authentication, which [`GatewayListener::bind`] allows on a
    ///   loopback address alone. Beyond loopback the transport refuses a
    ///   request without a valid token (401) before any tool runs, so no
    ///   question can be asked of its sender.
    /// - The list follows the servers. Whenever the host lists a server's
    ///   tools again (the server announced `list_changed`, its `ttlMs` ran
    ///   out, or it was restarted), a tool it added is served, one whose
    ///   schemas, description or annotations changed is replaced, and one
    ///   it dropped is removed, as one change of the gateway's
    ///   [live registry](mcp_toolkit_runtime::server::LiveRegistry): the gateway's
    ///   clients are told (`notifications/tools/list_changed`, on
    ///   `subscriptions/listen` streams in 2026-07-28). The policy applies
    ///   to every new tool as to the first ones: a denied one never
    ///   appears. A server that failed keeps its tools listed; a call then
    ///   reports the failure (and restarts a stdio server that went away).
    ///   The gateway follows for as long as it and the host live. Only
    ///   tools are served: the servers' prompts and resources are not.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use mcp_toolkit_host::{Config, GatewayOptions, Host, HostOptions};
    ///
    /// let config = Config::load(std::path::Path::new(".mcp.json"))?;
    /// let host = Arc::new(Host::start(config, HostOptions::default()).await);
    /// let server = host.gateway(GatewayOptions::default())?;
    /// server.serve_stdio().await?;
    /// host.shutdown(std::time::Duration::from_millis(500)).await;
    /// # Ok(())
    /// # }
    /// ```
    pub fn gateway(self: &Arc<Self>, options: GatewayOptions) -> Result<Server, BuildError> {
        let options = Arc::new(options);
        let server = Server::builder(options.info.clone())
            .options(options.server.clone())
            .live_registry()
            .build()?;
        let registry = server.registry().expect("asked for at build");
        follow::follow(self, &options, &registry)?;
        Ok(server)
    }

    /// Serves [`gateway`](Self::gateway) over Streamable HTTP on
    /// `listener` until `shutdown` resolves. Callers authenticate as the
    /// listener's [`GatewayAccess`] says; a listener without authentication
    /// (loopback only) lets any caller be asked for consent, one with
    /// authentication only callers whose token was verified.
    ///
    /// ```no_run
    /// # async fn run(host: std::sync::Arc<mcp_toolkit_host::Host>) -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_toolkit_host::{GatewayAccess, GatewayListener, GatewayOptions, StaticBearer};
    ///
    /// let token = StaticBearer::new(&std::env::var("GATEWAY_TOKEN")?)?;
    /// let access = GatewayAccess::Bearer { token, resource: None };
    /// let listener = GatewayListener::bind("127.0.0.1:8080".parse()?, &access).await?;
    /// host.serve_gateway_http(GatewayOptions::default(), listener, std::future::pending())
    ///     .await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_gateway_http(
        self: &Arc<Self>,
        mut options: GatewayOptions,
        listener: GatewayListener,
        shutdown: impl Future<Output = ()>,
    ) -> std::io::Result<()> {
        options.consent_callers = match listener.authenticates {
            true => ConsentCallers::Authenticated,
            false => ConsentCallers::Local,
        };
        let server = self.gateway(options).map_err(std::io::Error::other)?;
        server
            .serve_http_with(listener.listener, listener.config, shutdown)
            .await
    }
}
