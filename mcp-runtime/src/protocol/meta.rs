//! `_meta` objects: the raw map type, reserved keys and typed views of the reserved keys.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{ClientCapabilities, Implementation, LoggingLevel, ProgressToken};

/// Contents of a `_meta` field (schema `MetaObject`): free-form metadata keyed by name.
pub type Meta = Map<String, Value>;

/// An arbitrary JSON object (schema `JSONObject`).
pub type JsonObject = Map<String, Value>;

/// Request `_meta` key: the protocol revision used for this request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// Request `_meta` key: the client's capabilities for this request.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// Request `_meta` key: identifies the client software.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// Request `_meta` key: the desired log level for this request.
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// Result `_meta` key: identifies the server software.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// Notification / listen-result `_meta` key: the subscription stream identifier.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// Legacy (2025-11-25) `_meta` key: associates a message with a task.
pub const META_RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// Request `_meta` key: out-of-band progress token.
pub const META_PROGRESS_TOKEN: &str = "progressToken";

/// Typed view of the reserved keys of a request `_meta` (schema `RequestMetaObject`).
///
/// Request params keep `_meta` as a raw [`Meta`]; use [`RequestMetaObject::from_meta`] to
/// read the reserved keys and [`RequestMetaObject::into_meta`] to build them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RequestMetaObject {
    /// The protocol revision used for this request (required in the modern era).
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub protocol_version: Option<String>,
    /// The client's capabilities for this request (required in the modern era).
    #[serde(
        rename = "io.modelcontextprotocol/clientCapabilities",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_capabilities: Option<ClientCapabilities>,
    /// The client software making the request.
    #[serde(
        rename = "io.modelcontextprotocol/clientInfo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_info: Option<Implementation>,
    /// The desired log level; absent means no log notifications for this request.
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub log_level: Option<LoggingLevel>,
    /// Token requesting progress notifications for this request.
    #[serde(
        rename = "progressToken",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub progress_token: Option<ProgressToken>,
}

/// Typed view of the reserved keys of a result `_meta` (schema `ResultMetaObject`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResultMetaObject {
    /// The server software producing the response.
    #[serde(
        rename = "io.modelcontextprotocol/serverInfo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub server_info: Option<Implementation>,
}

/// Typed view of the reserved keys of a notification `_meta` (schema `NotificationMetaObject`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NotificationMetaObject {
    /// The `subscriptions/listen` stream this notification was delivered on.
    #[serde(
        rename = "io.modelcontextprotocol/subscriptionId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub subscription_id: Option<Value>,
}

/// Typed view of the `_meta` of a `subscriptions/listen` result
/// (schema `SubscriptionsListenResultMetaObject`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SubscriptionsListenResultMetaObject {
    /// The server software producing the response.
    #[serde(
        rename = "io.modelcontextprotocol/serverInfo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub server_info: Option<Implementation>,
    /// Identifier of the subscription stream being closed (a request id).
    #[serde(
        rename = "io.modelcontextprotocol/subscriptionId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub subscription_id: Option<Value>,
}

// The views are for applications; the runtime reads and writes the
// reserved keys itself. `#[inline]` has them compiled in the crates that
// call them, so that every server does not compile a `Value` reader and
// writer for each view (the client-capability tree is the largest).
macro_rules! meta_view {
    ($($ty:ident),*) => {$(
        impl $ty {
            /// Reads the reserved keys out of a raw `_meta` map (other keys are ignored).
            #[inline]
            pub fn from_meta(meta: &Meta) -> Result<Self, serde_json::Error> {
                <Self as serde::Deserialize>::deserialize(meta)
            }

            /// Converts into a raw `_meta` map holding only the keys that are set.
            #[inline]
            pub fn into_meta(self) -> Meta {
                match serde_json::to_value(self) {
                    Ok(Value::Object(map)) => map,
                    _ => Meta::new(),
                }
            }

            /// Writes the keys that are set into `meta`, replacing existing values.
            #[inline]
            pub fn merge_into(self, meta: &mut Meta) {
                meta.extend(self.into_meta());
            }
        }
    )*};
}

meta_view!(
    RequestMetaObject,
    ResultMetaObject,
    NotificationMetaObject,
    SubscriptionsListenResultMetaObject
);
