//! Every supported parameter and return shape on free functions.

use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::protocol::{CallToolResult, ContentBlock, ImageContent};
use mcp_toolkit_runtime::server::{ClientMeta, Era, Progress, RequestContext, ToolError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct Query {
    text: String,
    limit: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
struct Hits {
    count: usize,
}

#[mcp_tool]
fn no_params() {}

#[mcp_tool]
fn plain(a: i64, b: f64, flag: bool, text: String) -> String {
    format!("{a} {b} {flag} {text}")
}

#[mcp_tool]
fn optional(limit: Option<u32>) -> &'static str {
    if limit.is_some() { "some" } else { "none" }
}

#[mcp_tool]
fn struct_param(query: Query) -> Hits {
    Hits { count: query.text.len() + query.limit.unwrap_or(0) as usize }
}

#[mcp_tool]
async fn context(
    ctx: RequestContext,
    progress: Progress,
    client: ClientMeta,
    era: Era,
    #[mcp(rename = "userName", description = "Who asks.", header = "User")] user_name: String,
) -> Result<String, ToolError> {
    progress.report(1.0, None, None).await;
    let _ = (ctx.is_cancelled(), client.protocol_version, era);
    Ok(user_name)
}

#[mcp_tool]
fn fallible_structured(#[serde(rename = "n")] count: usize) -> Result<Hits, String> {
    Ok(Hits { count })
}

#[mcp_tool]
fn wrapped_scalar() -> i64 {
    7
}

#[mcp_tool]
fn wrapped_list() -> Vec<String> {
    Vec::new()
}

#[mcp_tool]
fn escape_hatch() -> CallToolResult {
    CallToolResult::text("raw")
}

#[mcp_tool]
fn blocks() -> Vec<ContentBlock> {
    vec![ContentBlock::text("a")]
}

#[mcp_tool]
fn image() -> ImageContent {
    ImageContent { data: String::new(), mime_type: "image/png".into(), ..Default::default() }
}

#[mcp_tool(
    name = "fully.Named-tool_1",
    title = "Fully named",
    description = "Overrides the doc comment.",
    read_only,
    destructive = false,
    idempotent,
    open_world = false,
    icons = ["https://example.com/icon.png"],
    meta(team = "tools", version = 2, beta = true)
)]
/// Hidden by `description`.
fn options() -> Result<(), ToolError> {
    Ok(())
}

fn main() {
    // The functions stay callable as written.
    assert_eq!(plain(1, 2.5, true, "x".into()), "1 2.5 true x");
    let _ = mcp_toolkit_runtime::definitions![
        no_params,
        plain,
        optional,
        struct_param,
        context,
        fallible_structured,
        wrapped_scalar,
        wrapped_list,
        escape_hatch,
        blocks,
        image,
        options,
    ];
}
