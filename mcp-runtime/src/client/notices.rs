//! The notifications a server sends on its own: list changes, resource
//! updates, log messages. Progress goes to the call it belongs to; every
//! other notification is offered to whoever subscribed
//! ([`Client::notifications`](super::Client::notifications)).

use tokio::sync::broadcast;

use crate::jsonrpc::Notification;

/// How many notifications a slow subscriber may fall behind before it
/// misses some (it is then told how many, by
/// [`RecvError::Lagged`](tokio::sync::broadcast::error::RecvError::Lagged)).
const BACKLOG: usize = 256;

/// The channel server notifications travel on; clones share it.
#[derive(Clone)]
pub(crate) struct Notices {
    sender: broadcast::Sender<Notification>,
}

impl Default for Notices {
    fn default() -> Self {
        Notices {
            sender: broadcast::channel(BACKLOG).0,
        }
    }
}

impl Notices {
    /// Offers `notification` to the subscribers; without any it is dropped.
    pub(crate) fn publish(&self, notification: Notification) {
        let _ = self.sender.send(notification);
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Notification> {
        self.sender.subscribe()
    }
}
