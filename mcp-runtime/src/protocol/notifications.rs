//! Parameters of general-purpose notifications.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::serde_util::{f64_canonical, opt_f64_canonical};
use super::{Meta, ProgressToken};

/// Parameters of a notification that carries only `_meta` (schema `NotificationParams`),
/// e.g. the `list_changed` notifications.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationParams {
    /// Notification metadata (see [`super::NotificationMetaObject`]).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Parameters of `notifications/cancelled`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledNotificationParams {
    /// Id (string or integer) of the request to cancel; required in the modern era.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<Value>,
    /// Why the request was cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Parameters of `notifications/progress`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressNotificationParams {
    /// The token from the original request's `_meta.progressToken`.
    pub progress_token: ProgressToken,
    /// Progress so far; increases with each notification.
    #[serde(serialize_with = "f64_canonical")]
    pub progress: f64,
    /// Total amount of work, if known.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub total: Option<f64>,
    /// Human-readable progress message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Parameters of the legacy `notifications/elicitation/complete`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationCompleteNotificationParams {
    /// Id of the URL-mode elicitation that completed.
    pub elicitation_id: String,
}
