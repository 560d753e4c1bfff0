//! A small MCP server, written with `#[mcp_tool]`:
//! `echo(text)` returns the text, `add(a, b)` returns `{"sum": a + b}` with
//! an output schema, `whoami()` says who the access token speaks for,
//! `sleep(ms)` waits and honours cancellation.
//!
//! Run it with `cargo run -p mcp-examples --bin echo-server` and type JSON-RPC
//! lines (see the README), or point any MCP client at it. With
//! `--http 127.0.0.1:PORT` it serves Streamable HTTP at `/mcp` instead;
//! add `--auth-issuer ISSUER_URL` to require access tokens from that
//! issuer (then `add` needs the scope `calc`, and `whoami` says who the
//! token speaks for). `--mount PREFIX=URL` (repeatable) serves another
//! server's tools and prompts as this one's, named `PREFIX_NAME`. It takes
//! every shared option (see the crate docs), `--state-key-file PATH` and
//! `--redis-url URL` too.

use std::time::Duration;

use mcp_examples::{Example, Flag};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::auth::Principal;
use mcp_toolkit_runtime::server::{RequestContext, Server, ToolError};
use schemars::JsonSchema;
use serde::Serialize;

/// Echo the text back unchanged.
///
/// # Arguments
///
/// * `text` - The text to echo.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

/// The result of `add`.
#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i64,
}

/// Add two integers.
///
/// # Arguments
///
/// * `a` - The first addend.
/// * `b` - The second addend.
#[mcp_tool(read_only, idempotent, scopes = ["calc"])]
fn add(a: i64, b: i64) -> Result<Sum, ToolError> {
    let sum = a
        .checked_add(b)
        .ok_or_else(|| ToolError::new("the sum overflows a 64-bit integer"))?;
    Ok(Sum { sum })
}

/// Who the caller is, as its access token says.
#[derive(Serialize, JsonSchema)]
struct Identity {
    /// The token's subject; absent without authorization.
    subject: Option<String>,
    /// The OAuth client the token was issued to.
    client_id: Option<String>,
    /// The granted scopes.
    scopes: Vec<String>,
}

/// Say who the caller is, as the verified access token says (nothing on a
/// server without authorization).
#[mcp_tool(read_only, idempotent)]
fn whoami(principal: Option<Principal>) -> Identity {
    let principal = principal.unwrap_or_default();
    Identity {
        subject: principal.subject,
        client_id: principal.client_id,
        scopes: principal.scopes.into_iter().collect(),
    }
}

/// The longest `sleep` accepted, in milliseconds.
const MAX_SLEEP_MS: u64 = 60_000;

/// Wait for `ms` milliseconds, then answer.
///
/// Lets tests and demos see concurrency and cancellation.
///
/// # Arguments
///
/// * `ms` - How long to wait, at most 60000.
#[mcp_tool]
async fn sleep(ms: u64, context: RequestContext) -> Result<String, ToolError> {
    if ms > MAX_SLEEP_MS {
        return Err(ToolError::new(format!("`ms` is at most {MAX_SLEEP_MS}")));
    }
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => Ok(format!("slept {ms} ms")),
        () = context.cancelled() => Err(ToolError::new("cancelled")),
    }
}

/// Every shared option: this is the server that shows them all.
const EXAMPLE: Example = Example {
    name: env!("CARGO_BIN_NAME"),
    flags: &[
        Flag::Http,
        Flag::StateKeyFile,
        Flag::AuthIssuer,
        Flag::Mount,
        Flag::RedisUrl,
    ],
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_examples::init_logging();
    let command_line = EXAMPLE.command_line()?;
    let builder = Server::builder(mcp_toolkit_runtime::server_info!())
        .instructions("Echoes text and adds integers.")
        .register(mcp_toolkit_runtime::definitions![echo, add, whoami, sleep]);
    command_line.serve(builder).await
}
