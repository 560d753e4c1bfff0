//! The MCP endpoint as a service: checks a request, picks its era, and
//! hands it to [`exchange`](super::exchange) or to the legacy session it
//! belongs to.

use std::convert::Infallible;
use std::error::Error as StdError;
use std::sync::Arc;
use std::task::{Context, Poll};

use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::{Body, Bytes};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Request, Response, StatusCode};
use tokio_util::sync::CancellationToken;

use super::auth::Protection;
use super::body::McpBody;
use super::exchange::{self, Mode};
use super::guard::Guard;
use super::media::{self, Accepts};
use super::response::Refusal;
use super::sessions::{InsertError, Sessions, StreamRefusal};
use super::standalone::{self, Ends};
use super::{HttpConfig, response, stateless};
use crate::jsonrpc::{self, ErrorObject, Incoming, Notification};
use crate::protocol::headers::{MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use crate::protocol::{Era, LEGACY_PROTOCOL_VERSIONS, META_PROTOCOL_VERSION, Method};
use crate::server::auth::Principal;
use crate::server::{BoxFuture, Classified, Decoded, Inbound, Server, Session};

/// The Streamable HTTP endpoint of a [`Server`], for both protocol eras, as
/// a [`tower_service::Service`]: mount it in axum with
/// `Router::new().route_service("/mcp", service)`, or let
/// [`Server::serve_http_with`] serve it. Cheap to clone; clones share the
/// legacy sessions.
///
/// Every request is checked against the [`HttpConfig`] (`Host`, `Origin`,
/// body size and read time, media types) before it reaches the server.
/// Connection-level limits (header timeout, connection count, graceful
/// shutdown) belong to whatever serves the connections.
/// Legacy sessions' GET streams stay open until the session ends: call
/// [`end_streams`](Self::end_streams) when a graceful shutdown begins.
#[derive(Clone)]
pub struct McpService {
    shared: Arc<Shared>,
}

struct Shared {
    server: Server,
    config: HttpConfig,
    /// `config`'s Host and Origin allow-lists, parsed.
    guard: Guard,
    sessions: Arc<Sessions>,
    /// Present when the endpoint is a protected resource.
    protection: Option<Protection>,
    /// Parent of the cancellation token of every 2026-07-28 request.
    stop: CancellationToken,
    /// Ends every standalone stream.
    streams_end: CancellationToken,
}

impl McpService {
    /// Serves `server` under `config`.
    pub fn new(server: Server, config: HttpConfig) -> Self {
        let sessions = Arc::new(Sessions::new(
            config.session_idle_timeout,
            config.max_sessions,
        ));
        let protection = config
            .auth
            .clone()
            .map(|auth| Protection::new(auth, &server));
        McpService {
            shared: Arc::new(Shared {
                server,
                protection,
                guard: Guard::new(&config),
                config,
                sessions,
                stop: CancellationToken::new(),
                streams_end: CancellationToken::new(),
            }),
        }
    }

    /// Cancels every request in flight, in both eras, and ends the legacy
    /// sessions' standalone streams.
    pub fn cancel_all(&self) {
        self.end_streams();
        self.shared.stop.cancel();
        self.shared.sessions.cancel_all();
    }

    /// Ends the legacy sessions' standalone GET streams, which never end on
    /// their own: call it when shutdown begins, so that a graceful shutdown
    /// does not wait for them.
    pub fn end_streams(&self) {
        self.shared.streams_end.cancel();
    }

    /// Answers one HTTP request.
    pub async fn handle<B>(&self, request: Request<B>) -> Response<McpBody>
    where
        B: Body<Data = Bytes>,
        B::Error: Into<Box<dyn StdError + Send + Sync>>,
    {
        let shared = &*self.shared;
        if let Err(refusal) = shared.guard.check(request.uri(), request.headers()) {
            tracing::warn!(reason = %refusal.reason, "request refused");
            return refusal.into_response();
        }
        let mut principal = None;
        // A header the protection adds to the answer (a new DPoP nonce).
        let mut extra_header = None;
        if let Some(protection) = &shared.protection {
            if protection.serves_metadata(request.uri().path()) {
                return match *request.method() {
                    hyper::Method::GET => protection.metadata_response(),
                    _ => method_not_allowed("GET"),
                };
            }
            match protection
                .authenticate(request.method(), request.headers())
                .await
            {
                Ok(verified) => {
                    principal = Some(verified.principal);
                    extra_header = verified.header;
                }
                Err(refusal) => return refusal,
            }
        }
        let mut response = match *request.method() {
            hyper::Method::POST => shared.post(request, principal).await,
            hyper::Method::GET => {
                shared.get(request.headers(), owner(principal.as_deref()).as_deref())
            }
            hyper::Method::DELETE => {
                shared.delete(request.headers(), owner(principal.as_deref()).as_deref())
            }
            _ => method_not_allowed(shared.allowed()),
        };
        if let Some((name, value)) = extra_header {
            response.headers_mut().insert(name, value);
        }
        response
    }
}

impl Shared {
    async fn post<B>(
        &self,
        request: Request<B>,
        principal: Option<Arc<Principal>>,
    ) -> Response<McpBody>
    where
        B: Body<Data = Bytes>,
        B::Error: Into<Box<dyn StdError + Send + Sync>>,
    {
        let (parts, body) = request.into_parts();
        let headers = &parts.headers;
        if !media::is_json(headers) {
            return response::refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be Content-Type: application/json",
            );
        }
        let accepts = Accepts::from_headers(headers);
        if !accepts.json && !accepts.sse {
            return response::refuse(
                StatusCode::NOT_ACCEPTABLE,
                "Accept must allow application/json or text/event-stream",
            );
        }
        let bytes = match self.read_body(headers, body).await {
            Ok(bytes) => bytes,
            Err(refusal) => return refusal.into_response(),
        };
        match jsonrpc::decode(&bytes) {
            Ok(Incoming::Request(request)) => {
                // The headers move into the request's context: no copy.
                let inbound = Inbound::http(parts.headers, parts.extensions, principal);
                self.request(request, accepts, inbound).await
            }
            Ok(Incoming::Notification(notification)) => self.notification(
                headers,
                owner(principal.as_deref()).as_deref(),
                notification,
            ),
            // The client's answer to a request we sent it (legacy era).
            Ok(Incoming::Response(answer)) => {
                match self.session(headers, owner(principal.as_deref()).as_deref()) {
                    Ok(session) => {
                        if let Some(session) = session {
                            session.deliver(answer);
                        }
                        response::empty(StatusCode::ACCEPTED)
                    }
                    Err(refusal) => refusal.into_response(),
                }
            }
            Err(rejected) => response::error(
                StatusCode::BAD_REQUEST,
                rejected.id.as_ref(),
                &rejected.error,
            ),
        }
    }

    /// The whole body, within the size and time limits.
    async fn read_body<B>(&self, headers: &HeaderMap, body: B) -> Result<Bytes, Refusal>
    where
        B: Body<Data = Bytes>,
        B::Error: Into<Box<dyn StdError + Send + Sync>>,
    {
        let limit = self.config.max_body_bytes;
        let too_large = || {
            Refusal::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body exceeds {limit} bytes"),
            )
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|len| len > limit as u64) {
            return Err(too_large());
        }
        let read = Limited::new(body, limit).collect();
        match tokio::time::timeout(self.config.body_read_timeout, read).await {
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
            Ok(Err(e)) if e.is::<LengthLimitError>() => Err(too_large()),
            Ok(Err(e)) => Err(Refusal::new(
                StatusCode::BAD_REQUEST,
                format!("reading the body failed: {e}"),
            )),
            Err(_) => Err(Refusal::new(
                StatusCode::REQUEST_TIMEOUT,
                "the body took too long to arrive",
            )),
        }
    }

    /// Classifies a request (its era and, for 2026-07-28, its `_meta` and
    /// headers: 400 when they break the rules), then serves it statelessly
    /// (2026-07-28) or in the legacy session it names.
    async fn request(
        &self,
        request: jsonrpc::Request,
        accepts: Accepts,
        inbound: Inbound,
    ) -> Response<McpBody> {
        let server = self.server.clone();
        let request = Decoded::new(request);
        let era = request.era_asked(&inbound).unwrap_or(Era::Legacy);
        let request = match server.classify(request, era, &inbound) {
            Ok(request) => request,
            Err(rejection) => return response::rejected(&rejection),
        };
        if let Some(refusal) = self.refuse_tool_scopes(inbound.principal.as_deref(), &request) {
            return refusal;
        }
        if era == Era::Modern {
            let session = Arc::new(Session::for_one_request());
            let cancellation = self.stop.child_token();
            return exchange::run(
                server,
                session,
                request,
                accepts,
                cancellation,
                Mode::Modern,
                inbound,
            )
            .await;
        }
        if request.method == Ok(Method::Initialize) {
            // Boxed: once per session, it would otherwise set the size of
            // every request's future (which hyper moves into place).
            return Box::pin(self.initialize(request, accepts, inbound)).await;
        }
        let headers = inbound.headers().expect("Inbound::http keeps the headers");
        let owner = owner(inbound.principal.as_deref());
        let session = match self.session(headers, owner.as_deref()) {
            Ok(Some(session)) => session,
            Ok(None) if self.config.stateless_legacy => stateless::session(headers),
            Ok(None) => {
                let error = ErrorObject::invalid_request(format!(
                    "no Mcp-Session-Id header: start a session with `initialize` \
                     (2025-11-25 and earlier) or send `_meta.{META_PROTOCOL_VERSION}` (2026-07-28)"
                ));
                return response::error(StatusCode::BAD_REQUEST, Some(&request.id), &error);
            }
            Err(refusal) => return refusal.into_response(),
        };
        let Some(cancellation) = session.begin(&request.id) else {
            let error = ErrorObject::invalid_request(format!(
                "request id {} is already in flight",
                request.id
            ));
            return response::error(StatusCode::BAD_REQUEST, Some(&request.id), &error);
        };
        exchange::run(
            server,
            session,
            request,
            accepts,
            cancellation,
            Mode::Legacy,
            inbound,
        )
        .await
    }

    /// On a protected endpoint, a `tools/call` needs the tool's scopes:
    /// the 403 when the token lacks them (an unknown tool is dispatch's to
    /// report).
    fn refuse_tool_scopes(
        &self,
        principal: Option<&Principal>,
        request: &Classified,
    ) -> Option<Response<McpBody>> {
        let (Some(protection), Some(principal)) = (&self.protection, principal) else {
            return None;
        };
        let tool = match (&request.method, &request.params) {
            (Ok(Method::CallTool), Some(params)) => Method::CallTool.target_in(params),
            _ => None,
        };
        match tool.and_then(|name| self.server.tool(name, Some(principal))) {
            Some(tool) if !tool.def.scopes.is_empty() => {
                protection.refuse_scopes(principal, &tool.def.scopes)
            }
            _ => None,
        }
    }

    /// `initialize` starts a session; its id goes back in `Mcp-Session-Id`
    /// only when the handshake succeeded (and never in stateless mode).
    async fn initialize(
        &self,
        request: Classified,
        accepts: Accepts,
        inbound: Inbound,
    ) -> Response<McpBody> {
        let owner = owner(inbound.principal.as_deref());
        let session = Arc::new(Session::new());
        let id = request.id.clone();
        let cancellation = session.begin(&id).unwrap_or_default();
        let server = self.server.clone();
        let mut response = exchange::run(
            server,
            session.clone(),
            request,
            accepts,
            cancellation,
            Mode::Legacy,
            inbound,
        )
        .await;
        if session.legacy_client().is_none() || self.config.stateless_legacy {
            return response;
        }
        match self.sessions.insert(session, owner) {
            Ok(session_id) => {
                let value = HeaderValue::try_from(session_id).expect("hex digits");
                response.headers_mut().insert(MCP_SESSION_ID, value);
                response
            }
            Err(InsertError::Full) => {
                let error = ErrorObject::internal("too many sessions; try again later");
                response::error(StatusCode::SERVICE_UNAVAILABLE, Some(&id), &error)
            }
            Err(InsertError::Random(e)) => {
                tracing::error!(error = %e, "no randomness for a session id");
                let error = ErrorObject::internal("cannot create a session");
                response::error(StatusCode::INTERNAL_SERVER_ERROR, Some(&id), &error)
            }
        }
    }

    /// Notifications are accepted with 202. In a legacy session they reach
    /// it (`notifications/cancelled`); without one (2026-07-28 defines no
    /// client notification over HTTP) they are dropped.
    fn notification(
        &self,
        headers: &HeaderMap,
        owner: Option<&str>,
        notification: Notification,
    ) -> Response<McpBody> {
        match self.session(headers, owner) {
            Ok(Some(session)) => self.server.handle_notification(&session, notification),
            Ok(None) => {
                tracing::debug!(method = %notification.method, "sessionless notification ignored");
            }
            Err(refusal) => return refusal.into_response(),
        }
        response::empty(StatusCode::ACCEPTED)
    }

    /// Opens the standalone stream of the legacy session the request
    /// names (after the session check, so that a client learns that its
    /// session expired): 400 without a session, 406 when the client does
    /// not accept `text/event-stream`, 409 when the session has one open
    /// already. 405 when no stream is offered (stateless, or a server that
    /// announces nothing).
    fn get(&self, headers: &HeaderMap, owner: Option<&str>) -> Response<McpBody> {
        let session = match self.session(headers, owner) {
            Ok(session) => session,
            Err(refusal) => return refusal.into_response(),
        };
        if !self.offers_streams() {
            return method_not_allowed(self.allowed());
        }
        let (Some(session), Ok(Some(id))) = (session, session_id(headers)) else {
            return response::refuse(
                StatusCode::BAD_REQUEST,
                "no Mcp-Session-Id header: GET opens the event stream of a legacy session",
            );
        };
        if !Accepts::from_headers(headers).sse {
            return response::refuse(
                StatusCode::NOT_ACCEPTABLE,
                "Accept must allow text/event-stream",
            );
        }
        let claim = match self.sessions.claim_stream(id) {
            Ok(claim) => claim,
            Err(StreamRefusal::Busy) => {
                return response::refuse(
                    StatusCode::CONFLICT,
                    "this session's event stream is open already",
                );
            }
            Err(StreamRefusal::Unknown) => return unknown_session().into_response(),
        };
        let Some(feed) = self.server.legacy_feed(session) else {
            return method_not_allowed(self.allowed());
        };
        let ends = Ends {
            sessions: self.sessions.clone(),
            id: id.to_owned(),
            shutdown: self.streams_end.clone(),
        };
        standalone::open(feed, claim, ends)
    }

    /// Whether GET opens a session's standalone stream: there are sessions,
    /// and the server announces changes to send on it.
    fn offers_streams(&self) -> bool {
        !self.config.stateless_legacy && self.server.announces()
    }

    /// The methods the endpoint takes, for `Allow`.
    fn allowed(&self) -> &'static str {
        match self.offers_streams() {
            true => "GET, POST, DELETE",
            false => "POST, DELETE",
        }
    }

    /// DELETE ends a legacy session.
    fn delete(&self, headers: &HeaderMap, owner: Option<&str>) -> Response<McpBody> {
        match session_id(headers) {
            Ok(Some(id)) if self.sessions.remove(id, owner) => {
                response::empty(StatusCode::NO_CONTENT)
            }
            Ok(Some(_)) => unknown_session().into_response(),
            Ok(None) => response::refuse(StatusCode::BAD_REQUEST, "no Mcp-Session-Id header"),
            Err(refusal) => refusal.into_response(),
        }
    }

    /// The legacy session a request names, `None` when it names none; 404
    /// for an unknown or expired one, 400 for a protocol version header
    /// that names no legacy version.
    fn session(
        &self,
        headers: &HeaderMap,
        owner: Option<&str>,
    ) -> Result<Option<Arc<Session>>, Refusal> {
        let Some(id) = session_id(headers)? else {
            return Ok(None);
        };
        let session = self.sessions.get(id, owner).ok_or_else(unknown_session)?;
        if let Some(version) = headers.get(MCP_PROTOCOL_VERSION) {
            let known = version
                .to_str()
                .is_ok_and(|v| LEGACY_PROTOCOL_VERSIONS.contains(&v));
            if !known {
                return Err(Refusal::new(
                    StatusCode::BAD_REQUEST,
                    "unsupported MCP-Protocol-Version for a session",
                ));
            }
        }
        Ok(Some(session))
    }
}

/// Whom a legacy session belongs to on a protected endpoint: the token's
/// issuer and subject (or client, without a subject).
fn owner(principal: Option<&Principal>) -> Option<String> {
    let principal = principal?;
    let who = principal
        .subject
        .as_ref()
        .or(principal.client_id.as_ref())?;
    Some(format!(
        "{} {who}",
        principal.issuer.as_deref().unwrap_or_default()
    ))
}

fn session_id(headers: &HeaderMap) -> Result<Option<&str>, Refusal> {
    headers
        .get(MCP_SESSION_ID)
        .map(|v| {
            v.to_str()
                .map_err(|_| Refusal::new(StatusCode::BAD_REQUEST, "malformed Mcp-Session-Id"))
        })
        .transpose()
}

fn unknown_session() -> Refusal {
    Refusal::new(StatusCode::NOT_FOUND, "unknown or expired session")
}

/// 405, naming the methods `allow`ed.
fn method_not_allowed(allow: &'static str) -> Response<McpBody> {
    let mut response = response::refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("this endpoint takes {allow}"),
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    response
}

impl<B> tower_service::Service<Request<B>> for McpService
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    type Response = Response<McpBody>;
    type Error = Infallible;
    type Future = BoxFuture<Result<Response<McpBody>, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}
