//! The end of a stdio server's input: requests still in flight are answered
//! before `serve_io` returns, and one that outlasts
//! `StdioConfig::shutdown_grace` is cancelled so that the server still stops.

use std::time::Duration;

use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::transport::StdioConfig;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sleep, then say so.
///
/// # Arguments
///
/// * `ms` - How long to sleep, in milliseconds.
#[mcp_tool]
async fn nap(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".to_owned()
}

/// Sends the handshake and one `nap` call, closes the input, and returns
/// how long `serve_io` took to return after that, and every reply it wrote.
async fn call_then_close(nap_ms: u64, grace: Duration) -> (Duration, Vec<Value>) {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![nap])
        .build()
        .unwrap();
    let (mut input, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut output) = tokio::io::duplex(1 << 16);
    let config = StdioConfig {
        shutdown_grace: grace,
        ..StdioConfig::default()
    };
    let serving = tokio::spawn(server.serve_io(server_in, server_out, config));

    let messages = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "nap", "arguments": {"ms": nap_ms}}}),
    ];
    for message in messages {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        input.write_all(&line).await.unwrap();
    }
    // Let the call start before the input ends.
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(input);
    let closed = tokio::time::Instant::now();

    tokio::time::timeout(Duration::from_secs(10), serving)
        .await
        .expect("serve_io returns after the input ends")
        .unwrap()
        .unwrap();
    let took = closed.elapsed();
    let mut written = String::new();
    output.read_to_string(&mut written).await.unwrap();
    let replies = written
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (took, replies)
}

#[tokio::test]
async fn a_call_in_flight_at_the_end_of_input_is_answered() {
    let (took, replies) = call_then_close(300, Duration::from_secs(5)).await;
    let call = replies
        .iter()
        .find(|reply| reply["id"] == 1)
        .expect("the call in flight was answered");
    assert_eq!(call["result"]["content"][0]["text"], "rested", "{call}");
    assert!(
        took >= Duration::from_millis(200),
        "returned before the call ended: {took:?}"
    );
}

#[tokio::test]
async fn a_call_that_outlasts_the_grace_is_cancelled() {
    let (took, replies) = call_then_close(60_000, Duration::from_millis(200)).await;
    assert!(
        took < Duration::from_secs(5),
        "waited {took:?} for a 60 s call"
    );
    assert!(
        replies.iter().all(|reply| reply["id"] != 1),
        "a cancelled call is not answered: {replies:?}"
    );
}
