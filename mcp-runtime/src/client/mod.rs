//! The MCP client: connects to a server over stdio (a child process),
//! Streamable HTTP or an in-memory pipe (to a [`Server`](crate::server::Server)
//! in the same process, the way to unit-test one:
//! [`Client::connect_in_memory`]), agrees on a protocol era, and makes typed
//! calls.
//!
//! ```no_run
//! # async fn run() -> Result<(), mcp_toolkit_runtime::client::ClientError> {
//! use mcp_toolkit_runtime::client::Client;
//!
//! let client = Client::connect_stdio("echo-server", &[]).await?;
//! for tool in client.list_tools().await? {
//!     println!("{}", tool.name);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Caching
//!
//! A 2026-07-28 server says how long a list (`tools/list`, `prompts/list`,
//! `resources/list`, `resources/templates/list`) or a `resources/read`
//! result stays fresh (`ttlMs`) and who may reuse it (`cacheScope`). Within
//! that time, [`Client::list_tools`], [`Client::tool_list`],
//! [`Client::list_prompts`], [`Client::list_resources`],
//! [`Client::list_resource_templates`] and [`Client::read_resource`] answer
//! from memory without a request. A list change or a resource update the
//! server announces ([`Client::notifications`]; in 2026-07-28 only after
//! [`Client::listen`]) drops what it makes stale. Results without a
//! `ttlMs`, and every result of a legacy server, are never kept; one-page
//! calls (`*_page`), [`Client::discover`] and [`Client::request`] always
//! ask.
//!
//! Each client has a cache of its own by default;
//! [`ConnectOptions::cache`] turns it off ([`Caching::Off`]) or shares one
//! [`ClientCache`] between clients ([`Caching::Shared`]): then a `public`
//! result of an HTTP server is fetched once for every client of that URL,
//! while a `private` one is served only to the client that fetched it, so
//! never across access tokens.

pub mod auth;
mod cache;
mod calls;
mod connection;
mod deadline;
mod elicitation;
mod error;
mod fingerprint;
mod handlers;
mod http;
mod in_memory;
mod link;
mod listen_event;
mod mount;
mod mount_live;
mod negotiate;
mod notices;
mod paging;
mod process;
mod request_method;
mod server_requests;
mod session_renewal;
mod skills;
pub(crate) mod sse;
mod subscription;
mod tasks;
mod version_retry;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tracing::Instrument;

pub use cache::{Caching, ClientCache};
pub use elicitation::ElicitationCompletions;
pub use error::{
    AuthError, ClientError, ConnectError, ConnectErrorKind, DriftError, ToolCallError,
};
pub use fingerprint::tool_fingerprint;
pub use handlers::InputHandlers;
pub use listen_event::ListenEvent;
pub use mount_live::{LiveMount, MountError};
pub use skills::{LoadedSkill, SkillError, SkillFile};
pub use subscription::Subscription;
pub use tasks::{
    DEFAULT_POLL_INTERVAL, MAX_POLL_INTERVAL, MIN_POLL_INTERVAL, TaskHandle, TaskState,
};

use crate::jsonrpc::{Notification, RequestId, notification_frame, request_frame};
use crate::lifetime::bounded;
use crate::protocol::headers::{ParamHeader, read_param_headers};
use crate::protocol::param_headers;
use crate::protocol::{
    CacheScope, CallToolResult, ClientCapabilities, ContentBlock, Era, Implementation,
    InputRequests, InputResponses, ListToolsResult, LoggingLevel, META_LOG_LEVEL, Method,
    ProgressNotificationParams, ProgressToken, ServerCapabilities, Tool,
};
use crate::server::BoxFuture;
use crate::sync::lock;
use crate::trace::{META_TRACEPARENT, META_TRACESTATE, TraceContext};
use connection::LineConnection;
use link::Link;
use notices::Notices;
use request_method::RequestMethod;

/// A tool call in flight, as [`Client::call_tool_as`],
/// [`Client::call_tool_content`] and the methods of generated clients
/// return it: a future of the tool's typed result. One boxed type for every
/// tool, so a client with thousands of methods has no future type per
/// method to compile.
pub type ToolCall<'a, T> = Pin<Box<dyn Future<Output = Result<T, ToolCallError>> + Send + 'a>>;

/// Which protocol era to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EraChoice {
    /// Try `server/discover` (2026-07-28) first, fall back to `initialize`.
    #[default]
    Auto,
    /// 2026-07-28 only.
    Modern,
    /// The `initialize` handshake only (2025-11-25 and earlier).
    Legacy,
}

/// Answers a server's requests for input (elicitation, sampling, roots).
pub trait InputHandler: Send + Sync {
    /// Produces one response per request, under the same keys.
    fn respond(&self, requests: InputRequests) -> BoxFuture<Result<InputResponses, ClientError>>;
}

/// How to connect.
#[derive(Clone)]
pub struct ConnectOptions {
    /// The era to speak (default: auto-detect).
    pub era: EraChoice,
    /// How the client introduces itself.
    pub client_info: Implementation,
    /// What the client can do.
    pub capabilities: ClientCapabilities,
    /// The longest wait for any answer (default 60 s).
    pub request_timeout: Duration,
    /// The longest wait for `server/discover` before falling back to the
    /// legacy handshake (default 10 s).
    pub discover_timeout: Duration,
    /// Answers `input_required` rounds; without it such calls fail with
    /// [`ClientError::InputRequired`].
    pub input_handler: Option<Arc<dyn InputHandler>>,
    /// The longest the whole connection (era negotiation included) may
    /// take (default none: `discover_timeout` then `request_timeout`).
    pub connect_timeout: Option<Duration>,
    /// Headers sent with every HTTP request, such as an API key or
    /// `Authorization` (see [`bearer_token`](Self::bearer_token)). The
    /// protocol's own headers (`Mcp-*`, `Accept`, `Content-Type`) win over
    /// these. Not used over stdio, where a server takes credentials from
    /// its environment.
    pub headers: hyper::HeaderMap,
    /// Authorizes with OAuth 2.1 when an HTTP server asks for it (401), and
    /// steps up when it needs more scopes (403); see [`auth`].
    pub oauth: Option<Arc<auth::OAuthConfig>>,
    /// Whether list and read results are kept for as long as the server
    /// allows (`ttlMs` and `cacheScope`): the client's own cache by
    /// default, one shared with other clients, or none
    /// ([`Caching::Off`]).
    pub cache: Caching,
}

impl ConnectOptions {
    /// Sends `Authorization: Bearer <token>` with every HTTP request, for a
    /// server that accepts a static token. The value is marked sensitive,
    /// so it stays out of debug output.
    pub fn bearer_token(mut self, token: &str) -> Result<Self, ClientError> {
        let value = crate::oauth::bearer_authorization(token).ok_or_else(|| {
            ClientError::InvalidArguments("the token is not a valid header value".into())
        })?;
        self.headers.insert(hyper::header::AUTHORIZATION, value);
        Ok(self)
    }
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            era: EraChoice::Auto,
            client_info: Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
            capabilities: ClientCapabilities::default(),
            request_timeout: Duration::from_secs(60),
            discover_timeout: Duration::from_secs(10),
            input_handler: None,
            connect_timeout: None,
            headers: hyper::HeaderMap::new(),
            oauth: None,
            cache: Caching::Own,
        }
    }
}

/// What the server told us when we connected.
#[derive(Debug, Clone)]
pub struct ServerDescription {
    /// The era in use.
    pub era: Era,
    /// The protocol version in use.
    pub protocol_version: String,
    /// The server's name and version, when it sent them.
    pub server_info: Option<Implementation>,
    /// What the server can do.
    pub capabilities: ServerCapabilities,
    /// Instructions for the model, when the server sent them.
    pub instructions: Option<String>,
}

/// A server's tools with how long the list may be cached.
#[derive(Debug, Clone, Default)]
pub struct ToolList {
    /// The tools the client can call.
    pub tools: Vec<Tool>,
    /// How long the list stays fresh (`ttlMs`, at most a year), when the
    /// server said.
    pub ttl: Option<Duration>,
    /// Who may cache it (`cacheScope`), when the server said: a `private`
    /// list belongs to this client's user and must not be shared.
    pub cache_scope: Option<CacheScope>,
}

/// A connected client; cheap to clone, and every clone shares the
/// connection (and its cache: see [Caching](self#caching)). Calls may run
/// concurrently.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    link: Link,
    next_id: AtomicI64,
    /// The `x-mcp-header` annotations of listed tools, by tool name.
    tool_headers: std::sync::Mutex<std::collections::HashMap<String, Vec<ParamHeader>>>,
    options: ConnectOptions,
    server: ServerDescription,
    /// A spawned server, alive exactly as long as the client.
    process: Option<process::ServerProcess>,
    /// The server's notifications, for [`Client::notifications`].
    notices: Notices,
    /// The level [`Client::set_log_level`] chose, which 2026-07-28 requests
    /// carry in `_meta` (there is no session to remember it).
    log_level: std::sync::Mutex<Option<LoggingLevel>>,
    /// Where list and read results are kept, unless caching is off.
    cache: Option<cache::ConnectionCache>,
}

impl Client {
    /// Spawns `program` with `args` and connects to it over its stdio.
    pub async fn connect_stdio(program: &str, args: &[String]) -> Result<Client, ClientError> {
        Self::connect_stdio_with(program, args, ConnectOptions::default()).await
    }

    /// [`connect_stdio`](Self::connect_stdio) with options.
    pub async fn connect_stdio_with(
        program: &str,
        args: &[String],
        options: ConnectOptions,
    ) -> Result<Client, ClientError> {
        let mut command = tokio::process::Command::new(program);
        command.args(args);
        Self::connect_command(command, options).await
    }

    /// Spawns `command` (with whatever environment and working directory it
    /// sets) and connects to it over its stdio. The server's stderr is
    /// passed on to ours; when it exits, errors give its exit status and the
    /// end of its stderr. It is killed when the client is dropped.
    pub async fn connect_command(
        command: tokio::process::Command,
        options: ConnectOptions,
    ) -> Result<Client, ClientError> {
        let (process, stdout, stdin) = process::ServerProcess::spawn(command)?;
        let notices = Notices::default();
        Self::connect(
            Link::Lines(LineConnection::start(
                stdout,
                stdin,
                options.input_handler.clone(),
                notices.clone(),
            )),
            notices,
            options,
            Some(process),
        )
        .await
    }

    /// Connects to a Streamable HTTP endpoint such as
    /// `http://127.0.0.1:8080/mcp` or `https://mcp.example.com/mcp`.
    pub async fn connect_http(url: &str) -> Result<Client, ClientError> {
        Self::connect_http_with(url, ConnectOptions::default()).await
    }

    /// [`connect_http`](Self::connect_http) with options.
    pub async fn connect_http_with(
        url: &str,
        options: ConnectOptions,
    ) -> Result<Client, ClientError> {
        let notices = Notices::default();
        Self::connect(
            Link::Http(Box::new(http::HttpLink::new(
                url,
                options.input_handler.clone(),
                options.headers.clone(),
                options.oauth.clone(),
                notices.clone(),
            )?)),
            notices,
            options,
            None,
        )
        .await
    }

    /// Connects over an already-open pair of streams (`input` from the
    /// server, `output` to it), one JSON message per line.
    pub async fn connect_io<R, W>(
        input: R,
        output: W,
        options: ConnectOptions,
    ) -> Result<Client, ClientError>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let notices = Notices::default();
        Self::connect(
            Link::Lines(LineConnection::start(
                input,
                output,
                options.input_handler.clone(),
                notices.clone(),
            )),
            notices,
            options,
            None,
        )
        .await
    }

    async fn connect(
        link: Link,
        notices: Notices,
        options: ConnectOptions,
        process: Option<process::ServerProcess>,
    ) -> Result<Client, ClientError> {
        let mut inner = Inner {
            link,
            notices,
            next_id: AtomicI64::new(1),
            tool_headers: Default::default(),
            options,
            server: ServerDescription {
                era: Era::Legacy,
                protocol_version: String::new(),
                server_info: None,
                capabilities: ServerCapabilities::default(),
                instructions: None,
            },
            process,
            log_level: std::sync::Mutex::new(None),
            cache: None,
        };
        // Boxed: in debug builds the negotiation's future (two eras, each
        // with a version retry, over a transport that may authorize) is
        // hundreds of kilobytes, and every caller's future would hold it
        // inline on a 2 MiB stack.
        let negotiation = Box::pin(negotiate::negotiate(&inner));
        inner.server = match inner.options.connect_timeout {
            Some(limit) => match inner.within(limit, negotiation).await {
                Ok(negotiated) => negotiated?,
                Err(deadline::Elapsed) => return Err(inner.no_answer()),
            },
            None => negotiation.await?,
        };
        inner.cache = cache::ConnectionCache::new(&inner);
        let inner = Arc::new(inner);
        if let (Era::Legacy, Link::Http(http)) = (inner.server.era, &inner.link) {
            // Opened before the first call, so that nothing the server sends
            // there can be missed.
            if let Ok(Some(stream)) = http.open_listener(&inner.server.protocol_version).await {
                tokio::spawn(listen(Arc::downgrade(&inner), stream));
            }
        }
        Ok(Client { inner })
    }

    /// Stops a stdio server politely, within `grace`: every message queued
    /// for it is written first (such as the `notifications/cancelled` of a
    /// call given up on), then its input is closed, and it is killed only
    /// if it has not exited by then. Call it before your process exits;
    /// dropping the client kills the server at once. Over HTTP there is
    /// nothing to stop.
    pub async fn close(&self, grace: Duration) {
        let Link::Lines(lines) = &self.inner.link else {
            return;
        };
        let deadline = tokio::time::Instant::now() + bounded(grace);
        let _ = tokio::time::timeout_at(deadline, lines.drained()).await;
        let _ = tokio::time::timeout_at(deadline, lines.close_output()).await;
        if let Some(process) = &self.inner.process {
            process.stop(deadline).await;
        }
    }

    /// The process id of a server this client started, while it runs.
    pub fn process_id(&self) -> Option<u32> {
        self.inner
            .process
            .as_ref()
            .and_then(process::ServerProcess::id)
    }

    /// What the server declared when we connected.
    pub fn server(&self) -> &ServerDescription {
        &self.inner.server
    }

    /// Whether `other` is a clone of this client (the same connection).
    pub fn same_connection(&self, other: &Client) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// The notifications the server sends from now on, other than progress
    /// (which goes to its call): list changes, resource updates, log
    /// messages. Legacy servers send them unasked; in the 2026-07-28 era
    /// ask for them with [`listen`](Self::listen). A receiver that falls
    /// more than 256 behind misses the oldest and is told how many.
    pub fn notifications(&self) -> tokio::sync::broadcast::Receiver<Notification> {
        self.inner.notices.subscribe()
    }

    /// Sends a request and decodes its result. In the 2026-07-28 era the
    /// `_meta` every request needs is added (and, over HTTP, the `Mcp-Name`
    /// header of a method that names a target), and `input_required` rounds
    /// are answered through the [`InputHandler`]. `method` may be any name,
    /// one MCP does not define included.
    pub async fn request<P: Serialize + ?Sized, R: DeserializeOwned>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<R, ClientError> {
        self.send(RequestMethod::parse(method), params).await
    }

    /// [`request`](Self::request) of a method known by type.
    pub(crate) async fn send<P: Serialize + ?Sized, R: DeserializeOwned>(
        &self,
        method: impl Into<RequestMethod<'_>>,
        params: &P,
    ) -> Result<R, ClientError> {
        let method = method.into();
        let params = to_object(params)?;
        let result = self.inner.call(method, params, None).await?;
        serde_json::from_value(result)
            .map_err(|e| ClientError::InvalidResponse(format!("{method}: {e}")))
    }

    /// Sends a notification.
    pub async fn notify<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<(), ClientError> {
        let params = to_object(params)?;
        self.inner.notify(method, &params).await
    }

    /// [`tool_list`](Self::tool_list), every page of it within `limit` in
    /// all (instead of `request_timeout` per page): for a caller with a
    /// deadline of its own, such as a host listing a server's tools within
    /// its connect timeout. When the limit runs out, the error says what the
    /// server's output shows about why, as every request's timeout does (a
    /// message nested too deeply, output that is not JSON-RPC).
    pub async fn tool_list_within(&self, limit: Duration) -> Result<ToolList, ClientError> {
        match self.inner.within(limit, self.tool_list()).await {
            Ok(list) => list,
            Err(deadline::Elapsed) => Err(self.inner.no_answer()),
        }
    }

    /// Every tool, following pagination (at most 1,000 pages).
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        Ok(self.tool_list().await?.tools)
    }

    /// [`list_tools`](Self::list_tools), with how long the list may be
    /// cached (`ttlMs` and `cacheScope`, 2026-07-28): over several pages the
    /// shortest lifetime (none if a page gave none) and the narrowest
    /// scope. A list served from the cache reports the lifetime it has
    /// left.
    pub async fn tool_list(&self) -> Result<ToolList, ClientError> {
        let listed = self
            .cached_list(Method::ToolsList, |page: ListToolsResult| page.tools)
            .await?;
        Ok(ToolList {
            tools: self.usable_tools(listed.items),
            ttl: listed.lifetime.ttl,
            cache_scope: listed.lifetime.scope,
        })
    }

    /// Keeps the tools whose `x-mcp-header` annotations are valid (the spec
    /// tells clients to skip the others) and remembers the annotations.
    fn usable_tools(&self, tools: Vec<Tool>) -> Vec<Tool> {
        let mut annotations = lock(&self.inner.tool_headers);
        tools
            .into_iter()
            .filter(|tool| match read_param_headers(&tool.input_schema) {
                Ok(headers) => {
                    annotations.insert(tool.name.clone(), headers);
                    true
                }
                Err(why) => {
                    tracing::warn!(tool = %tool.name, %why, "tool left out");
                    false
                }
            })
            .collect()
    }

    /// Calls a tool with JSON arguments and returns its raw result, which may
    /// have `isError: true`.
    pub async fn call_tool<A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
    ) -> Result<CallToolResult, ClientError> {
        self.call_tool_inner(name, arguments, None).await
    }

    /// [`call_tool`](Self::call_tool), passing each progress notification
    /// the server sends for this call to `on_progress`.
    pub async fn call_tool_with_progress<A, F>(
        &self,
        name: &str,
        arguments: &A,
        mut on_progress: F,
    ) -> Result<CallToolResult, ClientError>
    where
        A: Serialize + ?Sized,
        F: FnMut(ProgressNotificationParams) + Send,
    {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let call = self.call_tool_inner(name, arguments, Some(tx));
        tokio::pin!(call);
        loop {
            tokio::select! {
                result = &mut call => {
                    while let Ok(progress) = rx.try_recv() {
                        on_progress(progress);
                    }
                    return result;
                }
                Some(progress) = rx.recv() => on_progress(progress),
            }
        }
    }

    async fn call_tool_inner<A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
        progress: Option<mpsc::UnboundedSender<ProgressNotificationParams>>,
    ) -> Result<CallToolResult, ClientError> {
        self.call_tool_object(name, to_object(arguments)?, progress)
            .await
    }

    /// `tools/call` with arguments already serialized: the part of every
    /// tool call that does not depend on the arguments' type.
    async fn call_tool_object(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        progress: Option<mpsc::UnboundedSender<ProgressNotificationParams>>,
    ) -> Result<CallToolResult, ClientError> {
        let mut params = Map::new();
        params.insert("name".into(), Value::String(name.to_owned()));
        params.insert("arguments".into(), Value::Object(arguments));
        let method = Method::CallTool;
        let result = self.inner.call(method.into(), params, progress).await?;
        serde_json::from_value(result)
            .map_err(|e| ClientError::InvalidResponse(format!("{method}: {e}")))
    }

    /// The result of a call that did not fail: a transport or protocol
    /// error, or a result with `isError: true`, is an error. Not generic:
    /// the typed calls below share it.
    async fn call_tool_ok(
        &self,
        name: &str,
        arguments: Result<Map<String, Value>, ClientError>,
    ) -> Result<CallToolResult, ToolCallError> {
        let result = self.call_tool_object(name, arguments?, None).await?;
        if result.is_error == Some(true) {
            return Err(ToolCallError::Tool(result));
        }
        Ok(result)
    }

    /// Calls a tool and decodes its `structuredContent` into `O`.
    ///
    /// The arguments are serialized before this returns, so the returned
    /// call borrows only the client and the name.
    pub fn call_tool_as<'a, A: Serialize + ?Sized, O: DeserializeOwned + 'a>(
        &'a self,
        name: &'a str,
        arguments: &A,
    ) -> ToolCall<'a, O> {
        let arguments = to_object(arguments);
        Box::pin(async move {
            let result = self.call_tool_ok(name, arguments).await?;
            let structured = result.structured_content.ok_or_else(|| {
                ToolCallError::Output(format!("tool {name} returned no structuredContent"))
            })?;
            serde_json::from_value(structured)
                .map_err(|e| ToolCallError::Output(format!("tool {name}: {e}")))
        })
    }

    /// Calls a tool that has no output schema and returns its content blocks.
    ///
    /// The arguments are serialized before this returns, as with
    /// [`call_tool_as`](Self::call_tool_as).
    pub fn call_tool_content<'a, A: Serialize + ?Sized>(
        &'a self,
        name: &'a str,
        arguments: &A,
    ) -> ToolCall<'a, Vec<ContentBlock>> {
        self.content_call(name, to_object(arguments))
    }

    /// [`call_tool_content`](Self::call_tool_content) once the arguments are
    /// serialized: outside the generic method, so its future is one type
    /// for every argument type.
    fn content_call<'a>(
        &'a self,
        name: &'a str,
        arguments: Result<Map<String, Value>, ClientError>,
    ) -> ToolCall<'a, Vec<ContentBlock>> {
        Box::pin(async move { Ok(self.call_tool_ok(name, arguments).await?.content) })
    }

    /// Checks that the server's tools still have the schemas a generated
    /// client was built from (`(tool name, fingerprint)` pairs).
    pub async fn verify_fingerprints(&self, expected: &[(&str, &str)]) -> Result<(), DriftError> {
        let tools = self.list_tools().await.map_err(|e| DriftError {
            missing: Vec::new(),
            changed: vec![format!("(could not list tools: {e})")],
        })?;
        let mut drift = DriftError {
            missing: Vec::new(),
            changed: Vec::new(),
        };
        for (name, fingerprint) in expected {
            match tools.iter().find(|t| t.name == *name) {
                None => drift.missing.push((*name).to_owned()),
                Some(tool) if tool_fingerprint(tool) != *fingerprint => {
                    drift.changed.push((*name).to_owned())
                }
                Some(_) => {}
            }
        }
        if drift.missing.is_empty() && drift.changed.is_empty() {
            Ok(())
        } else {
            Err(drift)
        }
    }
}

impl Inner {
    async fn notify(&self, method: &str, params: &Map<String, Value>) -> Result<(), ClientError> {
        let frame = notification_frame(method, Some(params));
        let version = self.server.protocol_version.as_str();
        let headers = http::MessageHeaders {
            method,
            name: None,
            protocol_version: (!version.is_empty()).then_some(version),
            params: Vec::new(),
        };
        self.link.notify(frame, headers).await
    }

    /// The `Mcp-Param-*` headers for a call of `tool`.
    fn param_headers(
        &self,
        tool: &str,
        params: &Value,
    ) -> Vec<(hyper::header::HeaderName, hyper::header::HeaderValue)> {
        let annotations = lock(&self.tool_headers);
        match (
            annotations.get(tool),
            params.get("arguments").and_then(Value::as_object),
        ) {
            (Some(annotations), Some(arguments)) => param_headers::for_call(annotations, arguments),
            _ => Vec::new(),
        }
    }

    fn next_id(&self) -> RequestId {
        RequestId::Int(self.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// One request, with the era's `_meta`, answering `input_required`
    /// rounds (at most 16) through the input handler.
    async fn call(
        &self,
        method: RequestMethod<'_>,
        mut params: Map<String, Value>,
        progress: Option<mpsc::UnboundedSender<ProgressNotificationParams>>,
    ) -> Result<Value, ClientError> {
        for _ in 0..16 {
            // Boxed: the request's future (session renewal, version retry,
            // the transport) is large in debug builds, and callers nest it
            // in futures of their own on 2 MiB worker stacks.
            let result =
                Box::pin(self.renewing_session(method, params.clone(), progress.clone())).await?;
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Ok(result);
            }
            let handler = self
                .options
                .input_handler
                .as_ref()
                .ok_or(ClientError::InputRequired)?;
            let requests: InputRequests = <InputRequests as serde::Deserialize>::deserialize(
                result.get("inputRequests").unwrap_or(&Value::Null),
            )
            .map_err(|e| ClientError::InvalidResponse(format!("inputRequests: {e}")))?;
            let responses = handler.respond(requests).await?;
            params.insert(
                "inputResponses".into(),
                serde_json::to_value(responses).unwrap_or_default(),
            );
            match result.get("requestState") {
                Some(state) => params.insert("requestState".into(), state.clone()),
                None => params.remove("requestState"),
            };
        }
        Err(ClientError::InvalidResponse(format!(
            "{method}: more than 16 input rounds"
        )))
    }

    /// Sends one request in `era` and waits (bounded) for its result;
    /// [`round_trip`](Self::round_trip) adds the version retry.
    async fn send_once(
        &self,
        method: RequestMethod<'_>,
        mut params: Map<String, Value>,
        progress: Option<mpsc::UnboundedSender<ProgressNotificationParams>>,
        era: Era,
    ) -> Result<Value, ClientError> {
        let id = self.next_id();
        subscription::note_request_id(&id);
        let progress =
            progress.map(|listener| (ProgressToken::String(format!("progress-{id}")), listener));
        let mut meta = match params.remove("_meta") {
            Some(Value::Object(meta)) => meta,
            _ => Map::new(),
        };
        if era == Era::Modern {
            negotiate::add_modern_meta(&mut meta, &self.options);
            if let Some(level) = *lock(&self.log_level) {
                meta.entry(META_LOG_LEVEL)
                    .or_insert_with(|| serde_json::to_value(level).unwrap_or_default());
            }
        }
        // The span exists before the traceparent is chosen: with
        // OpenTelemetry, the request names this span as the server's parent.
        let span = tracing::info_span!(
            "mcp.client.request",
            method = method.name(),
            name = tracing::field::Empty,
            %id,
            trace_id = tracing::field::Empty,
            span_id = tracing::field::Empty,
            parent_span_id = tracing::field::Empty,
        );
        let trace = span.in_scope(|| continue_trace(&mut meta));
        if let Some((token, _)) = &progress {
            meta.insert(
                "progressToken".into(),
                serde_json::to_value(token).unwrap_or_default(),
            );
        }
        if !meta.is_empty() {
            params.insert("_meta".into(), Value::Object(meta));
        }
        let params = Value::Object(params);
        let frame = request_frame(&id, method.name(), Some(&params));
        let target = method.target_in(&params);
        let version = match era {
            Era::Modern => crate::protocol::LATEST_PROTOCOL_VERSION,
            Era::Legacy => self.server.protocol_version.as_str(),
        };
        let params_headers = match (method, target) {
            (RequestMethod::Mcp(Method::CallTool), Some(tool)) => self.param_headers(tool, &params),
            _ => Vec::new(),
        };
        let headers = http::MessageHeaders {
            method: method.name(),
            name: target,
            protocol_version: (!version.is_empty()).then_some(version),
            params: params_headers,
        };
        if !span.is_disabled() {
            record(&span, headers.name, trace.as_ref());
        }
        let answer = self.link.request(id, frame, headers, progress);
        match self
            .within(self.options.request_timeout, answer)
            .instrument(span)
            .await
        {
            Ok(Err(ClientError::Closed)) => Err(self.closed().await),
            Ok(outcome) => outcome?.map_err(ClientError::Protocol),
            Err(deadline::Elapsed) => Err(self.no_answer()),
        }
    }

    /// A request that timed out, with what the server's output says about
    /// why, when it says something.
    fn no_answer(&self) -> ClientError {
        let Link::Lines(lines) = &self.link else {
            return ClientError::Timeout;
        };
        let diagnosis = lines.diagnosis();
        match (diagnosis.oddity, diagnosis.heard) {
            (Some(oddity), _) => ClientError::Unanswered(oddity),
            (None, false) => ClientError::Unanswered("it wrote nothing on its output".into()),
            (None, true) => ClientError::Timeout,
        }
    }

    /// A connection that closed, with why: what made the client stop
    /// reading (a message over the limit), else how the server exited.
    async fn closed(&self) -> ClientError {
        let Link::Lines(lines) = &self.link else {
            return ClientError::Closed;
        };
        let ended = lines.diagnosis().ended;
        if let Some(ended) = ended.as_ref().filter(|e| *e != connection::OUTPUT_CLOSED) {
            return ClientError::Disconnected(ended.clone());
        }
        if let Some(process) = &self.process
            && let Some(ending) = process.ending().await
        {
            return ClientError::Disconnected(ending);
        }
        // The output closed, and nothing more is known.
        ClientError::Closed
    }
}

/// Reads a legacy HTTP session's GET stream for as long as the client lives,
/// answering the server's requests; holds the client only while answering.
async fn listen(client: std::sync::Weak<Inner>, mut body: hyper::body::Incoming) {
    use http_body_util::BodyExt;

    let mut decoder = sse::SseDecoder::default();
    while let Some(Ok(frame)) = body.frame().await {
        let Some(chunk) = frame.data_ref() else {
            continue;
        };
        let Ok(events) = decoder.feed(chunk, 64 * 1024 * 1024) else {
            return;
        };
        for event in events {
            let message = crate::jsonrpc::decode(&event.data);
            let Some(inner) = client.upgrade() else {
                return;
            };
            let Link::Http(http) = &inner.link else {
                return;
            };
            match message {
                Ok(crate::jsonrpc::Incoming::Request(request)) => {
                    if let Err(error) = http.answer(request, &inner.server.protocol_version).await {
                        tracing::warn!(%error, "could not answer the server's request");
                    }
                }
                // A server may answer one of our requests here (after a
                // stream it closed was resumed on this stream).
                Ok(crate::jsonrpc::Incoming::Response(response)) => http.deliver(response),
                Ok(crate::jsonrpc::Incoming::Notification(notification)) => {
                    http.notices.publish(notification)
                }
                Err(_) => {}
            }
        }
    }
}

/// Serializes `value`, which must become a JSON object.
fn to_object<T: Serialize + ?Sized>(value: &T) -> Result<Map<String, Value>, ClientError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(Value::Null) => Ok(Map::new()),
        Ok(other) => Err(ClientError::InvalidArguments(format!(
            "expected an object, got {other}"
        ))),
        Err(e) => Err(ClientError::InvalidArguments(e.to_string())),
    }
}

/// Fills in the fields of a client request's span known once the request
/// is built.
fn record(span: &tracing::Span, name: Option<&str>, trace: Option<&TraceContext>) {
    span.record("name", name.unwrap_or_default());
    if let Some(trace) = trace {
        span.record("trace_id", trace.trace_id());
        span.record("span_id", trace.span_id());
        if let Some(parent) = trace.parent_span_id() {
            span.record("parent_span_id", parent);
        }
    }
}

/// Continues the [current](TraceContext::current) trace, if any, in this
/// request's `_meta` (unless the caller set a `traceparent` there itself),
/// and returns the request's own span context.
fn continue_trace(meta: &mut Map<String, Value>) -> Option<TraceContext> {
    if meta.contains_key(META_TRACEPARENT) {
        return None;
    }
    let trace = crate::trace::outgoing()?;
    meta.insert(META_TRACEPARENT.into(), trace.traceparent().into());
    if let Some(state) = trace.tracestate() {
        meta.insert(META_TRACESTATE.into(), state.into());
    }
    Some(trace)
}
