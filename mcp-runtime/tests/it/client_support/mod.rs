//! What the client tests share: serving our own HTTP server on 127.0.0.1,
//! a tool that runs as a task and asks a question, live servers and
//! uncached clients of them, the sorted names of a server's tools, a
//! call's text, and the next event of a subscription.

#![allow(dead_code)] // each test file uses a different part

use mcp_toolkit_runtime::client::{
    Caching, Client, ClientError, ConnectOptions, EraChoice, ListenEvent, Subscription,
};
use mcp_toolkit_runtime::jsonrpc::code::INVALID_PARAMS;
use mcp_toolkit_runtime::protocol::{CallToolResult, GetPromptResult, TaskSupport};
use mcp_toolkit_runtime::server::{
    LiveRegistry, PromptDef, PromptRequest, Server, ToolCall, ToolDef, ToolError,
};
use mcp_toolkit_runtime::transport::HttpConfig;
use serde_json::json;
use tokio::task::JoinHandle;

/// Serves `server` under `config` on 127.0.0.1 (a free port); returns the
/// MCP endpoint's URL and the serving task.
pub async fn serve_on_loopback(
    server: Server,
    config: HttpConfig,
) -> (String, JoinHandle<std::io::Result<()>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let serving = tokio::spawn(server.serve_http_with(listener, config, std::future::pending()));
    (url, serving)
}

/// `ask`: a tool that runs only as a task, asks the client for a name
/// (elicitation, key `name`) and answers `hello {name}`.
pub fn asking_task_tool() -> ToolDef {
    ToolDef::new("ask", |call: ToolCall| async move {
        call.context().start_task().await;
        let question = serde_json::from_value(json!({
            "method": "elicitation/create",
            "params": {
                "message": "your name?",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
            }
        }))?;
        let answer = call
            .context()
            .ask_as("name", question)
            .await
            .map_err(|e| ToolError::new(e.to_string()))?;
        let answer = serde_json::to_value(answer)?;
        Ok(CallToolResult::text(format!(
            "hello {}",
            answer["content"]["name"].as_str().unwrap_or_default()
        )))
    })
    .task_support(TaskSupport::Required)
}

/// The names of the tools `client`'s server lists, sorted.
pub async fn tool_names(client: &Client) -> Vec<String> {
    let tools = client.list_tools().await.expect("tools/list answers");
    let mut names: Vec<String> = tools.into_iter().map(|t| t.name).collect();
    names.sort();
    names
}

/// The subscription's next event, within 5 s.
pub async fn next_event(subscription: &mut Subscription) -> ListenEvent {
    tokio::time::timeout(std::time::Duration::from_secs(5), subscription.next())
        .await
        .expect("an event within 5 s")
        .expect("the subscription is open")
}

/// A tool `name` that answers `answer`.
pub fn answering(name: &str, answer: &'static str) -> ToolDef {
    ToolDef::new(name, move |_call: ToolCall| async move {
        Ok(CallToolResult::text(answer))
    })
}

/// A prompt `name` without messages.
pub fn empty_prompt(name: &str) -> PromptDef {
    PromptDef::new(name, |_: PromptRequest| async {
        Ok(GetPromptResult {
            description: None,
            messages: Vec::new(),
            result_type: None,
            meta: None,
        })
    })
}

/// A server serving `tool` from a live registry, and the registry.
pub fn live_server(tool: ToolDef) -> (Server, LiveRegistry) {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .tool(tool)
        .live_registry()
        .build()
        .unwrap();
    let registry = server.registry().expect("a live registry");
    (server, registry)
}

/// A client of `server` in `era`, in memory, whose every list read goes
/// to the server.
pub async fn connect_uncached(server: Server, era: EraChoice) -> Client {
    let options = ConnectOptions {
        era,
        cache: Caching::Off,
        ..ConnectOptions::default()
    };
    Client::connect_in_memory(server, options).await.unwrap()
}

/// The text a call of `tool` without arguments answers.
pub async fn text_of(client: &Client, tool: &str) -> Result<String, ClientError> {
    let result = client.call_tool(tool, &json!({})).await?;
    Ok(result.content[0].as_text().unwrap_or_default().to_owned())
}

/// Whether `error` is the -32602 of a call of a tool the server does not
/// serve.
pub fn is_unknown_tool(error: &ClientError) -> bool {
    matches!(error, ClientError::Protocol(e) if e.code == INVALID_PARAMS && e.message.contains("Unknown tool"))
}
