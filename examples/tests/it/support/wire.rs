//! 2026-07-28 requests as plain HTTP/1.0 over a TCP socket, so that a test
//! sees exactly what a server (or nginx in front of several) answers: one
//! request per connection, the body read until the server closes it.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The `_meta` of a 2026-07-28 request from a client that can elicit and
/// declares the tasks extension.
pub fn tasks_meta() -> Value {
    let mut meta = super::modern_meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}
    });
    meta
}

/// Where `url` (`http://IP:PORT/PATH`) points.
fn endpoint(url: &str) -> (SocketAddr, String) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    (authority.parse().expect("IP:PORT"), format!("/{path}"))
}

/// Opens a connection and sends a 2026-07-28 request: `method` with
/// `params` (whose `_meta` is set to [`tasks_meta`]) and the `Mcp-Name`
/// header when `name` is given.
fn send(url: &str, id: i64, method: &str, name: Option<&str>, mut params: Value) -> TcpStream {
    params["_meta"] = tasks_meta();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    let (addr, path) = endpoint(url);
    let mut head = format!(
        "POST {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: {method}\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(name) = name {
        head += &format!("Mcp-Name: {name}\r\n");
    }
    let mut stream = TcpStream::connect_timeout(&addr, TIMEOUT).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream
        .write_all(format!("{head}\r\n{body}").as_bytes())
        .expect("send the request");
    stream
}

/// Sends a request and returns its JSON-RPC reply, from a JSON body or
/// from the SSE event that carries it. Panics on anything else.
pub fn request(url: &str, id: i64, method: &str, name: Option<&str>, params: Value) -> Value {
    let mut stream = send(url, id, method, name, params);
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .unwrap_or_else(|e| panic!("{method}: reading the response: {e}\n{response}"));
    let (head, body) = response
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("{method}: no HTTP response: {response:?}"));
    if !head.to_ascii_lowercase().contains("text/event-stream") {
        return serde_json::from_str(body).unwrap_or_else(|e| panic!("{method}: {e}: {response}"));
    }
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|message| message["id"] == id)
        .unwrap_or_else(|| panic!("{method}: no reply in the stream: {response}"))
}

/// An open `subscriptions/listen` stream.
pub struct Listen {
    stream: TcpStream,
    /// Everything read so far.
    pub received: String,
}

impl Listen {
    /// Opens a stream asking for `notifications` (a subscription filter)
    /// and waits until the server acknowledged it.
    pub fn open(url: &str, id: i64, notifications: Value) -> Self {
        let stream = send(
            url,
            id,
            "subscriptions/listen",
            None,
            json!({ "notifications": notifications }),
        );
        let mut listen = Listen {
            stream,
            received: String::new(),
        };
        assert!(
            listen.wait_for("notifications/subscriptions/acknowledged", TIMEOUT),
            "no acknowledgement: {}",
            listen.received
        );
        listen
    }

    /// Reads until `needle` shows up in what was received (true) or
    /// `timeout` passes (false).
    pub fn wait_for(&mut self, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut buffer = [0u8; 4096];
        while !self.received.contains(needle) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            self.stream.set_read_timeout(Some(left)).unwrap();
            match self.stream.read(&mut buffer) {
                Ok(0) => return false,
                Ok(n) => self.received += &String::from_utf8_lossy(&buffer[..n]),
                Err(_) => return self.received.contains(needle),
            }
        }
        true
    }
}
