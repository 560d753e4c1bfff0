//! [`ConcurrencyLimit`]: at most so many requests at once, per server,
//! client or tool.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{McpRequest, McpResponse, Middleware, Next};
use crate::server::BoxFuture;
use crate::sync::lock;

/// What shares one allowance of a [`ConcurrencyLimit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitKey {
    /// Every request to the server.
    Server,
    /// Each client: the verified principal (issuer and subject) on a
    /// protected HTTP server; otherwise the connection (a stdio pair, a
    /// legacy HTTP session). Stateless HTTP requests without authorization
    /// carry no identity and share one allowance.
    Client,
    /// Each tool: only `tools/call` requests are counted.
    Tool,
}

/// At most `max` requests at once for each [`LimitKey`]; the others wait
/// their turn (or are refused, with [`reject_when_full`](Self::reject_when_full)).
/// A waiting request the client cancels stops waiting. `subscriptions/listen`
/// streams are not counted.
#[derive(Clone, Debug)]
pub struct ConcurrencyLimit {
    max: usize,
    key: LimitKey,
    reject: bool,
    /// One semaphore per key in use; removed when its last request ends, so
    /// that the map holds only keys with requests running or waiting.
    slots: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
}

impl ConcurrencyLimit {
    /// At most `max` (at least 1) requests at once per `key`.
    pub fn new(max: usize, key: LimitKey) -> Self {
        ConcurrencyLimit {
            max: max.max(1),
            key,
            reject: false,
            slots: Arc::default(),
        }
    }

    /// Refuses a request over the limit at once instead of queueing it: a
    /// tool result with `isError` for `tools/call`, -32603 otherwise.
    pub fn reject_when_full(mut self) -> Self {
        self.reject = true;
        self
    }

    /// The key `request` counts under, or `None` when it is not limited.
    fn key_of(&self, request: &McpRequest) -> Option<String> {
        if request.is_stream() {
            return None;
        }
        match self.key {
            LimitKey::Server => Some(String::new()),
            LimitKey::Tool => request.tool().map(str::to_owned),
            LimitKey::Client => Some(client_key(request)),
        }
    }

    /// The allowance of `key`, held until the returned guard drops.
    fn slot(&self, key: String) -> Slot {
        let semaphore = lock(&self.slots)
            .entry(key.clone())
            .or_insert_with(|| Arc::new(Semaphore::new(self.max)))
            .clone();
        Slot {
            slots: self.slots.clone(),
            key,
            semaphore: Some(semaphore),
            permit: None,
        }
    }
}

impl Middleware for ConcurrencyLimit {
    fn call(&self, request: McpRequest, next: Next) -> BoxFuture<McpResponse> {
        let limit = self.clone();
        Box::pin(async move {
            let Some(key) = limit.key_of(&request) else {
                return next.run(request).await;
            };
            let mut slot = limit.slot(key);
            let semaphore = slot.semaphore.clone().expect("set until drop");
            slot.permit = match semaphore.clone().try_acquire_owned() {
                Ok(permit) => Some(permit),
                Err(_) if limit.reject => {
                    return request.fail(format!(
                        "too many requests at once (at most {}); try again later",
                        limit.max
                    ));
                }
                // The semaphore is never closed; a client that cancels
                // drops this wait with the request.
                Err(_) => semaphore.acquire_owned().await.ok(),
            };
            next.run(request).await
        })
    }
}

/// A key's semaphore in use by one request, with its permit once granted.
struct Slot {
    slots: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
    key: String,
    semaphore: Option<Arc<Semaphore>>,
    permit: Option<OwnedSemaphorePermit>,
}

impl Drop for Slot {
    /// Gives the permit back, and forgets the key when nobody else holds or
    /// waits on its semaphore: every permit and every wait holds a clone,
    /// and clones are only taken under the same lock.
    fn drop(&mut self) {
        let mut slots = lock(&self.slots);
        self.permit.take();
        self.semaphore.take();
        if slots
            .get(&self.key)
            .is_some_and(|s| Arc::strong_count(s) == 1)
        {
            slots.remove(&self.key);
        }
    }
}

/// Who a request comes from, for [`LimitKey::Client`].
fn client_key(request: &McpRequest) -> String {
    if let Some(principal) = request.principal() {
        let who = principal
            .subject
            .as_deref()
            .or(principal.client_id.as_deref());
        return format!(
            "principal {} {}",
            principal.issuer.as_deref().unwrap_or_default(),
            who.unwrap_or_default()
        );
    }
    let session = &request.context().session;
    if session.outlives_request() {
        return format!("connection {:p}", Arc::as_ptr(session));
    }
    "anonymous".to_owned()
}
