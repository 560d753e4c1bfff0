//! `echo-server`'s tools written the idiomatic rmcp 3.x way (`#[tool_router]`,
//! `#[tool]`, `#[tool_handler]`), served over stdio.
//!
//! `echo(text)` returns the text as a text content block; `add(a, b)` returns
//! `Json<Sum>`, i.e. `structuredContent: {"sum": a + b}` plus its text copy,
//! and advertises the output schema.
//!
//! Transport: by default `rmcp::transport::stdio()` (the documented one, which
//! runs every read and write on Tokio's blocking pool, like `echo-server`);
//! `--pipes` uses `rmcp::transport::stdio_pipes()`, rmcp's non-blocking Linux
//! FIFO transport (falls back to `stdio()` when stdin/stdout are not pipes).

use rmcp::{
    Json, ServerHandler, ServiceExt,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to echo.
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i64,
}

#[derive(Clone)]
struct EchoServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl EchoServer {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    /// Echo the text back unchanged.
    #[tool]
    async fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }

    /// Add two integers.
    #[tool]
    async fn add(
        &self,
        Parameters(AddArgs { a, b }): Parameters<AddArgs>,
    ) -> Result<Json<Sum>, String> {
        a.checked_add(b)
            .map(|sum| Json(Sum { sum }))
            .ok_or_else(|| "the sum overflows a 64-bit integer".to_owned())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for EchoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rmcp-echo", env!("CARGO_PKG_VERSION")))
            .with_instructions("Echoes text and adds integers.")
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pipes = std::env::args().skip(1).any(|a| a == "--pipes");
    let service = if pipes {
        EchoServer::new().serve(rmcp::transport::stdio_pipes()).await?
    } else {
        EchoServer::new().serve(rmcp::transport::stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}
