//! The typed events of a `subscriptions/listen` stream (2026-07-28).

use serde_json::Value;

use crate::jsonrpc::Notification;
use crate::protocol::methods::{
    NOTIFICATION_PROMPTS_LIST_CHANGED, NOTIFICATION_RESOURCES_LIST_CHANGED,
    NOTIFICATION_RESOURCES_UPDATED, NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED,
    NOTIFICATION_TOOLS_LIST_CHANGED,
};
use crate::protocol::{
    ResourceUpdatedNotificationParams, SubscriptionFilter,
    SubscriptionsAcknowledgedNotificationParams,
};

/// What a subscription delivers, from [`Subscription::next`](super::Subscription::next).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListenEvent {
    /// The server opened (or reopened) the stream, delivering what this
    /// filter names: the part of the asked one it honours.
    Acknowledged(SubscriptionFilter),
    /// The tool list changed (`notifications/tools/list_changed`).
    ToolsListChanged,
    /// The prompt list changed (`notifications/prompts/list_changed`).
    PromptsListChanged,
    /// The resource list changed (`notifications/resources/list_changed`).
    ResourcesListChanged,
    /// A subscribed resource changed (`notifications/resources/updated`).
    ResourceUpdated {
        /// The resource, or a sub-resource of the subscribed one.
        uri: String,
    },
    /// The subscription was read too slowly and some notifications were
    /// lost (at most `missed`, counting those of other subscriptions):
    /// re-read whatever it follows.
    Missed {
        /// How many notifications of the connection were dropped.
        missed: u64,
    },
}

impl ListenEvent {
    /// The event `notice` stands for, when it is one a subscription carries.
    pub(super) fn of(notice: Notification) -> Option<ListenEvent> {
        let params = notice.params.unwrap_or(Value::Null);
        let event = match notice.method.as_str() {
            NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED => ListenEvent::Acknowledged(
                serde_json::from_value::<SubscriptionsAcknowledgedNotificationParams>(params)
                    .ok()?
                    .notifications,
            ),
            NOTIFICATION_TOOLS_LIST_CHANGED => ListenEvent::ToolsListChanged,
            NOTIFICATION_PROMPTS_LIST_CHANGED => ListenEvent::PromptsListChanged,
            NOTIFICATION_RESOURCES_LIST_CHANGED => ListenEvent::ResourcesListChanged,
            NOTIFICATION_RESOURCES_UPDATED => ListenEvent::ResourceUpdated {
                uri: serde_json::from_value::<ResourceUpdatedNotificationParams>(params)
                    .ok()?
                    .uri,
            },
            _ => return None,
        };
        Some(event)
    }
}
