//! The stateless legacy mode (`HttpConfig::stateless_legacy`): `initialize`
//! mints no session, and legacy requests without one are served on their
//! own, so that any instance can serve any request.

use crate::http_support;

use http_support::*;
use hyper::StatusCode;
use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::server::Era;
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;

async fn stateless() -> TestServer {
    TestServer::start(HttpConfig {
        stateless_legacy: true,
        ..HttpConfig::default()
    })
    .await
}

#[tokio::test]
async fn initialize_mints_no_session_and_requests_need_none() {
    let server = stateless().await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}
        }
    });
    let reply = post(server.addr, &[], &initialize).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.json()["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(reply.header("mcp-session-id"), None);

    let version = [("mcp-protocol-version", "2025-11-25")];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(
        post(server.addr, &version, &initialized).await.status,
        StatusCode::ACCEPTED
    );
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hi"}}
    });
    // With and without a version header (2025-03-26 is assumed then).
    for headers in [&version[..], &[]] {
        let reply = post(server.addr, headers, &call).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
        assert_eq!(reply.json()["result"]["content"][0]["text"], "hi");
    }

    // Progress still streams over SSE.
    let progress = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "progress", "arguments": {}, "_meta": {"progressToken": 7}}
    });
    let events = post(server.addr, &version, &progress).await.events();
    assert_eq!(events.len(), 4, "{events:?}");
    assert_eq!(events[3]["result"]["content"][0]["text"], "done");

    // No session ids exist, so a named one is unknown.
    let named = [("mcp-session-id", "00ff"), version[0]];
    assert_eq!(
        post(server.addr, &named, &call).await.status,
        StatusCode::NOT_FOUND
    );
    server.assert_serving().await;
}

#[tokio::test]
async fn sessionless_legacy_requests_are_refused_by_default() {
    let server = TestServer::default().await;
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hi"}}
    });
    let reply = post(server.addr, &[], &call).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text());
}

#[tokio::test]
async fn the_runtime_client_works_against_a_stateless_server() {
    let server = stateless().await;
    let url = format!("http://{}/mcp", server.addr);
    for (choice, era) in [
        (EraChoice::Legacy, Era::Legacy),
        (EraChoice::Auto, Era::Modern),
    ] {
        let options = ConnectOptions {
            era: choice,
            ..ConnectOptions::default()
        };
        let client = bounded(Client::connect_http_with(&url, options))
            .await
            .unwrap();
        assert_eq!(client.server().era, era);
        let content = bounded(client.call_tool_content("echo", &json!({"text": "ok"})))
            .await
            .unwrap();
        assert_eq!(content[0].as_text(), Some("ok"));
    }
}
