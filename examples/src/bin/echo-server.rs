//! A small MCP server with two tools:
//! `echo(text)` returns the text, `add(a, b)` returns `{"sum": a + b}`.
//!
//! Run it with `cargo run -p mcp-examples --bin echo-server` and type JSON-RPC
//! lines (see the README), or point any MCP client at it. With
//! `--http 127.0.0.1:PORT` it serves Streamable HTTP at `/mcp` instead.

use std::time::Duration;

use mcp_runtime::protocol::CallToolResult;
use mcp_runtime::server::{Server, ToolCall, ToolDef, ToolError};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Serialize)]
struct Sum {
    sum: i64,
}

fn echo() -> ToolDef {
    ToolDef::new("echo", |call: ToolCall| async move {
        let text: String = call.argument("text")?;
        Ok(CallToolResult::text(text))
    })
    .description("Echo the text back unchanged.")
    .input_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text to echo."}},
        "required": ["text"],
        "additionalProperties": false
    }))
}

fn add() -> ToolDef {
    ToolDef::new("add", |call: ToolCall| async move {
        let AddArgs { a, b } = call.parse()?;
        let sum = a
            .checked_add(b)
            .ok_or_else(|| ToolError::new("the sum overflows a 64-bit integer"))?;
        CallToolResult::structured(&Sum { sum })
    })
    .description("Add two integers.")
    .input_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "The first addend."},
            "b": {"type": "integer", "description": "The second addend."}
        },
        "required": ["a", "b"],
        "additionalProperties": false
    }))
    .output_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"sum": {"type": "integer"}},
        "required": ["sum"]
    }))
}

/// `sleep(ms)`: waits, then answers; lets tests and demos see concurrency
/// and cancellation.
fn sleep() -> ToolDef {
    ToolDef::new("sleep", |call: ToolCall| async move {
        let ms: u64 = call.argument("ms")?;
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(ms)) => Ok(CallToolResult::text(format!("slept {ms} ms"))),
            () = call.context().cancelled() => Err(ToolError::new("cancelled")),
        }
    })
    .description("Wait for `ms` milliseconds, then answer.")
    .input_schema(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": 60000}},
        "required": ["ms"],
        "additionalProperties": false
    }))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_examples::init_logging();
    let server = Server::builder(mcp_runtime::server_info!())
        .instructions("Echoes text and adds integers.")
        .tool(echo())
        .tool(add())
        .tool(sleep())
        .build()?;
    mcp_examples::serve(server).await
}
