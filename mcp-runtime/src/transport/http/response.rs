//! Building the plain (non-streaming) responses.

use hyper::{Response, StatusCode, header};

use super::body::McpBody;
use crate::jsonrpc::{ErrorObject, RequestId, error_frame};

/// A JSON body with `status`.
pub(super) fn json(status: StatusCode, frame: Vec<u8>) -> Response<McpBody> {
    let mut response = Response::new(McpBody::full(frame));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// A JSON-RPC error response with `status`; `id` is `None` (sent as
/// `null`) when the error concerns no readable request.
pub(super) fn error(
    status: StatusCode,
    id: Option<&RequestId>,
    error: &ErrorObject,
) -> Response<McpBody> {
    json(status, error_frame(id, error))
}

/// A request refused by the transport: an HTTP status and why.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub(super) status: StatusCode,
    pub(super) reason: String,
}

impl Refusal {
    pub(super) fn new(status: StatusCode, reason: impl Into<String>) -> Self {
        Refusal {
            status,
            reason: reason.into(),
        }
    }

    /// `status` with a JSON-RPC error (without id) saying why.
    pub(super) fn into_response(self) -> Response<McpBody> {
        let error = if self.status.is_server_error() {
            ErrorObject::internal(self.reason)
        } else {
            ErrorObject::invalid_request(self.reason)
        };
        self::error(self.status, None, &error)
    }
}

/// Shorthand for [`Refusal::into_response`].
pub(super) fn refuse(status: StatusCode, reason: impl Into<String>) -> Response<McpBody> {
    Refusal::new(status, reason).into_response()
}

/// No body at all.
pub(super) fn empty(status: StatusCode) -> Response<McpBody> {
    let mut response = Response::new(McpBody::empty());
    *response.status_mut() = status;
    response
}
