//! Legacy era: the server-to-client requests of one connection that await
//! the client's answer.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::Value;
use tokio::sync::oneshot;

use crate::jsonrpc::{ErrorObject, RequestId, Response};
use crate::sync::lock;

/// Server-to-client requests of one connection awaiting the client's answer.
#[derive(Debug, Default)]
pub(crate) struct Replies {
    next_id: AtomicI64,
    waiting: Mutex<HashMap<RequestId, oneshot::Sender<Result<Value, ErrorObject>>>>,
}

impl Replies {
    pub(crate) fn expect(&self) -> (RequestId, oneshot::Receiver<Result<Value, ErrorObject>>) {
        let id = RequestId::String(format!(
            "server-{}",
            self.next_id.fetch_add(1, Ordering::Relaxed)
        ));
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(id.clone(), tx);
        (id, rx)
    }

    fn forget(&self, id: &RequestId) {
        lock(&self.waiting).remove(id);
    }

    /// Delivers the client's answer; answers to nothing are dropped.
    pub(crate) fn complete(&self, response: Response) {
        match lock(&self.waiting).remove(&response.id) {
            Some(waiter) => {
                let _ = waiter.send(response.outcome);
            }
            None => tracing::debug!(id = %response.id, "answer to no request of ours ignored"),
        }
    }
}

/// Removes a question from the waiting list when dropped.
pub(crate) struct Forget<'a> {
    pub(crate) replies: &'a Replies,
    pub(crate) id: &'a RequestId,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.replies.forget(self.id);
    }
}
