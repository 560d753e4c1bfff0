//! A legacy HTTP session that expires on the server (404 on its id) is
//! renewed by the client with a new `initialize`, and the call goes through.

use std::time::Duration;

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{Server, ToolDef};
use mcp_toolkit_runtime::transport::http::HttpConfig;

#[tokio::test]
async fn an_expired_legacy_session_is_renewed_transparently() {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(ToolDef::new("ping", |_| async {
            Ok(CallToolResult::text("pong"))
        }))
        .build()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let config = HttpConfig {
        session_idle_timeout: Duration::from_millis(300),
        ..HttpConfig::default()
    };
    tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));

    let options = ConnectOptions {
        era: EraChoice::Legacy,
        ..ConnectOptions::default()
    };
    let client = Client::connect_http_with(&url, options).await.unwrap();
    let first = client
        .call_tool("ping", &serde_json::json!({}))
        .await
        .unwrap();
    assert_eq!(first.content[0].as_text(), Some("pong"));
    // The session expires on the server.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let again = client
        .call_tool("ping", &serde_json::json!({}))
        .await
        .expect("a new session, and the call goes through");
    assert_eq!(again.content[0].as_text(), Some("pong"));
}
