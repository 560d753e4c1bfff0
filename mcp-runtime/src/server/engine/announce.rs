//! How the server's announcements ([`ListChange`]s) reach one listener: a
//! 2026-07-28 `subscriptions/listen` stream ([`listen`](super::listen)) or
//! a legacy session ([`legacy_feed`](super::legacy_feed)). Each listener
//! says which announcements it wants and how its notifications are
//! tagged; the notifications themselves, the catching up of a listener
//! that fell behind and the forwarding loop are the same for both.

use serde_json::{Map, Value, json};
use tokio::sync::broadcast::{self, error::RecvError};

use super::peer::Peer;
use crate::jsonrpc::notification_frame;
use crate::protocol::ServerCapabilities;
use crate::protocol::methods::{
    NOTIFICATION_PROMPTS_LIST_CHANGED, NOTIFICATION_RESOURCES_LIST_CHANGED,
    NOTIFICATION_RESOURCES_UPDATED, NOTIFICATION_TOOLS_LIST_CHANGED,
};
use crate::server::ListChange;

/// One listener's choice of announcements.
pub(super) trait Audience {
    /// Whether the listener is told of `change`.
    fn wants(&self, change: &ListChange) -> bool;
    /// The resources whose updates it follows now.
    fn resources(&self) -> Vec<String>;
    /// The `_meta` every notification it is sent carries, if any.
    fn meta(&self) -> Option<&Map<String, Value>>;
}

/// Sends `audience` every announcement it wants from `receiver` through
/// `peer`, until `until` resolves or the server stops announcing. A
/// listener that fell behind is sent [`catch_up`] instead of what it
/// missed.
pub(super) async fn forward(
    mut receiver: broadcast::Receiver<ListChange>,
    audience: &impl Audience,
    peer: &Peer,
    until: impl Future<Output = ()>,
) {
    let mut until = std::pin::pin!(until);
    loop {
        let change = tokio::select! {
            () = &mut until => return,
            change = receiver.recv() => change,
        };
        let frames = match change {
            Ok(change) => notification(audience, &change).into_iter().collect(),
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!(missed, "a slow listener fell behind; resending all");
                catch_up(audience)
            }
            Err(RecvError::Closed) => return,
        };
        for frame in frames {
            peer.send(frame).await;
        }
    }
}

/// What a listener that fell behind is sent instead of the announcements it
/// missed (which are gone): one of every notification it wants. Each is a
/// hint to re-read, so an extra one costs a fetch while a missing one would
/// leave the client stale.
pub(super) fn catch_up(audience: &impl Audience) -> Vec<Vec<u8>> {
    let updates = audience
        .resources()
        .into_iter()
        .map(ListChange::ResourceUpdated);
    [
        ListChange::Tools,
        ListChange::Prompts,
        ListChange::Resources,
    ]
    .into_iter()
    .chain(updates)
    .filter_map(|change| notification(audience, &change))
    .collect()
}

/// The notification for `change`, when `audience` wants it.
pub(super) fn notification(audience: &impl Audience, change: &ListChange) -> Option<Vec<u8>> {
    if !audience.wants(change) {
        return None;
    }
    let method = match change {
        ListChange::Tools => NOTIFICATION_TOOLS_LIST_CHANGED,
        ListChange::Prompts => NOTIFICATION_PROMPTS_LIST_CHANGED,
        ListChange::Resources => NOTIFICATION_RESOURCES_LIST_CHANGED,
        ListChange::ResourceUpdated(_) => NOTIFICATION_RESOURCES_UPDATED,
    };
    let meta = audience.meta();
    let params = match change {
        ListChange::ResourceUpdated(uri) => match meta {
            Some(meta) => Some(json!({ "uri": uri, "_meta": meta })),
            None => Some(json!({ "uri": uri })),
        },
        _ => meta.map(|meta| json!({ "_meta": meta })),
    };
    Some(notification_frame(method, params.as_ref()))
}

/// `capabilities` as a server that announces changes declares them:
/// `listChanged` on every list it has, and `subscribe` on its resources
/// (updates reach legacy subscribers and listen streams alike).
pub(crate) fn announced(capabilities: &ServerCapabilities) -> ServerCapabilities {
    let mut capabilities = capabilities.clone();
    if let Some(tools) = &mut capabilities.tools {
        tools.list_changed = Some(true);
    }
    if let Some(prompts) = &mut capabilities.prompts {
        prompts.list_changed = Some(true);
    }
    if let Some(resources) = &mut capabilities.resources {
        resources.list_changed = Some(true);
        resources.subscribe = Some(true);
    }
    capabilities
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wants tool changes and updates of `test://a`; no `_meta`.
    struct Plain;

    impl Audience for Plain {
        fn wants(&self, change: &ListChange) -> bool {
            match change {
                ListChange::Tools => true,
                ListChange::ResourceUpdated(uri) => uri == "test://a",
                _ => false,
            }
        }
        fn resources(&self) -> Vec<String> {
            vec!["test://a".into()]
        }
        fn meta(&self) -> Option<&Map<String, Value>> {
            None
        }
    }

    fn decode(frame: Vec<u8>) -> Value {
        serde_json::from_slice(&frame).unwrap()
    }

    #[test]
    fn without_meta_a_list_change_has_no_params() {
        let tools = decode(notification(&Plain, &ListChange::Tools).unwrap());
        assert_eq!(
            tools,
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        );
        let updated =
            decode(notification(&Plain, &ListChange::ResourceUpdated("test://a".into())).unwrap());
        assert_eq!(updated["params"], json!({"uri": "test://a"}));
        assert!(notification(&Plain, &ListChange::Prompts).is_none());
    }

    #[test]
    fn catching_up_sends_one_of_each_wanted() {
        let methods: Vec<Value> = catch_up(&Plain)
            .into_iter()
            .map(|frame| decode(frame)["method"].clone())
            .collect();
        assert_eq!(
            methods,
            [
                json!("notifications/tools/list_changed"),
                json!("notifications/resources/updated")
            ]
        );
    }
}
