//! Announcements to a legacy session (2025-11-25 and earlier), which asks
//! for none: once it has completed `initialize`, it is sent
//! `notifications/{tools,prompts,resources}/list_changed` for every list
//! the server has, and `notifications/resources/updated` for the resources
//! it [subscribed](super::subscribe) to. The transport runs the feed where
//! the session can be reached outside a response: over stdio (and in
//! memory) on the connection itself, over HTTP on the session's standalone
//! GET stream.

use std::sync::Arc;

use serde_json::{Map, Value};
use tokio::sync::broadcast;

use super::announce::{self, Audience};
use super::peer::Peer;
use super::session::Session;
use crate::server::{ListChange, Server};

/// The announcements bound for one legacy session, from the moment it was
/// made (nothing announced later is missed, however late [`run`](Self::run)
/// starts).
pub(crate) struct LegacyFeed {
    server: Server,
    session: Arc<Session>,
    receiver: broadcast::Receiver<ListChange>,
}

impl Server {
    /// Whether this server announces changes, so that a legacy session has
    /// a feed.
    #[cfg(feature = "http")]
    pub(crate) fn announces(&self) -> bool {
        self.inner.list_changes.is_some()
    }

    /// The feed of `session`; `None` when this server announces nothing
    /// (it has no [`ListChanges`](crate::server::ListChanges)).
    pub(crate) fn legacy_feed(&self, session: Arc<Session>) -> Option<LegacyFeed> {
        let changes = self.inner.list_changes.as_ref()?;
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.inner.shared {
            shared.start(); // Other instances' announcements come through it.
        }
        Some(LegacyFeed {
            server: self.clone(),
            session,
            receiver: changes.subscribe(),
        })
    }
}

impl LegacyFeed {
    /// Sends the session its announcements through `peer` until `until`
    /// resolves (the connection or session ended) or the server stops
    /// announcing.
    pub(crate) async fn run(self, peer: &Peer, until: impl Future<Output = ()>) {
        let LegacyFeed {
            server,
            session,
            receiver,
        } = self;
        let audience = LegacyAudience {
            server: &server,
            session: &session,
        };
        announce::forward(receiver, &audience, peer, until).await;
    }
}

/// A legacy session as an [`Audience`]: every list the server has, the
/// resources the session follows now, no `_meta`.
struct LegacyAudience<'a> {
    server: &'a Server,
    session: &'a Session,
}

impl Audience for LegacyAudience<'_> {
    fn wants(&self, change: &ListChange) -> bool {
        let offered = &self.server.inner.capabilities;
        match change {
            ListChange::Tools => offered.tools.is_some(),
            ListChange::Prompts => offered.prompts.is_some(),
            ListChange::Resources => offered.resources.is_some(),
            ListChange::ResourceUpdated(uri) => self.session.subscriptions.contains(uri),
        }
    }

    fn resources(&self) -> Vec<String> {
        self.session.subscriptions.all()
    }

    fn meta(&self) -> Option<&Map<String, Value>> {
        None
    }
}
