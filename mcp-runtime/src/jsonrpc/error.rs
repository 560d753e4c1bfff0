//! JSON-RPC error objects and the error codes MCP uses.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Standard and MCP-specific JSON-RPC error codes.
pub mod code {
    /// The message was not valid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON was not a valid request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal error in the server.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// An HTTP header does not match the request body (2026-07-28).
    pub const HEADER_MISMATCH: i64 = -32020;
    /// The request needs a client capability the client did not declare (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// The requested protocol version is not supported (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// A URL-mode elicitation must complete first (2025-11-25 only).
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
}

/// A JSON-RPC error object: `{"code", "message", "data"?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// The error code (see [`code`]).
    pub code: i64,
    /// A short human-readable description.
    pub message: String,
    /// Extra structured information.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// The error as a JSON object (`code`, `message`, and `data` when set),
    /// for results that carry an error as data (a failed task's `error`).
    pub(crate) fn to_object(&self) -> serde_json::Map<String, Value> {
        let mut object = serde_json::Map::new();
        object.insert("code".to_owned(), self.code.into());
        object.insert("message".to_owned(), self.message.clone().into());
        if let Some(data) = &self.data {
            object.insert("data".to_owned(), data.clone());
        }
        object
    }

    /// An error with a code and a message and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Attaches `data` to the error.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// -32700: the message is not valid JSON.
    pub fn parse_error(detail: impl fmt::Display) -> Self {
        Self::new(code::PARSE_ERROR, format!("Parse error: {detail}"))
    }

    /// -32600: the message is not a valid JSON-RPC request.
    pub fn invalid_request(detail: impl fmt::Display) -> Self {
        Self::new(code::INVALID_REQUEST, format!("Invalid request: {detail}"))
    }

    /// -32601: no such method.
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            code::METHOD_NOT_FOUND,
            format!("Method not found: {method}"),
        )
    }

    /// -32602: the parameters are invalid.
    pub fn invalid_params(detail: impl fmt::Display) -> Self {
        Self::new(code::INVALID_PARAMS, detail.to_string())
    }

    /// -32603: the server failed while handling the request.
    pub fn internal(detail: impl fmt::Display) -> Self {
        Self::new(code::INTERNAL_ERROR, format!("Internal error: {detail}"))
    }

    /// -32022: the client asked for a protocol version this server does not speak.
    pub fn unsupported_protocol_version(requested: &str, supported: &[&str]) -> Self {
        Self::new(
            code::UNSUPPORTED_PROTOCOL_VERSION,
            format!("Unsupported protocol version: {requested}"),
        )
        .with_data(json!({ "supported": supported, "requested": requested }))
    }

    /// -32021: the request needs client capabilities the client did not declare.
    pub fn missing_required_client_capability(required: Value) -> Self {
        Self::new(
            code::MISSING_REQUIRED_CLIENT_CAPABILITY,
            "Missing required client capability",
        )
        .with_data(json!({ "requiredCapabilities": required }))
    }

    /// -32020: an HTTP header disagrees with the request body.
    pub fn header_mismatch(detail: impl fmt::Display) -> Self {
        Self::new(code::HEADER_MISMATCH, format!("Header mismatch: {detail}"))
    }
}

impl fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for ErrorObject {}

impl ErrorObject {
    /// -32602 for a `resources/read` of a URI that no resource or template serves.
    pub fn resource_not_found(uri: &str) -> Self {
        Self::new(code::INVALID_PARAMS, format!("Resource not found: {uri}"))
            .with_data(json!({ "uri": uri }))
    }
}
