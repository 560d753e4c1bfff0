//! The README's way to test a server, as written there: a client connected
//! in memory to a server built from `#[mcp_tool]` functions.

use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;

/// Echo the text back unchanged.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

#[tokio::test]
async fn echo_echoes() {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![echo])
        .build()
        .unwrap();
    let client = Client::connect_in_memory(server, ConnectOptions::default())
        .await
        .unwrap();
    let result = client
        .call_tool("echo", &serde_json::json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("hi"));
}
