//! A tool that asks the user for input mid-call through its context: the
//! same code in both eras. `?` turns `InputError` (including `Pending`,
//! the 2026-07-28 round trip) into `ToolError`.

use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::protocol::{ElicitRequestParams, ElicitValue};
use mcp_toolkit_runtime::server::{RequestContext, ToolError};

/// Greet the user by the name they give.
#[mcp_tool]
async fn greet(ctx: RequestContext) -> Result<String, ToolError> {
    let question: ElicitRequestParams = serde_json::from_value(serde_json::json!({
        "message": "What is your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
    }))?;
    let answer = ctx.elicit(question).await?;
    match answer.content.and_then(|mut c| c.remove("name")) {
        Some(ElicitValue::String(name)) => Ok(format!("Hello, {name}!")),
        _ => Err(ToolError::new("no name given")),
    }
}

fn main() {
    let _ = mcp_toolkit_runtime::definitions![greet];
}
