//! Dropping a call cancels it at the server over Streamable HTTP, in both
//! eras: by `notifications/cancelled` in a legacy session, by closing the
//! response stream in 2026-07-28.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;

/// Set when the server stops the handler before it finishes.
struct StopFlag(Arc<AtomicBool>);

impl Drop for StopFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

async fn serve(stopped: Arc<AtomicBool>) -> String {
    let slow = ToolDef::new("slow", move |_call: ToolCall| {
        let flag = StopFlag(stopped.clone());
        async move {
            tokio::time::sleep(Duration::from_secs(5)).await;
            std::mem::forget(flag);
            Ok(CallToolResult::text("done"))
        }
    });
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(slow)
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(server.serve_http_with(listener, HttpConfig::default(), std::future::pending()));
    url
}

#[tokio::test]
async fn a_dropped_call_is_cancelled_at_the_server_in_both_eras() {
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let stopped = Arc::new(AtomicBool::new(false));
        let url = serve(stopped.clone()).await;
        let options = ConnectOptions {
            era,
            ..ConnectOptions::default()
        };
        let client = Client::connect_http_with(&url, options).await.unwrap();
        let arguments = json!({});
        let call = client.call_tool("slow", &arguments);
        assert!(
            tokio::time::timeout(Duration::from_millis(200), call)
                .await
                .is_err()
        );
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        while !stopped.load(Ordering::SeqCst) && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            stopped.load(Ordering::SeqCst),
            "{era:?}: the handler kept running"
        );
    }
}
