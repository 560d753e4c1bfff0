//! Typed JSON-RPC 2.0 envelopes for whole protocol messages.
//!
//! These are thin typed wrappers for (de)serializing complete MCP messages with known
//! parameter/result types; request ids are kept as raw [`serde_json::Value`]s
//! (a string or an integer).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::ClientCapabilities;

/// The `"jsonrpc": "2.0"` marker; deserialization rejects any other value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct JsonRpcVersion;

impl JsonRpcVersion {
    /// The version string, `"2.0"`.
    pub const VALUE: &'static str = "2.0";
}

impl Serialize for JsonRpcVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(Self::VALUE)
    }
}

impl<'de> Deserialize<'de> for JsonRpcVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        if s == Self::VALUE {
            Ok(Self)
        } else {
            Err(D::Error::custom(format!(
                "unsupported jsonrpc version `{s}`, expected `2.0`"
            )))
        }
    }
}

/// A JSON-RPC request with typed parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcRequest<P> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// Request id (string or integer).
    pub id: Value,
    /// Method name.
    pub method: String,
    /// Parameters.
    pub params: P,
}

impl<P> JsonRpcRequest<P> {
    /// A request with the given id, method and parameters.
    pub fn new(id: impl Into<Value>, method: impl Into<String>, params: P) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: method.into(),
            params,
        }
    }
}

/// A JSON-RPC notification with typed (optional) parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "P: Deserialize<'de>"))]
pub struct JsonRpcNotification<P> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// Method name.
    pub method: String,
    /// Parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<P>,
}

impl<P> JsonRpcNotification<P> {
    /// A notification with the given method and parameters.
    pub fn new(method: impl Into<String>, params: Option<P>) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            method: method.into(),
            params,
        }
    }
}

/// A successful JSON-RPC response with a typed result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsonRpcResponse<R> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// Id of the request being answered.
    pub id: Value,
    /// The result.
    pub result: R,
}

impl<R> JsonRpcResponse<R> {
    /// A response to request `id`.
    pub fn new(id: impl Into<Value>, result: R) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            result,
        }
    }
}

/// The `error` member of a JSON-RPC error response, with typed `data`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "D: Deserialize<'de>"))]
pub struct JsonRpcError<D = Value> {
    /// Error code (see [`error_codes`]).
    pub code: i64,
    /// Short description.
    pub message: String,
    /// Additional information.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<D>,
}

impl<D> JsonRpcError<D> {
    /// An error without data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// A JSON-RPC error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "D: Deserialize<'de>"))]
pub struct JsonRpcErrorResponse<D = Value> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// Id of the request being answered; absent if it could not be determined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    /// The error.
    pub error: JsonRpcError<D>,
}

/// Error codes used by MCP (the same constants as [`crate::jsonrpc::code`]).
pub use crate::jsonrpc::code as error_codes;

/// `data` of an unsupported-protocol-version error.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnsupportedProtocolVersionData {
    /// Versions the server supports.
    pub supported: Vec<String>,
    /// The version the client requested.
    pub requested: String,
}

/// `data` of a missing-required-client-capability error.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingRequiredClientCapabilityData {
    /// The capabilities the request requires.
    pub required_capabilities: ClientCapabilities,
}

/// `data` of the legacy URL-elicitation-required error.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UrlElicitationRequiredData {
    /// The URL elicitations that must complete first.
    pub elicitations: Vec<super::ElicitRequestUrlParams>,
}
