//! Where one server stands: connected with its tools listed, or failed and
//! why. A server's state is swapped whole, and shared by the calls to it,
//! the watcher that lists its tools again, and whoever follows it (the
//! gateway).

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::Client;
use mcp_toolkit_runtime::protocol::CacheScope;
use tokio::sync::watch;

use crate::listed::{ListedTool, Listing};

/// A server's current state, swapped whole; every swap wakes the
/// followers, so that nothing which changes a server's tools can forget to
/// tell them. Clones share the state.
#[derive(Clone)]
pub(crate) struct SharedState(watch::Sender<Arc<ServerState>>);

impl SharedState {
    pub(crate) fn new(state: ServerState) -> Self {
        SharedState(watch::Sender::new(Arc::new(state)))
    }

    /// The state now.
    pub(crate) fn current(&self) -> Arc<ServerState> {
        self.0.borrow().clone()
    }

    /// Makes `state` the current one.
    pub(crate) fn replace(&self, state: Arc<ServerState>) {
        self.0.send_replace(state);
    }

    /// Replaces the current state with what `next` makes of it, when it
    /// makes something (atomically: no other swap comes in between).
    pub(crate) fn replace_with(&self, next: impl FnOnce(&Arc<ServerState>) -> Option<ServerState>) {
        self.0.send_if_modified(|state| match next(state) {
            Some(next) => {
                *state = Arc::new(next);
                true
            }
            None => false,
        });
    }

    /// Follows the state from now on: the receiver has seen the current
    /// one and wakes at each swap after it.
    pub(crate) fn follow(&self) -> watch::Receiver<Arc<ServerState>> {
        self.0.subscribe()
    }
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
