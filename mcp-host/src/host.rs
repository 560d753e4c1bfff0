//! The host: one client per configured server, each isolated in its own
//! process or connection, and the merged catalogue of their tools.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_runtime::client::auth::AuthorizationStep;
use mcp_runtime::client::{Client, ClientError, ConnectOptions, ToolList};
use mcp_runtime::protocol::{CacheScope, Tool};
use mcp_runtime::reexports::http::{HeaderName, HeaderValue};

use crate::audit::{AuditKey, AuditSink};
use crate::catalogue::{Listening, Watcher};
use crate::config::{Config, OAuthGrant, ServerConfig};
use crate::policy::Policy;
use crate::sync::{lock, read, write};

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
    /// [`LoopbackBrowser`](mcp_runtime::client::auth::LoopbackBrowser).
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

/// Many servers behind one catalogue.
pub struct Host {
    pub(crate) servers: BTreeMap<String, Slot>,
    pub(crate) policy: Policy,
    pub(crate) audit: Vec<Arc<dyn AuditSink>>,
    /// Keys the argument digests of this run's audit records.
    pub(crate) audit_key: AuditKey,
}

pub(crate) struct Slot {
    /// Replaced when a crashed stdio server is restarted, and when its tools
    /// are listed again; shared with the watcher that does the latter.
    pub(crate) state: SharedState,
    /// Lists the tools again when the server says they changed; replaced
    /// with the connection, stopped with the slot.
    watcher: std::sync::Mutex<Option<Watcher>>,
    /// Bounds the calls in flight to this server.
    pub(crate) in_flight: Arc<tokio::sync::Semaphore>,
    config: ServerConfig,
    pub(crate) options: HostOptions,
    restarts: tokio::sync::Mutex<Restarts>,
    /// One listing at a time for an expired `ttlMs`.
    pub(crate) relisting: tokio::sync::Mutex<()>,
}

/// A server's current state, swapped whole.
pub(crate) type SharedState = Arc<std::sync::RwLock<Arc<ServerState>>>;

/// How often a server was restarted, for the backoff.
#[derive(Default)]
struct Restarts {
    count: u32,
    last: Option<Instant>,
}

/// The shortest wait before the first restart; it doubles each time, up
/// to [`MAX_RESTART_BACKOFF`].
const RESTART_BACKOFF: Duration = Duration::from_millis(500);
const MAX_RESTART_BACKOFF: Duration = Duration::from_secs(30);

impl Slot {
    fn new(connected: Connected, config: ServerConfig, options: &HostOptions) -> Slot {
        let (state, listening) = connected;
        let slot = Slot {
            state: Arc::new(std::sync::RwLock::new(Arc::new(state))),
            watcher: Default::default(),
            in_flight: Arc::new(tokio::sync::Semaphore::new(options.max_in_flight.max(1))),
            config,
            options: options.clone(),
            restarts: Default::default(),
            relisting: Default::default(),
        };
        slot.watch(listening);
        slot
    }

    /// Where the server stands now.
    pub(crate) fn current(&self) -> Arc<ServerState> {
        current(&self.state)
    }

    /// Starts watching the current connection for list changes with what
    /// it has heard since before its tools were listed (and stops watching
    /// the one before).
    fn watch(&self, listening: Option<Listening>) {
        let watcher = match (&*self.current(), listening) {
            (ServerState::Ready { client, .. }, Some(listening)) => Some(Watcher::start(
                self.state.clone(),
                client.clone(),
                listening,
                self.options.connect_timeout,
            )),
            _ => None,
        };
        *lock(&self.watcher) = watcher;
    }

    /// Restarts a stdio server that went away while `failed` was current,
    /// unless another call did already, and not sooner than the backoff
    /// allows: it waits for that when it comes before `deadline`, else an
    /// error says when. HTTP servers are not restarted.
    pub(crate) async fn restart(
        &self,
        failed: &Arc<ServerState>,
        deadline: Instant,
    ) -> Result<Arc<ServerState>, String> {
        if !matches!(self.config, ServerConfig::Stdio { .. }) {
            return Err("the connection was lost".to_owned());
        }
        let mut restarts = self.restarts.lock().await;
        let current = self.current();
        if !current.same_connection(failed) {
            return Ok(current);
        }
        let wait = RESTART_BACKOFF
            .saturating_mul(2u32.saturating_pow(restarts.count))
            .min(MAX_RESTART_BACKOFF);
        if let Some(last) = restarts.last {
            let ready_at = last + wait;
            if ready_at > deadline {
                return Err(format!(
                    "it crashed again; the next restart is allowed in {:.1} s",
                    ready_at
                        .saturating_duration_since(Instant::now())
                        .as_secs_f64()
                ));
            }
            tokio::time::sleep_until(ready_at.into()).await;
        }
        restarts.count += 1;
        restarts.last = Some(Instant::now());
        tracing::warn!(
            restarts = restarts.count,
            "restarting a server that went away"
        );
        let (state, listening) = match connect(&self.config, &self.options).await {
            Ok(connected) => connected,
            Err(why) => (ServerState::Failed(why), None),
        };
        let state = Arc::new(state);
        *write(&self.state) = state.clone();
        self.watch(listening);
        Ok(state)
    }
}

pub(crate) fn current(state: &SharedState) -> Arc<ServerState> {
    read(state).clone()
}

/// Where one server stands.
pub enum ServerState {
    /// Connected, with its tools listed.
    Ready {
        /// The client, used by this server only.
        client: Client,
        /// Its tools.
        tools: Vec<Tool>,
        /// How long the list stays fresh and who may cache it.
        freshness: Freshness,
    },
    /// It could not be used, and why.
    Failed(String),
}

impl ServerState {
    pub(crate) fn ready(client: Client, list: ToolList, relisted: u32) -> ServerState {
        ServerState::Ready {
            client,
            tools: list.tools,
            freshness: Freshness {
                listed_at: Instant::now(),
                ttl: list.ttl,
                cache_scope: list.cache_scope,
                relisted,
            },
        }
    }

    /// Whether both are the same connection (or the same failure).
    fn same_connection(self: &Arc<Self>, other: &Arc<ServerState>) -> bool {
        match (&**self, &**other) {
            (ServerState::Ready { client: a, .. }, ServerState::Ready { client: b, .. }) => {
                a.same_connection(b)
            }
            _ => Arc::ptr_eq(self, other),
        }
    }
}

/// When a server's tools were listed, and for how long that list holds.
///
/// The host keeps each list in its own memory only, for the one user it
/// serves, so a `private` list (`cacheScope`) is never shared.
#[derive(Debug, Clone)]
pub struct Freshness {
    /// When the list was fetched.
    pub listed_at: Instant,
    /// `ttlMs` (2026-07-28): the list is fetched again before a call made
    /// after it ran out.
    pub ttl: Option<Duration>,
    /// `cacheScope` (2026-07-28).
    pub cache_scope: Option<CacheScope>,
    /// How often the list was fetched again on this connection, after a
    /// `notifications/tools/list_changed` or an expired `ttlMs`.
    pub relisted: u32,
}

impl Freshness {
    /// Whether the server's `ttlMs` has run out.
    pub fn is_stale(&self) -> bool {
        self.ttl.is_some_and(|ttl| self.listed_at.elapsed() >= ttl)
    }
}

/// One server as `mcp-host servers` shows it.
#[derive(Debug, Clone)]
pub struct ServerStatus {
    /// The configured name.
    pub name: String,
    /// `ready` with the protocol version, or why it failed.
    pub state: Result<String, String>,
    /// How many tools it lists.
    pub tools: usize,
    /// How often its tools were listed again (see [`Freshness::relisted`]).
    pub relisted: u32,
    /// The process id of a stdio server.
    pub pid: Option<u32>,
}

/// One tool in the merged catalogue, named `SERVER.TOOL`.
#[derive(Debug, Clone)]
pub struct CatalogueEntry {
    /// The server.
    pub server: String,
    /// The tool as its server lists it.
    pub tool: Tool,
}

impl CatalogueEntry {
    /// `SERVER.TOOL`: unique, since server names have no `.`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.server, self.tool.name)
    }
}

impl Host {
    /// Starts every configured server, all at once. A server that fails to
    /// start is recorded as failed; the others are not affected.
    pub async fn start(config: Config, options: HostOptions) -> Host {
        let names: Vec<String> = config.servers.keys().cloned().collect();
        Self::start_only(config, &names, options).await
    }

    /// Starts only the servers named in `names`.
    pub async fn start_only(config: Config, names: &[String], options: HostOptions) -> Host {
        let starts = config
            .servers
            .iter()
            .filter(|(name, _)| names.contains(name))
            .map(|(name, server)| {
                let (name, server) = (name.clone(), server.clone());
                let options = options.clone();
                let timeout = connect_bound(&server, &options);
                tokio::spawn(async move {
                    // The client bounds the connection itself and says why
                    // it failed; this outer bound only backs it up.
                    let backstop = timeout.saturating_add(BACKSTOP_MARGIN);
                    let connected =
                        match tokio::time::timeout(backstop, connect(&server, &options)).await {
                            Ok(Ok(connected)) => connected,
                            Ok(Err(why)) => (ServerState::Failed(why), None),
                            Err(_) => (
                                ServerState::Failed(format!(
                                    "did not start within {} s",
                                    timeout.as_secs()
                                )),
                                None,
                            ),
                        };
                    (name, Slot::new(connected, server, &options))
                })
            })
            .collect::<Vec<_>>();
        let mut servers = BTreeMap::new();
        for start in starts {
            if let Ok((name, slot)) = start.await {
                if let ServerState::Failed(why) = &*slot.current() {
                    tracing::warn!(server = %name, reason = %why, "server unavailable");
                }
                servers.insert(name, slot);
            }
        }
        Host {
            servers,
            policy: Policy::new(config.policy),
            audit: Vec::new(),
            audit_key: options.audit_key.unwrap_or_else(AuditKey::random),
        }
    }

    /// Adds a sink that receives every audit record.
    pub fn add_audit_sink(&mut self, sink: Arc<dyn AuditSink>) {
        self.audit.push(sink);
    }

    /// Stops every stdio server politely within `grace`: what was queued
    /// for it is written (the cancellation of a call that ran out of time
    /// included), its input closed, and it is killed only if it has not
    /// exited by then. Call it before the process exits.
    pub async fn shutdown(&self, grace: Duration) {
        let closing: Vec<_> = self
            .servers
            .values()
            .filter_map(|slot| match &*slot.current() {
                ServerState::Ready { client, .. } => Some(client.clone()),
                ServerState::Failed(_) => None,
            })
            .map(|client| tokio::spawn(async move { client.close(grace).await }))
            .collect();
        for close in closing {
            let _ = close.await;
        }
    }

    /// Each server and where it stands.
    pub fn servers(&self) -> Vec<ServerStatus> {
        self.servers
            .iter()
            .map(|(name, slot)| {
                let state = slot.current();
                let pid = match &*state {
                    ServerState::Ready { client, .. } => client.process_id(),
                    ServerState::Failed(_) => None,
                };
                match &*state {
                    ServerState::Ready {
                        client,
                        tools,
                        freshness,
                    } => ServerStatus {
                        name: name.clone(),
                        state: Ok(client.server().protocol_version.clone()),
                        tools: tools.len(),
                        relisted: freshness.relisted,
                        pid,
                    },
                    ServerState::Failed(why) => ServerStatus {
                        name: name.clone(),
                        state: Err(why.clone()),
                        tools: 0,
                        relisted: 0,
                        pid,
                    },
                }
            })
            .collect()
    }

    /// Every ready server's tools, by `SERVER.TOOL`, as last listed: a
    /// server's list is fetched again when it announces a change, and
    /// before a call once its `ttlMs` ran out; call
    /// [`refresh_stale`](Self::refresh_stale) first to have every list
    /// fresh.
    pub fn tools(&self) -> Vec<CatalogueEntry> {
        let mut entries = Vec::new();
        for (server, slot) in &self.servers {
            if let ServerState::Ready { tools, .. } = &*slot.current() {
                entries.extend(tools.iter().map(|tool| CatalogueEntry {
                    server: server.clone(),
                    tool: tool.clone(),
                }));
            }
        }
        entries
    }
}

/// The options every host client uses: the connection is bounded by
/// `connect_timeout`; calls are bounded by the host itself.
fn client_options(connect_timeout: Duration) -> ConnectOptions {
    ConnectOptions {
        request_timeout: Duration::from_secs(24 * 60 * 60),
        connect_timeout: Some(connect_timeout),
        discover_timeout: (connect_timeout / 3).min(Duration::from_secs(10)),
        ..ConnectOptions::default()
    }
}

/// How much longer than its connect timeout a server's start may take
/// before the host gives up on it without the client's word on why.
const BACKSTOP_MARGIN: Duration = Duration::from_secs(2);

/// The least time the first listing gets after the user authorized in a
/// browser while connecting (time the client's limits do not count, but the
/// host's clock does).
const MIN_LISTING_TIME: Duration = Duration::from_secs(1);

/// The shortest time a user gets to approve access in a browser.
const USER_AUTHORIZATION_TIME: Duration = Duration::from_secs(300);

/// Whether connecting to `server` may wait for the user to authorize in a
/// browser: its `oauth` entry uses the authorization code grant, and the
/// host has a way to ask.
fn user_may_authorize(server: &ServerConfig, options: &HostOptions) -> bool {
    matches!(server, ServerConfig::Http { oauth: Some(oauth), .. }
        if oauth.grant == OAuthGrant::AuthorizationCode)
        && options.authorization_step.is_some()
}

/// How long connecting to `server` may take: `connect_timeout`, but at
/// least [`USER_AUTHORIZATION_TIME`] when the user may have to authorize.
fn connect_bound(server: &ServerConfig, options: &HostOptions) -> Duration {
    if user_may_authorize(server, options) {
        options.connect_timeout.max(USER_AUTHORIZATION_TIME)
    } else {
        options.connect_timeout
    }
}

async fn connect(server: &ServerConfig, options: &HostOptions) -> Result<Connected, String> {
    let timeout = connect_bound(server, options);
    let started = Instant::now();
    let client = match server {
        ServerConfig::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut process = tokio::process::Command::new(command);
            process.args(args);
            for name in &options.withheld_env {
                process.env_remove(name);
            }
            // What the configuration gives a server explicitly, it gets.
            process.envs(env);
            if let Some(cwd) = cwd {
                process.current_dir(cwd);
            }
            Client::connect_command(process, client_options(timeout))
                .await
                .map_err(|e| match e {
                    ClientError::Io(e) => format!("cannot start `{command}`: {e}"),
                    e => format!("`{command}`: {e}"),
                })?
        }
        ServerConfig::Http {
            url,
            headers,
            oauth,
        } => {
            let step = options.authorization_step.as_ref();
            let mut options = client_options(timeout);
            if let Some(oauth) = oauth {
                let config = crate::authorize::oauth_config(oauth, step, timeout)?;
                options.oauth = Some(Arc::new(config));
            }
            for (name, value) in headers {
                let name = HeaderName::try_from(name.as_str())
                    .map_err(|_| format!("`{name}` is not a header name"))?;
                let mut value = HeaderValue::try_from(value.as_str())
                    .map_err(|_| format!("the header `{name}` has an invalid value"))?;
                value.set_sensitive(true);
                options.headers.append(name, value);
            }
            Client::connect_http_with(url, options)
                .await
                .map_err(|e| e.to_string())?
        }
    };
    // Listening starts before the first listing, so that no change the
    // server announces after it is missed.
    let listening = Listening::begin(&client);
    // Listed within what is left of the connect timeout, so that a server
    // whose answer cannot be read is reported with the client's diagnosis
    // (too deep, not JSON-RPC) in time, not by the backstop.
    let floor = if user_may_authorize(server, options) {
        MIN_LISTING_TIME
    } else {
        Duration::ZERO
    };
    let left = timeout.saturating_sub(started.elapsed()).max(floor);
    let list = client
        .tool_list_within(left)
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    Ok((ServerState::ready(client, list, 0), Some(listening)))
}

/// A server's state after connecting, and what the connection has heard
/// since before its tools were listed.
type Connected = (ServerState, Option<Listening>);

#[cfg(test)]
mod tests {
    use super::*;

    /// A browser that is never used.
    struct NoBrowser;

    impl AuthorizationStep for NoBrowser {
        fn redirect_uri(&self) -> String {
            "http://127.0.0.1:1/callback".into()
        }

        fn authorize<'a>(
            &'a self,
            _url: &'a str,
        ) -> mcp_runtime::client::auth::AuthorizeFuture<'a> {
            Box::pin(async { Err(ClientError::Closed) })
        }
    }

    #[test]
    fn only_a_host_that_can_ask_the_user_waits_minutes_for_them() {
        let config = Config::parse(
            r#"{"mcpServers": {
                "browser": {"url": "https://a.example/mcp", "oauth": true},
                "machine": {"url": "https://b.example/mcp",
                            "oauth": {"grant": "client_credentials", "clientId": "c",
                                      "clientSecret": "s"}}
            }}"#,
            |_| None,
        )
        .unwrap();
        let (browser, machine) = (&config.servers["browser"], &config.servers["machine"]);
        let unattended = HostOptions {
            connect_timeout: Duration::from_secs(3),
            ..HostOptions::default()
        };
        let attended = HostOptions {
            authorization_step: Some(Arc::new(NoBrowser)),
            ..unattended.clone()
        };
        assert_eq!(connect_bound(browser, &attended), USER_AUTHORIZATION_TIME);
        assert_eq!(connect_bound(browser, &unattended), Duration::from_secs(3));
        assert_eq!(connect_bound(machine, &attended), Duration::from_secs(3));
    }
}
