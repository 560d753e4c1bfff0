//! The runtime's client against the runtime's server over an in-memory pipe,
//! in both eras.

use crate::client_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_toolkit_runtime::client::{
    Client, ClientError, ConnectOptions, EraChoice, ToolCallError, tool_fingerprint,
};
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{Era, Server, ToolCall, ToolDef, ToolError};
use mcp_toolkit_runtime::transport::StdioConfig;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Serialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Sum {
    sum: i64,
}

fn server(cancelled: Arc<AtomicBool>) -> Server {
    let add = ToolDef::new("add", |call: ToolCall| async move {
        let (a, b): (i64, i64) = (call.argument("a")?, call.argument("b")?);
        CallToolResult::structured(&json!({"sum": a + b}))
    })
    .input_schema(json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}))
    .output_schema(json!({"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}));
    let fail = ToolDef::new("fail", |_call: ToolCall| async move {
        Err::<CallToolResult, _>(ToolError::new("nope"))
    });
    let slow = ToolDef::new("slow", move |call: ToolCall| {
        // Set when the server stops the handler before it finishes.
        let stopped = StopFlag(cancelled.clone());
        async move {
            for step in 1..=2 {
                call.context()
                    .report_progress(f64::from(step), Some(2.0), None)
                    .await;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
            std::mem::forget(stopped);
            Ok(CallToolResult::text("done"))
        }
    });
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(add)
        .tool(fail)
        .tool(slow)
        .build()
        .unwrap()
}

struct StopFlag(Arc<AtomicBool>);

impl Drop for StopFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

async fn connect(era: EraChoice) -> (Client, Arc<AtomicBool>) {
    let cancelled = Arc::new(AtomicBool::new(false));
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    let server = server(cancelled.clone());
    (
        Client::connect_in_memory(server, options).await.unwrap(),
        cancelled,
    )
}

#[tokio::test]
async fn auto_negotiates_the_modern_era_and_legacy_can_be_pinned() {
    let (client, _) = connect(EraChoice::Auto).await;
    assert_eq!(client.server().era, Era::Modern);
    assert_eq!(client.server().protocol_version, "2026-07-28");
    assert_eq!(
        client.server().server_info.as_ref().unwrap().name,
        env!("CARGO_PKG_NAME")
    );
    let (client, _) = connect(EraChoice::Legacy).await;
    assert_eq!(client.server().era, Era::Legacy);
    assert_eq!(client.server().protocol_version, "2025-11-25");
}

#[tokio::test]
async fn typed_calls_in_both_eras() {
    for era in [EraChoice::Modern, EraChoice::Legacy] {
        let (client, _) = connect(era).await;
        assert_eq!(
            client_support::tool_names(&client).await,
            ["add", "fail", "slow"]
        );
        let sum: Sum = client
            .call_tool_as("add", &AddArgs { a: 2, b: 40 })
            .await
            .unwrap();
        assert_eq!(sum, Sum { sum: 42 });

        let error = client
            .call_tool_as::<_, Sum>("fail", &json!({}))
            .await
            .unwrap_err();
        assert!(matches!(&error, ToolCallError::Tool(_)), "{error:?}");
        assert_eq!(error.tool_message().unwrap(), "nope");

        let error = client
            .call_tool_as::<_, Sum>("missing", &json!({}))
            .await
            .unwrap_err();
        assert!(
            matches!(error, ToolCallError::Client(ClientError::Protocol(ref e)) if e.code == -32602),
            "{error:?}"
        );

        let error = client.call_tool("add", &json!([1, 2])).await.unwrap_err();
        assert!(
            matches!(error, ClientError::InvalidArguments(_)),
            "{error:?}"
        );
    }
}

#[tokio::test]
async fn concurrent_calls_share_one_connection() {
    let (client, _) = connect(EraChoice::Auto).await;
    let calls = (0..200).map(|n| {
        let client = client.clone();
        async move {
            client
                .call_tool_as::<_, Sum>("add", &AddArgs { a: n, b: 1 })
                .await
                .unwrap()
                .sum
        }
    });
    let sums = futures_join_all(calls).await;
    assert_eq!(sums, (1..=200).collect::<Vec<_>>());
}

#[tokio::test]
async fn progress_reaches_the_callback() {
    let (client, _) = connect(EraChoice::Auto).await;
    let mut seen = Vec::new();
    let result = client
        .call_tool_with_progress("slow", &json!({}), |p| seen.push(p.progress))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("done"));
    assert_eq!(seen, [1.0, 2.0]);
}

#[tokio::test]
async fn dropping_a_call_cancels_it_at_the_server() {
    let (client, cancelled) = connect(EraChoice::Legacy).await;
    let no_arguments = json!({});
    let call = client.call_tool("slow", &no_arguments);
    assert!(
        tokio::time::timeout(Duration::from_millis(50), call)
            .await
            .is_err()
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        cancelled.load(Ordering::SeqCst),
        "the server stopped the handler on notifications/cancelled"
    );
}

#[tokio::test]
async fn fingerprints_detect_drift() {
    let (client, _) = connect(EraChoice::Auto).await;
    let tools = client.list_tools().await.unwrap();
    let add = tools.iter().find(|t| t.name == "add").unwrap();
    let good = tool_fingerprint(add);
    client.verify_fingerprints(&[("add", &good)]).await.unwrap();
    let drift = client
        .verify_fingerprints(&[("add", "0000000000000000"), ("gone", &good)])
        .await
        .unwrap_err();
    assert_eq!(
        (drift.changed, drift.missing),
        (vec!["add".to_owned()], vec!["gone".to_owned()])
    );
}

#[tokio::test]
async fn a_server_that_goes_away_fails_calls_instead_of_hanging() {
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_in) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(server(Arc::default()).serve_io(
        server_in,
        server_out,
        StdioConfig::default(),
    ));
    let options = ConnectOptions {
        era: EraChoice::Legacy,
        ..ConnectOptions::default()
    };
    let client = Client::connect_io(client_in, client_out, options)
        .await
        .unwrap();
    serving.abort();
    let _ = serving.await;
    let error = client
        .call_tool("add", &AddArgs { a: 1, b: 2 })
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Closed), "{error:?}");
}

/// Awaits every future, in order, without an extra dependency.
async fn futures_join_all<F: std::future::Future<Output = i64> + Send + 'static>(
    futures: impl Iterator<Item = F>,
) -> Vec<i64> {
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test]
async fn an_unreadable_line_from_the_server_does_not_close_the_connection() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    // A hand-written legacy server: answers initialize, then sends a line of
    // invalid UTF-8 before answering the next request.
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (mut server_out, client_in) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let mut requests = BufReader::new(server_in).lines();
        while let Ok(Some(line)) = requests.next_line().await {
            let request: serde_json::Value = serde_json::from_str(&line).unwrap();
            let Some(id) = request.get("id").cloned() else {
                continue;
            };
            let result = match request["method"].as_str() {
                Some("initialize") => json!({"protocolVersion": "2025-11-25", "capabilities": {},
                    "serverInfo": {"name": "raw", "version": "1"}}),
                _ => {
                    server_out.write_all(b"\xff\xfe not utf-8\n").await.unwrap();
                    json!({"tools": []})
                }
            };
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
            server_out
                .write_all(format!("{reply}\n").as_bytes())
                .await
                .unwrap();
        }
    });
    let options = ConnectOptions {
        era: EraChoice::Legacy,
        ..ConnectOptions::default()
    };
    let client = Client::connect_io(client_in, client_out, options)
        .await
        .unwrap();
    assert!(client.list_tools().await.unwrap().is_empty());
}

#[tokio::test]
async fn limits_past_a_year_run_out_after_a_year_instead_of_panicking() {
    // `Instant + Duration::MAX` panics: every limit is bounded first.
    let options = ConnectOptions {
        connect_timeout: Some(Duration::MAX),
        discover_timeout: Duration::MAX,
        request_timeout: Duration::MAX,
        ..ConnectOptions::default()
    };
    let server = server(Arc::default());
    let client = Client::connect_in_memory(server, options).await.unwrap();
    let sum: Sum = client
        .call_tool_as("add", &AddArgs { a: 1, b: 2 })
        .await
        .unwrap();
    assert_eq!(sum, Sum { sum: 3 });
    client.close(Duration::MAX).await;
}

#[tokio::test]
async fn a_list_lifetime_past_a_year_is_a_year() {
    let options = mcp_toolkit_runtime::server::ServerOptions {
        list_ttl_ms: u64::MAX,
        ..Default::default()
    };
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .options(options)
        .build()
        .unwrap();
    let client = Client::connect_in_memory(server, ConnectOptions::default())
        .await
        .unwrap();
    let list = client.tool_list().await.unwrap();
    assert_eq!(list.ttl, Some(mcp_toolkit_runtime::lifetime::MAX_LIFETIME));
}
