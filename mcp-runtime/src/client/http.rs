//! The Streamable HTTP link: every message is a POST to the MCP endpoint;
//! the answer is either one JSON body or an SSE stream of notifications
//! ending with the response. In the legacy era the stream may also carry
//! the server's own requests (elicitation, sampling, roots), which are
//! answered through the input handler by POSTing the response.

use std::sync::{Arc, Mutex};

use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::{Method, StatusCode, Uri};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;
use tokio::sync::mpsc;

use super::connection::answer_server_request;
use super::sse::SseDecoder;
use super::{ClientError, InputHandler};
use crate::jsonrpc::{ErrorObject, Incoming, Request, RequestId, decode};
use crate::protocol::{ProgressNotificationParams, ProgressToken};

/// The largest response body or SSE event accepted.
const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");

/// What the HTTP headers of one message must say about its body.
pub(crate) struct MessageHeaders<'a> {
    /// The JSON-RPC method; empty for a response, which has none.
    pub(crate) method: &'a str,
    /// `params.name` or `params.uri` for the methods that name a target.
    pub(crate) name: Option<&'a str>,
    /// The protocol version in force, once negotiated.
    pub(crate) protocol_version: Option<&'a str>,
}

pub(crate) struct HttpLink {
    client: HyperClient<HttpConnector, Full<Bytes>>,
    url: Uri,
    /// The legacy era's session, minted by `initialize`.
    session: Mutex<Option<HeaderValue>>,
    /// Answers the server's requests (legacy era).
    answers: Option<Arc<dyn InputHandler>>,
}

impl HttpLink {
    pub(crate) fn new(
        url: &str,
        answers: Option<Arc<dyn InputHandler>>,
    ) -> Result<Self, ClientError> {
        let url: Uri = url
            .parse()
            .map_err(|e| ClientError::Negotiation(format!("invalid URL {url}: {e}")))?;
        if url.scheme_str() != Some("http") {
            return Err(ClientError::Negotiation(format!(
                "only http:// URLs are supported, not {url}"
            )));
        }
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = HyperClient::builder(TokioExecutor::new()).build(connector);
        Ok(HttpLink {
            client,
            url,
            session: Mutex::new(None),
            answers,
        })
    }

    /// POSTs a request and waits for its response, passing progress
    /// notifications on the way to `progress`. Dropping the future closes
    /// the stream, which the server takes as cancellation.
    pub(crate) async fn request(
        &self,
        id: &RequestId,
        frame: Vec<u8>,
        headers: MessageHeaders<'_>,
        progress: Option<(
            ProgressToken,
            mpsc::UnboundedSender<ProgressNotificationParams>,
        )>,
    ) -> Result<Result<Value, ErrorObject>, ClientError> {
        let response = self.post(frame, &headers).await?;
        let status = response.status();
        if let Some(session) = response.headers().get(&SESSION_ID) {
            *self.session.lock().unwrap_or_else(|p| p.into_inner()) = Some(session.clone());
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let mut body = response.into_body();
        if content_type.starts_with("text/event-stream") {
            let mut decoder = SseDecoder::default();
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|e| ClientError::Io(std::io::Error::other(e)))?;
                let Some(chunk) = frame.data_ref() else {
                    continue;
                };
                let events = decoder
                    .feed(chunk, MAX_MESSAGE_BYTES)
                    .map_err(ClientError::InvalidResponse)?;
                for event in events {
                    match route(&event, id, progress.as_ref()) {
                        Routed::Outcome(outcome) => return Ok(outcome),
                        Routed::Question(question) => {
                            self.answer(question, headers.protocol_version).await?
                        }
                        Routed::Nothing => {}
                    }
                }
            }
            return Err(ClientError::Closed);
        }
        let bytes = read_limited(body).await?;
        if content_type.starts_with("application/json") {
            if let Routed::Outcome(outcome) = route(&bytes, id, progress.as_ref()) {
                return Ok(outcome);
            }
        }
        Err(ClientError::InvalidResponse(format!(
            "HTTP {status} ({content_type}): {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(512)])
        )))
    }

    /// Answers a request the server sent on a response stream (legacy era)
    /// with a POST of its response.
    async fn answer(
        &self,
        question: Request,
        protocol_version: Option<&str>,
    ) -> Result<(), ClientError> {
        let frame = answer_server_request(question, self.answers.as_deref()).await;
        let headers = MessageHeaders {
            method: "",
            name: None,
            protocol_version,
        };
        self.notify(frame, headers).await
    }

    /// POSTs a notification (or a response); the server answers 202 Accepted.
    pub(crate) async fn notify(
        &self,
        frame: Vec<u8>,
        headers: MessageHeaders<'_>,
    ) -> Result<(), ClientError> {
        let response = self.post(frame, &headers).await?;
        match response.status() {
            StatusCode::ACCEPTED | StatusCode::OK | StatusCode::NO_CONTENT => Ok(()),
            status => Err(ClientError::InvalidResponse(format!(
                "notification answered with HTTP {status}"
            ))),
        }
    }

    async fn post(
        &self,
        frame: Vec<u8>,
        headers: &MessageHeaders<'_>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, ClientError> {
        let mut request = hyper::Request::builder()
            .method(Method::POST)
            .uri(self.url.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream");
        if !headers.method.is_empty() {
            request = request.header(MCP_METHOD, header_value(headers.method));
        }
        if let Some(name) = headers.name {
            request = request.header(MCP_NAME, header_value(name));
        }
        if let Some(version) = headers.protocol_version {
            request = request.header(PROTOCOL_VERSION, header_value(version));
        }
        if let Some(session) = self
            .session
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
        {
            request = request.header(SESSION_ID, session);
        }
        let request = request
            .body(Full::new(Bytes::from(frame)))
            .map_err(|e| ClientError::InvalidArguments(e.to_string()))?;
        self.client
            .request(request)
            .await
            .map_err(|e| ClientError::Io(std::io::Error::other(e)))
    }
}

/// What a message on a response stream means for the request waiting on it.
enum Routed {
    /// The response to the request.
    Outcome(Result<Value, ErrorObject>),
    /// A request from the server, to answer before the response can come.
    Question(Request),
    /// Nothing for the caller (progress is passed on on the way).
    Nothing,
}

/// Handles one message from the server: progress goes to its listener, the
/// response to request `id` and the server's own requests are returned.
fn route(
    message: &[u8],
    id: &RequestId,
    progress: Option<&(
        ProgressToken,
        mpsc::UnboundedSender<ProgressNotificationParams>,
    )>,
) -> Routed {
    match decode(message) {
        Ok(Incoming::Response(response)) if response.id == *id => Routed::Outcome(response.outcome),
        Ok(Incoming::Request(question)) => Routed::Question(question),
        Ok(Incoming::Notification(notification))
            if notification.method == "notifications/progress" =>
        {
            let params = notification.params.unwrap_or(Value::Null);
            if let (Ok(update), Some((token, listener))) = (
                serde_json::from_value::<ProgressNotificationParams>(params),
                progress,
            ) {
                if update.progress_token == *token {
                    let _ = listener.send(update);
                }
            }
            Routed::Nothing
        }
        // An error without id answers this request (e.g. a rejected header).
        Err(rejected) if rejected.id.is_none() => Routed::Nothing,
        _ => {
            tracing::debug!("message on the response stream ignored");
            Routed::Nothing
        }
    }
}

async fn read_limited(mut body: hyper::body::Incoming) -> Result<Vec<u8>, ClientError> {
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| ClientError::Io(std::io::Error::other(e)))?;
        if let Some(chunk) = frame.data_ref() {
            if bytes.len() + chunk.len() > MAX_MESSAGE_BYTES {
                return Err(ClientError::InvalidResponse(format!(
                    "a response exceeds {MAX_MESSAGE_BYTES} bytes"
                )));
            }
            bytes.extend_from_slice(chunk);
        }
    }
    Ok(bytes)
}

/// A header value, Base64-wrapped (`=?base64?...?=`) when the text is not
/// plain visible ASCII or could be mistaken for the wrapper.
pub(crate) fn header_value(text: &str) -> HeaderValue {
    let sentinel = text.starts_with("=?base64?") && text.ends_with("?=");
    let visible = text.bytes().all(|b| (0x20..=0x7e).contains(&b));
    let padded = text.starts_with(' ') || text.ends_with(' ');
    let plain = !text.is_empty() && visible && !padded && !sentinel;
    let encoded;
    let value = if plain {
        text
    } else {
        encoded = format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(text)
        );
        &encoded
    };
    HeaderValue::from_str(value).expect("plain or base64 text is a valid header value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_follow_the_spec_examples() {
        assert_eq!(header_value("us-west1"), "us-west1");
        assert_eq!(
            header_value("Hello, 世界"),
            "=?base64?SGVsbG8sIOS4lueVjA==?="
        );
        assert_eq!(header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(header_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(
            header_value("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
        );
    }
}
