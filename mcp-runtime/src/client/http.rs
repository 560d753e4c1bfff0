//! The Streamable HTTP link: every message is a POST to the MCP endpoint;
//! the answer is either one JSON body or an SSE stream of notifications
//! ending with the response.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{
    ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, WWW_AUTHENTICATE,
};
use hyper::{Method, StatusCode, Uri};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::auth::{OAuthConfig, OAuthSession};
use super::notices::Notices;
use super::sse::SseDecoder;
use super::{AuthError, ClientError, InputHandler, server_requests};
use crate::jsonrpc::{ErrorObject, Incoming, RequestId, decode};
use crate::oauth::{challenge, dpop};
use crate::outbound::{self, ConnectError, HttpClient};
use crate::protocol::headers::{
    MCP_METHOD, MCP_NAME, MCP_PROTOCOL_VERSION, MCP_SESSION_ID, encode_header_value,
};
use crate::protocol::methods::{NOTIFICATION_CANCELLED, NOTIFICATION_PROGRESS};
use crate::protocol::{ProgressNotificationParams, ProgressToken};
use crate::sync::lock;

/// The largest response body or SSE event accepted.
const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
/// The proof of a DPoP-bound token (RFC 9449), and a server's nonce for it.
const DPOP: HeaderName = HeaderName::from_static(dpop::DPOP_HEADER);
const DPOP_NONCE: HeaderName = HeaderName::from_static(dpop::NONCE_HEADER);

/// What the HTTP headers of one message must say about its body.
pub(crate) struct MessageHeaders<'a> {
    /// The JSON-RPC method.
    pub(crate) method: &'a str,
    /// `params.name` or `params.uri` for the methods that name a target.
    pub(crate) name: Option<&'a str>,
    /// The protocol version in force, once negotiated.
    pub(crate) protocol_version: Option<&'a str>,
    /// `Mcp-Param-*` headers mirrored from annotated tool arguments.
    pub(crate) params: Vec<(HeaderName, HeaderValue)>,
}

pub(crate) struct HttpLink {
    client: HttpClient,
    url: Uri,
    /// Sent with every request; the protocol's own headers win.
    extra_headers: HeaderMap,
    /// Gets and sends access tokens, when the client authorizes.
    oauth: Option<OAuthSession>,
    /// The legacy era's session, minted by `initialize`.
    session: Mutex<Option<HeaderValue>>,
    /// Answers requests a legacy server sends on a response stream.
    answers: Option<Arc<dyn InputHandler>>,
    /// Requests in flight, for answers that arrive on the session's GET
    /// stream instead of the request's own stream.
    waiting: Mutex<HashMap<RequestId, oneshot::Sender<Result<Value, ErrorObject>>>>,
    /// Where notifications other than progress go.
    pub(crate) notices: Notices,
}

/// How often a response stream that ends early is resumed.
const MAX_RESUMPTIONS: usize = 5;

/// The wait before resuming when the server set no `retry`.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);

/// The longest wait before resuming, whatever `retry` the server set: room
/// for an honest back-off (a restart, a rolling deploy), while the
/// [`MAX_RESUMPTIONS`] waits of one request stay within minutes; a peer
/// could otherwise hold a request until its timeout (a day in `mcp-host`).
const MAX_RETRY: Duration = Duration::from_secs(30);

/// How long to wait before resuming a stream whose server asked for
/// `retry` milliseconds.
fn resume_delay(retry: Option<u64>) -> Duration {
    retry.map_or(DEFAULT_RETRY, |millis| {
        crate::lifetime::bounded(Duration::from_millis(millis)).min(MAX_RETRY)
    })
}

type Progress = Option<(
    ProgressToken,
    mpsc::UnboundedSender<ProgressNotificationParams>,
)>;

impl HttpLink {
    pub(crate) fn new(
        url: &str,
        answers: Option<Arc<dyn InputHandler>>,
        extra_headers: HeaderMap,
        oauth: Option<Arc<OAuthConfig>>,
        notices: Notices,
    ) -> Result<Self, ClientError> {
        let url = outbound::parse_url(url).map_err(ClientError::InvalidArguments)?;
        let client = outbound::client_for(&url).map_err(ClientError::Connect)?;
        let oauth = oauth.map(|config| OAuthSession::new(config, &url.to_string()));
        Ok(HttpLink {
            client,
            url,
            extra_headers,
            oauth,
            session: Mutex::new(None),
            answers,
            waiting: Mutex::default(),
            notices,
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
        progress: Progress,
    ) -> Result<Result<Value, ErrorObject>, ClientError> {
        let mut guard = CancelOnDrop {
            link: self,
            id,
            protocol_version: headers.protocol_version,
            answered: false,
        };
        let (tx, elsewhere) = oneshot::channel();
        lock(&self.waiting).insert(id.clone(), tx);
        let exchange = async {
            let had_session = self.session_id().is_some();
            let response = self.post(frame, &headers).await?;
            if had_session && response.status() == StatusCode::NOT_FOUND {
                return Err(ClientError::SessionExpired);
            }
            if let Some(session) = response.headers().get(&MCP_SESSION_ID) {
                *lock(&self.session) = Some(session.clone());
            }
            self.read_response(response, id, &headers, progress).await
        };
        let outcome = tokio::select! {
            outcome = exchange => outcome,
            Ok(outcome) = elsewhere => Ok(outcome),
        };
        lock(&self.waiting).remove(id);
        guard.answered = true;
        outcome
    }

    /// The server's URL.
    pub(crate) fn url(&self) -> &Uri {
        &self.url
    }

    /// Delivers a response that arrived on the session's GET stream.
    pub(crate) fn deliver(&self, response: crate::jsonrpc::Response) {
        if let Some(waiter) = lock(&self.waiting).remove(&response.id) {
            let _ = waiter.send(response.outcome);
        }
    }

    /// Whether the user is authorizing this client in a browser right now.
    pub(crate) fn user_is_authorizing(&self) -> bool {
        self.oauth
            .as_ref()
            .is_some_and(OAuthSession::user_is_authorizing)
    }

    /// Forgets the legacy session, so that `initialize` starts a new one.
    pub(crate) fn forget_session(&self) {
        *lock(&self.session) = None;
    }

    /// The legacy session id, once `initialize` minted one.
    fn session_id(&self) -> Option<HeaderValue> {
        lock(&self.session).clone()
    }

    /// Reads the answer to request `id` from a JSON body or an event stream.
    async fn read_response(
        &self,
        response: hyper::Response<hyper::body::Incoming>,
        id: &RequestId,
        headers: &MessageHeaders<'_>,
        progress: Progress,
    ) -> Result<Result<Value, ErrorObject>, ClientError> {
        let status = response.status();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let mut body = response.into_body();
        if content_type.starts_with("text/event-stream") {
            // A stream that ends before the response is resumed with GET and
            // Last-Event-ID after the server's `retry` delay (SEP-1699).
            let mut decoder = SseDecoder::default();
            let mut last_event_id = None;
            for resumption in 0..=MAX_RESUMPTIONS {
                let read = self.read_stream(
                    body,
                    &mut decoder,
                    &mut last_event_id,
                    id,
                    &progress,
                    headers,
                );
                if let Some(outcome) = read.await? {
                    return Ok(outcome);
                }
                let Some(last) = last_event_id.clone() else {
                    return Err(ClientError::Closed);
                };
                if resumption == MAX_RESUMPTIONS {
                    // No wait and no request whose answer would go unread.
                    break;
                }
                tokio::time::sleep(resume_delay(decoder.retry)).await;
                body = self.resume(&last, headers).await?;
                decoder.restart();
            }
            return Err(ClientError::Closed);
        }
        let bytes = read_limited(body).await?;
        if content_type.starts_with("application/json")
            && let Some(outcome) = route(&bytes, id, progress.as_ref(), &self.notices)
        {
            return Ok(outcome);
        }
        Err(ClientError::InvalidResponse(format!(
            "HTTP {status} ({content_type}): {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(512)])
        )))
    }

    /// Reads an event stream until the response to `id` arrives (`Some`) or
    /// the stream ends (`None`), answering server requests on the way.
    async fn read_stream(
        &self,
        mut body: hyper::body::Incoming,
        decoder: &mut SseDecoder,
        last_event_id: &mut Option<String>,
        id: &RequestId,
        progress: &Progress,
        headers: &MessageHeaders<'_>,
    ) -> Result<Option<Result<Value, ErrorObject>>, ClientError> {
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| ClientError::Io(std::io::Error::other(e)))?;
            let Some(chunk) = frame.data_ref() else {
                continue;
            };
            let events = decoder
                .feed(chunk, MAX_MESSAGE_BYTES)
                .map_err(ClientError::InvalidResponse)?;
            for event in events {
                if event.id.is_some() {
                    *last_event_id = event.id;
                }
                if let Ok(Incoming::Request(request)) = decode(&event.data) {
                    self.answer(request, headers.protocol_version.unwrap_or_default())
                        .await?;
                } else if let Some(outcome) =
                    route(&event.data, id, progress.as_ref(), &self.notices)
                {
                    return Ok(Some(outcome));
                }
            }
        }
        Ok(None)
    }

    /// Opens the session's standalone GET stream, on which a legacy server
    /// sends requests not tied to one of ours; `None` when it offers none.
    pub(crate) async fn open_listener(
        &self,
        protocol_version: &str,
    ) -> Result<Option<hyper::body::Incoming>, ClientError> {
        let Some(session) = self.session_id() else {
            return Ok(None);
        };
        let request = hyper::Request::builder()
            .method(Method::GET)
            .uri(self.url.clone())
            .header(ACCEPT, "text/event-stream")
            .header(MCP_PROTOCOL_VERSION, header_value(protocol_version))
            .header(MCP_SESSION_ID, session)
            .body(Full::new(Bytes::new()))
            .map_err(|e| ClientError::InvalidArguments(e.to_string()))?;
        let response = self.send(request).await?;
        Ok((response.status() == StatusCode::OK).then(|| response.into_body()))
    }

    /// Answers a server request and POSTs the answer back.
    pub(crate) async fn answer(
        &self,
        request: crate::jsonrpc::Request,
        protocol_version: &str,
    ) -> Result<(), ClientError> {
        let answer = server_requests::answer(request, self.answers.as_deref()).await;
        let headers = MessageHeaders {
            method: "",
            name: None,
            protocol_version: Some(protocol_version),
            params: Vec::new(),
        };
        self.notify(answer, headers).await
    }

    /// Reopens a response stream from `last_event_id` with GET.
    async fn resume(
        &self,
        last_event_id: &str,
        headers: &MessageHeaders<'_>,
    ) -> Result<hyper::body::Incoming, ClientError> {
        let mut request = hyper::Request::builder()
            .method(Method::GET)
            .uri(self.url.clone())
            .header(ACCEPT, "text/event-stream")
            .header(LAST_EVENT_ID, header_value(last_event_id));
        if let Some(version) = headers.protocol_version {
            request = request.header(MCP_PROTOCOL_VERSION, header_value(version));
        }
        if let Some(session) = self.session_id() {
            request = request.header(MCP_SESSION_ID, session);
        }
        let request = request
            .body(Full::new(Bytes::new()))
            .map_err(|e| ClientError::InvalidArguments(e.to_string()))?;
        let response = self.send(request).await?;
        if response.status() != StatusCode::OK {
            return Err(ClientError::InvalidResponse(format!(
                "resuming the event stream answered HTTP {}",
                response.status()
            )));
        }
        Ok(response.into_body())
    }

    /// POSTs a notification; the server answers 202 Accepted.
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
        let request = self.post_request(frame, headers)?;
        self.send(request).await
    }

    /// Sends `request` with the extra headers and the access token; a
    /// failure to connect and a 401 or 403 become the errors that say so.
    /// When the client authorizes, a 401 or a 403 `insufficient_scope`
    /// gets a new token and the request is sent again, a bounded number of
    /// times.
    async fn send(
        &self,
        mut request: hyper::Request<Full<Bytes>>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, ClientError> {
        add_extra_headers(request.headers_mut(), &self.extra_headers);
        let mut attempts = 0;
        let mut nonce_retried = false;
        loop {
            let mut attempt = copy(&request);
            let credentials = match &self.oauth {
                Some(oauth) => {
                    oauth
                        .credentials(request.method().as_str(), &self.url)
                        .await?
                }
                None => None,
            };
            let authorization = credentials.as_ref().map(|c| c.authorization.clone());
            if let Some(credentials) = credentials {
                attempt
                    .headers_mut()
                    .insert(AUTHORIZATION, credentials.authorization);
                if let Some(proof) = credentials.proof {
                    attempt.headers_mut().insert(DPOP, proof);
                }
            }
            let response = self
                .client
                .request(attempt)
                .await
                .map_err(|e| ClientError::Connect(ConnectError::classify(&self.url, &e)))?;
            let status = response.status();
            // A server may send a new nonce with any answer (RFC 9449
            // section 9), kept for the next proofs.
            let nonce = match (&self.oauth, response.headers().get(DPOP_NONCE)) {
                (Some(oauth), Some(nonce)) => nonce
                    .to_str()
                    .ok()
                    .inspect(|nonce| oauth.takes_resource_nonce(nonce)),
                _ => None,
            };
            if status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN {
                return Ok(response);
            }
            let values = || {
                response
                    .headers()
                    .get_all(WWW_AUTHENTICATE)
                    .iter()
                    .filter_map(|v| v.to_str().ok())
            };
            // A refusal for the lack of the server's nonce is answered
            // once with it; it says nothing against the token, so it never
            // leads to a new one.
            let wants_nonce =
                status == StatusCode::UNAUTHORIZED && challenge::asks_for_dpop_nonce(values());
            if wants_nonce && nonce.is_some() && !nonce_retried {
                nonce_retried = true;
                continue;
            }
            // A server that takes only DPoP-bound tokens sends a DPoP
            // challenge alone; its parameters serve the same way.
            let challenge = challenge::find_bearer(values())
                .or_else(|| challenge::find(values(), dpop::SCHEME));
            let refused = AuthError {
                status: status.as_u16(),
                challenge,
            };
            match &self.oauth {
                Some(oauth)
                    if !wants_nonce
                        && attempts < oauth.max_attempts()
                        && OAuthSession::can_recover(
                            refused.status,
                            refused.challenge.as_ref(),
                        ) =>
                {
                    attempts += 1;
                    oauth
                        .recover(
                            refused.status,
                            refused.challenge.as_ref(),
                            authorization.as_ref(),
                        )
                        .await?;
                }
                _ => return Err(ClientError::Auth(refused)),
            }
        }
    }

    /// A POST of `frame` with the headers the spec asks for.
    fn post_request(
        &self,
        frame: Vec<u8>,
        headers: &MessageHeaders<'_>,
    ) -> Result<hyper::Request<Full<Bytes>>, ClientError> {
        let mut request = hyper::Request::builder()
            .method(Method::POST)
            .uri(self.url.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream");
        // A response to a server request has no method of its own.
        if !headers.method.is_empty() {
            request = request.header(MCP_METHOD, header_value(headers.method));
        }
        if let Some(name) = headers.name {
            request = request.header(MCP_NAME, header_value(name));
        }
        if let Some(version) = headers.protocol_version {
            request = request.header(MCP_PROTOCOL_VERSION, header_value(version));
        }
        for (name, value) in &headers.params {
            request = request.header(name, value.clone());
        }
        if let Some(session) = self.session_id() {
            request = request.header(MCP_SESSION_ID, session);
        }
        request
            .body(Full::new(Bytes::from(frame)))
            .map_err(|e| ClientError::InvalidArguments(e.to_string()))
    }
}

/// In a legacy session, a request given up before its answer is cancelled
/// with `notifications/cancelled` (closing the stream does not cancel in
/// that era; in 2026-07-28 it does, and nothing is sent).
struct CancelOnDrop<'a> {
    link: &'a HttpLink,
    id: &'a RequestId,
    protocol_version: Option<&'a str>,
    answered: bool,
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        if self.answered || self.link.session_id().is_none() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let params = serde_json::json!({ "requestId": self.id, "reason": "the caller gave up" });
        let frame = crate::jsonrpc::notification_frame(NOTIFICATION_CANCELLED, Some(&params));
        let headers = MessageHeaders {
            method: NOTIFICATION_CANCELLED,
            name: None,
            protocol_version: self.protocol_version,
            params: Vec::new(),
        };
        if let Ok(mut request) = self.link.post_request(frame, &headers) {
            add_extra_headers(request.headers_mut(), &self.link.extra_headers);
            let client = self.link.client.clone();
            runtime.spawn(async move {
                let _ = client.request(request).await;
            });
        }
    }
}

/// Handles one message from the server: progress goes to its listener,
/// other notifications to `notices`, the response to request `id` is
/// returned.
fn route(
    message: &[u8],
    id: &RequestId,
    progress: Option<&(
        ProgressToken,
        mpsc::UnboundedSender<ProgressNotificationParams>,
    )>,
    notices: &Notices,
) -> Option<Result<Value, ErrorObject>> {
    match decode(message) {
        Ok(Incoming::Response(response)) if response.id == *id => Some(response.outcome),
        Ok(Incoming::Notification(notification))
            if notification.method == NOTIFICATION_PROGRESS =>
        {
            let params = notification.params.unwrap_or(Value::Null);
            if let (Ok(update), Some((token, listener))) = (
                serde_json::from_value::<ProgressNotificationParams>(params),
                progress,
            ) && update.progress_token == *token
            {
                let _ = listener.send(update);
            }
            None
        }
        Ok(Incoming::Notification(notification)) => {
            notices.publish(notification);
            None
        }
        // An error without id answers this request (e.g. a rejected header).
        Err(rejected) if rejected.id.is_none() => None,
        _ => {
            tracing::debug!("message on the response stream ignored");
            None
        }
    }
}

/// A copy of a request to send again (its body is shared bytes).
fn copy(request: &hyper::Request<Full<Bytes>>) -> hyper::Request<Full<Bytes>> {
    let mut copy = hyper::Request::new(request.body().clone());
    *copy.method_mut() = request.method().clone();
    *copy.uri_mut() = request.uri().clone();
    *copy.headers_mut() = request.headers().clone();
    copy
}

/// Adds the user's headers the request does not set itself.
fn add_extra_headers(headers: &mut HeaderMap, extra: &HeaderMap) {
    for name in extra.keys() {
        if !headers.contains_key(name) {
            for value in extra.get_all(name) {
                headers.append(name, value.clone());
            }
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
    HeaderValue::from_str(&encode_header_value(text))
        .expect("plain or base64 text is a valid header value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_cannot_delay_a_resumption_past_the_cap() {
        assert_eq!(resume_delay(None), DEFAULT_RETRY);
        assert_eq!(resume_delay(Some(0)), Duration::ZERO);
        assert_eq!(resume_delay(Some(2_500)), Duration::from_millis(2_500));
        assert_eq!(resume_delay(Some(86_400_000)), MAX_RETRY);
        assert_eq!(resume_delay(Some(u64::MAX)), MAX_RETRY);
    }

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
