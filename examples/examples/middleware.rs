//! Middleware at the MCP level: layers that see every decoded request
//! (method, tool name, arguments, principal), may answer or refuse it, or
//! pass it on and look at the response.
//!
//! This server has three layers, outermost first:
//! 1. a closure that times every request and prints one line per request;
//! 2. a closure that refuses the tool `drop_tables` by name, so its handler
//!    never runs;
//! 3. the built-in [`Timeout`], which ends a call that takes too long.
//!
//! The built-ins [`RequestLog`](mcp_toolkit_runtime::server::middleware::RequestLog)
//! and [`ConcurrencyLimit`](mcp_toolkit_runtime::server::middleware::ConcurrencyLimit)
//! are added the same way. The layers serve stdio and HTTP alike; here the
//! client talks to the server in memory.
//!
//! Run: `cargo run -p mcp-examples --example middleware`.

use std::time::{Duration, Instant};

use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::server::middleware::{McpRequest, McpResponse, Next, Timeout};
use serde_json::json;

/// Echo the text back unchanged.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// Drop every table (a tool this deployment does not want called).
#[mcp_tool]
fn drop_tables() -> String {
    unreachable!("the middleware refuses this tool before it runs")
}

/// Wait five seconds.
#[mcp_tool]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(5)).await;
    "done".to_owned()
}

/// Layer 1: times every request it sees and prints what came back.
async fn timing(request: McpRequest, next: Next) -> McpResponse {
    let started = Instant::now();
    let label = format!("{} {}", request.method(), request.name().unwrap_or(""));
    let response = next.run(request).await;
    let is_error = response
        .result()
        .is_some_and(|result| result["isError"] == json!(true));
    let outcome = if response.is_error() || is_error {
        "error"
    } else {
        "ok"
    };
    println!(
        "  [timing] {label:<22} {outcome:<5} {:?}",
        started.elapsed()
    );
    response
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![echo, drop_tables, slow])
        // The first layer added is the outermost: it sees what the others did.
        .middleware(timing)
        // Layer 2, a closure: refuse one tool by name. `fail` answers in
        // the method's own form: a tool result with `isError` for tools/call.
        .middleware(|request: McpRequest, next: Next| async move {
            if request.tool() == Some("drop_tables") {
                return request.fail("drop_tables is switched off on this server");
            }
            next.run(request).await
        })
        // Layer 3, built in: no request may take longer than 200 ms.
        .middleware(Timeout::new(Duration::from_millis(200)))
        .build()?;

    // A client connected in memory: no process, no socket, same wire format.
    let client = Client::connect_in_memory(server, ConnectOptions::default()).await?;

    let tools = client.list_tools().await?;
    println!("tools/list -> {} tools", tools.len());

    let echoed = client.call_tool("echo", &json!({"text": "hi"})).await?;
    println!(
        "echo(\"hi\") -> {:?}",
        echoed.content[0].as_text().unwrap_or_default()
    );

    let refused = client.call_tool("drop_tables", &json!({})).await?;
    println!(
        "drop_tables() -> isError: {:?}",
        refused.content[0].as_text().unwrap_or_default()
    );

    let slow = client.call_tool("slow", &json!({})).await?;
    println!(
        "slow() -> isError: {:?}",
        slow.content[0].as_text().unwrap_or_default()
    );
    Ok(())
}
