//! The Streamable HTTP mode: POSTs over a pool of kept-alive HTTP/1.1
//! connections (hyper's client connection API, `TCP_NODELAY` on), one
//! request per connection at a time.
//!
//! Before 2026-07-28 the driver sends `initialize` and
//! `notifications/initialized` first, then every call with
//! `MCP-Protocol-Version` and, when the server opened one, the
//! `Mcp-Session-Id` (one session for all connections, as one client would).
//! From 2026-07-28 there is no handshake: every call carries `_meta` with the
//! protocol version and the client capabilities, and the `Mcp-Method` /
//! `Mcp-Name` headers.
//!
//! `--concurrency` tasks each take the next id, wait for an idle connection,
//! POST, read the whole answer (`application/json`, or `text/event-stream`
//! whose `data:` events are the messages) and check it. Latency runs from
//! taking the id (so it includes waiting for a connection when there are
//! fewer connections than tasks) to the end of the answer's body.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::net::SocketAddr;
use std::process::Stdio;
use std::rc::Rc;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::calls::{self, Kind, Reply, Tool};
use crate::{Args, Driver, Handshake, Measurement, PhaseStats};

/// Largest answer body accepted, in bytes.
const MAX_BODY: usize = 1 << 20;
/// How often to try connecting while the server starts.
const CONNECT_RETRY: Duration = Duration::from_millis(10);

/// Where the MCP endpoint is.
#[derive(Clone)]
struct Endpoint {
    addr: SocketAddr,
    /// `Host` header value.
    authority: HeaderValue,
    path: String,
}

/// `http://IP:PORT/PATH`; a host name is not resolved (the benchmark stays
/// on 127.0.0.1).
fn parse_url(url: &str) -> Result<Endpoint, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--url {url}: only http:// URLs"))?;
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let addr = authority
        .parse::<SocketAddr>()
        .map_err(|e| format!("--url {url}: the authority must be IP:PORT ({e})"))?;
    Ok(Endpoint {
        addr,
        authority: HeaderValue::from_str(authority).map_err(|e| e.to_string())?,
        path: format!("/{path}"),
    })
}

/// The headers every request of the run carries.
struct Headers {
    endpoint: Endpoint,
    protocol: HeaderValue,
    session: Option<HeaderValue>,
    /// 2026-07-28 or later: `_meta` and `Mcp-Method` / `Mcp-Name`.
    modern: bool,
}

impl Headers {
    /// A POST of `body`; `call` names the tool of a `tools/call`.
    fn post(
        &self,
        body: Vec<u8>,
        method: &'static str,
        call: Option<Tool>,
    ) -> Request<Full<Bytes>> {
        let mut request = Request::post(&self.endpoint.path)
            .header(header::HOST, self.endpoint.authority.clone())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        if method != "initialize" {
            request = request.header("mcp-protocol-version", self.protocol.clone());
        }
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session.clone());
        }
        if self.modern {
            request = request.header("mcp-method", method);
            if let Some(tool) = call {
                request = request.header("mcp-name", tool.name());
            }
        }
        request
            .body(Full::new(Bytes::from(body)))
            .expect("valid request parts")
    }
}

/// One kept-alive connection.
struct Conn {
    sender: SendRequest<Full<Bytes>>,
}

impl Conn {
    /// Wraps a connected socket; hyper's connection task runs beside.
    async fn new(stream: TcpStream) -> Result<Conn, String> {
        stream
            .set_nodelay(true)
            .map_err(|e| format!("TCP_NODELAY: {e}"))?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("HTTP handshake: {e}"))?;
        tokio::task::spawn_local(async move {
            // An error shows up at the next request on this connection.
            let _ = connection.await;
        });
        Ok(Conn { sender })
    }

    /// Sends `request` and reads the whole answer, within `timeout`.
    async fn exchange(
        &mut self,
        request: Request<Full<Bytes>>,
        timeout: Duration,
    ) -> Result<Answer, String> {
        let exchange = async {
            self.sender
                .ready()
                .await
                .map_err(|e| format!("connection lost: {e}"))?;
            let response = self
                .sender
                .send_request(request)
                .await
                .map_err(|e| format!("sending: {e}"))?;
            let (parts, body) = response.into_parts();
            let body = Limited::new(body, MAX_BODY)
                .collect()
                .await
                .map_err(|e| format!("reading the answer (at most {MAX_BODY} bytes): {e}"))?
                .to_bytes();
            Ok(Answer {
                status: parts.status,
                headers: parts.headers,
                body,
            })
        };
        tokio::time::timeout(timeout, exchange)
            .await
            .map_err(|_| format!("timeout: no complete answer within {timeout:?}"))?
    }
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    /// The JSON-RPC messages of a 200 answer.
    fn messages(&self) -> Result<Vec<Cow<'_, [u8]>>, String> {
        if self.status != StatusCode::OK {
            return Err(format!(
                "HTTP {}: {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            ));
        }
        let content_type = self
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let essence = content_type.split(';').next().unwrap_or_default().trim();
        if essence.eq_ignore_ascii_case("application/json") {
            Ok(vec![Cow::Borrowed(&self.body[..])])
        } else if essence.eq_ignore_ascii_case("text/event-stream") {
            Ok(sse_data(&self.body))
        } else {
            Err(format!("answer has Content-Type {content_type:?}"))
        }
    }
}

/// The data of each event of an SSE body. Events without data (such as a
/// priming event that only sets `id` and `retry`) carry no message and are
/// skipped; so is an event the body does not finish with a blank line, as
/// the SSE processing rules say.
fn sse_data(body: &[u8]) -> Vec<Cow<'_, [u8]>> {
    let mut events = Vec::new();
    let mut data: Option<Cow<'_, [u8]>> = None;
    for line in body.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            if let Some(data) = data.take().filter(|d| !d.is_empty()) {
                events.push(data);
            }
            continue;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(0) => continue, // a comment
            Some(i) => (
                &line[..i],
                line[i + 1..].strip_prefix(b" ").unwrap_or(&line[i + 1..]),
            ),
            None => (line, &b""[..]),
        };
        if field == b"data" {
            data = Some(match data {
                None => Cow::Borrowed(value),
                Some(previous) => {
                    let mut joined = previous.into_owned();
                    joined.push(b'\n');
                    joined.extend_from_slice(value);
                    Cow::Owned(joined)
                }
            });
        }
    }
    events
}

/// Shared by the tasks of one phase (they all run on this thread).
struct Phase {
    tool: Tool,
    timeout: Duration,
    headers: Rc<Headers>,
    next: Cell<u64>,
    end: u64,
    idle: RefCell<Vec<Conn>>,
    /// One permit per connection in `idle`.
    free: Semaphore,
    hist: Option<RefCell<Histogram<u64>>>,
    errors: Cell<u64>,
    notifications: Cell<u64>,
}

impl Phase {
    /// Runs calls until the phase's ids are used up.
    async fn task(self: Rc<Self>) -> Result<(), String> {
        loop {
            let id = self.next.get();
            if id >= self.end {
                return Ok(());
            }
            self.next.set(id + 1);
            let issued = Instant::now();
            let mut body = Vec::with_capacity(256);
            let meta = self
                .headers
                .modern
                .then(|| self.headers.protocol.to_str().unwrap_or_default());
            calls::write_request(&mut body, self.tool, id, meta);
            let request = self.headers.post(body, "tools/call", Some(self.tool));
            let permit = self.free.acquire().await.map_err(|e| e.to_string())?;
            let mut conn = self
                .idle
                .borrow_mut()
                .pop()
                .ok_or("no idle connection despite a permit")?;
            let answer = conn.exchange(request, self.timeout).await;
            self.idle.borrow_mut().push(conn);
            drop(permit);
            let answer = answer.map_err(|e| format!("request {id}: {e}"))?;
            if let Some(hist) = &self.hist {
                let ns = issued.elapsed().as_nanos().max(1) as u64;
                hist.borrow_mut().saturating_record(ns);
            }
            self.check(id, &answer)?;
        }
    }

    /// Counts a wrong result as an error; anything else unexpected is fatal.
    fn check(&self, id: u64, answer: &Answer) -> Result<(), String> {
        let mut answered = false;
        for message in answer
            .messages()
            .map_err(|e| format!("request {id}: {e}"))?
        {
            let text = || String::from_utf8_lossy(&message).into_owned();
            let reply: Reply<'_> = serde_json::from_slice(&message)
                .map_err(|e| format!("unparseable message ({e}): {}", text()))?;
            match reply.kind().map_err(|e| format!("{e}: {}", text()))? {
                Kind::Notification => self.notifications.set(self.notifications.get() + 1),
                Kind::Reply(got) if got == id && !answered => {
                    answered = true;
                    if let Err(why) = calls::validate(self.tool, id, &reply) {
                        let mut errors = self.errors.get();
                        crate::report_mismatch(&mut errors, id, &why, &message);
                        self.errors.set(errors);
                    }
                }
                Kind::Reply(got) => {
                    return Err(format!(
                        "answer to request {id} holds a reply for id {got}: {}",
                        text()
                    ));
                }
            }
        }
        if !answered {
            return Err(format!(
                "answer to request {id} holds no reply: {}",
                String::from_utf8_lossy(&answer.body)
            ));
        }
        Ok(())
    }
}

/// The connections and settings of a run.
struct Client {
    headers: Rc<Headers>,
    pool: Vec<Conn>,
    tool: Tool,
    concurrency: usize,
    timeout: Duration,
}

impl Driver for Client {
    async fn phase(
        &mut self,
        first_id: u64,
        count: u64,
        hist: Option<&mut Histogram<u64>>,
    ) -> Result<PhaseStats, String> {
        let phase = Rc::new(Phase {
            tool: self.tool,
            timeout: self.timeout,
            headers: self.headers.clone(),
            next: Cell::new(first_id),
            end: first_id + count,
            free: Semaphore::new(self.pool.len()),
            idle: RefCell::new(std::mem::take(&mut self.pool)),
            hist: hist
                .as_deref()
                .map(|h| RefCell::new(Histogram::new_from(h))),
            errors: Cell::new(0),
            notifications: Cell::new(0),
        });
        let start = Instant::now();
        let mut tasks = JoinSet::new();
        for _ in 0..self.concurrency {
            tasks.spawn_local(phase.clone().task());
        }
        while let Some(joined) = tasks.join_next().await {
            // Dropping `tasks` on a fatal error aborts the others.
            joined.map_err(|e| format!("request task failed: {e}"))??;
        }
        let elapsed = start.elapsed();
        let phase = Rc::into_inner(phase).ok_or("a request task outlived its phase")?;
        if let (Some(hist), Some(recorded)) = (hist, phase.hist) {
            hist.add(recorded.into_inner())
                .map_err(|e| format!("merging latencies: {e:?}"))?;
        }
        self.pool = phase.idle.into_inner();
        Ok(PhaseStats {
            elapsed,
            errors: phase.errors.get(),
            notifications: phase.notifications.get(),
        })
    }
}

/// Connects once the server listens; fails if it exits first or takes
/// longer than `timeout`.
async fn first_connection(
    child: &mut Child,
    addr: SocketAddr,
    timeout: Duration,
) -> Result<TcpStream, String> {
    let deadline = Instant::now() + timeout;
    loop {
        match TcpStream::connect(addr).await {
            Ok(stream) => return Ok(stream),
            Err(e) if Instant::now() >= deadline => {
                return Err(format!(
                    "server does not listen on {addr} after {timeout:?}: {e}"
                ));
            }
            Err(_) => {}
        }
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Err(format!("server exited before listening: {status}"));
        }
        tokio::time::sleep(CONNECT_RETRY).await;
    }
}

/// `initialize` then `notifications/initialized`; returns the handshake's
/// outcome and the session the server opened, if any.
async fn initialize(
    conn: &mut Conn,
    headers: &Headers,
    timeout: Duration,
) -> Result<(Handshake, Option<HeaderValue>), String> {
    let protocol = headers.protocol.to_str().unwrap_or_default();
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{protocol}","capabilities":{{}},"clientInfo":{{"name":"loadgen","version":"0.0.0"}}}}}}"#
    );
    let answer = conn
        .exchange(headers.post(init.into_bytes(), "initialize", None), timeout)
        .await?;
    let mut reply = None;
    for message in answer.messages().map_err(|e| format!("initialize: {e}"))? {
        let value: serde_json::Value = serde_json::from_slice(&message).map_err(|e| {
            format!(
                "initialize answer is not JSON ({e}): {}",
                String::from_utf8_lossy(&message)
            )
        })?;
        if value.get("id").is_some() {
            reply = Some(value);
        }
    }
    let reply = reply.ok_or_else(|| {
        format!(
            "initialize answer holds no reply: {}",
            String::from_utf8_lossy(&answer.body)
        )
    })?;
    let server_info = crate::stdio::check_initialize_reply(&reply, protocol)?;
    let session = answer.headers.get("mcp-session-id").cloned();
    let with_session = Headers {
        endpoint: headers.endpoint.clone(),
        protocol: headers.protocol.clone(),
        session: session.clone(),
        modern: false,
    };
    let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec();
    let answer = conn
        .exchange(
            with_session.post(initialized, "notifications/initialized", None),
            timeout,
        )
        .await?;
    if answer.status != StatusCode::ACCEPTED {
        return Err(format!(
            "notifications/initialized: HTTP {}, want 202: {}",
            answer.status,
            String::from_utf8_lossy(&answer.body)
        ));
    }
    Ok((
        Handshake {
            server_info,
            session: Some(session.is_some()),
        },
        session,
    ))
}

/// Spawns the server, connects, shakes hands (before 2026-07-28) and
/// measures; then kills the server.
pub async fn run(args: &Args, url: &str) -> Result<(Measurement, String), String> {
    let endpoint = parse_url(url)?;
    let mut words = args.server.split_whitespace();
    let program = words.next().unwrap_or_default();
    let mut child = Command::new(program)
        .args(words)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("spawning {program}: {e}"))?;
    let pid = child.id().ok_or("server exited at once")?;
    let mut first =
        Conn::new(first_connection(&mut child, endpoint.addr, args.timeout).await?).await?;

    let mut headers = Headers {
        endpoint: endpoint.clone(),
        protocol: HeaderValue::from_str(&args.protocol).map_err(|e| format!("--protocol: {e}"))?,
        session: None,
        modern: calls::is_modern(&args.protocol),
    };
    let handshake = if headers.modern {
        Handshake {
            server_info: serde_json::Value::Null,
            session: None,
        }
    } else {
        let (handshake, session) = initialize(&mut first, &headers, args.timeout).await?;
        headers.session = session;
        handshake
    };
    let mut pool = vec![first];
    while pool.len() < args.connections {
        let stream = TcpStream::connect(endpoint.addr)
            .await
            .map_err(|e| format!("connecting to {}: {e}", endpoint.addr))?;
        pool.push(Conn::new(stream).await?);
    }
    let mut client = Client {
        headers: Rc::new(headers),
        pool,
        tool: args.tool,
        concurrency: args.concurrency,
        timeout: args.timeout,
    };
    let measurement = crate::measure(&mut client, pid, args, handshake).await?;
    drop(client);
    let exit = match child.try_wait() {
        Ok(Some(status)) => format!("exited during the run: {status}"),
        _ => match child.kill().await {
            Ok(()) => "killed after the run".to_owned(),
            Err(e) => format!("kill failed: {e}"),
        },
    };
    Ok((measurement, exit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_events_with_data_only() {
        let body = b"data: \nid: 0\nretry: 3000\n\ndata: {\"a\":1}\r\n\r\n: comment\ndata: x\ndata: y\n\ndata: unfinished";
        let events = sse_data(body);
        assert_eq!(events, [&b"{\"a\":1}"[..], b"x\ny"]);
    }

    #[test]
    fn urls() {
        let endpoint = parse_url("http://127.0.0.1:8080/mcp").unwrap();
        assert_eq!(endpoint.addr, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(endpoint.authority, "127.0.0.1:8080");
        assert_eq!(endpoint.path, "/mcp");
        assert!(parse_url("https://127.0.0.1:1/mcp").is_err());
        assert!(parse_url("http://localhost:1/mcp").is_err());
    }
}
