//! A test server on 127.0.0.1:0 and a small HTTP/1.1 client for the
//! Streamable HTTP transport tests. Every wait is bounded.

#![allow(dead_code)] // each test file uses a different part

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::client::conn::http1;
use hyper::header::HeaderValue;
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef, ToolError};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

/// The bound on every wait in these tests.
pub const WAIT: Duration = Duration::from_secs(10);

/// Awaits `future` for at most [`WAIT`].
pub async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(WAIT, future).await.expect("timed out")
}

/// A running server; `events` reports what the `wait` tool saw.
pub struct TestServer {
    pub addr: SocketAddr,
    pub events: mpsc::UnboundedReceiver<&'static str>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    /// Serves [`test_server`] with `config`.
    pub async fn start(config: HttpConfig) -> Self {
        let (events_tx, events) = mpsc::unbounded_channel();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (shutdown, signal) = oneshot::channel::<()>();
        let server = test_server(events_tx);
        let task = tokio::spawn(server.serve_http_with(listener, config, async {
            let _ = signal.await;
        }));
        TestServer {
            addr,
            events,
            shutdown: Some(shutdown),
            task: Some(task),
        }
    }

    /// Serves with the default configuration.
    pub async fn default() -> Self {
        Self::start(HttpConfig::default()).await
    }

    /// Signals shutdown and returns the serving task.
    pub fn shut_down(&mut self) -> JoinHandle<std::io::Result<()>> {
        let _ = self.shutdown.take().unwrap().send(());
        self.task.take().unwrap()
    }

    /// The next event of the `wait` tool.
    pub async fn event(&mut self) -> &'static str {
        bounded(self.events.recv()).await.expect("server gone")
    }

    /// Asserts that a 2026-07-28 `tools/call` of `echo` still works.
    pub async fn assert_serving(&self) {
        let reply = call(self.addr, 99, "echo", json!({"text": "still here"})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        assert_eq!(
            reply.json()["result"]["content"][0]["text"],
            "still here",
            "{}",
            reply.text()
        );
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// Tools: `echo(text)`; `panic` (panics); `progress` (three progress
/// notifications, then "done"); `wait` (reports "started", sends a progress
/// notification, then answers after 5 s and reports "finished", or reports
/// "cancelled" when cancelled first).
pub fn test_server(events: mpsc::UnboundedSender<&'static str>) -> Server {
    let object = json!({"type": "object"});
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(
            ToolDef::new("echo", |call: ToolCall| async move {
                Ok(CallToolResult::text(call.argument::<String>("text")?))
            })
            .input_schema(object.clone()),
        )
        .tool(
            ToolDef::new("panic", |_call: ToolCall| async move {
                if true {
                    panic!("boom");
                }
                Ok(CallToolResult::text("unreachable"))
            })
            .input_schema(object.clone()),
        )
        .tool(
            ToolDef::new("progress", |call: ToolCall| async move {
                for step in 1..=3 {
                    call.context()
                        .report_progress(f64::from(step), Some(3.0), None)
                        .await;
                }
                Ok(CallToolResult::text("done"))
            })
            .input_schema(object.clone()),
        )
        .tool(
            ToolDef::new("wait", move |call: ToolCall| {
                let events = events.clone();
                async move {
                    let _ = events.send("started");
                    let mut outcome = Outcome(events, "cancelled");
                    // A progress notification first, so that the response
                    // becomes a stream the client can close.
                    call.context().report_progress(0.0, None, None).await;
                    tokio::select! {
                        () = call.context().cancelled() => Err(ToolError::new("cancelled")),
                        () = tokio::time::sleep(Duration::from_secs(5)) => {
                            outcome.1 = "finished";
                            Ok(CallToolResult::text("waited"))
                        }
                    }
                }
            })
            .input_schema(object),
        )
        .build()
        .unwrap()
}

/// Reports how the `wait` tool ended when it is dropped: "finished", or
/// "cancelled" when it was cancelled or dropped before that.
struct Outcome(mpsc::UnboundedSender<&'static str>, &'static str);

impl Drop for Outcome {
    fn drop(&mut self) {
        let _ = self.0.send(self.1);
    }
}

/// The `_meta` of a 2026-07-28 request.
pub fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}
    })
}

/// A legacy (2025-11-25) `initialize` request, id 0.
pub fn legacy_initialize() -> Value {
    json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}
        }
    })
}

/// A complete response.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `data:` payloads of an SSE body, as JSON.
    pub fn events(&self) -> Vec<Value> {
        sse_data(&self.text())
    }
}

/// The JSON payloads of the `data:` lines of an SSE text.
pub fn sse_data(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

/// Opens a connection and sends one request; returns the response head
/// with its body still streaming, and the connection task (abort it to
/// close the connection).
pub async fn open(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> (Response<Incoming>, JoinHandle<()>) {
    let stream = bounded(TcpStream::connect(addr)).await.unwrap();
    let (mut sender, connection) = bounded(http1::handshake(TokioIo::new(stream)))
        .await
        .unwrap();
    let connection = tokio::spawn(async move {
        let _ = connection.await;
    });
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .body(Full::new(body.into()))
        .unwrap();
    let host = HeaderValue::from_str(&addr.to_string()).unwrap();
    request.headers_mut().insert("host", host);
    for (name, value) in headers {
        let name = hyper::header::HeaderName::from_bytes(name.as_bytes()).unwrap();
        let value = HeaderValue::from_str(value).unwrap();
        if name == hyper::header::HOST {
            request.headers_mut().insert(name, value);
        } else {
            request.headers_mut().append(name, value);
        }
    }
    let response = bounded(sender.send_request(request)).await.unwrap();
    (response, connection)
}

/// Sends one request and reads the whole response.
pub async fn send(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> Reply {
    let (response, connection) = open(addr, method, headers, body).await;
    let (parts, body) = response.into_parts();
    let body = bounded(body.collect()).await.unwrap().to_bytes();
    connection.abort();
    Reply {
        status: parts.status,
        headers: parts.headers,
        body,
    }
}

/// The headers every well-formed POST carries.
pub const POST_HEADERS: [(&str, &str); 2] = [
    ("content-type", "application/json"),
    ("accept", "application/json, text/event-stream"),
];

/// POSTs `body` with [`POST_HEADERS`] plus `extra`.
pub async fn post(addr: SocketAddr, extra: &[(&str, &str)], body: &Value) -> Reply {
    let mut headers = POST_HEADERS.to_vec();
    headers.extend_from_slice(extra);
    send(
        addr,
        Method::POST,
        &headers,
        serde_json::to_vec(body).unwrap(),
    )
    .await
}

/// The headers of a 2026-07-28 `tools/call` of `tool`.
pub fn call_headers(tool: &str) -> Vec<(&'static str, String)> {
    vec![
        ("mcp-protocol-version", "2026-07-28".to_owned()),
        ("mcp-method", "tools/call".to_owned()),
        ("mcp-name", tool.to_owned()),
    ]
}

/// The body of a 2026-07-28 `tools/call`.
pub fn call_body(id: i64, tool: &str, arguments: Value) -> Value {
    let mut meta = modern_meta();
    meta["progressToken"] = json!(format!("p{id}"));
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": meta}
    })
}

/// A 2026-07-28 `tools/call` with correct headers.
pub async fn call(addr: SocketAddr, id: i64, tool: &str, arguments: Value) -> Reply {
    let headers = call_headers(tool);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    post(addr, &headers, &call_body(id, tool, arguments)).await
}
