//! `subscriptions/listen` (2026-07-28) kept open for as long as the caller
//! wants the notifications it asked for, and read back as typed events.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use tokio_util::sync::CancellationToken;

use super::{Client, ClientError, ListenEvent};
use crate::jsonrpc::{Notification, RequestId};
use crate::protocol::{
    META_SUBSCRIPTION_ID, Method, SubscriptionFilter, SubscriptionsListenRequestParams,
};
use crate::sync::lock;

/// The shortest time between two openings of the stream, so that a server
/// that ends it at once is not asked again in a tight loop.
const MIN_REOPEN_INTERVAL: Duration = Duration::from_secs(1);

/// How many of its latest `subscriptions/listen` ids a subscription
/// recognizes: the open stream's, and those of streams it replaced whose
/// last notifications may still be unread.
const RECENT_IDS: usize = 8;

/// The ids of the `subscriptions/listen` requests one subscription sent
/// (the server tags each notification with its stream's id).
#[derive(Debug, Default)]
struct ListenIds(VecDeque<RequestId>);

impl ListenIds {
    fn note(&mut self, id: RequestId) {
        if self.0.len() == RECENT_IDS {
            self.0.pop_front();
        }
        self.0.push_back(id);
    }
}

tokio::task_local! {
    /// Where the request being sent records its id, while a subscription
    /// sends `subscriptions/listen`: the id is chosen deep in the request
    /// path, and only the subscription needs it.
    static LISTEN_IDS: Arc<Mutex<ListenIds>>;
}

/// Records `id` as a subscription's, when the current task is sending
/// `subscriptions/listen` for one; does nothing otherwise.
pub(crate) fn note_request_id(id: &RequestId) {
    let _ = LISTEN_IDS.try_with(|ids| lock(ids).note(id.clone()));
}

/// An open `subscriptions/listen` stream; dropping it cancels the stream at
/// the server. It holds the connection open while it lives. Its
/// notifications arrive both through [`next`](Self::next), typed, and
/// through [`Client::notifications`], as they came.
#[derive(Debug)]
pub struct Subscription {
    task: tokio::task::JoinHandle<()>,
    /// The connection's notifications, from before the first request; at
    /// most 256 unread (then [`ListenEvent::Missed`]).
    notices: broadcast::Receiver<Notification>,
    ids: Arc<Mutex<ListenIds>>,
    /// Fired when the stream ended for good.
    ended: CancellationToken,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Subscription {
    /// Whether the stream ended for good: the connection closed or the
    /// server refused the subscription.
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }

    /// The next event of this subscription (notifications of the
    /// connection's other subscriptions are not its own); `None` once the
    /// stream ended for good and every event was read.
    pub async fn next(&mut self) -> Option<ListenEvent> {
        loop {
            // Checked before reading: the stream's last notifications are
            // published before it is marked ended.
            let ended = self.ended.is_cancelled();
            let received = match self.notices.try_recv() {
                Ok(notice) => Ok(notice),
                Err(TryRecvError::Empty) if ended => return None,
                Err(TryRecvError::Empty) => tokio::select! {
                    () = self.ended.cancelled() => continue,
                    received = self.notices.recv() => received,
                },
                Err(TryRecvError::Lagged(missed)) => Err(RecvError::Lagged(missed)),
                Err(TryRecvError::Closed) => Err(RecvError::Closed),
            };
            let notice = match received {
                Ok(notice) => notice,
                Err(RecvError::Lagged(missed)) => return Some(ListenEvent::Missed { missed }),
                Err(RecvError::Closed) => return None,
            };
            if self.owns(&notice)
                && let Some(event) = ListenEvent::of(notice)
            {
                return Some(event);
            }
        }
    }

    /// Whether `notice` came on one of this subscription's streams.
    fn owns(&self, notice: &Notification) -> bool {
        let tag = notice
            .params
            .as_ref()
            .and_then(|params| params.get("_meta"))
            .and_then(|meta| meta.get(META_SUBSCRIPTION_ID))
            .and_then(|id| <RequestId as serde::Deserialize>::deserialize(id).ok());
        tag.is_some_and(|id| lock(&self.ids).0.contains(&id))
    }
}

impl Client {
    /// Asks the server for the notifications `filter` names
    /// (`subscriptions/listen`, 2026-07-28). Read them from the returned
    /// [`Subscription`] with [`next`](Subscription::next), typed and only
    /// this subscription's, or through [`notifications`](Self::notifications)
    /// (subscribe there first, so that none is missed). The stream is
    /// reopened whenever it ends (the request timeout ends it too; the
    /// server then acknowledges again) until the [`Subscription`] is
    /// dropped. Legacy servers send notifications without being asked, so
    /// this is an error there.
    pub fn listen(&self, filter: SubscriptionFilter) -> Result<Subscription, ClientError> {
        self.in_era(
            Method::Listen,
            "legacy servers send notifications unasked (see `Client::notifications`)",
        )?;
        let notices = self.notifications();
        let ids = Arc::new(Mutex::new(ListenIds::default()));
        let ended = CancellationToken::new();
        let client = self.clone();
        let (task_ids, done) = (ids.clone(), ended.clone().drop_guard());
        let task = tokio::spawn(async move {
            let _done = done;
            let params = SubscriptionsListenRequestParams {
                notifications: filter,
                meta: None,
            };
            loop {
                let opened = tokio::time::Instant::now();
                let listen = client.send::<_, Value>(Method::Listen, &params);
                let ended = LISTEN_IDS.scope(task_ids.clone(), listen).await;
                match ended {
                    Ok(_) | Err(ClientError::Timeout) => {}
                    Err(ClientError::Protocol(error)) => {
                        tracing::warn!(reason = %error.message, "the server refused the subscription");
                        return;
                    }
                    Err(error) => {
                        tracing::debug!(%error, "the subscription ended with the connection");
                        return;
                    }
                }
                tokio::time::sleep_until(opened + MIN_REOPEN_INTERVAL).await;
            }
        });
        Ok(Subscription {
            task,
            notices,
            ids,
            ended,
        })
    }
}
