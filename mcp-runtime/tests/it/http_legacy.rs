//! The 2025-11-25 era over Streamable HTTP: sessions minted by `initialize`,
//! 404 for unknown ones, DELETE, expiry, cancellation by notification.

use crate::http_support;

use std::net::SocketAddr;
use std::time::Duration;

use http_support::*;
use hyper::{Method, StatusCode};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::{Value, json};

/// Runs the handshake; returns the session id.
async fn start_session(addr: SocketAddr) -> String {
    let reply = post(addr, &[], &legacy_initialize()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.json()["result"]["protocolVersion"], "2025-11-25");
    let id = reply
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = post(addr, &session_headers(&id), &initialized).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    id
}

fn session_headers(id: &str) -> [(&str, &str); 2] {
    [
        ("mcp-session-id", id),
        ("mcp-protocol-version", "2025-11-25"),
    ]
}

fn legacy_call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": {"progressToken": id}}
    })
}

#[tokio::test]
async fn a_session_serves_requests_until_deleted() {
    let server = TestServer::default().await;
    let id = start_session(server.addr).await;
    assert_eq!(id.len(), 64);
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));

    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let reply = post(server.addr, &session_headers(&id), &list).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.json()["result"]["tools"].as_array().unwrap().len() >= 4);
    assert!(reply.json()["result"].get("ttlMs").is_none());

    let call = legacy_call(2, "echo", json!({"text": "hi"}));
    let reply = post(server.addr, &session_headers(&id), &call).await;
    let body = reply.json();
    assert_eq!(body["result"]["content"][0]["text"], "hi");
    assert!(body["result"].get("resultType").is_none());

    // A legacy panic is -32603 too, and the session lives on.
    let reply = post(
        server.addr,
        &session_headers(&id),
        &legacy_call(3, "panic", json!({})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json()["error"]["code"], -32603);

    // GET offers no stream: 405 (after the session check).
    let reply = send(server.addr, Method::GET, &session_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);

    let reply = send(server.addr, Method::DELETE, &session_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    let reply = post(server.addr, &session_headers(&id), &list).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    let reply = send(server.addr, Method::DELETE, &session_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    server.assert_serving().await;
}

#[tokio::test]
async fn unknown_and_missing_sessions() {
    let server = TestServer::default().await;
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let reply = post(server.addr, &session_headers(&"0".repeat(64)), &list).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    let reply = send(server.addr, Method::GET, &session_headers("nope"), "").await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);

    let reply = post(server.addr, &[], &list).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["id"], 1);

    // A failed handshake mints no session.
    let bad = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}});
    let reply = post(server.addr, &[], &bad).await;
    assert!(reply.json()["error"].is_object());
    assert!(reply.header("mcp-session-id").is_none());

    // Sessions are not shared: each initialize mints a new one.
    let a = start_session(server.addr).await;
    let b = start_session(server.addr).await;
    assert_ne!(a, b);

    // A session does not accept an unknown protocol version header.
    let headers = [
        ("mcp-session-id", a.as_str()),
        ("mcp-protocol-version", "1999-01-01"),
    ];
    let reply = post(server.addr, &headers, &list).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn progress_streams_in_a_session() {
    let server = TestServer::default().await;
    let id = start_session(server.addr).await;
    let reply = post(
        server.addr,
        &session_headers(&id),
        &legacy_call(4, "progress", json!({})),
    )
    .await;
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let events = reply.events();
    assert_eq!(events.len(), 4);
    assert_eq!(events[0]["params"]["progressToken"], 4);
    assert_eq!(events[3]["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn notifications_cancelled_reaches_the_request_in_flight() {
    let mut server = TestServer::default().await;
    let id = start_session(server.addr).await;
    let (addr, session) = (server.addr, id.clone());
    let in_flight = tokio::spawn(async move {
        post(
            addr,
            &session_headers(&session),
            &legacy_call(9, "wait", json!({})),
        )
        .await
    });
    assert_eq!(server.event().await, "started");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9, "reason": "test"}});
    let reply = post(server.addr, &session_headers(&id), &cancel).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert_eq!(server.event().await, "cancelled");
    // The stream ends without a response for the cancelled request.
    let reply = bounded(in_flight).await.unwrap();
    assert!(
        reply.events().iter().all(|e| e.get("id").is_none()),
        "{}",
        reply.text()
    );
    server.assert_serving().await;
}

#[tokio::test]
async fn deleting_a_session_cancels_its_requests() {
    let mut server = TestServer::default().await;
    let id = start_session(server.addr).await;
    let (addr, session) = (server.addr, id.clone());
    let _in_flight = tokio::spawn(async move {
        post(
            addr,
            &session_headers(&session),
            &legacy_call(9, "wait", json!({})),
        )
        .await
    });
    assert_eq!(server.event().await, "started");
    let reply = send(server.addr, Method::DELETE, &session_headers(&id), "").await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_eq!(server.event().await, "cancelled");
}

#[tokio::test]
async fn idle_sessions_expire() {
    let config = HttpConfig {
        session_idle_timeout: Duration::from_millis(200),
        ..HttpConfig::default()
    };
    let server = TestServer::start(config).await;
    let id = start_session(server.addr).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let reply = post(server.addr, &session_headers(&id), &list).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_session_count_is_bounded() {
    let config = HttpConfig {
        max_sessions: 1,
        ..HttpConfig::default()
    };
    let server = TestServer::start(config).await;
    let id = start_session(server.addr).await;
    let reply = post(server.addr, &[], &legacy_initialize()).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(reply.header("mcp-session-id").is_none());
    // Ending a session makes room.
    send(server.addr, Method::DELETE, &session_headers(&id), "").await;
    start_session(server.addr).await;
}
