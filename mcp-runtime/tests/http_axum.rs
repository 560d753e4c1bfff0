//! `McpService` mounts in an axum `Router` next to the application's own
//! routes, with the same checks as `serve_http`.

mod http_support;

use axum::Router;
use axum::routing::get;
use http_support::*;
use hyper::{Method, StatusCode};
use mcp_runtime::transport::HttpConfig;
use mcp_runtime::transport::http::McpService;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

#[tokio::test]
async fn mounts_in_an_axum_router() {
    let (events, _) = mpsc::unbounded_channel();
    let mcp = McpService::new(test_server(events), HttpConfig::default());
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/mcp", mcp);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = tokio::spawn(async move { axum::serve(listener, app).await });

    let reply = call(addr, 1, "echo", json!({"text": "via axum"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.json()["result"]["content"][0]["text"], "via axum");

    let reply = call(addr, 2, "progress", json!({})).await;
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    assert_eq!(reply.events().len(), 4);

    let forged = [("host", "evil.example")];
    let reply = send(addr, Method::POST, &forged, "{}").await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);

    let reply = send(addr, Method::GET, &[], "").await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    serving.abort();
}
