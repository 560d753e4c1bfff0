//! Each safe default of the Streamable HTTP transport refuses what it should,
//! and the server keeps serving afterwards.

use crate::http_support;

use std::time::Duration;

use http_support::*;
use hyper::{Method, StatusCode};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A well-formed `tools/call` of `echo` with extra headers.
async fn echo_with(server: &TestServer, extra: &[(&str, &str)]) -> Reply {
    let mut headers: Vec<(&str, &str)> = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "echo"),
    ];
    headers.extend_from_slice(extra);
    post(
        server.addr,
        &headers,
        &call_body(1, "echo", json!({"text": "x"})),
    )
    .await
}

#[tokio::test]
async fn forged_host_is_403() {
    let server = TestServer::default().await;
    for host in ["evil.example", "evil.example:80", "localhost.evil.example"] {
        let reply = echo_with(&server, &[("host", host)]).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{host}");
        assert_eq!(reply.json()["error"]["code"], -32600);
        server.assert_serving().await;
    }
    for host in ["localhost:1234", "[::1]:80", "127.0.0.1"] {
        let reply = echo_with(&server, &[("host", host)]).await;
        assert_eq!(reply.status, StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn foreign_origin_and_null_origin_are_403() {
    let server = TestServer::default().await;
    for origin in [
        "http://evil.example",
        "null",
        "https://localhost.evil.example",
    ] {
        let reply = echo_with(&server, &[("origin", origin)]).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{origin}");
        server.assert_serving().await;
    }
    let reply = echo_with(&server, &[("origin", "http://localhost:5173")]).await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn allow_lists_are_configurable() {
    let config = HttpConfig {
        allowed_hosts: Some(vec!["mcp.example.com".into()]),
        allowed_origins: None,
        ..HttpConfig::default()
    };
    let server = TestServer::start(config).await;
    let reply = echo_with(
        &server,
        &[("host", "mcp.example.com"), ("origin", "https://anything")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let reply = echo_with(&server, &[("host", "localhost")]).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn oversized_body_is_413() {
    let config = HttpConfig {
        max_body_bytes: 1024,
        ..HttpConfig::default()
    };
    let server = TestServer::start(config).await;
    let big = json!({"text": "x".repeat(2000)});
    // Declared by Content-Length (hyper's client sets it for a full body).
    let reply = post(server.addr, &[], &call_body(1, "echo", big.clone())).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    server.assert_serving().await;

    // Undeclared: chunked, found while reading.
    let body = serde_json::to_string(&call_body(1, "echo", big)).unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
         transfer-encoding: chunked\r\nconnection: close\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
        body.len()
    );
    let response = raw(&server, request.as_bytes()).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    server.assert_serving().await;
}

#[tokio::test]
async fn the_default_body_limit_is_4_mib() {
    assert_eq!(HttpConfig::default().max_body_bytes, 4 * 1024 * 1024);
    let server = TestServer::default().await;
    let big = json!({"text": "x".repeat(4 * 1024 * 1024)});
    let reply = post(server.addr, &[], &call_body(1, "echo", big)).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    server.assert_serving().await;
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let server = TestServer::default().await;
    let body = serde_json::to_vec(&call_body(1, "echo", json!({"text": "x"}))).unwrap();
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let mut headers = vec![("accept", "application/json, text/event-stream")];
        headers.extend(content_type.map(|c| ("content-type", c)));
        let reply = send(server.addr, Method::POST, &headers, body.clone()).await;
        assert_eq!(
            reply.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}"
        );
        server.assert_serving().await;
    }
}

#[tokio::test]
async fn accept_without_json_or_sse_is_406() {
    let server = TestServer::default().await;
    let body = serde_json::to_vec(&call_body(1, "echo", json!({"text": "x"}))).unwrap();
    let headers = [
        ("content-type", "application/json"),
        ("accept", "text/html"),
    ];
    let reply = send(server.addr, Method::POST, &headers, body.clone()).await;
    assert_eq!(reply.status, StatusCode::NOT_ACCEPTABLE);
    server.assert_serving().await;
}

#[tokio::test]
async fn a_panicking_tool_is_32603_and_the_server_keeps_serving() {
    let server = TestServer::default().await;
    for id in 1..=3 {
        let reply = call(server.addr, id, "panic", json!({})).await;
        assert_eq!(reply.status, StatusCode::OK);
        let body = reply.json();
        assert_eq!(body["id"], id);
        assert_eq!(body["error"]["code"], -32603, "{body}");
        server.assert_serving().await;
    }
}

#[tokio::test]
async fn other_methods_and_paths() {
    let server = TestServer::default().await;
    let reply = send(server.addr, Method::PUT, &[], "").await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(reply.header("allow"), Some("POST, DELETE"));
    let reply = raw(
        &server,
        b"GET /other HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(reply.starts_with("HTTP/1.1 404"), "{reply}");
    server.assert_serving().await;
}

#[tokio::test]
async fn slow_headers_and_idle_connections_are_closed() {
    let config = HttpConfig {
        header_read_timeout: Duration::from_millis(300),
        ..HttpConfig::default()
    };
    let server = TestServer::start(config).await;
    // Half a request head, then silence; and a connection that sends
    // nothing at all: the server hangs up on both.
    for start in [&b"POST /mcp HTTP/1.1\r\nho"[..], b""] {
        let started = std::time::Instant::now();
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        stream.write_all(start).await.unwrap();
        let mut buf = Vec::new();
        let _ = bounded(stream.read_to_end(&mut buf)).await;
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    server.assert_serving().await;
}

#[tokio::test]
async fn slow_bodies_are_408() {
    let config = HttpConfig {
        body_read_timeout: Duration::from_millis(300),
        ..HttpConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n\
              content-length: 100\r\n\r\n{\"jsonrpc\":",
        )
        .await
        .unwrap();
    let mut buf = vec![0u8; 1024];
    let n = bounded(stream.read(&mut buf)).await.unwrap();
    let response = String::from_utf8_lossy(&buf[..n]);
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    server.assert_serving().await;
}

/// Writes raw bytes on a fresh connection and reads until the server
/// closes it.
async fn raw(server: &TestServer, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut buf = Vec::new();
    let _ = bounded(stream.read_to_end(&mut buf)).await;
    String::from_utf8_lossy(&buf).into_owned()
}
