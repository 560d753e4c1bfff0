//! State that outlives one request, shared by every instance of a server:
//! the tasks (`io.modelcontextprotocol/tasks`) and the list-change and
//! resource-update announcements `subscriptions/listen` carries.
//!
//! Without it (the default) both live in the memory of one process, which
//! is all a single instance needs. With [`SharedState`] given to
//! [`ServerBuilder::shared_state`](crate::server::ServerBuilder::shared_state),
//! several instances behind a load balancer act as one server:
//!
//! - A task still runs on the instance whose `tools/call` created it. That
//!   instance writes the task's state (status, questions, result) to the
//!   store whenever it changes, so `tasks/get` answers the same on every
//!   instance. `tasks/update` and `tasks/cancel` on another instance reach
//!   the running handler through the store: its answers resume the
//!   handler's `.await`, a cancellation drops its future.
//! - An instance renews a short lease while it lives. When it stops (a
//!   crash, a kill), its unfinished tasks end as `failed` with a message
//!   that says so, within seconds, rather than staying `working` until
//!   their TTL.
//! - Every announcement made through [`ListChanges`](crate::server::ListChanges)
//!   reaches the `subscriptions/listen` streams of every instance.
//!
//! The store holds task results and questions as the server does in
//! memory, and task ids act as bearer handles: give the database the
//! protection you give the servers (a password or ACL user in the URL,
//! a private network).
//!
//! When the store cannot be reached, requests that need it (creating a
//! task, reading or changing a task another instance runs) fail with
//! -32603 and a message naming the store; the connection is retried with
//! backoff in the background. Nothing else depends on it.
//!
//! This module exists with the `redis` feature: Redis (and Valkey) is the
//! one shared backend. The seam it plugs into is internal for now (`Backend`: write,
//! read, cancel and answer a task atomically; a lease; messages to an
//! instance; announcements to all), so another store can be added without
//! changing this API.

// Without a backend feature nothing can make a `SharedState` (it has no
// variant), so the machinery below is compiled but never used.
#![cfg_attr(not(feature = "redis"), allow(dead_code, unused_variables, unused_mut))]

mod backend;
mod instance;
mod redis;

use std::fmt;
use std::sync::Arc;

pub(crate) use backend::Backend;
pub(crate) use instance::Instance;

/// Where the state that outlives one request lives when several instances
/// serve one server (see the [module docs](crate::server::shared)).
///
/// ```no_run
/// # fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_toolkit_runtime::server::{Server, SharedState};
///
/// let server = Server::builder(mcp_toolkit_runtime::server_info!())
///     .shared_state(SharedState::redis("redis://127.0.0.1:6379/")?)
///     .build()?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct SharedState {
    client: ::redis::Client,
    namespace: Option<String>,
}

impl fmt::Debug for SharedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the URL: it may carry a password.
        f.debug_struct("SharedState::Redis")
            .field("namespace", &self.namespace)
            .finish_non_exhaustive()
    }
}

impl SharedState {
    /// Redis or Valkey at `url` (`redis://[user:password@]host[:port][/db]`
    /// or `unix:///path`). Nothing connects here: the connection opens when
    /// the server first needs it and reopens with backoff when it drops.
    ///
    /// Keys and channels are named `mcp:NAMESPACE:...`, the namespace being
    /// the server's name unless [`namespace`](Self::namespace) says
    /// otherwise; instances of one server must share it.
    pub fn redis(url: &str) -> Result<SharedState, SharedStateError> {
        let client = ::redis::Client::open(url)
            // The parser's message, never the URL itself (a password).
            .map_err(|e| SharedStateError(format!("not a Redis URL: {e}")))?;
        Ok(SharedState {
            client,
            namespace: None,
        })
    }

    /// Names this server's keys and channels in the store (default: the
    /// server's name). Instances of one server share it; different servers
    /// on one store need different ones.
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// A store of DPoP proofs seen, for the instances that share this.
    #[cfg(feature = "jwt")]
    pub(crate) fn replay_cache(&self) -> redis::RedisReplayCache {
        redis::RedisReplayCache::new(self.client.clone(), self.namespace.as_deref())
    }

    /// The backend for the server named `server_name`.
    pub(crate) fn backend(self, server_name: &str) -> Arc<dyn Backend> {
        let namespace = self.namespace.as_deref().unwrap_or(server_name);
        Arc::new(redis::RedisBackend::new(self.client, namespace))
    }
}

/// A [`SharedState`] that cannot be used as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedStateError(String);

impl fmt::Display for SharedStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SharedStateError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redis_url_never_shows_its_password() {
        let state = SharedState::redis("redis://user:hunter2@127.0.0.1:6379/").unwrap();
        let state = state.namespace("notes");
        assert!(!format!("{state:?}").contains("hunter2"), "{state:?}");
        let backend = state.backend("ignored");
        assert!(!format!("{backend:?}").contains("hunter2"), "{backend:?}");
        assert!(format!("{backend:?}").contains("mcp:notes:"), "{backend:?}");
        let error = SharedState::redis("redis://user:hunter2@[::1").unwrap_err();
        assert!(!error.to_string().contains("hunter2"), "{error}");
        assert!(SharedState::redis("http://127.0.0.1/").is_err());
    }
}
