//! Roots: filesystem boundaries the client exposes (`roots/list`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{JsonRpcVersion, Meta, RequestParams};

/// A root directory or file the server may operate on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    /// URI of the root (`file://` for now).
    pub uri: String,
    /// Human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A `roots/list` request.
///
/// Embedded as `{method, params?}` in the modern era; a full JSON-RPC request in the
/// legacy era, hence the optional `jsonrpc` and `id`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "method", rename = "roots/list", rename_all = "camelCase")]
pub struct ListRootsRequest {
    /// JSON-RPC version (legacy era only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonrpc: Option<JsonRpcVersion>,
    /// Request id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// The parameters (only `_meta`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<RequestParams>,
}

/// Result of `roots/list`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListRootsResult {
    /// The roots.
    pub roots: Vec<Root>,
    /// Result metadata (legacy era).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
