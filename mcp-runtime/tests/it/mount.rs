//! Composition: server B, in this process, mounted under `b` in server A
//! through an in-memory client; a client of A sees and uses B's tools,
//! prompts, resources and templates under the prefix, with B's answers and
//! errors passed through and A's own checks applied.

use mcp_toolkit_runtime::client::{Client, ConnectOptions, EraChoice};
use mcp_toolkit_runtime::jsonrpc::ErrorObject;
use mcp_toolkit_runtime::protocol::{
    CallToolResult, ContentBlock, GetPromptResult, PromptMessage, ReadResourceResult, Role,
};
use mcp_toolkit_runtime::server::{
    PromptDef, PromptRequest, ResourceDef, ResourceRead, ResourceTemplateDef, Server, ToolCall,
    ToolDef,
};
use serde_json::{Value, json};

/// Add two integers.
#[mcp_toolkit_runtime::mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn server_b() -> Server {
    let broken = ToolDef::new("broken", |_: ToolCall| async {
        Ok(CallToolResult::error("B failed on purpose"))
    });
    // Claims an output schema and breaks it.
    let liar = ToolDef::new("liar", |_: ToolCall| async {
        CallToolResult::structured(&json!({"sum": "not a number"}))
    })
    .output_schema(
        json!({"type": "object", "properties": {"sum": {"type": "integer"}},
                          "required": ["sum"]}),
    );
    let readme = ResourceDef::new("docs://readme", "readme", |read: ResourceRead| async move {
        Ok(ReadResourceResult::text(
            read.uri,
            Some("text/markdown"),
            "# B",
        ))
    });
    let notes =
        ResourceTemplateDef::new("notes://{title}", "note", |read: ResourceRead| async move {
            let title = read.variables["title"].clone();
            if title == "missing" {
                return Err(ErrorObject::resource_not_found(&read.uri));
            }
            Ok(ReadResourceResult::text(
                read.uri,
                None,
                format!("note {title}"),
            ))
        })
        .unwrap();
    let greet = PromptDef::new("greet", |request: PromptRequest| async move {
        Ok(GetPromptResult {
            description: None,
            messages: vec![PromptMessage {
                role: Role::User,
                content: ContentBlock::text(format!("hello {}", request.arguments["name"])),
            }],
            result_type: None,
            meta: None,
        })
    })
    .argument("name", None, true);
    Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![add])
        .tool(broken)
        .tool(liar)
        .resource(readme)
        .resource_template(notes)
        .prompt(greet)
        .build()
        .unwrap()
}

async fn server_a(era: EraChoice) -> Server {
    let options = ConnectOptions {
        era,
        ..ConnectOptions::default()
    };
    let b = Client::connect_in_memory(server_b(), options)
        .await
        .unwrap();
    let own = ToolDef::new("own", |_: ToolCall| async { Ok(CallToolResult::text("A")) });
    Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(own)
        .register(b.mount("b").await.unwrap())
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_mounted_server_is_served_under_its_prefix() {
    // B spoken to in either era; A's own client in the other.
    for (inner, outer) in [
        (EraChoice::Modern, EraChoice::Legacy),
        (EraChoice::Legacy, EraChoice::Modern),
    ] {
        let options = ConnectOptions {
            era: outer,
            ..ConnectOptions::default()
        };
        let a = Client::connect_in_memory(server_a(inner).await, options)
            .await
            .unwrap();
        let mut names: Vec<String> = a
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        names.sort();
        assert_eq!(names, ["b_add", "b_broken", "b_liar", "own"]);

        let sum = a
            .call_tool("b_add", &json!({"a": 2, "b": 40}))
            .await
            .unwrap();
        assert_eq!(sum.structured_content, Some(json!({"result": 42})));
        // A checks arguments against B's schema before forwarding.
        let bad = a.call_tool("b_add", &json!({"a": "two"})).await.unwrap();
        assert_eq!(bad.is_error, Some(true));
        assert!(
            bad.content[0]
                .as_text()
                .unwrap()
                .contains("Invalid arguments for tool b_add")
        );
        // B's tool errors come through as they are.
        let broken = a.call_tool("b_broken", &json!({})).await.unwrap();
        assert_eq!(broken.is_error, Some(true));
        assert_eq!(broken.content[0].as_text(), Some("B failed on purpose"));
        // A JSON-RPC error of B's (here: B refusing its own tool's output)
        // reaches the model as a tool error naming the tool.
        let liar = a.call_tool("b_liar", &json!({})).await.unwrap();
        assert_eq!(liar.is_error, Some(true));
        let text = liar.content[0].as_text().unwrap();
        assert!(
            text.starts_with("liar: server error:") && text.contains("violates its output schema"),
            "{text}"
        );

        let prompt: Value = a
            .request(
                "prompts/get",
                &json!({"name": "b_greet", "arguments": {"name": "Ada"}}),
            )
            .await
            .unwrap();
        assert_eq!(prompt["messages"][0]["content"]["text"], "hello Ada");

        let listed: Value = a.request("resources/list", &json!({})).await.unwrap();
        assert_eq!(listed["resources"][0]["uri"], "docs://b/readme");
        assert_eq!(listed["resources"][0]["name"], "b_readme");
        let templates: Value = a
            .request("resources/templates/list", &json!({}))
            .await
            .unwrap();
        assert_eq!(
            templates["resourceTemplates"][0]["uriTemplate"],
            "notes://b/{title}"
        );

        let readme: Value = a
            .request("resources/read", &json!({"uri": "docs://b/readme"}))
            .await
            .unwrap();
        assert_eq!(readme["contents"][0]["uri"], "docs://b/readme");
        assert_eq!(readme["contents"][0]["text"], "# B");
        let note: Value = a
            .request("resources/read", &json!({"uri": "notes://b/today"}))
            .await
            .unwrap();
        assert_eq!(note["contents"][0]["uri"], "notes://b/today");
        assert_eq!(note["contents"][0]["text"], "note today");
        // B's JSON-RPC error comes through with its code.
        let missing = a
            .request::<_, Value>("resources/read", &json!({"uri": "notes://b/missing"}))
            .await
            .unwrap_err();
        let mcp_toolkit_runtime::client::ClientError::Protocol(error) = missing else {
            panic!("{missing}");
        };
        assert_eq!(error.code, -32602);
        assert!(
            error.message.contains("notes://missing"),
            "{}",
            error.message
        );
    }
}
