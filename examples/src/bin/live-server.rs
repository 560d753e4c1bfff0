//! A server whose tools change while it runs (a live registry): its own
//! tools add and remove others, and every change is announced to the
//! connected clients, in both eras: `notifications/tools/list_changed` on a
//! legacy session (over stdio on the connection, over HTTP on the
//! session's GET stream), and on `subscriptions/listen` streams
//! (2026-07-28).
//!
//! - `add_tool(name)` adds a tool `name` (no arguments) that answers
//!   "hello from NAME"; a name that is taken or invalid is refused.
//! - `remove_tool(name)` removes a tool.
//!
//! Run it with `cargo run -p mcp-examples --bin live-server` (stdio), or
//! with `--http 127.0.0.1:PORT` for Streamable HTTP at `/mcp`. With
//! `--redis-url URL`, the announcements also reach the clients of the
//! other instances (each instance's tools stay its own).

use mcp_examples::{Example, Flag};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::protocol::CallToolResult;
use mcp_toolkit_runtime::server::{LiveRegistry, Server, ToolCall, ToolDef, ToolError};

/// The registry a tool changes; present on this server, which is live.
fn registry(registry: Option<LiveRegistry>) -> Result<LiveRegistry, ToolError> {
    registry.ok_or_else(|| ToolError::new("this server's registry is not live"))
}

/// Add a tool that greets.
///
/// # Arguments
///
/// * `name` - The new tool's name.
#[mcp_tool]
fn add_tool(name: String, live: Option<LiveRegistry>) -> Result<String, ToolError> {
    let greeting = format!("hello from {name}");
    let tool = ToolDef::new(name.as_str(), move |_call: ToolCall| {
        let greeting = greeting.clone();
        async move { Ok(CallToolResult::text(greeting)) }
    })
    .description("Says hello; added at run time by add_tool.");
    registry(live)?
        .add_tool(tool)
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(format!("added {name}"))
}

/// Remove a tool.
///
/// # Arguments
///
/// * `name` - The name of the tool to remove.
#[mcp_tool]
fn remove_tool(name: String, live: Option<LiveRegistry>) -> Result<String, ToolError> {
    registry(live)?
        .remove_tool(&name)
        .map_err(|e| ToolError::new(e.to_string()))?;
    Ok(format!("removed {name}"))
}

const EXAMPLE: Example = Example {
    name: env!("CARGO_BIN_NAME"),
    flags: &[Flag::Http, Flag::RedisUrl],
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_examples::init_logging();
    let command_line = EXAMPLE.command_line()?;
    let builder = Server::builder(mcp_toolkit_runtime::server_info!())
        .instructions("Adds and removes tools while it runs; clients are told.")
        .register(mcp_toolkit_runtime::definitions![add_tool, remove_tool])
        .live_registry();
    command_line.serve(builder).await
}
