//! [`ServerOptions`]: the server's tunables and their defaults.

use crate::protocol::CacheScope;
use crate::server::StateKey;

/// Tunables with sensible defaults.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Entries per `*/list` page (default 100).
    pub page_size: usize,
    /// `ttlMs` of list and discover results in 2026-07-28 (default 5
    /// minutes). A client that caches a list sees a
    /// [live registry](crate::server::ServerBuilder::live_registry)'s change
    /// when a `subscriptions/listen` stream tells it, or when this runs out:
    /// lower it for clients that do not listen.
    pub list_ttl_ms: u64,
    /// `cacheScope` of list and discover results (default public).
    pub list_cache_scope: CacheScope,
    /// `ttlMs` of `resources/read` results when the handler sets none
    /// (default 0: do not cache).
    pub read_ttl_ms: u64,
    /// `cacheScope` of `resources/read` results when the handler sets none
    /// (default private).
    pub read_cache_scope: CacheScope,
    /// Seals the `requestState` of multi-round-trip requests (2026-07-28).
    /// The default is random per process: give every instance behind a load
    /// balancer the same key so that any instance can take the next round.
    pub request_state_key: StateKey,
    /// How long a client may take to answer a round (default 10 minutes).
    pub request_state_ttl: std::time::Duration,
    /// The most tasks the server holds at once, running or ended (default
    /// 1000). An ended task is kept until its TTL is over or until a new
    /// task needs its room (the oldest ended one goes first); a call that
    /// would create one more while all are running fails with -32603.
    pub max_tasks: usize,
    /// How long a task and its result are kept from its creation, as the
    /// tasks' `ttlMs` (default 1 hour, at most a year). A task still running
    /// then is stopped.
    pub task_ttl: std::time::Duration,
    /// The `pollIntervalMs` suggested to clients polling tasks (default 1
    /// second).
    pub task_poll_interval: std::time::Duration,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            page_size: 100,
            list_ttl_ms: 300_000,
            list_cache_scope: CacheScope::Public,
            read_ttl_ms: 0,
            read_cache_scope: CacheScope::Private,
            request_state_key: StateKey::random(),
            request_state_ttl: std::time::Duration::from_secs(600),
            max_tasks: 1000,
            task_ttl: std::time::Duration::from_secs(3600),
            task_poll_interval: std::time::Duration::from_secs(1),
        }
    }
}
