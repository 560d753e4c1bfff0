//! Announcing that the server's lists or resources changed while it runs.
//!
//! A [`ListChanges`] handle is given to the builder
//! ([`ServerBuilder::list_changes`](crate::server::ServerBuilder::list_changes)) and
//! kept by whatever changes the lists (a tool, a file watcher). Every
//! announcement reaches the open `subscriptions/listen` streams (2026-07-28)
//! whose filter asked for it and the legacy sessions (over stdio on the
//! connection, over HTTP on the session's GET stream; resource updates
//! only for the resources a session subscribed to), and, with a
//! [`SharedState`](crate::server::SharedState), those of every instance.

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use crate::sync::lock;

/// How many announcements a slow listener may fall behind before it misses
/// some; it is then sent one of every notification it subscribed to (list
/// changes are idempotent hints), so it never stays stale.
const BACKLOG: usize = 64;

/// One announcement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "uri", rename_all = "snake_case")]
pub enum ListChange {
    /// `notifications/tools/list_changed`.
    Tools,
    /// `notifications/prompts/list_changed`.
    Prompts,
    /// `notifications/resources/list_changed`.
    Resources,
    /// `notifications/resources/updated` for this URI.
    ResourceUpdated(String),
}

/// The channel list changes travel on; cheap to clone, and clones share it.
#[derive(Debug, Clone)]
pub struct ListChanges {
    sender: broadcast::Sender<ListChange>,
    /// Where announcements also go to reach other instances.
    relay: Arc<Mutex<Option<mpsc::Sender<ListChange>>>>,
}

impl Default for ListChanges {
    fn default() -> Self {
        ListChanges {
            sender: broadcast::channel(BACKLOG).0,
            relay: Arc::default(),
        }
    }
}

impl ListChanges {
    /// A channel nobody listens to yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Announces that the tool list changed.
    pub fn tools_changed(&self) {
        self.announce(ListChange::Tools);
    }

    /// Announces that the prompt list changed.
    pub fn prompts_changed(&self) {
        self.announce(ListChange::Prompts);
    }

    /// Announces that the resource list changed.
    pub fn resources_changed(&self) {
        self.announce(ListChange::Resources);
    }

    /// Announces that the resource at `uri` changed.
    pub fn resource_updated(&self, uri: impl Into<String>) {
        self.announce(ListChange::ResourceUpdated(uri.into()));
    }

    pub(crate) fn announce(&self, change: ListChange) {
        if let Some(relay) = lock(&self.relay).as_ref()
            && relay.try_send(change.clone()).is_err()
        {
            tracing::warn!(
                ?change,
                "too many announcements wait for the shared store; dropped one"
            );
        }
        self.deliver(change);
    }

    /// Tells this instance's listeners only (an announcement that came
    /// from another instance).
    pub(crate) fn deliver(&self, change: ListChange) {
        // No receiver means no open subscription: nothing to tell.
        let _ = self.sender.send(change);
    }

    /// From now on, every announcement is also sent to the returned
    /// receiver (at most `backlog` waiting), for other instances.
    #[cfg(feature = "redis")]
    pub(crate) fn relay(&self, backlog: usize) -> mpsc::Receiver<ListChange> {
        let (sender, receiver) = mpsc::channel(backlog);
        *lock(&self.relay) = Some(sender);
        receiver
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<ListChange> {
        self.sender.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn announcements_reach_every_subscriber() {
        let changes = ListChanges::new();
        changes.tools_changed(); // before anyone listens: dropped
        let mut a = changes.subscribe();
        let mut b = changes.clone().subscribe();
        changes.prompts_changed();
        changes.resource_updated("test://x");
        for rx in [&mut a, &mut b] {
            assert_eq!(rx.recv().await.unwrap(), ListChange::Prompts);
            assert_eq!(
                rx.recv().await.unwrap(),
                ListChange::ResourceUpdated("test://x".into())
            );
        }
    }

    #[cfg(feature = "redis")]
    #[tokio::test]
    async fn announcements_go_to_the_relay_and_remote_ones_do_not() {
        let changes = ListChanges::new();
        let mut local = changes.subscribe();
        let mut relay = changes.clone().relay(8);
        changes.tools_changed();
        changes.deliver(ListChange::Prompts); // from another instance
        assert_eq!(relay.recv().await, Some(ListChange::Tools));
        assert!(
            relay.try_recv().is_err(),
            "a remote announcement is not sent back"
        );
        assert_eq!(local.recv().await.unwrap(), ListChange::Tools);
        assert_eq!(local.recv().await.unwrap(), ListChange::Prompts);
    }

    #[test]
    fn announcements_travel_as_json() {
        let update = ListChange::ResourceUpdated("test://x".into());
        let json = serde_json::to_value(&update).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "resource_updated", "uri": "test://x"})
        );
        assert_eq!(serde_json::from_value::<ListChange>(json).unwrap(), update);
        let tools = serde_json::to_value(ListChange::Tools).unwrap();
        assert_eq!(
            serde_json::from_value::<ListChange>(tools).unwrap(),
            ListChange::Tools
        );
    }
}
