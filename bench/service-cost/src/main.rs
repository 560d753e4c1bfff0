//! `service-cost [CALLS] [ROUNDS] [VERSION]`: the CPU time of one
//! `tools/call` of `add` through [`McpService::handle`], in process, for
//! each protocol era (or only the one of `VERSION`).
//!
//! Over a socket a call's cost is buried in the kernel's loopback, Tokio's
//! wake-ups and the load driver, all of which vary from run to run on a
//! shared VM (see bench/README.md, "The floor of HTTP"). Here the service
//! gets the request `loadgen` would send, as a hyper request with a body
//! already in memory, on a current-thread runtime, and its answer is read
//! whole and checked: what is left is the work of mcp-toolkit-runtime (header
//! checks, JSON-RPC decoding, era rules, routing, validation, the handler,
//! encoding the answer) plus building the request and reading the answer.
//! Prints the median, fastest and slowest round in ns per call, and the
//! heap allocations per call (counted by this binary's global allocator,
//! so the figure does not move with the machine's load). Wall time does
//! move, by 10–40% on a shared VM; for instructions per call, run it under
//! `valgrind --tool=callgrind` with two call counts (say `2000 1` and
//! `4000 1`) and divide the difference by the difference in calls (warm-up
//! included: 2,200).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, StatusCode};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::{Server, ToolError};
use mcp_toolkit_runtime::transport::http::{HttpConfig, McpService};
use schemars::JsonSchema;
use serde::Serialize;

/// The result of `add`.
#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i64,
}

/// Add two integers (as `echo-server`'s `add`).
///
/// # Arguments
///
/// * `a` - The first addend.
/// * `b` - The second addend.
#[mcp_tool(read_only, idempotent, scopes = ["calc"])]
fn add(a: i64, b: i64) -> Result<Sum, ToolError> {
    let sum = a
        .checked_add(b)
        .ok_or_else(|| ToolError::new("the sum overflows a 64-bit integer"))?;
    Ok(Sum { sum })
}

/// The system allocator, counting allocations (a `realloc` counts as one).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded unchanged to `System`.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const USAGE: &str = "usage: service-cost [CALLS] [ROUNDS] [2025-11-25|2026-07-28]";
const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

/// A protocol era as `loadgen` speaks it.
struct Era {
    /// The legacy session `initialize` opened; `None` for 2026-07-28.
    session: Option<String>,
}

impl Era {
    /// The POST `loadgen` sends for call `id` (same headers, same body).
    fn call(&self, id: u64) -> Request<Full<Bytes>> {
        let modern = self.session.is_none();
        let meta = match modern {
            true => format!(
                r#","_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{}}}}"#
            ),
            false => String::new(),
        };
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{id},"b":7}}{meta}}}}}"#
        );
        let mut request = post(if modern { MODERN } else { LEGACY });
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        if modern {
            request = request
                .header("mcp-method", "tools/call")
                .header("mcp-name", "add");
        }
        request
            .body(Full::new(Bytes::from(body)))
            .expect("valid request")
    }
}

fn post(version: &str) -> hyper::http::request::Builder {
    Request::post("/mcp")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", version)
}

/// Opens a legacy session the way `loadgen` does.
async fn initialize(service: &McpService) -> String {
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY}","capabilities":{{}},"clientInfo":{{"name":"service-cost","version":"0.0.0"}}}}}}"#
    );
    let request = post(LEGACY)
        .body(Full::new(Bytes::from(init)))
        .expect("valid request");
    let response = service.handle(request).await;
    assert_eq!(response.status(), StatusCode::OK, "initialize failed");
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .expect("a visible session id")
        .to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let request = post(LEGACY)
        .header("mcp-session-id", &session)
        .body(Full::new(Bytes::from(initialized)))
        .expect("valid request");
    assert_eq!(service.handle(request).await.status(), StatusCode::ACCEPTED);
    session
}

/// Runs `calls` calls; the ns and the allocations per call.
async fn round(service: &McpService, era: &Era, first_id: u64, calls: u64) -> (f64, f64) {
    let allocations = ALLOCATIONS.load(Ordering::Relaxed);
    let start = Instant::now();
    for id in first_id..first_id + calls {
        let response = service.handle(era.call(id)).await;
        assert_eq!(response.status(), StatusCode::OK);
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let expected = format!(r#""structuredContent":{{"sum":{}}}"#, id + 7);
        assert!(
            body.windows(expected.len())
                .any(|w| w == expected.as_bytes()),
            "unexpected answer: {}",
            String::from_utf8_lossy(&body)
        );
    }
    let ns = start.elapsed().as_nanos() as f64 / calls as f64;
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - allocations;
    (ns, allocations as f64 / calls as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default| args.get(i).map_or(default, |a| a.parse().expect(USAGE));
    let (calls, rounds) = (number(0, 50_000), number(1, 5));
    let only = args.get(2).map(String::as_str);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime");
    runtime.block_on(async {
        let server = Server::builder(mcp_toolkit_runtime::server_info!())
            .register(mcp_toolkit_runtime::definitions![add])
            .build()
            .expect("a valid server");
        let service = McpService::new(server, HttpConfig::default());
        let legacy = Era { session: Some(initialize(&service).await) };
        let modern = Era { session: None };
        let mut next_id = 1;
        for (name, era) in [(LEGACY, &legacy), (MODERN, &modern)] {
            if only.is_some_and(|only| only != name) {
                continue;
            }
            round(&service, era, next_id, calls / 10).await; // warm-up
            next_id += calls / 10;
            let mut ns = Vec::new();
            let mut allocations = 0.0;
            for _ in 0..rounds.max(1) {
                let (round_ns, round_allocations) = round(&service, era, next_id, calls).await;
                ns.push(round_ns);
                allocations = round_allocations;
                next_id += calls;
            }
            ns.sort_by(f64::total_cmp);
            println!(
                "{name}: {:.0} ns per call (median of {} rounds of {calls}; fastest {:.0}, slowest {:.0}), {allocations:.1} allocations per call",
                ns[ns.len() / 2],
                ns.len(),
                ns[0],
                ns[ns.len() - 1]
            );
        }
    });
}
