//! Where one server stands: connected with its tools listed, or failed and
//! why. A server's state is swapped whole, and shared by the calls to it
//! and the watcher that lists its tools again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_runtime::client::Client;
use mcp_runtime::protocol::CacheScope;

use crate::listed::{ListedTool, Listing};
use crate::sync::read;

/// A server's current state, swapped whole.
pub(crate) type SharedState = Arc<std::sync::RwLock<Arc<ServerState>>>;

/// The state in `state` now.
pub(crate) fn current(state: &SharedState) -> Arc<ServerState> {
    read(state).clone()
}

/// Where one server stands.
pub(crate) enum ServerState {
    /// Connected, with its tools listed.
    Ready {
        /// The client, used by this server only.
        client: Client,
        /// Its tools, their schemas compiled.
        tools: Vec<Arc<ListedTool>>,
        /// How long the list stays fresh and who may cache it.
        freshness: Freshness,
    },
    /// It could not be used, and why.
    Failed(String),
}

impl ServerState {
    /// Connected with the tools of `listing`, listed again `relisted`
    /// times on this connection.
    pub(crate) fn ready(client: Client, listing: Listing, relisted: u32) -> ServerState {
        ServerState::Ready {
            client,
            tools: listing.tools,
            freshness: Freshness {
                listed_at: Instant::now(),
                ttl: listing.ttl,
                cache_scope: listing.cache_scope,
                relisted,
            },
        }
    }

    /// Whether both are the same connection (or the same failure).
    pub(crate) fn same_connection(self: &Arc<Self>, other: &Arc<ServerState>) -> bool {
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
