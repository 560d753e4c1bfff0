//! The host: one client per configured server, each isolated in its own
//! process or connection, and the merged catalogue of their tools.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_runtime::client::{Client, ClientError, ConnectOptions};
use mcp_runtime::protocol::Tool;
use mcp_runtime::reexports::http::{HeaderName, HeaderValue};

use crate::audit::AuditSink;
use crate::config::{Config, ServerConfig};
use crate::policy::Policy;

/// How the host connects.
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// The longest wait for a server to start and list its tools (default
    /// 30 s).
    pub connect_timeout: Duration,
    /// The most calls in flight to one server (default 8); more wait their
    /// turn, within their own timeout.
    pub max_in_flight: usize,
}

impl Default for HostOptions {
    fn default() -> Self {
        HostOptions {
            connect_timeout: Duration::from_secs(30),
            max_in_flight: 8,
        }
    }
}

/// Many servers behind one catalogue.
pub struct Host {
    pub(crate) servers: BTreeMap<String, Slot>,
    pub(crate) policy: Policy,
    pub(crate) audit: Vec<Arc<dyn AuditSink>>,
}

pub(crate) struct Slot {
    /// Replaced when a crashed stdio server is restarted.
    state: std::sync::RwLock<Arc<ServerState>>,
    /// Bounds the calls in flight to this server.
    pub(crate) in_flight: Arc<tokio::sync::Semaphore>,
    config: ServerConfig,
    connect_timeout: Duration,
    restarts: tokio::sync::Mutex<Restarts>,
}

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
    /// Where the server stands now.
    pub(crate) fn current(&self) -> Arc<ServerState> {
        self.state.read().unwrap_or_else(|e| e.into_inner()).clone()
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
        if !Arc::ptr_eq(&current, failed) {
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
        let state = match connect(&self.config, self.connect_timeout).await {
            Ok(ready) => ready,
            Err(why) => ServerState::Failed(why),
        };
        let state = Arc::new(state);
        *self.state.write().unwrap_or_else(|e| e.into_inner()) = state.clone();
        Ok(state)
    }
}

/// Where one server stands.
pub enum ServerState {
    /// Connected, with its tools listed.
    Ready {
        /// The client, used by this server only.
        client: Client,
        /// Its tools.
        tools: Vec<Tool>,
    },
    /// It could not be used, and why.
    Failed(String),
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
                let timeout = options.connect_timeout;
                let limit = options.max_in_flight.max(1);
                tokio::spawn(async move {
                    // The client bounds the connection itself and says why
                    // it failed; this outer bound only backs it up.
                    let backstop = timeout + Duration::from_secs(5);
                    let state =
                        match tokio::time::timeout(backstop, connect(&server, timeout)).await {
                            Ok(Ok(ready)) => ready,
                            Ok(Err(why)) => ServerState::Failed(why),
                            Err(_) => ServerState::Failed(format!(
                                "did not start within {} s",
                                timeout.as_secs()
                            )),
                        };
                    let slot = Slot {
                        state: std::sync::RwLock::new(Arc::new(state)),
                        in_flight: Arc::new(tokio::sync::Semaphore::new(limit)),
                        config: server,
                        connect_timeout: timeout,
                        restarts: Default::default(),
                    };
                    (name, slot)
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
                    ServerState::Ready { client, tools } => ServerStatus {
                        name: name.clone(),
                        state: Ok(client.server().protocol_version.clone()),
                        tools: tools.len(),
                        pid,
                    },
                    ServerState::Failed(why) => ServerStatus {
                        name: name.clone(),
                        state: Err(why.clone()),
                        tools: 0,
                        pid,
                    },
                }
            })
            .collect()
    }

    /// Every ready server's tools, by `SERVER.TOOL`.
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

async fn connect(server: &ServerConfig, timeout: Duration) -> Result<ServerState, String> {
    let client = match server {
        ServerConfig::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut process = tokio::process::Command::new(command);
            process.args(args).envs(env);
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
        ServerConfig::Http { url, headers } => {
            let mut options = client_options(timeout);
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
    let tools = client
        .list_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    Ok(ServerState::Ready { client, tools })
}
