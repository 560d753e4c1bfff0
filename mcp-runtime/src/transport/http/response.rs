//! Building the plain (non-streaming) responses, and the one table of
//! which HTTP status an MCP error travels with.

use hyper::{Response, StatusCode, header};

use super::body::McpBody;
use crate::jsonrpc::{ErrorObject, RequestId, code, error_frame};
use crate::server::Rejection;

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

/// The status of a 2026-07-28 JSON response with error code `error`: 404
/// for an unknown method, 400 for the errors the spec ties to 400, 200 for
/// everything else.
pub(super) fn modern_status(error: Option<i64>) -> StatusCode {
    match error {
        Some(code::METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
        Some(
            code::HEADER_MISMATCH
            | code::MISSING_REQUIRED_CLIENT_CAPABILITY
            | code::UNSUPPORTED_PROTOCOL_VERSION
            | code::INVALID_REQUEST
            | code::PARSE_ERROR,
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// A request refused when it was classified, before any handler: the
/// client broke the protocol's rules (its `_meta`, its headers), so 400,
/// whatever the code.
pub(super) fn rejected(rejection: &Rejection) -> Response<McpBody> {
    error(
        StatusCode::BAD_REQUEST,
        Some(&rejection.id),
        &rejection.error,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_of_modern_errors() {
        assert_eq!(modern_status(Some(-32601)), StatusCode::NOT_FOUND);
        assert_eq!(modern_status(Some(-32022)), StatusCode::BAD_REQUEST);
        assert_eq!(modern_status(Some(-32021)), StatusCode::BAD_REQUEST);
        assert_eq!(modern_status(Some(-32603)), StatusCode::OK);
        assert_eq!(modern_status(None), StatusCode::OK);
    }
}
