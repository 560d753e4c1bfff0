//! Middleware at the MCP level, over the stdio transport (in memory) and
//! over HTTP, in both eras: one layer refuses a tool by name, another times
//! every request, and the built-in timeout and concurrency limit hold.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::{Client, ClientError, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::middleware::{
    ConcurrencyLimit, LimitKey, McpRequest, Next, RequestLog, Timeout,
};
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
use mcp_toolkit_runtime::transport::http::HttpConfig;
use serde_json::json;
use tokio::net::TcpListener;

/// Echo the text back.
#[mcp_toolkit_runtime::mcp_tool]
fn echo(text: String) -> String {
    text
}

/// What the timing layer saw: method, name and how long it took.
type Timings = Arc<Mutex<Vec<(String, Option<String>, Duration)>>>;

/// A server with three tools behind three layers: timing (outermost), a
/// refusal of `delete_all`, and a 300 ms timeout.
fn server(timings: Timings, deleted: Arc<AtomicBool>) -> Server {
    let delete_all = ToolDef::new("delete_all", move |_: ToolCall| {
        let deleted = deleted.clone();
        async move {
            deleted.store(true, Ordering::SeqCst);
            Ok(CallToolResult::text("everything is gone"))
        }
    });
    let slow = ToolDef::new("slow", |_: ToolCall| async {
        tokio::time::sleep(Duration::from_secs(5)).await;
        Ok(CallToolResult::text("finally"))
    });
    Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![echo])
        .tool(delete_all)
        .tool(slow)
        .middleware(move |request: McpRequest, next: Next| {
            let timings = timings.clone();
            async move {
                let started = Instant::now();
                let method = request.method().to_owned();
                let name = request.name().map(str::to_owned);
                let response = next.run(request).await;
                timings
                    .lock()
                    .unwrap()
                    .push((method, name, started.elapsed()));
                response
            }
        })
        .middleware(|request: McpRequest, next: Next| async move {
            if request.tool() == Some("delete_all") {
                return request.fail("delete_all is switched off on this server");
            }
            next.run(request).await
        })
        .middleware(Timeout::new(Duration::from_millis(300)))
        .middleware(RequestLog::new())
        .build()
        .unwrap()
}

/// Drives one client through the three tools and checks what the layers did.
async fn exercise(client: &Client, timings: &Timings, deleted: &AtomicBool) {
    let echoed = client
        .call_tool("echo", &json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(echoed.content[0].as_text(), Some("hi"));

    let refused = client.call_tool("delete_all", &json!({})).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(
        refused.content[0].as_text(),
        Some("delete_all is switched off on this server")
    );
    assert!(!deleted.load(Ordering::SeqCst), "the handler must not run");

    let started = Instant::now();
    let slow = client.call_tool("slow", &json!({})).await.unwrap();
    assert_eq!(slow.is_error, Some(true));
    let text = slow.content[0].as_text().unwrap();
    assert!(text.contains("took longer than 300ms"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(3));

    let tools = client.list_tools().await.unwrap();
    assert_eq!(tools.len(), 3, "middleware does not hide tools");

    let timings = timings.lock().unwrap().clone();
    let seen: Vec<(&str, Option<&str>)> = timings
        .iter()
        .map(|(method, name, _)| (method.as_str(), name.as_deref()))
        .collect();
    assert_eq!(
        seen,
        [
            ("tools/call", Some("echo")),
            ("tools/call", Some("delete_all")),
            ("tools/call", Some("slow")),
            ("tools/list", None),
        ]
    );
    let slow_took = timings[2].2;
    assert!(
        slow_took >= Duration::from_millis(300) && slow_took < Duration::from_secs(3),
        "{slow_took:?}"
    );
}

fn options(era: EraChoice) -> ConnectOptions {
    ConnectOptions {
        era,
        ..ConnectOptions::default()
    }
}

#[tokio::test]
async fn layers_refuse_time_and_bound_requests_over_stdio() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let timings = Timings::default();
        let deleted = Arc::new(AtomicBool::new(false));
        let server = server(timings.clone(), deleted.clone());
        let client = Client::connect_in_memory(server, options(era))
            .await
            .unwrap();
        exercise(&client, &timings, &deleted).await;
    }
}

#[tokio::test]
async fn layers_refuse_time_and_bound_requests_over_http() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let timings = Timings::default();
        let deleted = Arc::new(AtomicBool::new(false));
        let server = server(timings.clone(), deleted.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let serving = tokio::spawn(server.serve_http_with(
            listener,
            HttpConfig::default(),
            std::future::pending(),
        ));
        let client = Client::connect_http_with(&url, options(era)).await.unwrap();
        // The legacy handshake is not routed through middleware.
        exercise(&client, &timings, &deleted).await;
        serving.abort();
    }
}

/// How many calls run at once, and the most that ever did.
#[derive(Clone, Default)]
struct Gauge {
    running: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
}

impl Gauge {
    fn enter(&self) {
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
    }

    fn leave(&self) {
        self.running.fetch_sub(1, Ordering::SeqCst);
    }

    fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }
}

/// A tool whose calls take 100 ms, each counted by every gauge in `gauges`.
fn counted(name: &str, gauges: Vec<Gauge>) -> ToolDef {
    ToolDef::new(name, move |_: ToolCall| {
        let gauges = gauges.clone();
        async move {
            gauges.iter().for_each(Gauge::enter);
            tokio::time::sleep(Duration::from_millis(100)).await;
            gauges.iter().for_each(Gauge::leave);
            Ok(CallToolResult::text("done"))
        }
    })
}

#[tokio::test]
async fn a_per_tool_limit_queues_calls_of_that_tool_only() {
    let (a, b, both) = (Gauge::default(), Gauge::default(), Gauge::default());
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(counted("a", vec![a.clone(), both.clone()]))
        .tool(counted("b", vec![b.clone(), both.clone()]))
        .middleware(ConcurrencyLimit::new(1, LimitKey::Tool))
        .build()
        .unwrap();
    let client = Client::connect_in_memory(server, ConnectOptions::default())
        .await
        .unwrap();
    let calls = (0..4).flat_map(|_| ["a", "b"]).map(|tool| {
        let client = client.clone();
        async move { client.call_tool(tool, &json!({})).await.unwrap() }
    });
    let results = concurrently(calls).await;
    assert!(results.iter().all(|r| r.is_error.is_none()));
    assert_eq!(a.most(), 1, "one `a` at a time");
    assert_eq!(b.most(), 1, "one `b` at a time");
    // Each tool spends 400 ms at its limit with calls queued; a server-wide
    // limit would never let an `a` and a `b` run together.
    assert_eq!(both.most(), 2, "an `a` and a `b` at once");
}

#[tokio::test]
async fn a_full_limit_can_refuse_instead_of_queueing() {
    let gauge = Gauge::default();
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(counted("a", vec![gauge.clone()]))
        .middleware(ConcurrencyLimit::new(2, LimitKey::Client).reject_when_full())
        .build()
        .unwrap();
    let client = Client::connect_in_memory(server, ConnectOptions::default())
        .await
        .unwrap();
    let calls = (0..5).map(|_| {
        let client = client.clone();
        async move { client.call_tool("a", &json!({})).await.unwrap() }
    });
    let results = concurrently(calls).await;
    let refused: Vec<_> = results
        .iter()
        .filter(|r| r.is_error == Some(true))
        .map(|r| r.content[0].as_text().unwrap().to_owned())
        .collect();
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(refused[0].contains("too many requests at once (at most 2)"));
    assert_eq!(gauge.most(), 2);
    // The allowance comes back when the calls end.
    let later = client.call_tool("a", &json!({})).await.unwrap();
    assert_eq!(later.is_error, None);
}

/// Runs the calls at once, each on its own task, and collects their results.
async fn concurrently<F>(calls: impl Iterator<Item = F>) -> Vec<CallToolResult>
where
    F: std::future::Future<Output = CallToolResult> + Send + 'static,
{
    let handles: Vec<_> = calls.map(tokio::spawn).collect();
    let mut results = Vec::new();
    for handle in handles {
        results.push(handle.await.unwrap());
    }
    results
}

/// A layer that panics fails only the request it was serving: the client
/// gets -32603 for it (not the panic's message, which may hold what the
/// server must not tell), and the server goes on answering.
#[tokio::test]
async fn a_panicking_layer_fails_its_request_and_the_server_goes_on() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let server = Server::builder(mcp_toolkit_runtime::server_info!())
            .register(mcp_toolkit_runtime::definitions![echo])
            .middleware(|request: McpRequest, next: Next| async move {
                let text = request
                    .params()
                    .and_then(|p| p.pointer("/arguments/text").cloned());
                if text == Some(json!("boom")) {
                    panic!("the layer broke");
                }
                next.run(request).await
            })
            .build()
            .unwrap();
        let client = Client::connect_in_memory(server, options(era))
            .await
            .unwrap();
        let failed = client.call_tool("echo", &json!({"text": "boom"})).await;
        match failed {
            Err(ClientError::Protocol(error)) => {
                assert_eq!(error.code, -32603, "{error:?}");
                assert!(error.message.contains("panicked"), "{error:?}");
                assert!(!error.message.contains("the layer broke"), "{error:?}");
            }
            other => panic!("{era:?}: expected -32603, got {other:?}"),
        }
        let echoed = client
            .call_tool("echo", &json!({"text": "still here"}))
            .await
            .unwrap();
        assert_eq!(echoed.content[0].as_text(), Some("still here"));
    }
}
