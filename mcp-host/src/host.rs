//! The host: one client per configured server, each isolated in its own
//! process or connection, and the merged catalogue of their tools.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use mcp_toolkit_runtime::protocol::Tool;

use crate::audit::{AuditKey, AuditSink};
use crate::config::Config;
use crate::connect::start;
use crate::options::HostOptions;
use crate::policy::Policy;
use crate::slot::Slot;
use crate::state::ServerState;

/// Many servers behind one catalogue.
pub struct Host {
    pub(crate) servers: BTreeMap<String, Slot>,
    pub(crate) policy: Policy,
    pub(crate) audit: Vec<Arc<dyn AuditSink>>,
    /// Keys the argument digests of this run's audit records.
    pub(crate) audit_key: AuditKey,
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
    /// How often its tools were listed again (see [`Freshness::relisted`](crate::Freshness::relisted)).
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
                tokio::spawn(async move {
                    let connected = start(&server, &options).await;
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
                entries.extend(tools.iter().map(|listed| CatalogueEntry {
                    server: server.clone(),
                    tool: listed.tool.clone(),
                }));
            }
        }
        entries
    }

    /// Lists again the tools of every server whose `ttlMs` ran out, so that
    /// [`tools`](Self::tools) is fresh. [`call`](Self::call) does this for
    /// its own server.
    pub async fn refresh_stale(&self) {
        for slot in self.servers.values() {
            slot.refresh_if_stale().await;
        }
    }
}
