//! One server's place in the host: its current state, the bound on the
//! calls in flight to it, the watcher that lists its tools again, and the
//! restart of a stdio server that went away.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::catalogue::{Listening, Watcher, relist};
use crate::config::ServerConfig;
use crate::connect::{Connected, connect};
use crate::options::HostOptions;
use crate::state::{ServerState, SharedState};
use crate::sync::lock;

/// One configured server.
pub(crate) struct Slot {
    /// Replaced when a crashed stdio server is restarted, and when its tools
    /// are listed again; shared with the watcher that does the latter, and
    /// followed by the gateway.
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
    pub(crate) fn new(connected: Connected, config: ServerConfig, options: &HostOptions) -> Slot {
        let (state, listening) = connected;
        let slot = Slot {
            state: SharedState::new(state),
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
        self.state.current()
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
        self.state.replace(state.clone());
        self.watch(listening);
        Ok(state)
    }

    /// Lists the tools again when the server's `ttlMs` ran out; calls
    /// that find the list stale together wait for one listing.
    pub(crate) async fn refresh_if_stale(&self) {
        let stale = |state: &ServerState| match state {
            ServerState::Ready {
                client, freshness, ..
            } => freshness.is_stale().then(|| client.clone()),
            ServerState::Failed(_) => None,
        };
        if stale(&self.current()).is_none() {
            return;
        }
        let _one_at_a_time = self.relisting.lock().await;
        if let Some(client) = stale(&self.current()) {
            relist(&self.state, &client, self.options.connect_timeout).await;
        }
    }
}
