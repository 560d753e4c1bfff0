//! `Mcp-Param-*` headers over HTTP (2026-07-28): a tool whose input schema
//! marks properties with `x-mcp-header` gets its calls' headers checked
//! against the arguments; a mismatch or a missing header is -32020 with
//! HTTP 400, and the server keeps serving.

use crate::http_support;

use std::net::SocketAddr;

use http_support::*;
use hyper::StatusCode;
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{Server, ToolCall, ToolDef};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;
use tokio::net::TcpListener;

async fn start() -> SocketAddr {
    let forecast = ToolDef::new("forecast", |call: ToolCall| async move {
        let region: String = call.argument("region")?;
        let days: i64 = call.argument("days")?;
        Ok(CallToolResult::text(format!("{region}/{days}")))
    })
    .input_schema(json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "days": {"type": "integer", "x-mcp-header": "Days"}
        },
        "required": ["region", "days"]
    }));
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(forecast)
        .build()
        .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server.serve_http_with(listener, HttpConfig::default(), std::future::pending()));
    addr
}

async fn forecast(addr: SocketAddr, params: &[(&'static str, &'static str)]) -> Reply {
    let headers = call_headers("forecast");
    let mut headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    headers.extend_from_slice(params);
    let body = call_body(1, "forecast", json!({"region": "Zürich", "days": 3}));
    post(addr, &headers, &body).await
}

#[tokio::test]
async fn matching_param_headers_are_served() {
    let addr = start().await;
    let reply = forecast(
        addr,
        &[
            ("mcp-param-region", "=?base64?WsO8cmljaA==?="),
            ("mcp-param-days", "3"),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let result = reply.events().pop().unwrap_or_else(|| reply.json());
    assert_eq!(result["result"]["content"][0]["text"], "Zürich/3");
}

#[tokio::test]
async fn mismatched_or_missing_param_headers_are_32020() {
    let addr = start().await;
    let cases: [&[(&str, &str)]; 4] = [
        &[("mcp-param-days", "3")],
        &[("mcp-param-region", "Zürich-ish"), ("mcp-param-days", "3")],
        &[
            ("mcp-param-region", "=?base64?WsO8cmljaA==?="),
            ("mcp-param-days", "4"),
        ],
        &[
            ("mcp-param-region", "=?base64?not base64?="),
            ("mcp-param-days", "3"),
        ],
    ];
    for params in cases {
        let reply = forecast(addr, params).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{params:?}");
        assert_eq!(reply.json()["error"]["code"], -32020, "{params:?}");
    }
    let reply = forecast(
        addr,
        &[
            ("mcp-param-region", "=?base64?WsO8cmljaA==?="),
            ("mcp-param-days", "3"),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "still serving");
}
