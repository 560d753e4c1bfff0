//! Every supported resource and prompt shape as free functions.

use mcp_toolkit_runtime::jsonrpc::ErrorObject;
use mcp_toolkit_runtime::protocol::{GetPromptResult, PromptMessage, ReadResourceResult, ResourceContents};
use mcp_toolkit_runtime::server::{Json, RequestContext, Server};
use mcp_toolkit_runtime::{mcp_prompt, mcp_resource, mcp_tool};
use serde::Serialize;

/// Text.
#[mcp_resource("docs://readme", mime_type = "text/markdown", title = "README")]
fn readme() -> &'static str {
    "# Hello"
}

/// Binary.
#[mcp_resource("images://logo.png", mime_type = "image/png")]
async fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[derive(Serialize)]
struct Stats {
    notes: u32,
}

/// JSON, with context and a fallible body.
#[mcp_resource("stats://notes")]
fn stats(_ctx: RequestContext) -> Result<Json<Stats>, String> {
    Ok(Json(Stats { notes: 3 }))
}

/// A template: path variables of any `FromStr` type, an optional query
/// variable, `None` for "not found".
#[mcp_resource("notes://{folder}/{id}{?rev}", name = "note")]
async fn note(folder: String, id: u32, rev: Option<u32>) -> Option<String> {
    (id < 100).then(|| format!("{folder}/{id}@{}", rev.unwrap_or(0)))
}

/// A renamed variable and a full result.
#[mcp_resource("users://{user_id}/profile")]
fn profile(#[mcp(rename = "user_id")] user: String) -> Result<ReadResourceResult, ErrorObject> {
    if user.is_empty() {
        return Err(ErrorObject::resource_not_found("users:///profile"));
    }
    Ok(ReadResourceResult::text(format!("users://{user}/profile"), None, user))
}

/// Several contents.
#[mcp_resource("bundle://all")]
fn bundle() -> Vec<ResourceContents> {
    Vec::new()
}

/// One user message.
///
/// # Arguments
///
/// * `code` - The code to review.
/// * `language` - Its language, if known.
#[mcp_prompt(title = "Code review")]
fn review(code: String, language: Option<String>) -> String {
    format!("Review this {} code:\n{code}", language.as_deref().unwrap_or("unknown"))
}

/// Several messages, a parsed argument, context, async.
#[mcp_prompt(name = "count-down")]
async fn countdown(from: u8, _ctx: RequestContext) -> Vec<PromptMessage> {
    (0..=from).rev().map(|n| PromptMessage::user(n.to_string())).collect()
}

/// A full result, fallibly.
#[mcp_prompt(description = "Greets someone.")]
fn greet(name: Option<String>) -> Result<GetPromptResult, ErrorObject> {
    let name = name.ok_or_else(|| ErrorObject::invalid_params("who?"))?;
    Ok(GetPromptResult {
        description: None,
        messages: vec![PromptMessage::assistant(format!("Hello {name}"))],
        result_type: None,
        meta: None,
    })
}

/// A tool, a prompt and a resource may share a name: each kind has its own.
#[mcp_tool(name = "review")]
fn review_tool(code: String) -> String {
    code
}

fn main() {
    assert_eq!(readme(), "# Hello");
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![
            readme, logo, stats, note, profile, bundle, review, countdown, greet, review_tool,
        ])
        .build();
    assert!(server.is_ok());
}
