//! Drives a server binary over stdio from a test: write lines, read replies
//! with a deadline, never hang.

#![allow(dead_code)] // each test file uses a different part

pub mod cargo;
pub mod host;
pub mod interop;
pub mod nginx;
pub mod oidc;
pub mod redis;
pub mod survey;
pub mod wire;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running server with its stdin, and its stdout lines arriving on a channel.
pub struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl StdioServer {
    /// Starts `program` with `args`, stderr inherited so logs show in test output.
    pub fn spawn(program: &str, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        StdioServer {
            child,
            stdin,
            lines,
        }
    }

    /// The echo-server example.
    pub fn echo_server() -> Self {
        Self::spawn(env!("CARGO_BIN_EXE_echo-server"), &[])
    }

    /// Writes raw bytes (one or more lines).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Writes one JSON message as a line.
    pub fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.send_raw(&line);
    }

    /// The next stdout line as JSON; panics after `timeout`. Every line must
    /// be valid JSON: stdout carries protocol messages only.
    pub fn recv_within(&mut self, timeout: Duration) -> Value {
        let line = self.lines.recv_timeout(timeout).expect("no reply in time");
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"))
    }

    /// The next stdout line as JSON, within 10 s.
    pub fn recv(&mut self) -> Value {
        self.recv_within(Duration::from_secs(10))
    }

    /// Sends a request and returns its reply (no other traffic expected).
    pub fn request(&mut self, message: Value) -> Value {
        self.send(&message);
        self.recv()
    }

    /// Closes stdin and waits (bounded) for the process to exit; returns its
    /// exit status success.
    pub fn close_and_wait(mut self, timeout: Duration) -> bool {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("server did not exit within {timeout:?} after end of input");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Takes stdin out, so that dropping it signals end of input.
    pub fn stdin_take(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A legacy `initialize` request.
pub fn initialize(id: i64) -> Value {
    serde_json::json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}
        }
    })
}

/// The `_meta` a 2026-07-28 request carries.
pub fn modern_meta() -> Value {
    serde_json::json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"}
    })
}

/// A loopback port that was free when asked. A server told to bind it may
/// still lose it to another process, so callers retry with a new one.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// Waits (10 s at most) until `ready()` holds; false when `child` exits
/// first (say, its port was taken) or time runs out.
pub fn wait_until_ready(child: &mut Child, ready: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return false;
        }
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The names of the tools `client`'s server lists, sorted.
pub async fn sorted_tool_names(client: &mcp_toolkit_runtime::client::Client) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name)
        .collect();
    names.sort();
    names
}
