//! The echo-server over stdio, driven by hand-written JSON lines in both
//! protocol eras: envelopes, errors, cancellation, limits and shutdown.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::{StdioServer, initialize, modern_meta};

#[test]
fn legacy_handshake_lists_and_calls_tools() {
    let mut server = StdioServer::echo_server();
    let reply = server.request(initialize(1));
    let result = &reply["result"];
    assert_eq!(reply["id"], 1);
    assert_eq!(result["protocolVersion"], "2025-11-25");
    assert_eq!(result["serverInfo"]["name"], "mcp-examples");
    assert!(result["capabilities"]["tools"].is_object());
    assert!(
        result.get("resultType").is_none(),
        "legacy results carry no resultType"
    );
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": 2, "result": {}}));

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}));
    let names: Vec<_> = reply["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(
        names,
        [json!("add"), json!("echo"), json!("sleep"), json!("whoami")]
    );
    assert_eq!(
        reply["result"]["tools"][0]["outputSchema"]["required"],
        json!(["sum"])
    );

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 40}}}));
    assert_eq!(reply["result"]["structuredContent"], json!({"sum": 42}));
    assert_eq!(reply["result"]["content"][0]["text"], r#"{"sum":42}"#);
}

#[test]
fn legacy_version_negotiation_answers_supported_versions_and_falls_back() {
    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-06-18", "2025-06-18"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let mut server = StdioServer::echo_server();
        let mut request = initialize(1);
        request["params"]["protocolVersion"] = json!(asked);
        assert_eq!(
            server.request(request)["result"]["protocolVersion"],
            answered
        );
    }
}

#[test]
fn modern_requests_are_stateless_and_carry_result_type() {
    let mut server = StdioServer::echo_server();
    let reply = server.request(
        json!({"jsonrpc": "2.0", "id": "d", "method": "server/discover",
        "params": {"_meta": modern_meta()}}),
    );
    let result = &reply["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"][0], "2026-07-28");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "mcp-examples"
    );
    assert!(result["ttlMs"].is_u64() && result["cacheScope"].is_string());

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": modern_meta()}}));
    assert_eq!(reply["result"]["resultType"], "complete");
    assert!(reply["result"]["ttlMs"].is_u64());
    assert_eq!(reply["result"]["cacheScope"], "public");

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"_meta": modern_meta(), "name": "echo", "arguments": {"text": "hi"}}}));
    assert_eq!(
        reply["result"],
        json!({"resultType": "complete", "content": [{"type": "text", "text": "hi"}]})
    );
}

#[test]
fn modern_envelope_errors() {
    let mut server = StdioServer::echo_server();
    server.request(json!({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": modern_meta()}}));

    let mut meta = modern_meta();
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let reply = server.request(
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}),
    );
    assert_eq!(reply["error"]["code"], -32022);
    assert_eq!(reply["error"]["data"]["requested"], "2099-01-01");
    assert!(
        reply["error"]["data"]["supported"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28"))
    );

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert_eq!(reply["error"]["code"], -32602, "missing _meta: {reply}");

    let reply = server.request(
        json!({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"_meta": modern_meta()}}),
    );
    assert_eq!(
        reply["error"]["code"], -32601,
        "ping is gone in 2026-07-28: {reply}"
    );
}

#[test]
fn tool_errors_versus_protocol_errors() {
    let mut server = StdioServer::echo_server();
    server.request(initialize(1));
    let reply = server.request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": "two"}}}));
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("/b"), "the message names the field: {text}");

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": i64::MAX, "b": 1}}}));
    assert_eq!(reply["result"]["isError"], true);
    assert!(
        reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("overflow")
    );

    let reply = server.request(
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope"}}),
    );
    assert_eq!(reply["error"]["code"], -32602);
    assert_eq!(reply["error"]["message"], "Unknown tool: nope");

    let reply =
        server.request(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {}}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");

    let reply = server.request(json!({"jsonrpc": "2.0", "id": 6, "method": "no/such"}));
    assert_eq!(reply["error"]["code"], -32601);

    let reply = server.request(
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"cursor": "bogus"}}),
    );
    assert_eq!(reply["error"]["code"], -32602);
}

#[test]
fn malformed_input_never_kills_the_loop() {
    let mut server = StdioServer::echo_server();
    server.send_raw(b"{not json\n");
    let reply = server.recv();
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (json!(null), json!(-32700))
    );

    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}\n");
    assert_eq!(server.recv()["error"]["code"], -32700);

    server.send_raw(b"[1,2]\n");
    assert_eq!(server.recv()["error"]["code"], -32600);

    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}\n");
    assert_eq!(server.recv()["error"]["code"], -32600);

    // Ids are echoed exactly, even beyond 2^53.
    let reply =
        server.request(json!({"jsonrpc": "2.0", "id": 9007199254740993u64, "method": "ping"}));
    assert_eq!(reply["id"], json!(9007199254740993u64));

    // A notification with garbage gets no reply; the next request does.
    server.send_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\",\"params\":{}}\n");
    let reply = server.request(initialize(2));
    assert_eq!(reply["id"], 2);
    assert!(server.is_running());
}

#[test]
fn oversized_line_is_refused_and_the_next_one_served() {
    let mut server = StdioServer::spawn(env!("CARGO_BIN_EXE_echo-server"), &[]);
    server.request(initialize(1));
    // 17 MiB, over the default 16 MiB cap.
    let big = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"echo\",\"arguments\":{{\"text\":\"{}\"}}}}}}\n",
        "x".repeat(17 * 1024 * 1024)
    );
    server.send_raw(big.as_bytes());
    let reply = server.recv_within(Duration::from_secs(30));
    assert_eq!(reply["error"]["code"], -32600);
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("exceeds the limit")
    );
    let reply = server.request(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
    assert_eq!(reply["id"], 3);
}

#[test]
fn cancelled_requests_get_no_reply() {
    let mut server = StdioServer::echo_server();
    server.request(initialize(1));
    server.send(&json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
        "params": {"name": "sleep", "arguments": {"ms": 3000}}}));
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 10, "reason": "changed my mind"}}),
    );
    let reply = server.request(json!({"jsonrpc": "2.0", "id": 11, "method": "ping"}));
    assert_eq!(
        reply["id"], 11,
        "the cancelled request must not answer: {reply}"
    );
    // Nothing else arrives for id 10 before the sleep would have ended.
    server.send(&json!({"jsonrpc": "2.0", "id": 12, "method": "tools/call",
        "params": {"name": "sleep", "arguments": {"ms": 3500}}}));
    let reply = server.recv_within(Duration::from_secs(10));
    assert_eq!(reply["id"], 12, "{reply}");
}

#[test]
fn progress_reaches_the_client_when_asked() {
    // interop-server's `count` reports progress 1..=steps of steps.
    let mut server = StdioServer::spawn(env!("CARGO_BIN_EXE_interop-server"), &[]);
    server.request(initialize(1));
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "count", "arguments": {"steps": 3}, "_meta": {"progressToken": "p1"}}}));
    let mut progress = Vec::new();
    let reply = loop {
        let message = server.recv();
        if message["method"] != "notifications/progress" {
            break message;
        }
        let params = &message["params"];
        assert_eq!(params["progressToken"], "p1", "{message}");
        assert_eq!(params["total"], 3.0, "{message}");
        progress.push(params["progress"].as_f64().expect("a numeric progress"));
    };
    assert_eq!(reply["id"], 2, "{reply}");
    assert_eq!(reply["result"]["content"][0]["text"], "counted 3");
    assert_eq!(
        progress,
        [1.0, 2.0, 3.0],
        "every step, in order, before the result"
    );

    // Without a token the same call sends no progress: its result comes first.
    let reply = server.request(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "count", "arguments": {"steps": 2}}}));
    assert_eq!(reply["id"], 3, "{reply}");
    assert_eq!(reply["result"]["content"][0]["text"], "counted 2");
}

#[test]
fn end_of_input_lets_running_requests_finish() {
    let mut server = StdioServer::echo_server();
    server.request(initialize(1));
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "sleep", "arguments": {"ms": 300}}}));
    let started = Instant::now();
    drop(server.stdin_take());
    let reply = server.recv_within(Duration::from_secs(10));
    assert_eq!(reply["result"]["content"][0]["text"], "slept 300 ms");
    assert!(server.close_and_wait(Duration::from_secs(10)));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_handshake_pipelined_with_calls_in_one_write_is_served_in_order() {
    for _ in 0..20 {
        let mut server = StdioServer::echo_server();
        let mut batch = Vec::new();
        for message in [
            initialize(1),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}}),
        ] {
            batch.extend(serde_json::to_vec(&message).unwrap());
            batch.push(b'\n');
        }
        server.send_raw(&batch);
        assert_eq!(server.recv()["id"], 1);
        let reply = server.recv();
        assert_eq!(reply["result"]["content"][0]["text"], "hi", "{reply}");
    }
}
