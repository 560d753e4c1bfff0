//! The server's features end to end over an in-memory stdio pipe: resources
//! and templates, prompts, completion, progress and log notifications,
//! pagination, panics and output-schema violations.

use std::time::Duration;

use mcp_toolkit_runtime::jsonrpc::ErrorObject;
use mcp_toolkit_runtime::protocol::{
    CallToolResult, Completion, ContentBlock, GetPromptResult, LoggingLevel, PromptMessage,
    ReadResourceResult, Role,
};
use mcp_toolkit_runtime::server::{
    CompletionRequest, PromptDef, PromptRequest, ResourceDef, ResourceRead, ResourceTemplateDef,
    Server, ServerOptions, ToolCall, ToolDef, ToolOutcome,
};
use mcp_toolkit_runtime::transport::StdioConfig;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

struct Client {
    input: DuplexStream,
    output: Lines<BufReader<DuplexStream>>,
}

impl Client {
    fn start(server: Server) -> Self {
        let (input, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, output) = tokio::io::duplex(1 << 16);
        tokio::spawn(server.serve_io(server_in, server_out, StdioConfig::default()));
        Client {
            input,
            output: BufReader::new(output).lines(),
        }
    }

    async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.input.write_all(&line).await.unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.output.next_line())
            .await
            .expect("reply in time")
            .unwrap()
            .expect("stream open");
        serde_json::from_str(&line).unwrap()
    }

    async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let reply = self.recv().await;
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// A client past the legacy handshake.
    async fn legacy(server: Server) -> Self {
        let mut client = Client::start(server);
        let reply = client
            .request(
                0,
                "initialize",
                json!({"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}),
            )
            .await;
        assert_eq!(reply["result"]["protocolVersion"], "2025-06-18");
        client
    }
}

fn object_schema(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn library() -> Server {
    let readme = ResourceDef::new("docs://readme", "readme", |read: ResourceRead| async move {
        Ok(ReadResourceResult::text(
            read.uri,
            Some("text/markdown"),
            "# Hello",
        ))
    })
    .mime_type("text/markdown");
    let notes =
        ResourceTemplateDef::new("notes://{title}", "note", |read: ResourceRead| async move {
            let title = &read.variables["title"];
            if title == "missing" {
                return Err(ErrorObject::resource_not_found(&read.uri));
            }
            Ok(ReadResourceResult::text(
                read.uri.clone(),
                None,
                format!("note {title}"),
            ))
        })
        .unwrap()
        .completion(|request: CompletionRequest| async move {
            let all = ["alpha", "beta", "alphabet"];
            let values = all
                .iter()
                .filter(|v| v.starts_with(&request.value))
                .map(|v| v.to_string())
                .collect();
            Completion {
                values,
                total: None,
                has_more: None,
            }
        });
    let greet = PromptDef::new("greet", |request: PromptRequest| async move {
        let name = &request.arguments["name"];
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage {
                role: Role::User,
                content: ContentBlock::text(format!("Say hello to {name}")),
            }],
            result_type: None,
            meta: None,
        })
    })
    .argument("name", Some("Who to greet"), true)
    .completion(|_request: CompletionRequest| async move {
        Completion {
            values: (0..150).map(|n| format!("name{n}")).collect(),
            total: None,
            has_more: None,
        }
    });
    let progress = ToolDef::new("count", |call: ToolCall| async move {
        let context = call.context();
        for step in 1..=3 {
            context
                .report_progress(f64::from(step), Some(3.0), Some("counting"))
                .await;
        }
        context
            .log(LoggingLevel::Info, Some("count"), json!("done counting"))
            .await;
        context
            .log(LoggingLevel::Debug, Some("count"), json!("too chatty"))
            .await;
        Ok(CallToolResult::text("counted"))
    });
    let panics = ToolDef::new("panics", |_call: ToolCall| async move {
        if true {
            panic!("boom");
        }
        Ok(CallToolResult::text("unreachable"))
    });
    // Panics before it returns its future, outside the handler's catch.
    let panics_at_start = ToolDef::new(
        "panics_at_start",
        |_call: ToolCall| -> std::future::Ready<ToolOutcome> { panic!("boom at start") },
    );
    let lies = ToolDef::new("lies", |_call: ToolCall| async move {
        CallToolResult::structured(&json!({"sum": "not a number"}))
    })
    .output_schema(object_schema(json!({"sum": {"type": "integer"}}), &["sum"]));
    Server::builder(mcp_toolkit_runtime::server_info!())
        .resource(readme)
        .resource_template(notes)
        .prompt(greet)
        .tool(progress)
        .tool(panics)
        .tool(panics_at_start)
        .tool(lies)
        .build()
        .unwrap()
}

#[tokio::test]
async fn reports_the_callers_crate_as_server_info() {
    let mut client = Client::start(library());
    let reply = client
        .request(1, "initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}))
        .await;
    assert_eq!(
        reply["result"]["serverInfo"]["name"],
        env!("CARGO_PKG_NAME")
    );
    let caps = &reply["result"]["capabilities"];
    for cap in ["tools", "resources", "prompts", "completions", "logging"] {
        assert!(caps[cap].is_object(), "{cap} missing from {caps}");
    }
}

#[tokio::test]
async fn resources_templates_and_missing_resources() {
    let mut client = Client::legacy(library()).await;
    let reply = client.request(1, "resources/list", json!({})).await;
    assert_eq!(reply["result"]["resources"][0]["uri"], "docs://readme");
    let reply = client
        .request(2, "resources/templates/list", json!({}))
        .await;
    assert_eq!(
        reply["result"]["resourceTemplates"][0]["uriTemplate"],
        "notes://{title}"
    );

    let reply = client
        .request(3, "resources/read", json!({"uri": "docs://readme"}))
        .await;
    assert_eq!(
        reply["result"]["contents"][0],
        json!({"uri": "docs://readme", "mimeType": "text/markdown", "text": "# Hello"})
    );
    let reply = client
        .request(4, "resources/read", json!({"uri": "notes://caf%C3%A9"}))
        .await;
    assert_eq!(reply["result"]["contents"][0]["text"], "note café");

    for (id, uri) in [(5, "notes://missing"), (6, "nowhere://x")] {
        let reply = client
            .request(id, "resources/read", json!({"uri": uri}))
            .await;
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(reply["error"]["data"]["uri"], uri);
    }
}

#[tokio::test]
async fn prompts_check_required_arguments() {
    let mut client = Client::legacy(library()).await;
    let reply = client.request(1, "prompts/list", json!({})).await;
    assert_eq!(
        reply["result"]["prompts"][0]["arguments"][0],
        json!({"name": "name", "description": "Who to greet", "required": true})
    );
    let reply = client
        .request(
            2,
            "prompts/get",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )
        .await;
    assert_eq!(
        reply["result"]["messages"][0]["content"]["text"],
        "Say hello to Ada"
    );
    let reply = client
        .request(3, "prompts/get", json!({"name": "greet"}))
        .await;
    assert_eq!(reply["error"]["code"], -32602);
    let reply = client
        .request(4, "prompts/get", json!({"name": "nope"}))
        .await;
    assert_eq!(reply["error"]["message"], "Unknown prompt: nope");
}

#[tokio::test]
async fn completion_for_templates_and_prompts() {
    let mut client = Client::legacy(library()).await;
    let reply = client
        .request(
            1,
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "notes://{title}"},
            "argument": {"name": "title", "value": "alp"}}),
        )
        .await;
    assert_eq!(
        reply["result"]["completion"]["values"],
        json!(["alpha", "alphabet"])
    );
    let reply = client
        .request(
            2,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "greet"},
            "argument": {"name": "name", "value": ""}}),
        )
        .await;
    let completion = &reply["result"]["completion"];
    assert_eq!(
        completion["values"].as_array().unwrap().len(),
        100,
        "capped at 100"
    );
    assert_eq!(
        (completion["total"].clone(), completion["hasMore"].clone()),
        (json!(150), json!(true))
    );
}

#[tokio::test]
async fn progress_and_log_notifications_precede_the_result() {
    let mut client = Client::legacy(library()).await;
    client
        .request(1, "logging/setLevel", json!({"level": "info"}))
        .await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "count", "_meta": {"progressToken": "tok"}}}))
        .await;
    for step in 1..=3 {
        let note = client.recv().await;
        assert_eq!(note["method"], "notifications/progress");
        assert_eq!(
            note["params"],
            json!({"progressToken": "tok", "progress": step, "total": 3, "message": "counting"})
        );
    }
    let log = client.recv().await;
    assert_eq!(log["method"], "notifications/message");
    assert_eq!(
        log["params"],
        json!({"level": "info", "logger": "count", "data": "done counting"})
    );
    let reply = client.recv().await;
    assert_eq!(
        reply["id"], 2,
        "debug log filtered out; then the result: {reply}"
    );
}

#[tokio::test]
async fn modern_requests_log_only_when_asked_in_meta() {
    let mut client = Client::start(library());
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "debug"});
    client.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "count", "_meta": meta}})).await;
    let first = client.recv().await;
    assert_eq!(
        first["params"]["data"], "done counting",
        "no progress token, so logs come first: {first}"
    );
    assert_eq!(client.recv().await["params"]["data"], "too chatty");
    assert_eq!(client.recv().await["result"]["resultType"], "complete");
}

/// A tool that panics, as it runs or before it returns its future
/// (outside the handler's own catch: over stdio the reading loop makes a
/// request's first poll), fails its request alone, and the panic's message
/// ("boom") stays in the server's log.
#[tokio::test]
async fn a_panicking_tool_fails_only_its_request() {
    for tool in ["panics", "panics_at_start"] {
        let mut client = Client::legacy(library()).await;
        let reply = client.request(1, "tools/call", json!({"name": tool})).await;
        assert_eq!(reply["id"], 1, "{tool}");
        assert_eq!(reply["error"]["code"], -32603, "{tool}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("panicked") && !message.contains("boom"),
            "{tool}: {reply}"
        );
        let reply = client
            .request(2, "tools/call", json!({"name": "count"}))
            .await;
        assert_eq!(reply["result"]["content"][0]["text"], "counted", "{tool}");
    }
}

#[tokio::test]
async fn output_that_violates_the_output_schema_is_an_internal_error() {
    let mut client = Client::legacy(library()).await;
    let reply = client
        .request(1, "tools/call", json!({"name": "lies"}))
        .await;
    assert_eq!(reply["error"]["code"], -32603);
    assert!(
        reply["error"]["message"].as_str().unwrap().contains("/sum"),
        "{reply}"
    );
}

#[tokio::test]
async fn tools_list_pages_through_every_tool_in_name_order() {
    let mut builder = Server::builder(mcp_toolkit_runtime::server_info!()).options(ServerOptions {
        page_size: 7,
        ..ServerOptions::default()
    });
    for n in (0..50).rev() {
        builder = builder.tool(ToolDef::new(
            format!("tool_{n:02}"),
            |_call: ToolCall| async { Ok(CallToolResult::text("")) },
        ));
    }
    let mut client = Client::legacy(builder.build().unwrap()).await;
    let (mut names, mut cursor, mut id) = (Vec::new(), None::<String>, 1);
    loop {
        let params = cursor.map_or(json!({}), |c| json!({"cursor": c}));
        let reply = client.request(id, "tools/list", params).await;
        id += 1;
        names.extend(
            reply["result"]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_owned()),
        );
        match reply["result"]["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let expected: Vec<String> = (0..50).map(|n| format!("tool_{n:02}")).collect();
    assert_eq!(names, expected);
    assert_eq!(id, 9, "50 tools in pages of 7");
}

#[test]
fn builder_rejects_duplicates_bad_names_and_bad_schemas() {
    let tool = |name: &str| {
        ToolDef::new(name.to_owned(), |_call: ToolCall| async {
            Ok(CallToolResult::text(""))
        })
    };
    let build = |tools: Vec<ToolDef>| {
        tools
            .into_iter()
            .fold(
                Server::builder(mcp_toolkit_runtime::server_info!()),
                |b, t| b.tool(t),
            )
            .build()
            .err()
            .map(|e| e.to_string())
    };
    assert_eq!(
        build(vec![tool("a"), tool("a")]).unwrap(),
        "two tools are named `a`"
    );
    assert!(build(vec![tool("has space")]).unwrap().contains("invalid"));
    assert!(build(vec![tool(&"x".repeat(129))]).is_some());
    assert!(
        build(vec![tool("ok").input_schema(
            json!({"type": "object", "properties": {"a": {"type": 5}}})
        )])
        .unwrap()
        .contains("invalid input schema")
    );
    assert!(build(vec![tool("ok").input_schema(json!({"type": "string"}))]).is_some());
    assert!(build(vec![tool("a.b-c_D9")]).is_none());
}
