//! `McpService` mounts in an axum `Router` next to the application's own
//! routes, with the same checks as `serve_http`.

use crate::http_support;

use axum::Router;
use axum::routing::get;
use http_support::*;
use hyper::{Method, StatusCode};
use mcp_toolkit_runtime::transport::HttpConfig;
use mcp_toolkit_runtime::transport::http::McpService;
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

/// Application state an outer axum layer puts in the request.
#[derive(Clone)]
struct Tenant(&'static str);

/// A handler reads a header the client set and an extension an outer axum
/// layer set, but never the client's `Authorization`; the same tool over
/// stdio sees neither.
#[tokio::test]
async fn handlers_see_the_client_headers_and_the_layers_extensions() {
    use mcp_toolkit_runtime::client::{Client, ConnectOptions};
    use mcp_toolkit_runtime::protocol::CallToolResult;
    use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};

    fn server() -> Server {
        let context = ToolDef::new("context", |call: ToolCall| async move {
            let context = call.context();
            let header = context
                .http_headers()
                .and_then(|headers| headers.get("x-request-origin"))
                .and_then(|value| value.to_str().ok())
                .map(str::to_owned);
            let credential = context
                .http_headers()
                .is_some_and(|headers| headers.contains_key("authorization"));
            let tenant = context.http_extension::<Tenant>().map(|tenant| tenant.0);
            CallToolResult::structured(
                &json!({"header": header, "tenant": tenant, "credential": credential}),
            )
        });
        Server::builder(mcp_toolkit_runtime::server_info!())
            .tool(context)
            .build()
            .unwrap()
    }

    let mcp = McpService::new(server(), HttpConfig::default());
    let app = Router::new()
        .route_service("/mcp", mcp)
        .layer(axum::Extension(Tenant("acme")));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = tokio::spawn(async move { axum::serve(listener, app).await });

    let mut headers = call_headers("context");
    headers.push(("x-request-origin", "ide-plugin".to_owned()));
    headers.push(("authorization", "Bearer not-for-handlers".to_owned()));
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let reply = post(addr, &headers, &call_body(1, "context", json!({}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(
        reply.json()["result"]["structuredContent"],
        json!({"header": "ide-plugin", "tenant": "acme", "credential": false})
    );
    serving.abort();

    let client = Client::connect_in_memory(server(), ConnectOptions::default())
        .await
        .unwrap();
    let result = client.call_tool("context", &json!({})).await.unwrap();
    assert_eq!(
        result.structured_content,
        Some(json!({"header": null, "tenant": null, "credential": false}))
    );
}
