//! What a layer receives and returns: [`McpRequest`] and [`McpResponse`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::jsonrpc::{ErrorObject, RequestId, result_frame};
use crate::protocol::CallToolResult;
use crate::server::auth::Principal;
use crate::server::engine::method::{Method, Requested, method_name};
use crate::server::engine::params::Reply;
use crate::server::engine::shape;
use crate::server::{Era, RequestContext};

/// A decoded request on its way to the router.
#[derive(Debug)]
pub struct McpRequest {
    pub(crate) era: Era,
    pub(crate) id: RequestId,
    pub(crate) method: Requested,
    pub(crate) params: Option<Value>,
    pub(crate) context: RequestContext,
}

impl McpRequest {
    /// The era the request was made in.
    pub fn era(&self) -> Era {
        self.era
    }

    /// The JSON-RPC id.
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The method, as named on the wire (`tools/call`, `resources/read`, …).
    pub fn method(&self) -> &str {
        method_name(&self.method)
    }

    /// What the request names, as the `Mcp-Name` header would: the tool of
    /// `tools/call`, the prompt of `prompts/get`, the URI of
    /// `resources/read`; `None` for other methods.
    pub fn name(&self) -> Option<&str> {
        let method = self.method.as_ref().ok()?;
        method.target_in(self.params.as_ref()?)
    }

    /// The tool a `tools/call` calls; `None` for other methods.
    pub fn tool(&self) -> Option<&str> {
        match self.method {
            Ok(Method::CallTool) => self.name(),
            _ => None,
        }
    }

    /// The parameters, without `_meta` (see [`RequestContext::meta`]).
    pub fn params(&self) -> Option<&Value> {
        self.params.as_ref()
    }

    /// The request's context: client, cancellation, HTTP headers and
    /// extensions, as a handler will see it.
    pub fn context(&self) -> &RequestContext {
        &self.context
    }

    /// Who the access token speaks for, on a protected HTTP server.
    pub fn principal(&self) -> Option<&Principal> {
        self.context.principal()
    }

    /// Answers the request with `result` instead of passing it on.
    pub fn reply<R: Serialize>(&self, result: &R) -> McpResponse {
        McpResponse::from(Ok(result_frame(&self.id, result)))
    }

    /// Answers that the request failed, in the form its method calls for: a
    /// tool result with `isError` (which a model reads) for `tools/call`,
    /// an internal error (-32603) for every other method.
    pub fn fail(&self, message: impl Into<String>) -> McpResponse {
        if self.tool().is_none() {
            return McpResponse::error(ErrorObject::internal(message.into()));
        }
        let mut result = CallToolResult::error(message);
        shape::apply(self.era, &mut result, None);
        self.reply(&result)
    }

    /// Whether the request stays open to carry notifications
    /// (`subscriptions/listen`): it lasts as long as the client wants, so
    /// time and concurrency limits leave it alone.
    pub fn is_stream(&self) -> bool {
        self.method == Ok(Method::Listen)
    }
}

/// The response to a request: an encoded result, or a JSON-RPC error.
#[derive(Debug)]
pub struct McpResponse {
    reply: Reply,
}

impl McpResponse {
    /// A JSON-RPC error response.
    pub fn error(error: ErrorObject) -> Self {
        McpResponse { reply: Err(error) }
    }

    /// Whether this is a JSON-RPC error (a tool result with `isError` is a
    /// result: see [`result`](Self::result)).
    pub fn is_error(&self) -> bool {
        self.reply.is_err()
    }

    /// The JSON-RPC error, if this is one.
    pub fn error_object(&self) -> Option<&ErrorObject> {
        self.reply.as_ref().err()
    }

    /// The result, decoded from the encoded response (a copy: responses
    /// are encoded once, by the handler's stage).
    pub fn result(&self) -> Option<Value> {
        #[derive(Deserialize)]
        struct Envelope {
            result: Value,
        }
        let frame = self.reply.as_ref().ok()?;
        serde_json::from_slice::<Envelope>(frame)
            .ok()
            .map(|envelope| envelope.result)
    }

    pub(crate) fn into_reply(self) -> Reply {
        self.reply
    }
}

impl From<Reply> for McpResponse {
    fn from(reply: Reply) -> Self {
        McpResponse { reply }
    }
}
