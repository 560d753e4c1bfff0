//! The 2026-07-28 era over Streamable HTTP: stateless requests, header
//! validation, SSE progress, cancellation by closing the stream, and
//! graceful shutdown.

use crate::http_support;

use std::time::Duration;

use http_body_util::BodyExt;
use http_support::*;
use hyper::{Method, StatusCode};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;

#[tokio::test]
async fn a_call_is_answered_with_json() {
    let server = TestServer::default().await;
    let reply = call(server.addr, 7, "echo", json!({"text": "hi"})).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(reply.header("mcp-session-id").is_none());
    let body = reply.json();
    assert_eq!(body["id"], 7);
    assert_eq!(body["result"]["content"][0]["text"], "hi");
    assert_eq!(body["result"]["resultType"], "complete");
}

#[tokio::test]
async fn discover_and_list_carry_their_method_header() {
    let server = TestServer::default().await;
    for method in ["server/discover", "tools/list"] {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": modern_meta()}});
        let headers = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        let reply = post(server.addr, &headers, &body).await;
        assert_eq!(reply.status, StatusCode::OK, "{method}: {}", reply.text());
        assert!(reply.json()["result"].is_object());
    }
}

#[tokio::test]
async fn headers_that_disagree_with_the_body_are_32020_with_400() {
    let server = TestServer::default().await;
    let body = call_body(1, "echo", json!({"text": "x"}));
    let cases: [&[(&str, &str)]; 6] = [
        &[("mcp-method", "tools/call"), ("mcp-name", "echo")],
        &[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "echo"),
        ],
        &[("mcp-protocol-version", "2026-07-28"), ("mcp-name", "echo")],
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
            ("mcp-name", "echo"),
        ],
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
        ],
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "panic"),
        ],
    ];
    for headers in cases {
        let reply = post(server.addr, headers, &body).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{headers:?}");
        let error = reply.json();
        assert_eq!(error["id"], 1);
        assert_eq!(error["error"]["code"], -32020, "{error}");
    }
    server.assert_serving().await;
}

#[tokio::test]
async fn base64_encoded_names_are_decoded_before_comparing() {
    let server = TestServer::default().await;
    // "ünï" is not plain ASCII: clients send it Base64-encoded. No such
    // tool exists, so a match reaches dispatch (-32602, 200) while a
    // mismatch stops at the headers (-32020, 400).
    let mut body = call_body(1, "echo", json!({}));
    body["params"]["name"] = json!("ünï");
    let encoded = "=?base64?w7xuw68=?=";
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", encoded),
    ];
    let reply = post(server.addr, &headers, &body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    assert_eq!(reply.json()["error"]["code"], -32602);

    let wrong = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "=?base64?dW5p?="),
    ];
    let reply = post(server.addr, &wrong, &body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["code"], -32020);
}

#[tokio::test]
async fn protocol_errors_have_their_http_status() {
    let server = TestServer::default().await;
    // Unknown method: 404 with -32601.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "nope/nope", "params": {"_meta": modern_meta()}});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "nope/nope"),
    ];
    let reply = post(server.addr, &headers, &body).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json()["error"]["code"], -32601);

    // Unsupported version: 400 with -32022.
    let mut meta = modern_meta();
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let body =
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}});
    let headers = [
        ("mcp-protocol-version", "2099-01-01"),
        ("mcp-method", "tools/list"),
    ];
    let reply = post(server.addr, &headers, &body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["code"], -32022);

    // Missing client capabilities: 400 with -32602.
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
    ];
    let reply = post(server.addr, &headers, &body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["code"], -32602);

    // Not JSON at all: 400 with -32700.
    let mut all = POST_HEADERS.to_vec();
    all.extend_from_slice(&headers);
    let reply = send(server.addr, Method::POST, &all, "{not json").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["error"]["code"], -32700);
    server.assert_serving().await;
}

#[tokio::test]
async fn notifications_are_202_and_get_is_405() {
    let server = TestServer::default().await;
    let body =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    let reply = post(server.addr, &[], &body).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.body.is_empty());
    let reply = send(
        server.addr,
        Method::GET,
        &[("accept", "text/event-stream")],
        "",
    )
    .await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn progress_turns_the_response_into_an_event_stream() {
    let server = TestServer::default().await;
    let reply = call(server.addr, 5, "progress", json!({})).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    assert_eq!(reply.header("x-accel-buffering"), Some("no"));
    let events = reply.events();
    assert_eq!(events.len(), 4, "{}", reply.text());
    for (i, event) in events[..3].iter().enumerate() {
        assert_eq!(event["method"], "notifications/progress");
        assert_eq!(event["params"]["progressToken"], "p5");
        assert_eq!(event["params"]["progress"].as_f64(), Some((i + 1) as f64));
    }
    assert_eq!(events[3]["id"], 5);
    assert_eq!(events[3]["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn a_json_only_client_gets_json_without_the_notifications() {
    let server = TestServer::default().await;
    let headers = call_headers("progress");
    let mut all: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    all.extend([
        ("content-type", "application/json"),
        ("accept", "application/json"),
    ]);
    let body = serde_json::to_vec(&call_body(1, "progress", json!({}))).unwrap();
    let reply = send(server.addr, Method::POST, &all, body).await;
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.json()["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn closing_the_stream_cancels_the_handler() {
    let mut server = TestServer::default().await;
    let headers = call_headers("wait");
    let mut all: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    all.extend(POST_HEADERS);
    let body = serde_json::to_vec(&call_body(1, "wait", json!({}))).unwrap();
    let (mut response, connection) = open(server.addr, Method::POST, &all, body).await;
    assert_eq!(server.event().await, "started");
    assert_eq!(
        response.headers()["content-type"],
        "text/event-stream",
        "the progress notification starts a stream"
    );
    let first = bounded(response.body_mut().frame()).await.unwrap().unwrap();
    let first = String::from_utf8_lossy(first.data_ref().unwrap()).into_owned();
    assert_eq!(sse_data(&first)[0]["method"], "notifications/progress");
    drop(response);
    connection.abort();
    assert_eq!(server.event().await, "cancelled");
    server.assert_serving().await;
}

#[tokio::test]
async fn shutdown_drains_requests_in_flight() {
    let config = HttpConfig {
        shutdown_grace: Duration::from_secs(8),
        ..HttpConfig::default()
    };
    let mut server = TestServer::start(config).await;
    let addr = server.addr;
    let in_flight = tokio::spawn(async move { call(addr, 1, "wait", json!({})).await });
    assert_eq!(server.event().await, "started");
    let serving = server.shut_down();
    // The request in flight finishes (the tool answers after 5 s) ...
    let reply = bounded(in_flight).await.unwrap();
    assert_eq!(
        reply.events().last().unwrap()["result"]["content"][0]["text"],
        "waited"
    );
    assert_eq!(server.event().await, "finished");
    // ... and then the server stops, no longer accepting connections.
    bounded(serving).await.unwrap().unwrap();
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn shutdown_cancels_what_outlives_the_grace() {
    let config = HttpConfig {
        shutdown_grace: Duration::from_millis(200),
        ..HttpConfig::default()
    };
    let mut server = TestServer::start(config).await;
    let addr = server.addr;
    let _in_flight = tokio::spawn(async move { call(addr, 1, "wait", json!({})).await });
    assert_eq!(server.event().await, "started");
    let serving = server.shut_down();
    bounded(serving).await.unwrap().unwrap();
    assert_eq!(server.event().await, "cancelled");
}

#[tokio::test]
async fn disconnecting_before_a_json_answer_cancels_the_handler() {
    use tokio::io::AsyncWriteExt;

    let mut server = TestServer::default().await;
    // JSON only: the progress notification is dropped, the answer waits.
    let body = serde_json::to_string(&call_body(1, "wait", json!({}))).unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n\
         accept: application/json\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: tools/call\r\nmcp-name: wait\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    assert_eq!(server.event().await, "started");
    drop(stream);
    assert_eq!(server.event().await, "cancelled");
    server.assert_serving().await;
}
