//! `subscriptions/listen` (2026-07-28): a request that stays open and
//! carries the list-change and resource-update notifications its filter
//! asks for, each tagged with the subscription id (the request's id).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::announce::{self, Audience};
use crate::jsonrpc::{ErrorObject, RequestId, notification_frame};
use crate::protocol::methods::NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED;
use crate::protocol::{
    META_SUBSCRIPTION_ID, Method, SubscriptionFilter, SubscriptionsAcknowledgedNotificationParams,
    SubscriptionsListenRequestParams, SubscriptionsListenResult,
};
use crate::server::auth::Principal;
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
        let receiver = changes.subscribe();
        let listener = Listener {
            filter: self.honoured(params.notifications),
            tag: tag(id),
            server: self.clone(),
            caller: context.inbound.principal.clone(),
        };
        let ack = SubscriptionsAcknowledgedNotificationParams {
            notifications: listener.filter.clone(),
            meta: Some(listener.tag.clone()),
        };
        let frame = notification_frame(NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED, Some(&ack));
        context.peer.send(frame).await;
        announce::forward(receiver, &listener, &context.peer, context.cancelled()).await;
        Ok(SubscriptionsListenResult {
            result_type: None,
            meta: Some(listener.tag),
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

/// One listen stream: what its filter asks for, tagged with its id, and
/// who listens.
struct Listener {
    filter: SubscriptionFilter,
    tag: Map<String, Value>,
    server: Server,
    /// A resource hidden from the caller is never said to be updated (its
    /// URI stays in the filter, as one that does not exist would).
    caller: Option<Arc<Principal>>,
}

impl Audience for Listener {
    fn wants(&self, change: &ListChange) -> bool {
        let on = |flag: Option<bool>| flag == Some(true);
        let filter = &self.filter;
        match change {
            ListChange::Tools => on(filter.tools_list_changed),
            ListChange::Prompts => on(filter.prompts_list_changed),
            ListChange::Resources => on(filter.resources_list_changed),
            ListChange::ResourceUpdated(uri) => {
                filter
                    .resource_subscriptions
                    .as_ref()
                    .is_some_and(|uris| uris.contains(uri))
                    && !self.server.catalogue().hides(uri, self.caller.as_deref())
            }
        }
    }

    fn resources(&self) -> Vec<String> {
        self.filter
            .resource_subscriptions
            .clone()
            .unwrap_or_default()
    }

    fn meta(&self) -> Option<&Map<String, Value>> {
        Some(&self.tag)
    }
}

fn tag(id: &RequestId) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(
        META_SUBSCRIPTION_ID.to_owned(),
        serde_json::to_value(id).unwrap_or_default(),
    );
    meta
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::server::engine::announce::{catch_up, notification};

    fn decode(frame: Vec<u8>) -> Value {
        serde_json::from_slice(&frame).unwrap()
    }

    /// The stream `id` of `caller`, on a server with one resource,
    /// `test://secret`, shown only to callers with the scope `admin`.
    fn listener(filter: SubscriptionFilter, id: i64, caller: Option<Principal>) -> Listener {
        let secret = crate::server::ResourceDef::new("test://secret", "secret", |_| async {
            Ok(crate::protocol::ReadResourceResult::default())
        })
        .visible_with_scopes(["admin"]);
        let server = Server::builder(crate::protocol::Implementation::new("test", "0"))
            .resource(secret)
            .build()
            .unwrap();
        Listener {
            filter,
            tag: tag(&RequestId::from(id)),
            server,
            caller: caller.map(Arc::new),
        }
    }

    #[test]
    fn a_resource_hidden_from_the_caller_is_never_said_to_be_updated() {
        let filter = SubscriptionFilter {
            resource_subscriptions: Some(vec!["test://secret".into()]),
            ..Default::default()
        };
        let updated = ListChange::ResourceUpdated("test://secret".into());
        let anonymous = listener(filter.clone(), 1, None);
        assert!(notification(&anonymous, &updated).is_none());
        assert!(catch_up(&anonymous).is_empty());
        let mut admin = Principal::default();
        admin.scopes.insert("admin".into());
        let admin = listener(filter, 2, Some(admin));
        assert!(notification(&admin, &updated).is_some());
    }

    #[test]
    fn only_what_the_filter_asked_for() {
        let filter = SubscriptionFilter {
            prompts_list_changed: Some(true),
            resource_subscriptions: Some(vec!["test://a".into()]),
            ..Default::default()
        };
        let listener = listener(filter, 7, None);
        assert!(notification(&listener, &ListChange::Tools).is_none());
        assert!(notification(&listener, &ListChange::ResourceUpdated("test://b".into())).is_none());
        let prompts = decode(notification(&listener, &ListChange::Prompts).unwrap());
        assert_eq!(prompts["method"], "notifications/prompts/list_changed");
        assert_eq!(prompts["params"]["_meta"][META_SUBSCRIPTION_ID], 7);
        let updated = decode(
            notification(&listener, &ListChange::ResourceUpdated("test://a".into())).unwrap(),
        );
        assert_eq!(updated["params"]["uri"], "test://a");
    }

    #[test]
    fn a_lagging_listener_is_sent_everything_its_filter_asks_for() {
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            resource_subscriptions: Some(vec!["test://a".into(), "test://b".into()]),
            ..Default::default()
        };
        let listener = listener(filter, 3, None);
        let sent: Vec<(String, Value)> = catch_up(&listener)
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
