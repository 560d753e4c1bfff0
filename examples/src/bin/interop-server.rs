//! The server the interop and scale-out tests drive: tools that report
//! progress, ask the client for input, mirror arguments into headers, and
//! say which instance served them.
//!
//! - `count(steps)` reports progress `1..=steps` (at most 100), then
//!   answers `counted N`;
//! - `survey()` asks the user (elicitation) for a name, then for a colour,
//!   and answers `NAME likes COLOUR`; every question and the answer name the
//!   instance that produced them (`[INSTANCE] ...`), so a client can see
//!   which instance served each round of a 2026-07-28 multi-round-trip call;
//! - `whoami()` answers the instance name;
//! - `forecast(region, days)` mirrors both arguments into `Mcp-Param-Region`
//!   and `Mcp-Param-Days` (`x-mcp-header`).
//!
//! The instance name comes from the environment variable
//! `MCP_INSTANCE_NAME` (default `interop-server`). Takes the shared options
//! (see the crate docs) `--http ADDR`, `--state-key-file PATH`,
//! `--auth-issuer ISSUER_URL [--resource URL]` and `--redis-url URL`.

use std::sync::OnceLock;

use mcp_examples::{Example, Flag};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::protocol::{ElicitAction, ElicitRequestParams, ElicitValue};
use mcp_toolkit_runtime::server::{Progress, RequestContext, Server, ToolError};

/// The most progress steps `count` takes.
const MAX_STEPS: u32 = 100;

/// This process's name, from `MCP_INSTANCE_NAME`.
fn instance() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        std::env::var("MCP_INSTANCE_NAME").unwrap_or_else(|_| "interop-server".to_owned())
    })
}

/// Count to `steps`, reporting progress at every step.
///
/// # Arguments
///
/// * `steps` - How many steps, 1 to 100.
#[mcp_tool]
async fn count(steps: u32, progress: Progress) -> Result<String, ToolError> {
    if !(1..=MAX_STEPS).contains(&steps) {
        return Err(ToolError::new(format!("`steps` is 1 to {MAX_STEPS}")));
    }
    for step in 1..=steps {
        let message = format!("step {step} of {steps}");
        progress
            .report(f64::from(step), Some(f64::from(steps)), Some(&message))
            .await;
    }
    Ok(format!("counted {steps}"))
}

/// Ask the user for a name and a favourite colour.
#[mcp_tool]
async fn survey(context: RequestContext) -> Result<String, ToolError> {
    let name = ask(&context, "name", "What is your name?").await?;
    let colour = ask(&context, "colour", "What is your favourite colour?").await?;
    Ok(format!("[{}] {name} likes {colour}", instance()))
}

/// One form question with a single string field `field`.
async fn ask(context: &RequestContext, field: &str, question: &str) -> Result<String, ToolError> {
    let params: ElicitRequestParams = serde_json::from_value(serde_json::json!({
        "message": format!("[{}] {question}", instance()),
        "requestedSchema": {
            "type": "object",
            "properties": {field: {"type": "string"}},
            "required": [field]
        }
    }))?;
    let result = context.elicit(params).await?;
    if result.action != ElicitAction::Accept {
        return Err(ToolError::new(format!(
            "the user declined to give a {field}"
        )));
    }
    match result.content.and_then(|mut c| c.remove(field)) {
        Some(ElicitValue::String(answer)) => Ok(answer),
        _ => Err(ToolError::new(format!("no {field} in the answer"))),
    }
}

/// Name the instance that serves the call.
#[mcp_tool(read_only)]
fn whoami() -> String {
    instance().to_owned()
}

/// Forecast the weather of a region, a number of days ahead.
///
/// # Arguments
///
/// * `region` - Where.
/// * `days` - How many days ahead.
#[mcp_tool(read_only)]
fn forecast(#[mcp(header = "Region")] region: String, #[mcp(header = "Days")] days: i64) -> String {
    format!("sunny in {region} for {days} days")
}

/// The shared options this server acts on; not `--mount`: the tests that
/// drive it need exactly these tools.
const EXAMPLE: Example = Example {
    name: env!("CARGO_BIN_NAME"),
    flags: &[
        Flag::Http,
        Flag::StateKeyFile,
        Flag::AuthIssuer,
        Flag::RedisUrl,
    ],
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_examples::init_logging();
    let command_line = EXAMPLE.command_line()?;
    let builder = Server::builder(mcp_toolkit_runtime::server_info!()).register(
        mcp_toolkit_runtime::definitions![count, survey, whoami, forecast],
    );
    command_line.serve(builder).await
}
