//! The Redis (and Valkey) backend. Keys, all under `mcp:NAMESPACE:`:
//!
//! - `task:ID`: a hash of the task's `status` (authoritative), the owner's
//!   last `record` (a `tasks/get` result as JSON), its `owner`, and, when it
//!   ended elsewhere, `ended_by` (`cancel` or `lost`) and `ended_at`;
//!   expires with the task's TTL.
//! - `task:ID:inbox`: `tasks/update` answers waiting for the owner.
//! - `instance:IID`: an instance's lease, renewed every second, gone three
//!   seconds after the instance stops.
//!
//! Channels: `instance:IID` (a task id: collect for it) and `changes`
//! (announcements, with the instance that made them).
//!
//! DPoP proofs seen (`DpopPolicy::shared`) are keys `dpop:HASH` under
//! `mcp:NAMESPACE:` (`mcp:` without a namespace), each expiring with its
//! proof's age window. Every transition is
//! one Lua script, so a cancellation and the owner's last write cannot
//! interleave.

use std::sync::{Arc, LazyLock, OnceLock};
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Client, RedisError, Script};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::backend::{Backend, Collected, EndedBy, Event, StateError, TaskRecord};
use crate::lifetime::millis;
use crate::protocol::{GetTaskResult, JsonObject};
#[cfg(feature = "jwt")]
use crate::server::auth::{ReplayCache, ReplayError, ReplayKey};
use crate::server::engine::task::clock::rfc3339;
use crate::server::{BoxFuture, ListChange};

/// How long an instance's lease lasts, and how often it is renewed: a
/// stopped instance's tasks fail within `LEASE` of its last renewal.
const LEASE: Duration = Duration::from_secs(3);
const RENEW_EVERY: Duration = Duration::from_secs(1);
/// Reconnection backoff of the subscription.
const RECONNECT_MIN: Duration = Duration::from_millis(100);
const RECONNECT_MAX: Duration = Duration::from_secs(5);
/// How long one command or connection attempt may take.
const TIMEOUT: Duration = Duration::from_secs(2);

const TERMINAL: &str =
    "local function ended(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end\n";

/// KEYS: task, lease. ARGV: status, record, owner, ttl ms, lease ms.
static PUT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{TERMINAL}
        redis.call('SET', KEYS[2], '1', 'PX', ARGV[5])
        if ended(redis.call('HGET', KEYS[1], 'status')) then return 0 end
        redis.call('HSET', KEYS[1], 'status', ARGV[1], 'record', ARGV[2], 'owner', ARGV[3])
        redis.call('PEXPIRE', KEYS[1], ARGV[4])
        return 1"
    ))
});

/// KEYS: task. ARGV: lease key prefix, now. A live task whose owner's
/// lease is gone ends here as failed.
static GET: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{TERMINAL}
        local f = redis.call('HMGET', KEYS[1], 'status', 'record', 'owner', 'ended_by', 'ended_at')
        if not f[2] then return false end
        if not ended(f[1]) and redis.call('EXISTS', ARGV[1] .. f[3]) == 0 then
            redis.call('HSET', KEYS[1], 'status', 'failed', 'ended_by', 'lost', 'ended_at', ARGV[2])
            f[4] = 'lost'
            f[5] = ARGV[2]
        end
        return {{f[2], f[3], f[4] or '', f[5] or ''}}"
    ))
});

/// KEYS: task. ARGV: now, channel prefix, task id.
static CANCEL: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        "{TERMINAL}
        local f = redis.call('HMGET', KEYS[1], 'status', 'owner')
        if not f[1] then return 0 end
        if not ended(f[1]) then
            redis.call('HSET', KEYS[1], 'status', 'cancelled', 'ended_by', 'cancel', 'ended_at', ARGV[1])
            redis.call('PUBLISH', ARGV[2] .. f[2], ARGV[3])
        end
        return 1"
    ))
});

/// KEYS: task, inbox. ARGV: answers, channel prefix, task id.
static ANSWER: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local ttl = redis.call('PTTL', KEYS[1])
        if ttl <= 0 then return 0 end
        redis.call('RPUSH', KEYS[2], ARGV[1])
        redis.call('PEXPIRE', KEYS[2], ttl)
        redis.call('PUBLISH', ARGV[2] .. redis.call('HGET', KEYS[1], 'owner'), ARGV[3])
        return 1",
    )
});

/// KEYS: task, inbox.
static COLLECT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        "local answers = redis.call('LRANGE', KEYS[2], 0, -1)
        redis.call('DEL', KEYS[2])
        return {redis.call('HGET', KEYS[1], 'status') or '', answers}",
    )
});

/// A connection to the store, opened lazily (within the runtime) and
/// reopened by itself.
struct Connection {
    client: Client,
    manager: OnceLock<ConnectionManager>,
}

impl Connection {
    fn new(client: Client) -> Self {
        Connection {
            client,
            manager: OnceLock::new(),
        }
    }

    fn get(&self) -> Result<ConnectionManager, StateError> {
        if let Some(manager) = self.manager.get() {
            return Ok(manager.clone());
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(3)
            .set_max_delay(RECONNECT_MAX);
        let manager =
            ConnectionManager::new_lazy_with_config(self.client.clone(), config).map_err(error)?;
        Ok(self.manager.get_or_init(|| manager).clone())
    }
}

/// A Redis store for one server's instances.
pub(crate) struct RedisBackend {
    connection: Connection,
    /// `mcp:NAMESPACE:`.
    prefix: String,
    instance: String,
}

impl std::fmt::Debug for RedisBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the client: its connection info holds the password.
        f.debug_struct("RedisBackend")
            .field("prefix", &self.prefix)
            .field("instance", &self.instance)
            .finish_non_exhaustive()
    }
}

/// An announcement on the `changes` channel.
#[derive(Serialize, Deserialize)]
struct Announcement {
    origin: String,
    change: ListChange,
}

impl RedisBackend {
    pub(crate) fn new(client: Client, namespace: &str) -> Self {
        let mut id = [0u8; 8];
        getrandom::fill(&mut id).expect("the OS random source is available");
        RedisBackend {
            connection: Connection::new(client),
            prefix: format!("mcp:{namespace}:"),
            instance: hex::encode(id),
        }
    }

    fn connection(&self) -> Result<ConnectionManager, StateError> {
        self.connection.get()
    }

    fn task_key(&self, id: &str) -> String {
        format!("{}task:{id}", self.prefix)
    }

    fn inbox_key(&self, id: &str) -> String {
        format!("{}task:{id}:inbox", self.prefix)
    }

    /// The prefix of leases, keys, and of instance channels.
    fn instances(&self) -> String {
        format!("{}instance:", self.prefix)
    }

    fn changes_channel(&self) -> String {
        format!("{}changes", self.prefix)
    }

    /// Renews this instance's lease until `events` closes.
    async fn renew(self: Arc<Self>, events: mpsc::Sender<Event>) {
        let lease = format!("{}{}", self.instances(), self.instance);
        let mut failing = false;
        while !events.is_closed() {
            let renewed = match self.connection() {
                Ok(mut connection) => connection
                    .pset_ex::<_, _, ()>(&lease, 1, millis(LEASE))
                    .await
                    .map_err(error),
                Err(e) => Err(e),
            };
            match renewed {
                Err(e) if !failing => {
                    tracing::warn!(error = %e, "cannot renew this instance's lease in Redis; retrying");
                    failing = true;
                }
                Ok(()) if failing => {
                    tracing::info!("renewing this instance's lease in Redis again");
                    failing = false;
                }
                _ => {}
            }
            tokio::select! {
                () = tokio::time::sleep(RENEW_EVERY) => {}
                () = events.closed() => {}
            }
        }
    }

    /// Delivers this instance's messages as [`Event`]s until `events`
    /// closes, resubscribing with backoff whenever the subscription drops.
    async fn subscribe(self: Arc<Self>, events: mpsc::Sender<Event>) {
        let own = format!("{}{}", self.instances(), self.instance);
        let changes = self.changes_channel();
        let mut delay = RECONNECT_MIN;
        while !events.is_closed() {
            match self.open_subscription(&own, &changes).await {
                Ok(pubsub) => {
                    delay = RECONNECT_MIN;
                    if events.send(Event::Connected).await.is_err() {
                        return;
                    }
                    let mut messages = pubsub.into_on_message();
                    loop {
                        let message = tokio::select! {
                            message = messages.next() => message,
                            () = events.closed() => return,
                        };
                        let Some(message) = message else { break };
                        let Ok(payload) = message.get_payload::<String>() else {
                            continue;
                        };
                        let event = if message.get_channel_name() == own {
                            Some(Event::Task(payload))
                        } else {
                            serde_json::from_str::<Announcement>(&payload)
                                .ok()
                                .filter(|a| a.origin != self.instance)
                                .map(|a| Event::Change(a.change))
                        };
                        if let Some(event) = event
                            && events.send(event).await.is_err()
                        {
                            return;
                        }
                    }
                    tracing::warn!("lost the Redis subscription; reconnecting");
                }
                Err(e) => {
                    tracing::warn!(error = %e, retry_in = ?delay, "cannot subscribe to Redis");
                }
            }
            tokio::select! {
                () = tokio::time::sleep(delay) => {}
                () = events.closed() => return,
            }
            delay = (delay * 2).min(RECONNECT_MAX);
        }
    }

    async fn open_subscription(
        &self,
        own: &str,
        changes: &str,
    ) -> Result<redis::aio::PubSub, StateError> {
        let open = async {
            let mut pubsub = self.connection.client.get_async_pubsub().await?;
            pubsub.subscribe(&[own, changes]).await?;
            Ok::<_, RedisError>(pubsub)
        };
        match tokio::time::timeout(TIMEOUT, open).await {
            Ok(result) => result.map_err(error),
            Err(_) => Err(StateError(format!("no answer within {TIMEOUT:?}"))),
        }
    }
}

impl Backend for RedisBackend {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn start(self: Arc<Self>, events: mpsc::Sender<Event>) {
        tokio::spawn(self.clone().renew(events.clone()));
        tokio::spawn(self.subscribe(events));
    }

    fn put_task(&self, record: TaskRecord, ttl: Duration) -> BoxFuture<Result<bool, StateError>> {
        let connection = self.connection();
        let keys = [
            self.task_key(&record.state.task.task_id),
            format!("{}{}", self.instances(), self.instance),
        ];
        Box::pin(async move {
            let status = serde_json::to_value(record.state.task.status).map_err(json_error)?;
            let state = serde_json::to_string(&record.state).map_err(json_error)?;
            let written: i64 = PUT
                .key(&keys[0])
                .key(&keys[1])
                .arg(status.as_str().unwrap_or_default())
                .arg(state)
                .arg(&record.owner)
                .arg(millis(ttl).max(1))
                .arg(millis(LEASE))
                .invoke_async(&mut connection?)
                .await
                .map_err(error)?;
            Ok(written == 1)
        })
    }

    fn get_task(&self, id: String) -> BoxFuture<Result<Option<TaskRecord>, StateError>> {
        let connection = self.connection();
        let key = self.task_key(&id);
        let leases = self.instances();
        Box::pin(async move {
            let now = rfc3339(SystemTime::now());
            let found: Option<(String, String, String, String)> = GET
                .key(key)
                .arg(leases)
                .arg(&now)
                .invoke_async(&mut connection?)
                .await
                .map_err(error)?;
            let Some((state, owner, ended_by, ended_at)) = found else {
                return Ok(None);
            };
            let state: GetTaskResult = serde_json::from_str(&state).map_err(json_error)?;
            let mut record = TaskRecord { owner, state };
            let how = match ended_by.as_str() {
                "cancel" => Some(EndedBy::Cancel),
                "lost" => Some(EndedBy::OwnerLost),
                _ => None,
            };
            if let Some(how) = how {
                record.ended_elsewhere(how, ended_at);
            }
            Ok(Some(record))
        })
    }

    fn cancel_task(&self, id: String) -> BoxFuture<Result<bool, StateError>> {
        let connection = self.connection();
        let key = self.task_key(&id);
        let channels = self.instances();
        Box::pin(async move {
            let found: i64 = CANCEL
                .key(key)
                .arg(rfc3339(SystemTime::now()))
                .arg(channels)
                .arg(id)
                .invoke_async(&mut connection?)
                .await
                .map_err(error)?;
            Ok(found == 1)
        })
    }

    fn send_answers(&self, id: String, answers: JsonObject) -> BoxFuture<Result<bool, StateError>> {
        let connection = self.connection();
        let keys = [self.task_key(&id), self.inbox_key(&id)];
        let channels = self.instances();
        Box::pin(async move {
            let answers = serde_json::to_string(&answers).map_err(json_error)?;
            let queued: i64 = ANSWER
                .key(&keys[0])
                .key(&keys[1])
                .arg(answers)
                .arg(channels)
                .arg(id)
                .invoke_async(&mut connection?)
                .await
                .map_err(error)?;
            Ok(queued == 1)
        })
    }

    fn collect(&self, id: String) -> BoxFuture<Result<Collected, StateError>> {
        let connection = self.connection();
        let keys = [self.task_key(&id), self.inbox_key(&id)];
        Box::pin(async move {
            let (status, answers): (String, Vec<String>) = COLLECT
                .key(&keys[0])
                .key(&keys[1])
                .invoke_async(&mut connection?)
                .await
                .map_err(error)?;
            let answers = answers
                .iter()
                .map(|answers| serde_json::from_str(answers))
                .collect::<Result<_, _>>()
                .map_err(json_error)?;
            Ok(Collected {
                answers,
                cancelled: status == "cancelled",
            })
        })
    }

    fn announce(&self, change: ListChange) -> BoxFuture<Result<(), StateError>> {
        let connection = self.connection();
        let channel = self.changes_channel();
        let announcement = Announcement {
            origin: self.instance.clone(),
            change,
        };
        Box::pin(async move {
            let payload = serde_json::to_string(&announcement).map_err(json_error)?;
            connection?
                .publish::<_, _, ()>(channel, payload)
                .await
                .map_err(error)
        })
    }
}

/// DPoP proofs seen, shared by a server's instances
/// ([`DpopPolicy::shared`](crate::server::auth::DpopPolicy::shared)).
#[cfg(feature = "jwt")]
pub(crate) struct RedisReplayCache {
    connection: Connection,
    /// `mcp:NAMESPACE:dpop:`.
    prefix: String,
}

#[cfg(feature = "jwt")]
impl std::fmt::Debug for RedisReplayCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisReplayCache")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "jwt")]
impl RedisReplayCache {
    pub(crate) fn new(client: Client, namespace: Option<&str>) -> Self {
        let prefix = match namespace {
            Some(namespace) => format!("mcp:{namespace}:dpop:"),
            None => "mcp:dpop:".to_owned(),
        };
        RedisReplayCache {
            connection: Connection::new(client),
            prefix,
        }
    }
}

#[cfg(feature = "jwt")]
impl ReplayCache for RedisReplayCache {
    fn first_use(&self, key: ReplayKey, ttl: Duration) -> BoxFuture<Result<bool, ReplayError>> {
        let connection = self.connection.get();
        let key = format!("{}{}", self.prefix, hex::encode(key));
        Box::pin(async move {
            let unavailable = |e: StateError| ReplayError::Unavailable(e.0);
            // SET NX answers OK when it set the key, nil when it was there.
            let set: Option<String> = redis::cmd("SET")
                .arg(&key)
                .arg(1)
                .arg("NX")
                .arg("PX")
                .arg(millis(ttl).max(1))
                .query_async(&mut connection.map_err(unavailable)?)
                .await
                .map_err(|e| unavailable(error(e)))?;
            Ok(set.is_some())
        })
    }
}

fn error(e: RedisError) -> StateError {
    StateError(format!("Redis: {e}"))
}

fn json_error(e: serde_json::Error) -> StateError {
    StateError(format!("unreadable task state in Redis: {e}"))
}
