//! `subscriptions/listen` (2026-07-28): a request that stays open and
//! carries the list-change and resource-update notifications its filter
//! asks for, each tagged with the subscription id (the request's id).

use serde_json::{Map, Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::jsonrpc::{ErrorObject, RequestId, notification_frame};
use crate::protocol::methods::{
    NOTIFICATION_PROMPTS_LIST_CHANGED, NOTIFICATION_RESOURCES_LIST_CHANGED,
    NOTIFICATION_RESOURCES_UPDATED, NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED,
    NOTIFICATION_TOOLS_LIST_CHANGED,
};
use crate::protocol::{
    META_SUBSCRIPTION_ID, Method, ServerCapabilities, SubscriptionFilter,
    SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenRequestParams,
    SubscriptionsListenResult,
};
use crate::server::{ListChange, RequestContext, Server};

impl Server {
    /// Acknowledges the subscription with the subset of the filter this
    /// server honours, then forwards matching announcements until the client
    /// goes away (cancellation) or the server drops its [`ListChanges`](super::ListChanges).
    pub(crate) async fn listen(
        &self,
        id: &RequestId,
        params: SubscriptionsListenRequestParams,
        context: RequestContext,
    ) -> Result<SubscriptionsListenResult, ErrorObject> {
        let Some(changes) = &self.inner.list_changes else {
            return Err(ErrorObject::method_not_found(Method::Listen.name()));
        };
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.inner.shared {
            shared.start(); // Other instances' announcements come through it.
        }
        let mut receiver = changes.subscribe();
        let filter = self.honoured(params.notifications);
        let tag = tag(id);
        let ack = SubscriptionsAcknowledgedNotificationParams {
            notifications: filter.clone(),
            meta: Some(tag.clone()),
        };
        let frame = notification_frame(NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED, Some(&ack));
        context.peer.send(frame).await;
        loop {
            let change = tokio::select! {
                () = context.cancelled() => break,
                change = receiver.recv() => change,
            };
            let frames = match change {
                Ok(change) => notification(&filter, &change, &tag).into_iter().collect(),
                Err(RecvError::Lagged(missed)) => {
                    tracing::debug!(missed, "a slow subscription fell behind; resending all");
                    catch_up(&filter, &tag)
                }
                Err(RecvError::Closed) => break,
            };
            for frame in frames {
                context.peer.send(frame).await;
            }
        }
        Ok(SubscriptionsListenResult {
            result_type: None,
            meta: Some(tag),
        })
    }

    /// The part of `requested` this server can deliver: list changes of the
    /// kinds it has, updates of the resources it lists.
    fn honoured(&self, requested: SubscriptionFilter) -> SubscriptionFilter {
        let offered = &self.inner.capabilities;
        let has_resources = offered.resources.is_some();
        let keep = |asked: Option<bool>, available: bool| {
            (asked == Some(true) && available).then_some(true)
        };
        SubscriptionFilter {
            tools_list_changed: keep(requested.tools_list_changed, offered.tools.is_some()),
            prompts_list_changed: keep(requested.prompts_list_changed, offered.prompts.is_some()),
            resources_list_changed: keep(requested.resources_list_changed, has_resources),
            resource_subscriptions: requested.resource_subscriptions.filter(|_| has_resources),
        }
    }
}

/// `capabilities` with `listChanged` set on every list the server has: a
/// server with [`ListChanges`](super::ListChanges) delivers them.
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
    }
    capabilities
}

fn tag(id: &RequestId) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(
        META_SUBSCRIPTION_ID.to_owned(),
        serde_json::to_value(id).unwrap_or_default(),
    );
    meta
}

/// What a listener that fell behind is sent instead of the announcements it
/// missed (which are gone): one of every notification its filter asks for.
/// Each is a hint to re-read, so an extra one costs a fetch while a missing
/// one would leave the client stale.
fn catch_up(filter: &SubscriptionFilter, tag: &Map<String, Value>) -> Vec<Vec<u8>> {
    let updates = filter
        .resource_subscriptions
        .iter()
        .flatten()
        .map(|uri| ListChange::ResourceUpdated(uri.clone()));
    [
        ListChange::Tools,
        ListChange::Prompts,
        ListChange::Resources,
    ]
    .into_iter()
    .chain(updates)
    .filter_map(|change| notification(filter, &change, tag))
    .collect()
}

/// The notification for `change`, when `filter` asked for it.
fn notification(
    filter: &SubscriptionFilter,
    change: &ListChange,
    tag: &Map<String, Value>,
) -> Option<Vec<u8>> {
    let on = |flag: Option<bool>| flag == Some(true);
    let (method, params) = match change {
        ListChange::Tools if on(filter.tools_list_changed) => {
            (NOTIFICATION_TOOLS_LIST_CHANGED, json!({ "_meta": tag }))
        }
        ListChange::Prompts if on(filter.prompts_list_changed) => {
            (NOTIFICATION_PROMPTS_LIST_CHANGED, json!({ "_meta": tag }))
        }
        ListChange::Resources if on(filter.resources_list_changed) => {
            (NOTIFICATION_RESOURCES_LIST_CHANGED, json!({ "_meta": tag }))
        }
        ListChange::ResourceUpdated(uri)
            if filter
                .resource_subscriptions
                .as_ref()
                .is_some_and(|uris| uris.contains(uri)) =>
        {
            (
                NOTIFICATION_RESOURCES_UPDATED,
                json!({ "uri": uri, "_meta": tag }),
            )
        }
        _ => return None,
    };
    Some(notification_frame(method, Some(&params)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(frame: Vec<u8>) -> Value {
        serde_json::from_slice(&frame).unwrap()
    }

    #[test]
    fn only_what_the_filter_asked_for() {
        let tag = tag(&RequestId::from(7));
        let filter = SubscriptionFilter {
            prompts_list_changed: Some(true),
            resource_subscriptions: Some(vec!["test://a".into()]),
            ..Default::default()
        };
        assert!(notification(&filter, &ListChange::Tools, &tag).is_none());
        assert!(
            notification(
                &filter,
                &ListChange::ResourceUpdated("test://b".into()),
                &tag
            )
            .is_none()
        );
        let prompts = decode(notification(&filter, &ListChange::Prompts, &tag).unwrap());
        assert_eq!(prompts["method"], "notifications/prompts/list_changed");
        assert_eq!(prompts["params"]["_meta"][META_SUBSCRIPTION_ID], 7);
        let updated = decode(
            notification(
                &filter,
                &ListChange::ResourceUpdated("test://a".into()),
                &tag,
            )
            .unwrap(),
        );
        assert_eq!(updated["params"]["uri"], "test://a");
    }

    #[test]
    fn a_lagging_listener_is_sent_everything_its_filter_asks_for() {
        let tag = tag(&RequestId::from(3));
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            resource_subscriptions: Some(vec!["test://a".into(), "test://b".into()]),
            ..Default::default()
        };
        let sent: Vec<(String, Value)> = catch_up(&filter, &tag)
            .into_iter()
            .map(decode)
            .map(|n| {
                (
                    n["method"].as_str().unwrap().to_owned(),
                    n["params"]["uri"].clone(),
                )
            })
            .collect();
        assert_eq!(
            sent,
            [
                ("notifications/tools/list_changed".to_owned(), Value::Null),
                (
                    "notifications/resources/updated".to_owned(),
                    json!("test://a")
                ),
                (
                    "notifications/resources/updated".to_owned(),
                    json!("test://b")
                ),
            ]
        );
    }
}
